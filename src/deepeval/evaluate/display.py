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

            self._progress = RichProgress(
                TextColumn("[bold]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[counts]}"),
                TimeElapsedColumn(),
                TextColumn("ETA"),
                TimeRemainingColumn(),
                console=Console(stderr=True),
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


def _fmt(value: float | None, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


#: reason length in the table: passing rows when ``truncate_passing_cases`` (deepeval's 50), and every other row
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
        return [t for t in result.test_results if not t.success]
    if option is TestRunResultDisplay.PASSING:
        return [t for t in result.test_results if t.success]
    return list(result.test_results)


#: test cases per table chunk: rich lays out a whole table in memory (~24 KB per test case of 3 rows), so a long
#: run is printed as consecutive tables of this many test cases (one header), keeping the peak flat in N.
TABLE_CHUNK = 100


def results_renderables(
    result: EvaluationResult,
    option: TestRunResultDisplay = TestRunResultDisplay.ALL,
    truncate_passing_cases: bool = True,
) -> Iterator[Any]:
    """rich renderables, built lazily: the per-row table (test cases chosen by ``option``, in chunks of
    :data:`TABLE_CHUNK` test cases; only the first has the title and header), then the per-metric summary and the
    totals line. Reasons are cut short (passing rows of passing test cases to :data:`PASSING_REASON_LIMIT`
    characters, others to :data:`REASON_LIMIT`); ``truncate_passing_cases=False`` shows every reason whole."""
    from rich.table import Table
    from rich.text import Text

    selected = _selected(result, option)
    for start in range(0, max(1, len(selected)), TABLE_CHUNK):
        first = start == 0
        table = Table(
            title=f"Test results ({option.value})" if first else None,
            show_header=first,
            show_lines=False,
            expand=False,
        )
        table.add_column("Test case", overflow="fold", ratio=2)
        table.add_column("Metric", overflow="fold", ratio=2)
        table.add_column("Score", no_wrap=True)
        table.add_column("Threshold", no_wrap=True)
        table.add_column("Status", no_wrap=True)
        table.add_column("Judge", overflow="fold", ratio=1)
        table.add_column("Reason / error", overflow="fold", ratio=4)
        for t in selected[start : start + TABLE_CHUNK]:
            for n, m in enumerate(t.metrics_data):
                label, style = _STATUS_STYLE[m.status]
                score = _fmt(m.score)
                if m.repeat is not None:
                    score += f" ±{_fmt(m.repeat.std)}\nk={m.repeat.k} pass {_fmt(m.repeat.pass_rate, 2)}"
                table.add_row(
                    _text(t.name if n == 0 else ""),
                    _text(m.name + (" (flaky)" if m.flaky else "")),
                    score,
                    _fmt(m.threshold, 2),
                    Text(label, style=style),
                    _text(m.evaluation_model or "-"),
                    _text(_short(m.error or m.reason, _reason_limit(t, m, truncate_passing_cases))),
                )
        yield table
    summary = Table(title="Metrics", expand=False)
    for col in ("Metric", "Rows", "Mean score", "Pass rate", "Errors", "Skipped", "Judges"):
        summary.add_column(col, overflow="fold")
    for name, s in result.metric_summary().items():
        summary.add_row(
            _text(name),
            str(s["rows"]),
            _fmt(s["mean_score"]),
            "-" if s["pass_rate"] is None else f"{100 * s['pass_rate']:.1f}%",
            str(s["errors"]),
            str(s["skipped"]),
            _text(", ".join(s["judges"]) or "-"),
        )
    tot = result.totals()
    cost = "unknown" if tot["cost_usd"] is None else f"${tot['cost_usd']:.6f}"
    yield summary
    footer = Text(
        f"{tot['test_cases_passed']}/{tot['test_cases']} test cases passed; rows: {tot['passed']} passed, "
        f"{tot['failed']} failed, {tot['errors']} errors, {tot['skipped']} skipped; cost {cost}; "
        f"tokens {tot['input_tokens']} in / {tot['output_tokens']} out; retries {tot['retries']}; "
        f"cache hits {tot['cache_hits']}"
        + (f"; {result.duration_s:.2f} s" if result.duration_s is not None else "")
    )
    yield footer


def _reason_limit(t: TestResult, m: Any, truncate_passing_cases: bool) -> int | None:
    if not truncate_passing_cases:
        return None
    return PASSING_REASON_LIMIT if t.success and m.status == "passed" else REASON_LIMIT


def render_results(
    result: EvaluationResult,
    option: TestRunResultDisplay = TestRunResultDisplay.ALL,
    width: int = 120,
    truncate_passing_cases: bool = True,
) -> str:
    """The results table as plain text (no colour codes), ``width`` columns wide."""
    from rich.console import Console

    buf = io.StringIO()
    console = Console(file=buf, width=width, color_system=None, force_terminal=False, highlight=False)
    for r in results_renderables(result, option, truncate_passing_cases):
        console.print(r)
    return buf.getvalue()


def print_results(
    result: EvaluationResult,
    option: TestRunResultDisplay = TestRunResultDisplay.ALL,
    truncate_passing_cases: bool = True,
) -> None:
    """Print the results table on stdout."""
    from rich.console import Console

    console = Console(file=sys.stdout, highlight=False)
    for r in results_renderables(result, option, truncate_passing_cases):
        console.print(r)
