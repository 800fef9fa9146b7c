"""``deepeval view [RUN]``: open a run's HTML report (the latest run by default), or print its failing test cases.

RUN is a run's JSON export or HTML report, a folder of exports (the newest), or a run id / identifier that a file
name in ``DEEPEVAL_RESULTS_FOLDER`` holds; without RUN, the latest run (``.deepeval/latest_run.json``). The report's
path is always printed; where no browser can be started (a server, a container, SSH) that line is the way to it.
``--failing`` prints every failing and errored test case in full instead (inputs, outputs or the turns judged as
forgetting, every failing row's whole reason or error). Exit code 0, or 2 when no run is found.
"""

from __future__ import annotations

import typer

from deepeval.cli._echo import echo
from deepeval.cli.app import app


@app.command("view")
def view(
    run: str | None = typer.Argument(
        None, help="Run export (.json), report (.html), folder, or run id; default: the latest run."
    ),
    failing: bool = typer.Option(
        False, "--failing", help="Print the failing test cases in full here instead of opening the report."
    ),
    no_open: bool = typer.Option(
        False, "--no-open", help="Print the report's path without opening a browser."
    ),
) -> None:
    """Open the latest (or a named) run's HTML report in a browser, or print its failing test cases in full."""
    from deepeval._safe_text import terminal
    from deepeval.evaluate.display import print_failing
    from deepeval.evaluate.latest import RunNotFound, find_run, html_for, load_run, open_in_browser

    try:
        json_path, html_path = find_run(run)
        if failing:
            if json_path is None:
                raise RunNotFound(f"{html_path}: --failing needs the run's JSON export beside it")
            result = load_run(json_path)
            if print_failing(result) == 0:
                echo(f"no failing or errored test case in {terminal(str(json_path), one_line=True)}")
            return
        if html_path is None:
            assert json_path is not None
            html_path = html_for(json_path)
    except (RunNotFound, OSError) as err:
        echo(f"deepeval view: {terminal(str(err))}", err=True)
        raise typer.Exit(2) from None
    shown = terminal(str(html_path.resolve()), one_line=True)
    if no_open or not open_in_browser(html_path):
        echo(f"report: {shown}" + ("" if no_open else " (no browser found here: open this file)"))
        return
    echo(f"report: {shown} (opened in the browser)")
