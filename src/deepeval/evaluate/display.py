"""Console output of a run: a live progress bar (rich, on stderr) and the results table (rich, on stdout).

rich is imported only when something is shown, so importing :mod:`deepeval.evaluate` stays cheap.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterable, Iterator, Sequence
from types import TracebackType
from typing import Any

from deepeval._safe_text import terminal
from deepeval.evaluate.configs import TestRunResultDisplay
from deepeval.evaluate.results import EvaluationResult, MetricData, TestResult

_STATUS_STYLE = {
    "passed": ("PASS", "green"),
    "failed": ("FAIL", "red"),
    "error": ("ERROR", "bold red"),
    "skipped": ("SKIP", "yellow"),
    "scored": ("SCORE", "cyan"),
}


class Progress:
    """Live progress over ``cases`` test cases: test cases done / total and how many passed, failed, errored or
    were skipped (counted as the summary under the table counts them), elapsed time and ETA.

    Use as a context manager; :meth:`advance` is called once per finished metric row (thread-safe through rich)
    with the row's test-case index; a test case counts as done when its ``rows_per_case`` rows are in (one number
    for all, or one per test case when their metric lists differ, as in component-level evaluation), with the
    status :func:`~deepeval.evaluate.results.case_status` gives its rows. Does nothing when ``enabled`` is False.
    """

    def __init__(
        self,
        cases: int,
        rows_per_case: int | Sequence[int],
        enabled: bool,
        description: str = "Evaluating",
    ) -> None:
        self.total = cases
        self.rows_per_case = rows_per_case
        self.enabled = enabled and cases > 0
        self.description = description
        self.counts = {"passed": 0, "failed": 0, "error": 0, "skipped": 0}
        self._pending: dict[int, list[MetricData]] = {}
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
                BarColumn(bar_width=10),
                MofNCompleteColumn(),
                TextColumn("test cases, {task.fields[counts]}"),
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
        extra = "".join(
            f" {c[k]} {word}" for k, word in (("error", "errored"), ("skipped", "skipped")) if c[k]
        )
        return f"{c['passed']} passed {c['failed']} failed{extra}"

    def advance(self, row: MetricData, case: int) -> None:
        """One finished row of the test case at input position ``case``."""
        from deepeval.evaluate.results import case_status

        rows = self._pending.setdefault(case, [])
        rows.append(row)
        expected = self.rows_per_case if isinstance(self.rows_per_case, int) else self.rows_per_case[case]
        if len(rows) < max(1, expected):
            return
        del self._pending[case]
        status = case_status(rows)
        self.counts[status] = self.counts.get(status, 0) + 1
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
#: below this many columns the results are a list (one line per passing row, the reason of any other row on the
#: lines under it at nearly the full width) instead of a table whose Reason column would be a few characters wide
NARROW_WIDTH = 120
#: the widest metric-name column of the narrow list
METRIC_COLUMN = 24


def _short(text: str | None, limit: int | None = REASON_LIMIT) -> str:
    """The first line of ``text``, whitespace collapsed, cut to ``limit`` characters; None: the whole text (control
    characters shown as escapes, see :mod:`deepeval._safe_text`)."""
    if not text:
        return ""
    if limit is None:
        return terminal(text.strip())
    text = " ".join(text.strip().splitlines()[0].split())
    text = terminal(text, one_line=True)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _text(value: str | None, style: str = "") -> Any:
    """A rich ``Text`` of ``value`` on one line, safe for any terminal: control characters and escape sequences
    shown as visible escapes (:func:`deepeval._safe_text.terminal`), lone surrogates as U+FFFD (a strict UTF-8
    stdout refuses them), rich markup not interpreted."""
    from rich.text import Text

    return Text(terminal(value, one_line=True), style=style)


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
    return (
        f"{tot['test_cases_passed']}/{tot['test_cases']} test cases passed, {tot['test_cases_failed']} failed, "
        f"{tot['test_cases_errored']} errored, {tot['test_cases_skipped']} skipped; rows: {tot['passed']} passed, "
        f"{tot['failed']} failed, {tot['errors']} errors, {tot['skipped']} skipped"
        + (f", {tot['skipped_metrics']} left out (missing parameters)" if tot["skipped_metrics"] else "")
        + f"\n{usage_words(tot)}; retries {tot['retries']}; "
        f"cache hits {tot['cache_hits']}"
        + (f"; {result.duration_s:.2f} s" if result.duration_s is not None else "")
    )


def usage_words(tot: dict[str, Any]) -> str:
    """The run's cost and tokens in words, from :meth:`EvaluationResult.totals`: ``cost $0.030540; tokens 30 in /
    15 out``; a total with unknown parts is a lower bound that says so (``cost >= $0.030000 (the cost of 3 of 6
    measures is unknown)``, ``tokens >= 30 in / 15 out (3 of 6 measures reported none)``), and one with no known
    part is ``unknown``."""
    if tot["cost_usd"] is None:
        cost = "cost unknown"
    elif tot["cost_partial"]:
        cost = (
            f"cost >= ${tot['cost_usd']:.6f} (the cost of {tot['cost_unknown_measures']} of "
            f"{tot['cost_measures']} measures is unknown)"
        )
    else:
        cost = f"cost ${tot['cost_usd']:.6f}"
    if tot["input_tokens"] is None:
        tokens = "tokens unknown"
    elif tot["tokens_partial"]:
        tokens = (
            f"tokens >= {tot['input_tokens']} in / {tot['output_tokens']} out ({tot['tokens_unknown_measures']} "
            f"of {tot['token_measures']} measures reported none)"
        )
    else:
        tokens = f"tokens {tot['input_tokens']} in / {tot['output_tokens']} out"
    return f"{cost}; {tokens}"


def failing_command(result: EvaluationResult) -> str | None:
    """The one command that prints this run's failing and errored test cases in full (``deepeval view --failing``
    on the run's JSON export, or on the run kept in ``.deepeval/runs/`` by its id), or None when no test case
    failed or errored, or the run was written nowhere."""
    import shlex

    if not any(t.status in ("failed", "error") for t in result.test_results):
        return None
    path = result.extras.get("json_path")
    if path:
        return f"deepeval view --failing {shlex.quote(terminal(path, one_line=True))}"
    if result.extras.get("latest_path") and result.run_id:
        return f"deepeval view --failing {result.run_id[:8]}"
    return None


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


def _lines(t: TestResult) -> list[MetricData | list[MetricData]]:
    """What a test case shows: each evaluated row, then its skipped rows together (one line for all of them)."""
    shown: list[MetricData | list[MetricData]] = [m for m in t.metrics_data if not m.skipped]
    skipped = [m for m in t.metrics_data if m.skipped] + list(t.skipped_metrics or [])
    if skipped:
        shown.append(skipped)
    return shown


def _skip_text(rows: list[MetricData]) -> tuple[str, str]:
    """``(metric names, reason)`` of a test case's skipped rows: the reasons said once each."""
    names = ", ".join(m.name for m in rows)
    reasons = list(dict.fromkeys(" ".join((m.reason or "skipped").split()) for m in rows))
    return names, "; ".join(reasons)


class _ResultsView:
    """The rows of some test cases, laid out for the width they are printed at: a table from
    :data:`NARROW_WIDTH` columns, below it a list (see :meth:`_list`). Skipped rows of a test case share one line;
    the judge column is left out when one judge did everything (it is named under the table)."""

    def __init__(
        self,
        cases: list[TestResult],
        aliases: dict[str, str],
        title: str | None,
        full_reason: bool,
        truncate_passing_cases: bool,
    ) -> None:
        self.cases = cases
        self.aliases = aliases
        self.title = title
        self.full_reason = full_reason
        self.truncate = truncate_passing_cases
        self.judge_column = len(aliases) > 1

    def __rich_console__(self, console: Any, options: Any) -> Iterator[Any]:
        if options.max_width >= NARROW_WIDTH:
            yield self._table()
        else:
            yield from self._list(console, options.max_width)

    def _judge(self, m: MetricData) -> str:
        return self.aliases.get(m.evaluation_model or "", "-")

    def _table(self) -> Any:
        from rich.table import Table
        from rich.text import Text

        table = Table(title=self.title, show_header=self.title is not None, show_lines=False, expand=False)
        table.add_column("Test case", overflow="fold", ratio=2)
        table.add_column("Metric", overflow="fold", ratio=2)
        table.add_column("Score", no_wrap=True)
        table.add_column("Thr", no_wrap=True)
        table.add_column("Status", no_wrap=True)
        if self.judge_column:
            table.add_column("Judge", no_wrap=True)
        table.add_column("Reason / error", overflow="fold", ratio=4)
        for t in self.cases:
            if not _lines(t):  # a golden of component-level evaluation without trace-level metrics
                label, style = _STATUS_STYLE[t.status]
                cells = [_text(_case_label(t)), Text("-"), "-", "-", Text(label, style=style)]
                cells += [Text("-")] if self.judge_column else []
                table.add_row(*cells, Text("(no trace-level metrics)"))
            for n, item in enumerate(_lines(t)):
                name = _text(_case_label(t) if n == 0 else "")
                if isinstance(item, list):
                    metrics, reason = _skip_text(item)
                    cells = [name, _text(metrics), "-", "-", Text("SKIP", style="yellow")]
                    cells += [Text("-")] if self.judge_column else []
                    table.add_row(*cells, _text(_short(reason, REASON_LIMIT), style="dim"))
                    continue
                m = item
                label, style = _STATUS_STYLE[m.status]
                cells = [
                    name,
                    _text(m.name + (" (flaky)" if m.flaky else "")),
                    _score_text(m),
                    _fmt(m.threshold, 2),
                    Text(label, style=style),
                ]
                cells += [_text(self._judge(m))] if self.judge_column else []
                reason = _reason(m, self.full_reason, _reason_limit(t, m, self.truncate))
                table.add_row(*cells, Text(reason))
        return table

    def _list(self, console: Any, width: int) -> Iterator[Any]:
        """A passing test case on one line (its name and each metric's score); any other test case on a line of
        its own, then one line per evaluated row (metric, score, threshold, status and, for a passing row, its
        reason cut to the line), the reason of a failing or errored row on the lines under it at nearly the full
        width, and one line for all of its skipped rows. ``truncate_passing_cases=False`` or ``full_reason``:
        passing test cases are shown row by row too."""
        from rich.text import Text

        names = [m.name + (" (flaky)" if m.flaky else "") for t in self.cases for m in t.metrics_data]
        mw = min(METRIC_COLUMN, max((len(n) for n in names), default=6))
        if self.title:
            yield Text(self.title, style="bold")
            judge = "  judge" if self.judge_column else ""
            yield Text(f"  {'metric':<{mw}}  score  thr   status{judge}  reason / error", style="dim")
        for t in self.cases:
            label, style = _STATUS_STYLE[t.status]
            head = Text(f"{label:<5} ", style=style)
            head.append(terminal(_case_label(t), one_line=True), style="bold")
            if t.status == "passed" and self.truncate and not self.full_reason:
                yield self._passing_case_line(t, head)  # nothing to read but the scores: one line
                continue
            yield head
            for item in _lines(t):
                if isinstance(item, list):
                    metrics, reason = _skip_text(item)
                    yield Text(
                        terminal(f"  SKIP  {metrics}: {reason}", one_line=True),
                        style="yellow",
                        no_wrap=True,
                        overflow="ellipsis",
                    )
                    continue
                yield from self._list_row(t, item, mw, console, width)

    def _passing_case_line(self, t: TestResult, head: Any) -> Any:
        """A passing test case on one line: its name, then each row's metric and score (skipped rows counted)."""
        parts = [
            f"{m.name}{' (flaky)' if m.flaky else ''} {_fmt(m.score)}"
            for m in t.metrics_data
            if not m.skipped
        ]
        skipped = sum(m.skipped for m in t.metrics_data) + len(t.skipped_metrics or [])
        if skipped:
            parts.append(f"{skipped} skipped")
        head.append("  " + terminal(" · ".join(parts), one_line=True))
        head.no_wrap, head.overflow = True, "ellipsis"
        return head

    def _list_row(self, t: TestResult, m: MetricData, mw: int, console: Any, width: int) -> Iterator[Any]:
        from rich.text import Text

        name = m.name + (" (flaky)" if m.flaky else "")
        name = name if len(name) <= mw else name[: mw - 1] + "…"
        label, style = _STATUS_STYLE[m.status]
        line = Text(
            terminal(f"  {name:<{mw}}  {_fmt(m.score):>5}  {_fmt(m.threshold, 2):<4}  ", one_line=True)
        )
        line.append(f"{label:<6}", style=style)
        if self.judge_column:
            line.append(f" {terminal(self._judge(m), one_line=True):<5}")
        if m.repeat is not None:
            line.append(f" ±{_fmt(m.repeat.std)} k={m.repeat.k} pass {_fmt(m.repeat.pass_rate, 2)}")
        bad = m.status in ("failed", "error")
        if not bad and self.truncate and not self.full_reason:  # the reason cut to the rest of the line
            line.append(" " + _reason(m, False, None if bad else REASON_LIMIT))
            line.no_wrap, line.overflow = True, "ellipsis"
            yield line
            return
        line.rstrip()
        line.no_wrap, line.overflow = True, "ellipsis"
        yield line
        reason = _reason(m, self.full_reason, _reason_limit(t, m, self.truncate))
        for part in Text(reason, style="red" if bad else "").wrap(console, max(20, width - 4)):
            part.rstrip()
            yield Text("    ") + part


def _case_label(t: TestResult) -> str:
    """The test case's name; a span of component-level evaluation also says its type."""
    return t.name if t.span_type is None else f"{t.name} [{t.span_type} span]"


def _forgetting_turns(t: TestResult, chars: int | None) -> list[tuple[str, str]]:
    """``(label, excerpt)`` of each turn a failing conversational row judged as forgetting: what the assistant said
    and the user's facts it was checked against (KnowledgeRetention verdicts with ``attrition``)."""
    out: list[tuple[str, str]] = []
    for m in t.metrics_data:
        if m.status not in ("failed", "error"):
            continue
        for v in m.verdicts or []:
            if not v.get("attrition"):
                continue
            said = _short(str(v.get("assistant_message", "")), chars)
            out.append((f"turn {v.get('turn')} forgot", said))
            facts = " ".join(f"'{f}'" for f in v.get("facts") or [])
            if facts:
                out.append(("  the user had said", _short(facts, chars)))
    return out


def _case_excerpt(t: TestResult, chars: int | None = EXCERPT_CHARS) -> list[tuple[str, str]]:
    """``(label, excerpt)`` of what a failing test case was given and answered, each cut to ``chars`` characters
    (None: whole); for a conversation, the turns judged as forgetting (else its last user and assistant turns)."""
    if t.conversational:
        turns = t.turns or []
        out = [("turns", str(len(turns)))]
        forgot = _forgetting_turns(t, chars)
        if forgot:
            return out + forgot
        last_user = next((x for x in reversed(turns) if x.get("role") == "user"), None)
        last_bot = next((x for x in reversed(turns) if x.get("role") == "assistant"), None)
        if last_user:
            out.append(("last user", _short(str(last_user.get("content", "")), chars)))
        if last_bot:
            out.append(("last assistant", _short(str(last_bot.get("content", "")), chars)))
        return out
    return [("input", _short(t.input, chars) or "-"), ("output", _short(t.actual_output, chars) or "-")]


def _failing_details(
    cases: list[TestResult], aliases: dict[str, str], full_reason: bool, limit: int | None = FAILING_DETAILS
) -> Iterator[Any]:
    """An excerpt of the input and output of each failing (or errored) test case, with its failing rows (the
    first ``limit``; None: all)."""
    from rich.text import Text

    failing = [t for t in cases if t.status in ("failed", "error")]
    if not failing:
        return
    yield Text("Failing test cases", style="bold")
    for t in failing[:limit]:
        lines = Text()
        lines.append(f"{_STATUS_STYLE[t.status][0]} {terminal(t.name, one_line=True)}\n", style="red")
        for label, text in _case_excerpt(t, None if limit is None else EXCERPT_CHARS):
            lines.append(f"  {label}: {text}\n")
        for m in t.metrics_data:
            if m.status not in ("failed", "error") or m.flaky:
                continue
            judge = aliases.get(m.evaluation_model or "", "-")
            lines.append(
                terminal(
                    f"  {m.name} {_fmt(m.score)} (threshold {_fmt(m.threshold, 2)}, {judge}): ", one_line=True
                )
            )
            lines.append(_reason(m, full_reason, 300) or "-")
            lines.append("\n")
        lines.rstrip()
        yield lines
    if limit is not None and len(failing) > limit:
        yield Text(f"... and {len(failing) - limit} more failing test cases (all are in the table)")


class CommandLine:
    """A line holding a command to copy (a rich ``Text``): printed on one line whatever the width (soft wrap), since
    a command broken across lines cannot be pasted (:func:`print_renderables`)."""

    def __init__(self, text: Any) -> None:
        self.text = text

    def __rich__(self) -> Any:
        return self.text


def print_renderables(console: Any, renderables: Iterable[Any]) -> None:
    """Print :func:`results_renderables` on ``console``; a :class:`CommandLine` is never broken."""
    for r in renderables:
        console.print(r, soft_wrap=isinstance(r, CommandLine))


def results_renderables(
    result: EvaluationResult,
    option: TestRunResultDisplay = TestRunResultDisplay.ALL,
    truncate_passing_cases: bool = True,
    full_reason: bool = False,
) -> Iterator[Any]:
    """rich renderables, built lazily: the rows (test cases chosen by ``option``, in chunks of :data:`TABLE_CHUNK`
    test cases; only the first has the title and header; a table from :data:`NARROW_WIDTH` columns, a list below;
    judges as short aliases when there are several), the judges named once, an input / output excerpt of the
    failing test cases, the per-metric summary, the totals and, when some test case failed, the command that
    shows them in full (:func:`failing_command`).
    Reasons are cut to their first line (passing rows of passing test cases to :data:`PASSING_REASON_LIMIT`
    characters, others to :data:`REASON_LIMIT`); ``truncate_passing_cases=False`` or ``full_reason`` shows every
    reason whole. Every value from the run is shown through :func:`deepeval._safe_text.terminal`."""
    from rich.table import Table
    from rich.text import Text

    aliases = judge_aliases(result)
    selected = _selected(result, option)
    for start in range(0, max(1, len(selected)), TABLE_CHUNK):
        title = f"Test results ({option.value})" if start == 0 else None
        yield _ResultsView(
            selected[start : start + TABLE_CHUNK], aliases, title, full_reason, truncate_passing_cases
        )
    if len(aliases) == 1:
        yield _text(f"Judge: {next(iter(aliases))}")
    elif aliases:
        yield Text(terminal("Judges:\n" + "\n".join(f"  {a} = {name}" for name, a in aliases.items())))
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
    command = failing_command(result)
    if command:
        yield CommandLine(Text.assemble("Failing test cases in full: ", (command, "bold")))


def render_results(
    result: EvaluationResult,
    option: TestRunResultDisplay = TestRunResultDisplay.ALL,
    width: int = 120,
    truncate_passing_cases: bool = True,
    full_reason: bool = False,
) -> str:
    """The results as plain text (no colour codes), ``width`` columns wide (a list below
    :data:`NARROW_WIDTH` columns, a table from there)."""
    from rich.console import Console

    buf = io.StringIO()
    console = Console(file=buf, width=width, color_system=None, force_terminal=False, highlight=False)
    print_renderables(console, results_renderables(result, option, truncate_passing_cases, full_reason))
    return buf.getvalue()


def print_results(
    result: EvaluationResult,
    option: TestRunResultDisplay = TestRunResultDisplay.ALL,
    truncate_passing_cases: bool = True,
    full_reason: bool = False,
) -> None:
    """Print the results on stdout, laid out for the terminal's width."""
    from rich.console import Console

    console = Console(file=sys.stdout, highlight=False)
    print_renderables(console, results_renderables(result, option, truncate_passing_cases, full_reason))


def print_failing(result: EvaluationResult, width: int | None = None) -> int:
    """Print every failing and errored test case of ``result`` in full (inputs, outputs or the forgetting turns,
    each failing row's whole reason or error) on stdout; return how many there were."""
    from rich.console import Console

    console = Console(file=sys.stdout, highlight=False, width=width)
    failing = [t for t in result.test_results if t.status in ("failed", "error")]
    for r in _failing_details(failing, judge_aliases(result), full_reason=True, limit=None):
        console.print(r)
    return len(failing)
