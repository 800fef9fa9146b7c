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
    _survive_closed_pipe()


class _PipeSafeStdout:
    """``sys.stdout`` / ``sys.stderr`` for the CLI: when the reader of a pipe goes away (``deepeval ... | head -1``,
    ``2>&1 | true``), the rest of the output is dropped instead of a BrokenPipeError ending the command before it
    writes its report files."""

    def __init__(self, inner: object) -> None:
        self._inner = inner
        self._gone = False

    def write(self, text: str) -> int:
        if not self._gone:
            try:
                return int(self._inner.write(text))  # type: ignore[attr-defined]
            except BrokenPipeError:
                self._drop()
        return len(text)

    def flush(self) -> None:
        if not self._gone:
            try:
                self._inner.flush()  # type: ignore[attr-defined]
            except BrokenPipeError:
                self._drop()

    def _drop(self) -> None:
        self._gone = True
        import os

        try:  # the interpreter flushes the stream again at exit: point its fd at /dev/null so it finds no pipe
            fd = self._inner.fileno()  # type: ignore[attr-defined]
            if fd in (1, 2):
                os.dup2(os.open(os.devnull, os.O_WRONLY), fd)
        except (OSError, ValueError, AttributeError):
            pass

    def __getattr__(self, name: str) -> object:
        return getattr(self._inner, name)


def _survive_closed_pipe() -> None:
    import sys

    if not isinstance(sys.stdout, _PipeSafeStdout):
        sys.stdout = _PipeSafeStdout(sys.stdout)  # type: ignore[assignment]
    if not isinstance(sys.stderr, _PipeSafeStdout):  # the progress bar writes here (`2>&1 | true`)
        sys.stderr = _PipeSafeStdout(sys.stderr)  # type: ignore[assignment]
