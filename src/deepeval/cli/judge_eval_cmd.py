"""``deepeval judge-eval FILE.jsonl --metric M``: agreement of the configured judge with your labels.

The judge is the one the metrics would use (``--eval-mode`` / ``DEEPEVAL_EVAL_MODE``, ``--model`` or the LLM
settings, ``--system-one-model`` or the System One settings; with nothing configured, the embedded offline judge).
Exit codes: 0 after a report (also when some units failed: they are counted in it), 1 when the summary was printed
but a ``--json`` / ``--html`` file could not be written at the end (one line each; the other file is still written),
2 for a bad file, option, judge configuration or an output path that can never be written (checked before judging).
"""

from __future__ import annotations

from pathlib import Path

import typer

from deepeval.cli._echo import echo
from deepeval.cli.app import app
from deepeval.judge_eval import tasks


@app.command("judge-eval")
def judge_eval_cmd(
    path: Path = typer.Argument(..., help="Labelled items, one JSON object a line (docs/judge_eval.md)."),
    metric: str = typer.Option(..., "--metric", "-m", help=" | ".join(tasks.names())),
    html_out: Path | None = typer.Option(None, "--html", help="Write a self-contained HTML report here."),
    json_out: Path | None = typer.Option(
        None, "--json", help="Write the summary and every judged unit here."
    ),
    limit: int | None = typer.Option(None, "--limit", min=1, help="Judge only the first N items."),
    eval_mode: str | None = typer.Option(None, "--eval-mode", help="llm | hybrid | system_one"),
    model: str | None = typer.Option(None, "--model", help="LLM judge name (OpenAI or the local model)."),
    system_one_model: str | None = typer.Option(
        None, "--system-one-model", help="System One model name ('embedded' for the offline judge)."
    ),
    max_concurrent: int = typer.Option(4, "--max-concurrent", min=1, help="Items judged at once."),
) -> None:
    """Judge the labelled items in PATH and print agreement, AUROC, Brier, ECE, confusion, tags and latency."""
    from deepeval._concurrency import run_sync
    from deepeval.errors import DeepEvalError
    from deepeval.judge_eval import report
    from deepeval.judge_eval.runners import a_run
    from deepeval.judge_eval.tasks import load_items

    if metric not in tasks.names():
        echo(
            f"deepeval judge-eval: --metric must be one of {', '.join(tasks.names())}; got {metric!r}",
            err=True,
        )
        raise typer.Exit(2)
    outputs = [
        (option, out) for option, out in (("--json", json_out), ("--html", html_out)) if out is not None
    ]
    _check_outputs(outputs)
    try:
        items = load_items(path, metric, limit=limit)
        run = run_sync(
            a_run(
                metric,
                items,
                eval_mode=eval_mode,
                model=model,
                system_one_model=system_one_model,
                max_concurrent=max_concurrent,
            )
        )
    except (DeepEvalError, ValueError) as err:
        echo(f"deepeval judge-eval: {err}", err=True)
        raise typer.Exit(2) from None
    summary = report.summarize(run)
    echo(report.render_text(summary))
    failed = False
    for option, out in outputs:
        text = report.to_json(run, summary) if option == "--json" else report.to_html(run, summary)
        try:
            report.write(out, text)
        except (
            OSError
        ) as err:  # disk full, folder removed mid-run: the summary above stands, the next file is tried
            echo(f"deepeval judge-eval: cannot write {option} {out}: {err.strerror or err}", err=True)
            failed = True
            continue
        echo(f"wrote {out}")
    if failed:
        raise typer.Exit(1)


def _check_outputs(outputs: list[tuple[str, Path]]) -> None:
    """Exit 2 before any judging when an output file could never be written (a directory, a symbolic link, a
    folder that cannot be made), or when ``--json`` and ``--html`` name one file."""
    from deepeval._safe_path import check_writable_file

    if len(outputs) == 2 and outputs[0][1].expanduser().resolve() == outputs[1][1].expanduser().resolve():
        echo(
            f"deepeval judge-eval: --json and --html both name {outputs[0][1]}; give each its own file",
            err=True,
        )
        raise typer.Exit(2)
    for option, out in outputs:
        try:
            check_writable_file(out.expanduser(), option)
        except OSError as err:
            echo(f"deepeval judge-eval: {err}", err=True)
            raise typer.Exit(2) from None
