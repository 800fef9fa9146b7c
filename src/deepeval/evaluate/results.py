"""Result types of :func:`deepeval.evaluate.evaluate`: :class:`MetricData` (one metric on one test case),
:class:`TestResult` (one test case), :class:`EvaluationResult` (the run) and :class:`EvaluationError`.

Plain dataclasses with ``__slots__`` (cheap to import and to hold: a 10,000-case run keeps 30,000 rows; JSON-ready
through ``to_dict``). Every test case and every metric has a row, whether it passed, failed, errored or was skipped.
"""

from __future__ import annotations

import dataclasses
import json
import math
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from deepeval._fielddict import FieldDict
from deepeval._install import extra_install_command
from deepeval.errors import DeepEvalError

if TYPE_CHECKING:
    from deepeval.models.usage import CostTotal, CountTotal


@dataclass
class RepeatStats:
    """Aggregate of ``repeat=k`` runs of one metric on one test case.

    ``scores``: the k scores in repetition order (None for a repetition that errored). ``mean`` and ``std`` are over
    the scores that exist; ``std`` is the **population** standard deviation (divide by n, so k=1 gives 0.0).
    ``pass_rate`` = repetitions with ``success is True`` / k (errored repetitions count as not passing; None when
    the metric has no threshold). ``errors`` = number of repetitions that errored.
    """

    k: int
    scores: list[float | None]
    mean: float | None
    std: float | None
    pass_rate: float | None
    errors: int = 0


@dataclass
class MetricData:
    """One metric's result on one test case.

    deepeval fields: ``name``, ``threshold``, ``success`` (None in score-only mode or when skipped; False when
    ``error`` is set), ``score`` (in [0, 1]; the mean in repeat mode), ``reason``, ``strict_mode``,
    ``evaluation_model``, ``error`` (message, keys redacted), ``evaluation_cost`` (USD, None when unknown),
    ``verbose_logs`` (the metric's intermediate steps; in ``evaluate()`` results only when the metric ran with
    ``verbose_mode`` on, set on the metric or by ``DisplayConfig(verbose_mode=True)``, else None). Ours:
    ``confidence``, ``score_breakdown``, ``system_one_fallback_reason``, ``input_tokens``,
    ``output_tokens``, ``skipped`` (the reason says why), ``flaky``, ``duration_s`` (wall seconds of the measure or
    of its share of a batched request), ``retries``/``llm_calls``/``system_one_requests`` (judge calls counted by the
    clients), ``cached`` (served from the cache), ``system_one_batch`` (for rows measured through a merged System
    One request: ``{"request_s", "metrics", "questions"}``), ``repeat`` (:class:`RepeatStats` when ``repeat > 1``),
    ``prompt_version`` (the metric's prompt template version, when it has one), ``verdicts`` (our metrics: one
    dict per statement / fact judged, with ``verdict``, ``p_yes`` and ``decided_by``: ``system_one``,
    ``embedded`` (the embedded offline judge, in the System One role), ``llm`` or ``llm_fallback``), ``error_kind``
    (with ``error``: what kind of failure, an :class:`~deepeval.errors.ErrorKind` value from
    :func:`~deepeval.errors.error_kind`, e.g. ``timeout``, ``auth``, ``missing_params``, ``user_code``; None
    without an error, and in rows written before it existed).

    Numbers are kept as computed (``score`` 0.19999999999999998 stays so in ``to_dict``, the JSON export and the
    CSV, which programs read); everything a person reads (the console, the HTML and Markdown reports,
    ``assert_test``'s message) rounds them for display.
    """

    name: str
    threshold: float | None = None
    success: bool | None = None
    score: float | None = None
    reason: str | None = None
    strict_mode: bool = False
    evaluation_model: str | None = None
    error: str | None = None
    evaluation_cost: float | None = None
    verbose_logs: str | None = None
    confidence: float | None = None
    score_breakdown: dict[str, Any] | None = None
    system_one_fallback_reason: str | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    skipped: bool = False
    flaky: bool = False
    duration_s: float | None = None
    retries: int = 0
    llm_calls: int = 0
    system_one_requests: int = 0
    cached: bool = False
    system_one_batch: dict[str, Any] | None = None
    repeat: RepeatStats | None = None
    prompt_version: str | None = None
    verdicts: list[dict[str, Any]] | None = None
    error_kind: str | None = None

    @property
    def status(self) -> str:
        """``"error" | "skipped" | "passed" | "failed" | "scored"`` (scored = no threshold)."""
        if self.error is not None:
            return "error"
        if self.skipped:
            return "skipped"
        if self.success is None:
            return "scored"
        return "passed" if self.success else "failed"

    def to_dict(self) -> dict[str, Any]:
        return _clean_dict(dataclasses.asdict(self))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MetricData:
        """Inverse of :meth:`to_dict`; unknown keys are ignored (older/newer cache rows).

        Raises:
            ValueError: ``data`` is not a row :meth:`to_dict` could have written (:func:`metric_row_problem`: a
                field of the wrong type, a score that is not a finite number...); the message names the field.
        """
        problem = metric_row_problem(data)
        if problem is not None:
            raise ValueError(problem)
        names = {f.name for f in dataclasses.fields(cls)}
        kwargs = {k: v for k, v in data.items() if k in names}
        if isinstance(kwargs.get("repeat"), dict):
            kwargs["repeat"] = RepeatStats(**kwargs["repeat"])
        return cls(**kwargs)


def is_finite_number(value: Any) -> bool:
    """An int or float (not a bool) that a float can hold and that is finite (``10**400`` is not)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:  # an int too large for a float
        return False


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


_ROW_FIELD_RULES: tuple[tuple[tuple[str, ...], Any, str], ...] = (
    (
        (
            "reason",
            "evaluation_model",
            "verbose_logs",
            "system_one_fallback_reason",
            "error",
            "error_kind",
            "prompt_version",
        ),
        lambda v: isinstance(v, str),
        "a string",
    ),
    (
        ("score", "threshold", "evaluation_cost", "confidence", "duration_s"),
        is_finite_number,
        "a finite number",
    ),
    (("retries", "llm_calls", "system_one_requests", "input_tokens", "output_tokens"), _is_count, "a count"),
    (("success", "strict_mode", "skipped", "flaky", "cached"), lambda v: isinstance(v, bool), "true/false"),
    (("system_one_batch",), lambda v: isinstance(v, dict), "an object"),
    (("verdicts",), lambda v: isinstance(v, list), "a list"),
)


def metric_row_problem(data: Any) -> str | None:
    """The one check of a :class:`MetricData` dict read back (a run export, a cache row): why it is not a row
    :meth:`MetricData.to_dict` could have written, or None. Every field present and not None must have its type;
    ``name`` is a non-empty string; ``repeat`` is repetition statistics; ``score_breakdown`` is whatever the
    metric set (any JSON value). The cache adds its own rules on top
    (:func:`deepeval.evaluate.cache.row_from_json`: a score in [0, 1], no error rows)."""
    if not isinstance(data, dict):
        return f"a JSON {_json_kind(data)}, not a metric row object"
    if not isinstance(data.get("name"), str) or not data["name"]:
        return "no metric name (a non-empty string)"
    for fields, ok, what in _ROW_FIELD_RULES:
        for name in fields:
            if data.get(name) is not None and not ok(data[name]):
                return f"{name} {_short(data[name])} is not {what}"
    repeat = data.get("repeat")
    if repeat is not None:
        if not isinstance(repeat, dict):
            return f"repeat {_short(repeat)} is not an object"
        try:
            RepeatStats(**repeat)
        except TypeError as err:
            return f"repeat is not repetition statistics ({err})"
    return None


def _json_kind(value: Any) -> str:
    return {dict: "object", list: "array", str: "string", bool: "boolean", type(None): "null"}.get(
        type(value), "number"
    )


def _short(value: Any) -> str:
    """``repr(value)`` cut to 60 characters (a huge int or string is named, not printed whole)."""
    try:
        text = repr(value)
    except ValueError:  # an int over Python's digit limit for str()
        return f"<an integer of more than {sys.get_int_max_str_digits()} digits>"
    return text if len(text) <= 60 else text[:57] + "..."


class TurnData(FieldDict):
    """One turn of a conversational :class:`TestResult`: a plain dict (JSON-ready, ``turn["role"]``) whose fields
    also read as attributes (``turn.role``), as deepeval's ``TurnApi``; a ``Turn`` field the turn did not set reads
    as None."""

    __slots__ = ()

    def _missing(self, name: str) -> Any:
        from deepeval.test_case import Turn

        if name in Turn.model_fields:
            return None
        raise AttributeError(f"turn has no field {name!r}")


#: the statuses a test case can have (see :func:`case_status`)
CASE_STATUSES = ("passed", "failed", "error", "skipped")


def failing_rows(rows: list[MetricData], *, ignore_errors: bool = False) -> list[MetricData]:
    """The rows that fail their test case: evaluated (not skipped), not flaky, and failed (``success`` False by
    :func:`~deepeval.metrics.scoring.success_of`) or errored (unless ``ignore_errors``: ``assert_test`` under
    ``deepeval test run -i``). Score-only rows never fail."""
    return [
        m
        for m in rows
        if not m.skipped
        and not m.flaky
        and (m.status == "failed" or (m.status == "error" and not ignore_errors))
    ]


def case_status(rows: list[MetricData]) -> str:
    """The one rule for a test case's outcome, from its metric rows.

    ``"passed"`` when there are no rows at all: as in deepeval 4.3.1, a test case whose every metric was left out
    (``ErrorConfig(skip_on_missing_params=True)``, see :attr:`TestResult.skipped_metrics`) has nothing that failed.
    ``"skipped"`` when rows exist but none was evaluated (every row skipped: metrics of the other kind of test
    case); else ``"error"`` when a non-flaky row errored; else ``"failed"`` when a non-flaky row failed; else
    ``"passed"`` (rows that passed or are score-only; flaky rows never fail a test case). ``TestResult.success`` is
    ``status == "passed"``.
    """
    if not rows:
        return "passed"
    if all(m.skipped for m in rows):
        return "skipped"
    failing = {m.status for m in failing_rows(rows)}
    if "error" in failing:
        return "error"
    if "failed" in failing:
        return "failed"
    return "passed"


#: the keys of :attr:`TestResult.case_fields`
CASE_FIELDS = frozenset(
    {
        "tools_called",
        "expected_tools",
        "token_cost",
        "completion_time",
        "comments",
        "flaky",
        "scenario",
        "expected_outcome",
        "user_description",
    }
)


@dataclass
class TestResult:
    """One test case: its fields (as plain data) and one :class:`MetricData` per metric, in metric order.

    ``status`` (:func:`case_status`) is ``passed | failed | error | skipped``; ``success`` is ``status == "passed"``
    (so a test case whose every row was skipped is not a success); ``index`` is the test case's position in the
    input.

    ``skipped_metrics`` (None when there are none): the rows deepeval leaves out of ``metrics_data`` (a metric skipped because the test case
    lacks a field it needs, under ``ErrorConfig(skip_on_missing_params=True)``, or a metric that marked itself
    skipped), each with its reason; they do not count in ``status``.

    Component-level evaluation (``EvaluationDataset.evals_iterator()``) gives one result per golden and one per
    ``@observe`` span that has metrics: a span's result is named by the span, carries its ``span_type``
    (``agent``, ``llm``, ``retriever``, ``tool`` or ``base``) and the golden's ``index``; a golden's result has
    ``trace_status``, the outcome of its whole trace (its own rows and the rows of every span of its trace, by
    :func:`case_status`; ``error`` when the app raised), which is then its ``status``.
    """

    __test__ = False  # not a pytest test class

    name: str
    success: bool
    metrics_data: list[MetricData]
    conversational: bool
    index: int = 0
    input: str | None = None
    actual_output: str | None = None
    expected_output: str | None = None
    context: list[str] | None = None
    retrieval_context: list[str] | None = None
    #: one :class:`TurnData` per turn (a dict that also reads as attributes: ``turns[0].role``)
    turns: list[dict[str, Any]] | None = None
    #: the test case's metadata as plain JSON data, or a ``"<not exported: ...>"`` string (:func:`exportable`)
    metadata: dict[str, Any] | str | None = None
    tags: list[str] | None = None
    skipped_metrics: list[MetricData] | None = None
    span_type: str | None = None
    trace_status: str | None = None
    #: the test case's own fields that are set (None when none is), kept for the results file deepeval writes
    #: (``test_run_<time>.json``): ``tools_called`` / ``expected_tools`` (plain data), ``token_cost``,
    #: ``completion_time``, ``comments``, ``flaky`` (only when True), and a conversation's ``scenario``,
    #: ``expected_outcome``, ``user_description``; read them as attributes (``result.tools_called``)
    case_fields: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        if self.turns is not None:
            self.turns = [
                TurnData(t) if isinstance(t, dict) and not isinstance(t, TurnData) else t for t in self.turns
            ]

    @property
    def status(self) -> str:
        """``passed | failed | error | skipped``: ``trace_status`` for a golden of component-level evaluation, else
        from the rows by :func:`case_status`."""
        if self.trace_status is not None:
            return self.trace_status
        return case_status(self.metrics_data)

    def __getattr__(self, name: str) -> Any:
        """The fields of :attr:`case_fields` as attributes (None when unset; ``flaky`` False)."""
        if name in CASE_FIELDS:
            fields = self.case_fields or {}
            return fields.get(name, False if name == "flaky" else None)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = json_safe(dataclasses.asdict(self))
        if out.get("case_fields") is None:
            out.pop("case_fields", None)  # as results written before it existed
        out["status"] = self.status
        return out

    def not_exported(self) -> list[str]:
        """The ``"<not exported: ...>"`` placeholders standing in for this test case's unexportable fields."""
        values: list[Any] = [self.metadata, self.context, self.retrieval_context, self.tags]
        for turn in self.turns or ():
            values.extend(turn.values())
        return [v for v in values if isinstance(v, str) and v.startswith(NOT_EXPORTED)]

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TestResult:
        """Inverse of :meth:`to_dict` (unknown keys ignored).

        Raises:
            ValueError: ``data`` is not a test result :meth:`to_dict` could have written (a field of the wrong
                type, a metric row that :func:`metric_row_problem` refuses); the message names where.
        """
        problem = _test_result_problem(data)
        if problem is not None:
            raise ValueError(problem)
        names = {f.name for f in dataclasses.fields(cls)}
        kwargs = {k: v for k, v in data.items() if k in names}
        rows = []
        for j, m in enumerate(kwargs.get("metrics_data", [])):
            try:
                rows.append(MetricData.from_dict(m))
            except ValueError as err:
                raise ValueError(f"metrics_data[{j}]: {err}") from None
        kwargs["metrics_data"] = rows
        if kwargs.get("skipped_metrics"):
            skipped = []
            for j, m in enumerate(kwargs["skipped_metrics"]):
                try:
                    skipped.append(MetricData.from_dict(m))
                except ValueError as err:
                    raise ValueError(f"skipped_metrics[{j}]: {err}") from None
            kwargs["skipped_metrics"] = skipped
        return cls(**kwargs)


def _test_result_problem(data: Any) -> str | None:
    """Why ``data`` is not a :class:`TestResult` dict (field types), or None."""
    if not isinstance(data, dict):
        return f"a JSON {_json_kind(data)}, not a test result object"
    if not isinstance(data.get("name"), str):
        return f"name {_short(data.get('name'))} is not a string"
    if not isinstance(data.get("metrics_data", []), list):
        return f"metrics_data {_short(data['metrics_data'])} is not a list"
    checks: tuple[tuple[str, Any, str], ...] = (
        ("success", lambda v: isinstance(v, bool), "true/false"),
        ("conversational", lambda v: isinstance(v, bool), "true/false"),
        ("index", _is_count, "a count"),
        ("input", lambda v: isinstance(v, str), "a string"),
        ("actual_output", lambda v: isinstance(v, str), "a string"),
        ("expected_output", lambda v: isinstance(v, str), "a string"),
        ("turns", lambda v: isinstance(v, list), "a list"),
    )
    for name, ok, what in checks:
        if data.get(name) is not None and not ok(data[name]):
            return f"{name} {_short(data[name])} is not {what}"
    return None


def usage_totals(rows: list[MetricData]) -> tuple[CostTotal, CountTotal, CountTotal]:
    """The cost, input-token and output-token totals of ``rows``, each summed by :mod:`deepeval.models.usage` and
    knowing how many of its parts were unknown. A row is a part of the cost total when it reports a cost or made
    judge / System One requests (then a cost it did not get back is unknown); likewise of the token totals. A
    skipped row, and one that made no request and reports nothing (a user metric that reports no usage), is no part:
    it spent nothing we saw."""
    from deepeval.models.usage import CostTotal, CountTotal

    cost, tokens_in, tokens_out = CostTotal(), CountTotal(), CountTotal()
    for m in rows:
        if m.skipped:
            continue
        spent = m.llm_calls > 0 or m.system_one_requests > 0
        if m.evaluation_cost is not None or spent:
            cost.add(m.evaluation_cost)
        if m.input_tokens is not None or m.output_tokens is not None:
            tokens_in.add(m.input_tokens or 0)
            tokens_out.add(m.output_tokens or 0)
        elif spent:
            tokens_in.add(None)
            tokens_out.add(None)
    return cost, tokens_in, tokens_out


def _usage_fields(cost: CostTotal, tokens_in: CountTotal, tokens_out: CountTotal) -> dict[str, Any]:
    """The totals' usage entries: ``cost_usd`` (the known sum; None when none is known) with
    ``cost_unknown_measures`` (how many measured rows' cost is unknown: ``cost_usd`` is then a lower bound, and
    ``cost_partial`` says so), and the token sums likewise (``tokens_unknown_measures``, ``tokens_partial``; a
    token sum is None when every measure that made requests left its tokens unreported). ``cost_measures`` /
    ``token_measures``: the rows each total counts."""
    return {
        "cost_usd": cost.value,
        "cost_partial": cost.partial,
        "cost_unknown_measures": cost.unknown,
        "input_tokens": tokens_in.value,
        "output_tokens": tokens_out.value,
        "tokens_partial": tokens_in.partial,
        "tokens_unknown_measures": tokens_in.unknown,
        "cost_measures": cost.parts,
        "token_measures": tokens_in.parts,
    }


@dataclass
class EvaluationResult:
    """The whole run: ``test_results`` in input order plus run-level facts.

    ``duration_s`` is wall seconds; ``cache_hits`` counts metric rows served from the cache; ``system_one_batches``
    counts merged System One requests; ``repeat`` is the ``repeat`` argument; ``hyperparameters`` the
    ``evaluate(hyperparameters=...)`` dict as deepeval keeps it (values as strings, None values dropped).
    """

    test_results: list[TestResult]
    run_id: str = ""
    identifier: str | None = None
    hyperparameters: dict[str, str] | None = None
    started_at: str | None = None
    duration_s: float | None = None
    repeat: int = 1
    cache_hits: int = 0
    system_one_batches: int = 0
    extras: dict[str, Any] = field(default_factory=dict)

    @property
    def test_run_id(self) -> str | None:
        """deepeval's name for the run's id: :attr:`run_id` (None when the run has none)."""
        return self.run_id or None

    @property
    def confident_link(self) -> None:
        """deepeval's Confident AI link to the run: always None, results stay local."""
        return None

    # -- aggregates ----------------------------------------------------------------------------------------------
    def metric_rows(self) -> list[MetricData]:
        return [m for t in self.test_results for m in t.metrics_data]

    @property
    def errors(self) -> list[tuple[str, MetricData]]:
        """``(test case name, row)`` for every errored row, in run order."""
        return [(t.name, m) for t in self.test_results for m in t.metrics_data if m.error is not None]

    @property
    def total_cost(self) -> float | None:
        """Sum of known ``evaluation_cost`` (USD); None when no row knows its cost or the sum is not finite
        (:func:`deepeval.models.usage.sum_costs`). A lower bound when some measures' cost is unknown
        (:meth:`usage_totals` says how many)."""
        return self.usage_totals()[0].value

    def usage_totals(self) -> tuple[CostTotal, CountTotal, CountTotal]:
        """The run's cost, input-token and output-token totals over its measured rows (:func:`usage_parts`),
        each knowing how many of its parts were unknown."""
        return usage_totals(self.metric_rows())

    def case_counts(self) -> dict[str, int]:
        """``test_cases_passed`` / ``_failed`` / ``_errored`` / ``_skipped``: test cases by :func:`case_status`."""
        counts = dict.fromkeys(CASE_STATUSES, 0)
        for t in self.test_results:
            counts[t.status] += 1
        return {
            "test_cases_passed": counts["passed"],
            "test_cases_failed": counts["failed"],
            "test_cases_errored": counts["error"],
            "test_cases_skipped": counts["skipped"],
        }

    def totals(self) -> dict[str, Any]:
        rows = self.metric_rows()
        return {
            "test_cases": len(self.test_results),
            **self.case_counts(),
            "metric_rows": len(rows),
            "passed": sum(1 for m in rows if m.status == "passed"),
            "failed": sum(1 for m in rows if m.status == "failed"),
            "errors": sum(1 for m in rows if m.status == "error"),
            "skipped": sum(1 for m in rows if m.status == "skipped"),
            "skipped_metrics": sum(len(t.skipped_metrics or ()) for t in self.test_results),
            **_usage_fields(*usage_totals(rows)),
            "retries": sum(m.retries for m in rows),
            "llm_calls": sum(m.llm_calls for m in rows),
            "system_one_requests": sum(m.system_one_requests for m in rows),
            "cache_hits": self.cache_hits,
            "system_one_batches": self.system_one_batches,
        }

    def metric_summary(self) -> dict[str, dict[str, Any]]:
        """Per metric name: ``rows``, ``scored``, ``mean_score``, ``pass_rate`` (passed / rows with a verdict),
        ``errors``, ``skipped``, ``judges`` (sorted evaluation models)."""
        out: dict[str, dict[str, Any]] = {}
        for m in self.metric_rows():
            s = out.setdefault(
                m.name,
                {
                    "rows": 0,
                    "scores": [],
                    "passed": 0,
                    "verdicts": 0,
                    "errors": 0,
                    "skipped": 0,
                    "judges": set(),
                },
            )
            s["rows"] += 1
            if m.score is not None and m.error is None:
                s["scores"].append(m.score)
            if m.success is not None:
                s["verdicts"] += 1
                s["passed"] += int(m.success)
            s["errors"] += int(m.error is not None)
            s["skipped"] += int(m.skipped)
            if m.evaluation_model:
                s["judges"].add(m.evaluation_model)
        result: dict[str, dict[str, Any]] = {}
        for name, s in out.items():
            scores: list[float] = s["scores"]
            result[name] = {
                "rows": s["rows"],
                "scored": len(scores),
                "mean_score": sum(scores) / len(scores) if scores else None,
                "pass_rate": s["passed"] / s["verdicts"] if s["verdicts"] else None,
                "errors": s["errors"],
                "skipped": s["skipped"],
                "judges": sorted(s["judges"]),
            }
        return result

    @property
    def judges(self) -> list[str]:
        """Distinct ``evaluation_model`` values, sorted."""
        return sorted({m.evaluation_model for m in self.metric_rows() if m.evaluation_model})

    # -- tables ---------------------------------------------------------------------------------------------------
    def rows_table(self) -> list[dict[str, Any]]:
        """One dict per test case x metric, in run order, with the keys of :data:`ROW_COLUMNS` (the columns of
        :meth:`to_pandas` and ``deepeval evaluate --csv``)."""
        return [_table_row(t, m) for t in self.test_results for m in t.metrics_data]

    def to_pandas(self) -> Any:
        """A ``pandas.DataFrame`` with one row per test case x metric (columns :data:`ROW_COLUMNS`).

        Raises:
            ImportError: pandas is not installed (``pip install pandas``).
        """
        try:
            import pandas as pd
        except ImportError as err:
            raise ImportError(
                "EvaluationResult.to_pandas() needs pandas, which is not installed: "
                + extra_install_command("pandas")
            ) from err
        return pd.DataFrame(self.rows_table(), columns=list(ROW_COLUMNS))

    def to_csv(self, path: Any) -> int:
        """Write :meth:`rows_table` to ``path`` as CSV (UTF-8, header row, ``\n`` line ends, empty cell for None);
        return the number of rows written. ``~`` is expanded; folders are created. Text cells follow the one CSV
        rule (:mod:`deepeval._csv_cells`): a cell starting with ``=``, ``+``, ``-``, ``@``, TAB or CR gets a
        leading ``'`` (spreadsheets would run it as a formula), and a cell holding a comma, quote, CR or LF is
        quoted. Control characters and escape sequences are written as visible escapes (``\\x1b``), as printed.

        Raises:
            OSError: ``path`` cannot be written (a symbolic link there included, see :mod:`deepeval._safe_path`).
        """
        from deepeval._csv_cells import csv_lines
        from deepeval._files import user_path, write_chunks_atomic
        from deepeval._safe_text import visible_controls

        rows = self.rows_table()
        # a report people open in a terminal or a spreadsheet: control characters and escape sequences from test
        # data are shown as visible escapes (\x1b), as on the console; the JSON export keeps the exact text
        cells = (
            [visible_controls(v) if isinstance(v, str) else v for v in (row[c] for c in ROW_COLUMNS)]
            for row in rows
        )
        lines = csv_lines(ROW_COLUMNS, cells, line_end="\n")
        write_chunks_atomic(user_path(path), lines)
        return len(rows)

    # -- notebooks ------------------------------------------------------------------------------------------------
    def __repr__(self) -> str:
        c = self.case_counts()
        return (
            f"EvaluationResult({len(self.test_results)} test cases: {c['test_cases_passed']} passed, "
            f"{c['test_cases_failed']} failed, {c['test_cases_errored']} errored, {c['test_cases_skipped']} "
            f"skipped; {len(self.metric_rows())} metric rows; run_id={self.run_id[:8] or '-'!r})"
        )

    def _repr_html_(self) -> str:
        """Jupyter: a compact table (test case, metric, score, threshold, status, judge, reason)."""
        from html import escape

        c = self.case_counts()
        head = (
            f"<p><b>EvaluationResult</b> {len(self.test_results)} test cases: {c['test_cases_passed']} passed, "
            f"{c['test_cases_failed']} failed, {c['test_cases_errored']} errored, {c['test_cases_skipped']} "
            "skipped</p>"
        )
        cols = ("test_case", "metric", "score", "threshold", "status", "evaluation_model", "reason")
        body = []
        for row in self.rows_table()[:200]:
            cells = []
            for col in cols:
                v = row[col] if col != "reason" else (row["error"] or row["reason"])
                text = f"{v:.3f}" if isinstance(v, float) else ("" if v is None else str(v))
                cells.append(f"<td>{escape(text[:200])}</td>")
            body.append("<tr>" + "".join(cells) + "</tr>")
        more = len(self.metric_rows()) - 200
        tail = f"<p>... {more} more rows (to_pandas() has them all)</p>" if more > 0 else ""
        header = "".join(f"<th>{escape(c)}</th>" for c in cols)
        return f"{head}<table><thead><tr>{header}</tr></thead><tbody>{''.join(body)}</tbody></table>{tail}"

    # -- export --------------------------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        out = self.to_dict_without_test_results()
        out["test_results"] = [t.to_dict() for t in self.test_results]
        return out

    def to_dict_without_test_results(self) -> dict[str, Any]:
        """:meth:`to_dict` less its ``test_results`` list (same keys, in the same order, before it)."""
        return {
            "run_id": self.run_id,
            "identifier": self.identifier,
            "hyperparameters": self.hyperparameters,
            "started_at": self.started_at,
            "duration_s": self.duration_s,
            "repeat": self.repeat,
            "totals": json_safe(self.totals()),
            "metrics": json_safe(self.metric_summary()),
            "judges": self.judges,
            "extras": json_safe(self.extras),
        }

    def to_json(self, indent: int | None = 2) -> str:
        """The run as JSON (NaN/inf written as null)."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False, default=str)

    def iter_json(self) -> Iterator[str]:
        """:meth:`to_json` (``indent=2``) in pieces, one test case at a time, so a large run is written without
        building its whole text (or its whole ``to_dict()``) at once; ``"".join(iter_json()) == to_json()``."""
        head = self.to_dict_without_test_results()
        head["test_results"] = []
        text = json.dumps(head, indent=2, ensure_ascii=False, default=str)
        opening, closing = text[: -len("[]\n}")], "\n  ]\n}"
        if not self.test_results:
            yield text
            return
        yield opening + "["
        for i, t in enumerate(self.test_results):
            item = json.dumps(t.to_dict(), indent=2, ensure_ascii=False, default=str)
            # nested two levels deep: every line of the item moves 4 spaces right (JSON strings hold no raw
            # newlines, so only line breaks between tokens are touched)
            yield ("," if i else "") + "\n    " + item.replace("\n", "\n    ")
        yield closing

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> EvaluationResult:
        """Inverse of :meth:`to_dict` (the JSON export); totals and summaries are recomputed from the rows.

        Raises:
            ValueError: ``data`` is not a run export (no ``test_results`` list).
        """
        if not isinstance(data, dict) or not isinstance(data.get("test_results"), list):
            raise ValueError("not a deepeval run export: expected a JSON object with a 'test_results' list")
        tests = []
        for i, t in enumerate(data["test_results"]):
            try:
                tests.append(TestResult.from_dict(t))
            except (TypeError, ValueError) as err:
                raise ValueError(f"test_results[{i}] is not a test result: {err}") from None
        return cls(
            test_results=tests,
            run_id=str(data.get("run_id") or ""),
            identifier=data.get("identifier"),
            started_at=data.get("started_at"),
            duration_s=data.get("duration_s"),
            repeat=int(data.get("repeat") or 1),
            cache_hits=int((data.get("totals") or {}).get("cache_hits") or 0),
            system_one_batches=int((data.get("totals") or {}).get("system_one_batches") or 0),
            extras=dict(data.get("extras") or {}),
        )


#: the columns of :meth:`EvaluationResult.to_pandas` / ``--csv``, in order
ROW_COLUMNS = (
    "test_case",
    "test_case_index",
    "test_case_status",
    "metric",
    "score",
    "threshold",
    "success",
    "status",
    "reason",
    "error",
    "error_kind",
    "evaluation_model",
    "evaluation_cost",
    "input_tokens",
    "output_tokens",
    "confidence",
    "strict_mode",
    "flaky",
    "cached",
    "duration_s",
)


def _table_row(t: TestResult, m: MetricData) -> dict[str, Any]:
    return {
        "test_case": t.name,
        "test_case_index": t.index,
        "test_case_status": t.status,
        "metric": m.name,
        "score": m.score,
        "threshold": m.threshold,
        "success": m.success,
        "status": m.status,
        "reason": m.reason,
        "error": m.error,
        "error_kind": m.error_kind,
        "evaluation_model": m.evaluation_model,
        "evaluation_cost": m.evaluation_cost,
        "input_tokens": m.input_tokens,
        "output_tokens": m.output_tokens,
        "confidence": m.confidence,
        "strict_mode": m.strict_mode,
        "flaky": m.flaky,
        "cached": m.cached,
        "duration_s": m.duration_s,
    }


class EvaluationError(DeepEvalError):
    """Raised by ``evaluate(..., error_config=ErrorConfig(ignore_errors=False))`` after the whole run when some
    metric rows errored. ``result`` is the complete :class:`EvaluationResult` (no row is lost); ``errors`` lists
    ``(test case name, MetricData)`` of the errored rows. The message names the first error and the count.

    deepeval re-raises the metric's own exception instead; so that ``except MissingTestCaseParamsError`` (or
    ``except ValueError``) around ``evaluate()`` keeps working, :func:`evaluation_error` raises a subclass that is
    also an instance of the first error's class, when that class is one of ``deepeval.errors`` or a builtin
    exception (``ValueError``, ``TypeError``, ``RuntimeError``...) and can be combined.
    """

    def __init__(self, result: EvaluationResult) -> None:
        self.result = result
        self.errors = result.errors
        super().__init__(
            f"{self.summary()}. All rows are in this exception's `.result`; pass ErrorConfig(ignore_errors=True) "
            "to get the result without raising."
        )

    def summary(self) -> str:
        """How many rows errored and the first error, without advice (the CLI adds its own: ``-i``)."""
        first_name, first = self.errors[0]
        more = f" (and {len(self.errors) - 1} more errored rows)" if len(self.errors) > 1 else ""
        return (
            f"{len(self.errors)} of {len(self.result.metric_rows())} metric rows errored; first: metric "
            f"{first.name!r} on test case {first_name!r}: {first.error}{more}"
        )


#: containers nested deeper than this are not exported (the JSON writer and ``dataclasses.asdict`` recurse per level)
MAX_EXPORT_DEPTH = 100
#: every placeholder written in place of a value that cannot be exported starts with this
NOT_EXPORTED = "<not exported: "
# ints of more bits than this may exceed sys.get_int_max_str_digits() (4300 by default) and are checked
_BIG_INT_BITS = 14_000


class Unexportable(ValueError):
    """A value that no JSON report can hold: a circular reference, nesting deeper than :data:`MAX_EXPORT_DEPTH`, or
    an integer too long to write as text."""


def exportable(value: Any) -> Any:
    """A plain JSON-ready copy of ``value`` (dicts with string keys, lists, str, int, finite float or None, bool;
    pydantic models as their JSON dump; other objects as ``str()``).

    Raises:
        Unexportable: ``value`` holds itself, nests deeper than :data:`MAX_EXPORT_DEPTH`, or holds an int too long
            to write as decimal text (``sys.get_int_max_str_digits()``); the message says which.
    """
    return _exportable(value, 0, set())


def exportable_or_placeholder(value: Any, what: str) -> Any:
    """:func:`exportable`, or a ``"<not exported: <what> <why>>"`` string in its place."""
    try:
        return exportable(value)
    except Unexportable as err:
        return f"{NOT_EXPORTED}{what} {err}>"


def _exportable(value: Any, depth: int, path: set[int]) -> Any:
    if value is None or isinstance(value, (str, bool)):
        return value
    if isinstance(value, int):
        if value.bit_length() > _BIG_INT_BITS:
            try:
                str(value)
            except ValueError:
                raise Unexportable(
                    f"holds an integer of about {int(value.bit_length() * 0.30103)} digits, more than Python "
                    f"writes as text ({sys.get_int_max_str_digits()})"
                ) from None
        return int(value)
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    dump = getattr(value, "model_dump", None)
    if not isinstance(value, (dict, list, tuple, set, frozenset)) and not callable(dump):
        try:
            return str(value)
        except Exception as err:  # a user object whose __str__ fails
            raise Unexportable(f"holds a {type(value).__name__} that cannot be shown ({err})") from None
    if depth >= MAX_EXPORT_DEPTH:
        raise Unexportable(f"nests deeper than {MAX_EXPORT_DEPTH} levels")
    if id(value) in path:
        raise Unexportable("is a circular reference (a container holds itself)")
    path.add(id(value))
    try:
        return _container(value, depth, path)
    finally:
        path.discard(id(value))


def _container(value: Any, depth: int, path: set[int]) -> Any:
    if isinstance(value, dict):
        return {
            str(_exportable(k, depth + 1, path)): _exportable(v, depth + 1, path) for k, v in value.items()
        }
    if isinstance(value, (list, tuple)):
        return [_exportable(v, depth + 1, path) for v in value]
    if isinstance(value, (set, frozenset)):
        items = [_exportable(v, depth + 1, path) for v in value]
        return sorted(items, key=lambda v: (type(v).__name__, repr(v)))
    # a pydantic model: its fields (None left out), each exported the same way
    fields = getattr(type(value), "model_fields", None) or {}
    return {
        name: _exportable(getattr(value, name), depth + 1, path)
        for name in fields
        if getattr(value, name, None) is not None
    }


def _clean_dict(value: dict[str, Any]) -> dict[str, Any]:
    """:func:`_clean` of a dict (keys as strings)."""
    return {str(k): json_safe(v) for k, v in value.items()}


def json_safe(value: Any) -> Any:
    """JSON-safe copy: non-finite floats become None, sets become sorted lists, unknown objects become strings."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {str(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    if isinstance(value, (set, frozenset)):
        # sorted for a stable file; by type then value, so a set mixing types ({1, "a"}) sorts too
        return sorted((json_safe(v) for v in value), key=lambda v: (type(v).__name__, repr(v)))
    if value is None or isinstance(value, (str, int, bool)):
        return value
    return str(value)


_COMBINED: dict[type[BaseException], type[EvaluationError]] = {}


def _error_class(error: str | None) -> type[BaseException] | None:
    """The exception class a row's ``"<Type>: <message>"`` error names, among ``deepeval.errors`` and builtins."""
    import builtins

    from deepeval import errors

    name = (error or "").split(":", 1)[0].strip()
    if not name.isidentifier():
        return None
    cls = getattr(errors, name, None) or getattr(builtins, name, None)
    return cls if isinstance(cls, type) and issubclass(cls, Exception) else None


def evaluation_error(result: EvaluationResult) -> EvaluationError:
    """The :class:`EvaluationError` for ``result``, also an instance of its first error's class where possible."""
    base = _error_class(result.errors[0][1].error) if result.errors else None
    if base is None or issubclass(EvaluationError, base):
        return EvaluationError(result)
    cls = _COMBINED.get(base)
    if cls is None:
        try:
            cls = type(f"EvaluationError_{base.__name__}", (EvaluationError, base), {"__module__": __name__})
        except TypeError:  # incompatible layouts (a pydantic ValidationError)
            return EvaluationError(result)
        globals()[cls.__name__] = cls  # picklable by reference
        _COMBINED[base] = cls
    try:
        return cls(result)
    except TypeError:  # a base whose __init__ needs more than a message
        return EvaluationError(result)
