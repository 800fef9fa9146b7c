"""``deepeval`` CLI entry point. Sub-commands live in their own modules and register here."""

from __future__ import annotations

import typer

from deepeval import __version__

app = typer.Typer(
    name="deepeval",
    help="Evaluate LLM applications with LLM, hybrid and System One judges (offline by default).",
    no_args_is_help=True,
    add_completion=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"deepeval {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version."
    ),
) -> None:
    """deepeval command line."""


def _register() -> None:
    # Each module adds its commands to ``app``; a missing optional module must not break the others.
    import importlib

    names = (
        "settings_cmds",
        "test_run",
        "memory_cmds",
        "memory_run_cmds",
        "evaluate_cmd",
        "compare_cmd",
        "judge_eval_cmd",
        "quickstart",
        "view_cmd",
    )
    for name in names:
        try:
            importlib.import_module(f"deepeval.cli.{name}")
        except ModuleNotFoundError as err:
            if err.name != f"deepeval.cli.{name}":
                raise


_register()

if __name__ == "__main__":
    app()
