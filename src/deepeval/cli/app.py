"""The ``deepeval`` typer app and its ``--version`` option. Sub-command modules add their commands to :data:`app`;
:mod:`deepeval.cli.main` (the entry point) imports them, so no sub-command module imports the entry point."""

from __future__ import annotations

import typer

from deepeval._version import __version__

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
