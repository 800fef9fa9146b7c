"""The one way our commands print a line: :func:`typer.echo` of the text made safe for a terminal.

Messages carry data we do not control (file names and contents, test-case names, settings values, server replies):
:func:`deepeval._safe_text.terminal` shows their control characters and escape sequences as visible escapes.
"""

from __future__ import annotations

import typer

from deepeval._safe_text import terminal


def echo(message: object = "", err: bool = False, nl: bool = True) -> None:
    """Print ``message`` (line breaks and tabs kept, every other control character shown as an escape)."""
    typer.echo(terminal(message), err=err, nl=nl)
