"""Console output of a run: a live progress bar (rich, on stderr) and the results table (rich, on stdout).

rich is imported only when something is shown, so importing :mod:`deepeval.evaluate` stays cheap.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator
from types import TracebackType
from typing import Any

from deepeval.evaluate.configs import TestRunResultDisplay
from deepeval.evaluate.results import EvaluationResult, MetricData, TestResult
from deepeval.test_case._encodable import encodable

_STATUS_STYLE = {
    "passed": ("PASS", "green"),
    "failed": ("FAIL", "red"),
    "error": ("ERROR", "bold red"),
    "skipped": ("SKIP", "yellow"),
    "scored": ("SCORE", "cyan"),
}


class Progress:
    """Live progress over ``total`` metric rows: done / total, passed, failed, errors, elapsed and ETA.

    Use as a context manager; :meth:`advance` is called once per finished row (thread-safe through rich).
    Does nothing when ``enabled`` is False.
    """

    def __init__(self, total: int, enabled: bool, description: str = "Evaluating") -> None:
        self.total = total
        self.enabled = enabled and total > 0
        self.description = description
        self.counts = {"passed": 0, "failed": 0, "error": 0, "skipped": 0, "scored": 0}
        self._progress: Any = None
        self._task: Any = None

    def __enter__(self) -> Progress:
        if self.enabled:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )
            from rich.progress import Progress as RichProgress

            console = Console(stderr=True)
            if console.is_jupyter and not _has_ipywidgets():
                # rich's live bar needs ipywidgets in a notebook (it warns without them): no bar there
                self.enabled = False
                return self
            self._progress = RichProgress(
                TextColumn("[bold]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[counts]}"),
                TimeElapsedColumn(),
                TextColumn("ETA"),
                TimeRemainingColumn(),
                console=console,
                transient=False,
            )
            self._progress.__enter__()
            self._task = self._progress.add_task(
                self.description, total=self.total, counts=self._counts_text()
            )
        return self

    def _counts_text(self) -> str:
        c = self.counts
        return f"pass {c['passed']} fail {c['failed']} err {c['error']} skip {c['skipped']}"

    def advance(self, row: MetricData) -> None:
        self.counts[row.status] = self.counts.get(row.status, 0) + 1
        if self._progress is not None:
            self._progress.update(self._task, advance=1, counts=self._counts_text())

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._progress is not None:
            self._progress.__exit__(exc_type, exc, tb)


def _has_ipywidgets() -> bool:
    try:
        import ipywidgets  # noqa: F401
    except ImportError:
        return False
    return True


def _fmt(value: float | None, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


#: characters of a reason in the table: passing rows of passing test cases, and the others (``DisplayConfig(
#: truncate_passing_cases=False)`` or ``show_full_reason=True``: no cut)
PASSING_REASON_LIMIT = 50
REASON_LIMIT = 120


def _short(text: str | None, limit: int | None = REASON_LIMIT) -> str:
    """The first line of ``text``, whitespace collapsed, cut to ``limit`` characters; None: the whole text."""
    if not text:
        return ""
    if limit is None:
        return text.strip()
    text = " ".join(text.strip().splitlines()[0].split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _text(value: str) -> Any:
    """A rich ``Text`` of ``value`` that any console can encode: test-case names, metric names, judges, reasons and
    errors may hold lone surrogates (see :mod:`deepeval.test_case._encodable`), which a strict UTF-8 stdout refuses
    with ``UnicodeEncodeError`` after the whole run was measured; they are shown as U+FFFD."""
    from rich.text import Text

    return Text(encodable(value))


def _selected(result: EvaluationResult, option: TestRunResultDisplay) -> list[TestResult]:
    if option is TestRunResultDisplay.FAILING:
        return [t for t in result.test_results if t.status in ("failed", "error")]
    if option is TestRunResultDisplay.PASSING:
        return [t for t in result.test_results if t.status == "passed"]
    return list(result.test_results)


#: test cases per table chunk: rich lays out a whole table in memory (~24 KB per test case of 3 rows), so a long
#: run is printed as consecutive tables of this many test cases (one header), keeping the peak flat in N.
TABLE_CHUNK = 100
#: failing test cases shown with an input / output excerpt under the table (the rest are in the table and files)
FAILING_DETAILS = 20
#: characters of an input / output excerpt under the table
EXCERPT_CHARS = 160


def judge_aliases(result: EvaluationResult) -> dict[str, str]:
    """``{judge name: "J1", ...}`` in order of first appearance, so the table names each judge with a short alias
    and the full names are printed once under it."""
    aliases: dict[str, str] = {}
    for m in result.metric_rows():
        if m.evaluation_model and m.evaluation_model not in aliases:
            aliases[m.evaluation_model] = f"J{len(aliases) + 1}"
    return aliases


def summary_line(result: EvaluationResult) -> str:
    """The totals: test cases by status (passed / failed / errored / skipped) and rows on one line; cost, tokens,
    retries, cache hits and wall time on the next (each short enough not to wrap in a wide terminal)."""
    tot = result.totals()
    cost = "unknown" if tot["cost_usd"] is None else f"${tot['cost_usd']:.6f}"
    return (
        f"{tot['test_cases_passed']}/{tot['test_cases']} test cases passed, {tot['test_cases_failed']} failed, "
        f"{tot['test_cases_errored']} errored, {tot['test_cases_skipped']} skipped; rows: {tot['passed']} passed, "
        f"{tot['failed']} failed, {tot['errors']} errors, {tot['skipped']} skipped"
        + (f", {tot['skipped_metrics']} left out (missing parameters)" if tot["skipped_metrics"] else "")
        + f"\ncost {cost}; "
        f"tokens {tot['input_tokens']} in / {tot['output_tokens']} out; retries {tot['retries']}; "
        f"cache hits {tot['cache_hits']}"
        + (f"; {result.duration_s:.2f} s" if result.duration_s is not None else "")
    )


def _reason(m: MetricData, full: bool, limit: int | None = REASON_LIMIT) -> str:
    return _short(m.error or m.reason, None if full else limit)


def _reason_limit(t: TestResult, m: MetricData, truncate_passing_cases: bool) -> int | None:
    if not truncate_passing_cases:
        return None
    return PASSING_REASON_LIMIT if t.status == "passed" and m.status == "passed" else REASON_LIMIT


def _score_text(m: MetricData) -> str:
    score = _fmt(m.score)
    if m.repeat is not None:
        score += f" ±{_fmt(m.repeat.std)}\nk={m.repeat.k} pass {_fmt(m.repeat.pass_rate, 2)}"
    return score


def _results_table(
    cases: list[TestResult],
    aliases: dict[str, str],
    title: str | None,
    full_reason: bool,
    truncate_passing_cases: bool,
) -> Any:
    from rich.table import Table
    from rich.text import Text

    table = Table(title=title, show_header=title is not None, show_lines=False, expand=False)
    table.add_column("Test case", overflow="fold", ratio=2)
    table.add_column("Metric", overflow="fold", ratio=2)
    table.add_column("Score", no_wrap=True)
    table.add_column("Thr", no_wrap=True)
    table.add_column("Status", no_wrap=True)
    table.add_column("Judge", no_wrap=True)
    table.add_column("Reason / error", overflow="fold", ratio=4)
    for t in cases:
        rows = t.metrics_data + (t.skipped_metrics or [])
        if (
            not rows
        ):  # a golden of component-level evaluation without trace-level metrics: its trace's outcome
            label, style = _STATUS_STYLE[t.status]
            table.add_row(
                _text(t.name), "-", "-", "-", Text(label, style=style), "-", "(no trace-level metrics)"
            )
        for n, m in enumerate(rows):
            label, style = _STATUS_STYLE[m.status]
            table.add_row(
                _text(_case_label(t) if n == 0 else ""),
                _text(m.name + (" (flaky)" if m.flaky else "")),
                _score_text(m),
                _fmt(m.threshold, 2),
                Text(label, style=style),
                _text(aliases.get(m.evaluation_model or "", "-")),
                _text(_reason(m, full_reason, _reason_limit(t, m, truncate_passing_cases))),
            )
    return table


def _case_label(t: TestResult) -> str:
    """The test case's name; a span of component-level evaluation also says its type."""
    return t.name if t.span_type is None else f"{t.name} [{t.span_type} span]"


def _case_excerpt(t: TestResult) -> list[tuple[str, str]]:
    """``(label, excerpt)`` of what a failing test case was given and answered."""
    if t.conversational:
        turns = t.turns or []
        last_user = next((x for x in reversed(turns) if x.get("role") == "user"), None)
        last_bot = next((x for x in reversed(turns) if x.get("role") == "assistant"), None)
        out = [("turns", str(len(turns)))]
        if last_user:
            out.append(("last user", _short(str(last_user.get("content", "")), EXCERPT_CHARS)))
        if last_bot:
            out.append(("last assistant", _short(str(last_bot.get("content", "")), EXCERPT_CHARS)))
        return out
    return [
        ("input", _short(t.input, EXCERPT_CHARS) or "-"),
        ("output", _short(t.actual_output, EXCERPT_CHARS) or "-"),
    ]


def _failing_details(cases: list[TestResult], aliases: dict[str, str], full_reason: bool) -> Iterator[Any]:
    """An excerpt of the input and output of each failing (or errored) test case, with its failing rows."""
    from rich.text import Text

    failing = [t for t in cases if t.status in ("failed", "error")]
    if not failing:
        return
    yield Text("Failing test cases", style="bold")
    for t in failing[:FAILING_DETAILS]:
        lines = Text()
        lines.append(encodable(f"{_STATUS_STYLE[t.status][0]} {t.name}\n"), style="red")
        for label, text in _case_excerpt(t):
            lines.append(encodable(f"  {label}: {text}\n"))
        for m in t.metrics_data:
            if m.status not in ("failed", "error") or m.flaky:
                continue
            judge = aliases.get(m.evaluation_model or "", "-")
            lines.append(
                encodable(f"  {m.name} {_fmt(m.score)} (threshold {_fmt(m.threshold, 2)}, {judge}): ")
            )
            lines.append(encodable(_reason(m, full_reason, 300) or "-"))
            lines.append("\n")
        lines.rstrip()
        yield lines
    if len(failing) > FAILING_DETAILS:
        yield Text(f"... and {len(failing) - FAILING_DETAILS} more failing test cases (all are in the table)")


def results_renderables(
    result: EvaluationResult,
    option: TestRunResultDisplay = TestRunResultDisplay.ALL,
    truncate_passing_cases: bool = True,
    full_reason: bool = False,
) -> Iterator[Any]:
    """rich renderables, built lazily: the per-row table (test cases chosen by ``option``, in chunks of
    :data:`TABLE_CHUNK` test cases; only the first has the title and header; judges as short aliases), the judges
    named once, an input / output excerpt of the failing test cases, the per-metric summary and the totals line.
    Reasons are cut to their first line (passing rows of passing test cases to :data:`PASSING_REASON_LIMIT`
    characters, others to :data:`REASON_LIMIT`); ``truncate_passing_cases=False`` or ``full_reason`` shows every
    reason whole."""
    from rich.table import Table
    from rich.text import Text

    aliases = judge_aliases(result)
    selected = _selected(result, option)
    for start in range(0, max(1, len(selected)), TABLE_CHUNK):
        title = f"Test results ({option.value})" if start == 0 else None
        yield _results_table(
            selected[start : start + TABLE_CHUNK], aliases, title, full_reason, truncate_passing_cases
        )
    if aliases:
        yield _text("Judges:\n" + "\n".join(f"  {a} = {name}" for name, a in aliases.items()))
    yield from _failing_details(selected, aliases, full_reason)
    summary = Table(title="Metrics", expand=False)
    for col in ("Metric", "Rows", "Mean", "Pass rate", "Errors", "Skipped", "Judges"):
        summary.add_column(col, overflow="fold")
    for name, s in result.metric_summary().items():
        summary.add_row(
            _text(name),
            str(s["rows"]),
            _fmt(s["mean_score"]),
            "-" if s["pass_rate"] is None else f"{100 * s['pass_rate']:.1f}%",
            str(s["errors"]),
            str(s["skipped"]),
            _text(", ".join(aliases.get(j, j) for j in s["judges"]) or "-"),
        )
    yield summary
    yield Text(summary_line(result))


def render_results(
    result: EvaluationResult,
    option: TestRunResultDisplay = TestRunResultDisplay.ALL,
    width: int = 120,
    truncate_passing_cases: bool = True,
    full_reason: bool = False,
) -> str:
    """The results table as plain text (no colour codes), ``width`` columns wide."""
    from rich.console import Console

    buf = io.StringIO()
    console = Console(file=buf, width=width, color_system=None, force_terminal=False, highlight=False)
    for r in results_renderables(result, option, truncate_passing_cases, full_reason):
        console.print(r)
    return buf.getvalue()


def print_results(
    result: EvaluationResult,
    option: TestRunResultDisplay = TestRunResultDisplay.ALL,
    truncate_passing_cases: bool = True,
    full_reason: bool = False,
) -> None:
    """Print the results table on stdout."""
    from rich.console import Console

    console = Console(file=sys.stdout, highlight=False)
    for r in results_renderables(result, option, truncate_passing_cases, full_reason):
        console.print(r)
