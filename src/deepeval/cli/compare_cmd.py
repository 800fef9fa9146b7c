"""``deepeval compare RUN_A.json RUN_B.json [--html FILE]``: what changed between two run exports.

Exit code: 0 when no row that passed in A fails (or errors) in B, 1 when some does (a CI gate), 2 for usage errors
and unreadable or malformed files (one clear line, no traceback).
"""

from __future__ import annotations

import typer

from deepeval.cli._echo import echo
from deepeval.cli.app import app


@app.command("compare")
def compare(
    run_a: str = typer.Argument(
        ..., help="Baseline run export (JSON written by evaluate / deepeval evaluate)."
    ),
    run_b: str = typer.Argument(..., help="New run export to compare against the baseline."),
    html: str | None = typer.Option(None, "--html", help="Also write the comparison as an HTML page here."),
    seed: int = typer.Option(0, "--seed", help="Seed of the bootstrap interval."),
) -> None:
    """Per-row score changes, newly failing / passing rows, mean change per metric with a 95% interval."""
    import shutil

    from deepeval.evaluate.compare import compare_files, render_html, render_text

    try:
        cmp = compare_files(run_a, run_b, seed=seed)
    except ValueError as err:
        echo(f"deepeval compare: {err}", err=True)
        raise typer.Exit(2) from None
    echo(render_text(cmp, width=shutil.get_terminal_size((100, 24)).columns), nl=False)
    if html:
        from pathlib import Path

        from deepeval._files import write_text_atomic

        try:
            path = write_text_atomic(Path(html).expanduser(), render_html(cmp))
        except OSError as err:
            echo(f"deepeval compare: cannot write --html {html}: {err}", err=True)
            raise typer.Exit(2) from None
        echo(f"comparison written to {path}")
    raise typer.Exit(1 if cmp.newly_failing else 0)
