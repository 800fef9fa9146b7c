"""Compare two run exports (the JSON files ``evaluate()`` writes): ``deepeval compare RUN_A.json RUN_B.json``.

Rows are matched by (test case name, metric name, occurrence), so a run re-done on the same test cases lines up
row by row. The comparison lists each row's score change, the rows that passed in A and fail (or error) in B
("newly failing", the CI gate), the rows that newly pass, the mean score change per metric with a seeded
percentile-bootstrap 95% interval over the paired changes, and the judges and prompt versions that differ.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from deepeval import _json
from deepeval._files import MAX_EXPORT_BYTES, read_user_text
from deepeval._safe_text import terminal
from deepeval.errors import ErrorKind
from deepeval.evaluate.results import EvaluationResult, MetricData
from deepeval.metrics.scoring import mean_of

#: bootstrap resamples for the per-metric interval
RESAMPLES = 2000
FAILING = ("failed", "error")
#: the status of a row an interrupted run never measured (error kind ``interrupted``): neither failing nor passing,
#: so a cancelled run is never read as a regression
NOT_MEASURED = "not measured"

RowKey = tuple[str, str, int]


@dataclass
class RowChange:
    """One (test case, metric) row present in both runs."""

    test_case: str
    metric: str
    score_a: float | None
    score_b: float | None
    status_a: str
    status_b: str

    @property
    def delta(self) -> float | None:
        if self.score_a is None or self.score_b is None:
            return None
        return self.score_b - self.score_a

    @property
    def newly_failing(self) -> bool:
        return self.status_a == "passed" and self.status_b in FAILING

    @property
    def newly_passing(self) -> bool:
        return self.status_a in FAILING and self.status_b == "passed"


@dataclass
class MetricChange:
    """Mean score change of one metric over the rows scored in both runs, with a bootstrap 95% interval."""

    metric: str
    paired: int
    mean_a: float | None
    mean_b: float | None
    mean_delta: float | None
    ci_low: float | None
    ci_high: float | None


@dataclass
class Difference:
    """A metric whose judges (or prompt versions) differ between the runs."""

    metric: str
    a: list[str]
    b: list[str]


@dataclass
class Comparison:
    label_a: str
    label_b: str
    rows: list[RowChange]
    metrics: list[MetricChange]
    judges: list[Difference]
    prompt_versions: list[Difference]
    only_in_a: list[RowKey] = field(default_factory=list)
    only_in_b: list[RowKey] = field(default_factory=list)
    seed: int = 0
    #: each run's ``extras["interrupted"]`` note (what stopped it, how much finished); None for a finished run
    interrupted_a: str | None = None
    interrupted_b: str | None = None

    @property
    def not_measured(self) -> list[RowChange]:
        """Rows an interrupted run never measured (compared as neither failing nor passing)."""
        return [r for r in self.rows if NOT_MEASURED in (r.status_a, r.status_b)]

    @property
    def interruptions(self) -> list[str]:
        """One sentence per interrupted run, for the report headers."""
        notes = (("A", self.interrupted_a), ("B", self.interrupted_b))
        return [
            f"run {side} was interrupted ({note}); its rows that were never measured are not compared"
            for side, note in notes
            if note
        ]

    @property
    def newly_failing(self) -> list[RowChange]:
        return [r for r in self.rows if r.newly_failing]

    @property
    def newly_passing(self) -> list[RowChange]:
        return [r for r in self.rows if r.newly_passing]

    @property
    def changed(self) -> list[RowChange]:
        """Rows whose status or score changed."""
        return [r for r in self.rows if r.status_a != r.status_b or (r.delta is not None and r.delta != 0)]


def load_run(path: str | Path) -> EvaluationResult:
    """Read a run export.

    Raises:
        ValueError: the file is missing, unreadable, not JSON, or not a run export (the message names the file).
    """
    p = Path(path).expanduser()
    try:
        text = read_user_text(p, MAX_EXPORT_BYTES)  # a FIFO or /dev/zero is refused, never read forever
    except FileNotFoundError:
        raise ValueError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as err:
        raise ValueError(f"{path}: cannot read it ({type(err).__name__}: {err})") from None
    try:
        data = _json.loads(text)
    except json.JSONDecodeError as err:
        raise ValueError(f"{path}: not JSON ({err.msg} at line {err.lineno}, column {err.colno})") from None
    try:
        return EvaluationResult.from_dict(data)
    except ValueError as err:
        raise ValueError(f"{path}: {err}") from None


def _keyed(result: EvaluationResult) -> dict[RowKey, MetricData]:
    out: dict[RowKey, MetricData] = {}
    seen: dict[tuple[str, str], int] = {}
    for t in result.test_results:
        for m in t.metrics_data:
            n = seen.get((t.name, m.name), 0)
            seen[(t.name, m.name)] = n + 1
            out[(t.name, m.name, n)] = m
    return out


def bootstrap_ci(
    values: list[float], seed: int = 0, resamples: int = RESAMPLES
) -> tuple[float | None, float | None]:
    """Percentile-bootstrap 95% interval of the mean of ``values`` (seeded: the same input gives the same
    interval); ``(None, None)`` for no values, ``(v, v)`` for one."""
    if not values:
        return None, None
    if len(values) == 1:
        return values[0], values[0]
    rng = random.Random(seed)
    n = len(values)
    means = sorted(mean_of(rng.choices(values, k=n)) for _ in range(resamples))
    cut = int(0.025 * (resamples - 1))  # the same number of resampled means left out on each side
    return means[cut], means[resamples - 1 - cut]


def _values_by_metric(rows: dict[RowKey, MetricData], attr: str) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for (_, metric, _), m in rows.items():
        value = getattr(m, attr)
        out.setdefault(metric, set())
        if value:
            out[metric].add(str(value))
    return out


def _differences(a: dict[RowKey, MetricData], b: dict[RowKey, MetricData], attr: str) -> list[Difference]:
    va, vb = _values_by_metric(a, attr), _values_by_metric(b, attr)
    out = []
    for metric in sorted(set(va) & set(vb)):
        if va[metric] != vb[metric]:
            out.append(Difference(metric, sorted(va[metric]), sorted(vb[metric])))
    return out


def _status(m: MetricData) -> str:
    return NOT_MEASURED if m.error_kind == ErrorKind.interrupted.value else m.status


def _interrupted(result: EvaluationResult) -> str | None:
    note = result.extras.get("interrupted")
    return str(note) if note else None


def _label(result: EvaluationResult, path: str | None) -> str:
    name = result.identifier or (result.run_id[:8] if result.run_id else "")
    return f"{path} ({name})" if path and name else (path or name or "run")


def compare_runs(
    a: EvaluationResult,
    b: EvaluationResult,
    *,
    seed: int = 0,
    resamples: int = RESAMPLES,
    label_a: str | None = None,
    label_b: str | None = None,
) -> Comparison:
    """Compare run ``b`` against baseline ``a`` (see the module docstring)."""
    ka, kb = _keyed(a), _keyed(b)
    rows = [
        RowChange(key[0], key[1], ma.score, kb[key].score, _status(ma), _status(kb[key]))
        for key, ma in ka.items()
        if key in kb
    ]
    by_metric: dict[str, list[RowChange]] = {}
    for r in rows:
        by_metric.setdefault(r.metric, []).append(r)
    metrics = []
    for name, rs in by_metric.items():
        paired = [r for r in rs if r.delta is not None]
        deltas = [r.delta for r in paired if r.delta is not None]
        lo, hi = bootstrap_ci(deltas, seed=seed, resamples=resamples)
        metrics.append(
            MetricChange(
                metric=name,
                paired=len(paired),
                mean_a=mean_of([r.score_a for r in paired if r.score_a is not None]) if paired else None,
                mean_b=mean_of([r.score_b for r in paired if r.score_b is not None]) if paired else None,
                mean_delta=mean_of(deltas) if deltas else None,
                ci_low=lo,
                ci_high=hi,
            )
        )
    return Comparison(
        label_a=label_a or _label(a, None),
        label_b=label_b or _label(b, None),
        rows=rows,
        metrics=metrics,
        judges=_differences(ka, kb, "evaluation_model"),
        prompt_versions=_differences(ka, kb, "prompt_version"),
        only_in_a=[k for k in ka if k not in kb],
        only_in_b=[k for k in kb if k not in ka],
        seed=seed,
        interrupted_a=_interrupted(a),
        interrupted_b=_interrupted(b),
    )


def compare_files(path_a: str, path_b: str, *, seed: int = 0) -> Comparison:
    """:func:`compare_runs` on two export files (raises ``ValueError`` naming a bad file)."""
    a, b = load_run(path_a), load_run(path_b)
    return compare_runs(a, b, seed=seed, label_a=_label(a, path_a), label_b=_label(b, path_b))


# -- rendering ----------------------------------------------------------------------------------------------------
def _fmt(v: float | None, signed: bool = False) -> str:
    if v is None:
        return "-"
    if abs(v) >= 1e6:  # a custom metric's huge score: 1e+308, not 309 digits
        return f"{v:+.3g}" if signed else f"{v:.3g}"
    return f"{v:+.3f}" if signed else f"{v:.3f}"


def _ci(m: MetricChange) -> str:
    if m.ci_low is None or m.ci_high is None:
        return "-"
    return f"[{m.ci_low:+.3f}, {m.ci_high:+.3f}]"


def renderables(cmp: Comparison) -> Iterator[Any]:
    """rich renderables: header, changed rows, newly failing / passing, per-metric change, differences."""
    from rich.table import Table
    from rich.text import Text

    yield Text(f"A: {terminal(cmp.label_a, one_line=True)}\nB: {terminal(cmp.label_b, one_line=True)}")
    yield Text(
        f"{len(cmp.rows)} rows in both runs; {len(cmp.changed)} changed; {len(cmp.newly_failing)} newly failing; "
        f"{len(cmp.newly_passing)} newly passing; {len(cmp.only_in_a)} only in A; {len(cmp.only_in_b)} only in B"
        + (f"; {len(cmp.not_measured)} not measured" if cmp.interruptions else "")
    )
    for sentence in cmp.interruptions:
        yield Text(terminal(sentence, one_line=True), style="yellow")
    if cmp.changed:
        table = Table(title="Changed rows", expand=False)
        for col, kw in (
            ("Test case", {"overflow": "fold", "ratio": 3}),
            ("Metric", {"overflow": "fold", "ratio": 2}),
            ("A", {"no_wrap": True}),
            ("B", {"no_wrap": True}),
            ("Change", {"no_wrap": True}),
            ("Status", {"overflow": "fold", "ratio": 2}),
        ):
            table.add_column(col, **kw)
        for r in cmp.changed:
            flag = " NEWLY FAILING" if r.newly_failing else (" newly passing" if r.newly_passing else "")
            table.add_row(
                Text(terminal(r.test_case, one_line=True)),
                Text(terminal(r.metric, one_line=True)),
                _fmt(r.score_a),
                _fmt(r.score_b),
                _fmt(r.delta, signed=True),
                Text(f"{r.status_a} -> {r.status_b}{flag}", style="red" if r.newly_failing else ""),
            )
        yield table
    summary = Table(title=f"Mean change per metric (bootstrap 95% interval, seed {cmp.seed})", expand=False)
    for col in ("Metric", "Paired", "Mean A", "Mean B", "Change", "95% interval"):
        summary.add_column(col, overflow="fold")
    for m in cmp.metrics:
        summary.add_row(
            Text(terminal(m.metric, one_line=True)),
            str(m.paired),
            _fmt(m.mean_a),
            _fmt(m.mean_b),
            _fmt(m.mean_delta, signed=True),
            _ci(m),
        )
    yield summary
    for title, diffs in (("Judges differ", cmp.judges), ("Prompt versions differ", cmp.prompt_versions)):
        for d in diffs:
            yield Text(
                terminal(f"{title} for {d.metric}: A {', '.join(d.a) or '-'}; B {', '.join(d.b) or '-'}")
            )
    for label, keys in (("only in A", cmp.only_in_a), ("only in B", cmp.only_in_b)):
        for tc, metric, _ in keys[:20]:
            yield Text(terminal(f"{label}: {tc} / {metric}", one_line=True))
        if len(keys) > 20:
            yield Text(f"... and {len(keys) - 20} more rows {label}")
    if cmp.newly_failing:
        yield Text(f"{len(cmp.newly_failing)} rows passed in A and fail in B:", style="bold red")
        for r in cmp.newly_failing:
            yield Text(
                f"  {terminal(r.test_case, one_line=True)} / {terminal(r.metric, one_line=True)}: {_fmt(r.score_a)} -> {_fmt(r.score_b)} ({r.status_b})"
            )


def render_text(cmp: Comparison, width: int = 100) -> str:
    import io

    from rich.console import Console

    buf = io.StringIO()
    console = Console(file=buf, width=width, color_system=None, force_terminal=False, highlight=False)
    for r in renderables(cmp):
        console.print(r)
    return buf.getvalue()


def render_html(cmp: Comparison) -> str:
    """The comparison as one self-contained HTML page (no scripts, no external assets; content escaped)."""
    from deepeval.evaluate.report import _template_env

    changed = cmp.changed
    ids = {id(r) for r in changed}
    rows = changed + [r for r in cmp.rows if id(r) not in ids]
    return _template_env().get_template("compare.html.j2").render(cmp=cmp, rows=rows, fmt=_fmt, ci=_ci)
