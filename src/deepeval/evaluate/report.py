"""Run exports: JSON (the whole :class:`EvaluationResult`) and a self-contained HTML report.

The HTML report is one file: inline CSS, an inline SVG score histogram per metric (10 bins over [0, 1], bars
coloured by whether the bin's midpoint reaches the metric's threshold), the per-metric summary, the judges used, the
run's identifier and hyperparameters, and one row per test case x metric that opens (``<details>``) to show the
input, outputs, retrieval context or turns, the per-statement / per-fact verdicts with P(yes) and who decided them
(System One, the embedded judge, LLM, LLM fallback), the reason and the error. A small inline script filters rows by status and metric
and sorts them by score (``#status=failed&metric=M&sort=score-asc&open=1`` in the URL applies a view on load). No
external assets or URLs. Every value under evaluation is HTML-escaped (jinja2 autoescape), so test-case content
is shown as text and never interpreted.
"""

from __future__ import annotations

import datetime as _dt
import functools
import math
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deepeval._files import user_path, write_chunks_atomic, write_text_atomic
from deepeval._safe_text import html_finalize, markdown
from deepeval.evaluate.results import EvaluationResult
from deepeval.metrics.scoring import success_of

if TYPE_CHECKING:
    import jinja2

BINS = 10
SVG_W, SVG_H = 340, 170
_PLOT_X0, _PLOT_Y0, _PLOT_H, _BAR_STEP = 34, 18, 120, 29


def histogram(scores: list[float], bins: int = BINS) -> list[int]:
    """Counts of ``scores`` in ``bins`` equal bins over [0, 1]; 1.0 falls in the last bin; out-of-range values are
    clipped into the end bins."""
    counts = [0] * bins
    for s in scores:
        if math.isnan(s):
            continue  # no bin holds it
        # clipped before scaling: a huge finite score (1e308 * bins is inf) or an infinite one lands in an end bin
        counts[min(bins - 1, int(min(max(s, 0.0), 1.0) * bins))] += 1
    return counts


def _histogram_bars(scores: list[float], threshold: float | None) -> list[dict[str, Any]]:
    """One bar per bin, green where its scores reach ``threshold`` and red where they do not (a bin holding both
    is red with its passing share in green on top; no threshold: green), so a threshold of 1.0 shows the perfect
    scores green although the bin's midpoint is 0.95."""
    counts = histogram(scores)
    passing = histogram([s for s in scores if success_of(s, threshold) is not False])
    top = max(counts) or 1
    bars = []
    for b, c in enumerate(counts):
        h = round(_PLOT_H * c / top, 1)
        ok = passing[b] == c
        bars.append(
            {
                "x": _PLOT_X0 + b * _BAR_STEP,
                "y": round(_PLOT_Y0 + _PLOT_H - h, 1),
                "w": _BAR_STEP - 4,
                "h": h,
                "count": c,
                "passing": passing[b],
                "split_h": 0.0 if ok or not passing[b] else round(_PLOT_H * passing[b] / top, 1),
                "lo": b / BINS,
                "hi": (b + 1) / BINS,
                # an empty bin takes the colour its midpoint would have
                "fill": _PASS_FILL
                if ok and (c or success_of((b + 0.5) / BINS, threshold) is not False)
                else _FAIL_FILL,
            }
        )
    return bars


_PASS_FILL, _FAIL_FILL = "#2e9d5b", "#d2483d"


def _metric_panels(result: EvaluationResult) -> list[dict[str, Any]]:
    summary = result.metric_summary()
    scores: dict[str, list[float]] = {}
    thresholds: dict[str, float | None] = {}
    for m in result.metric_rows():
        thresholds.setdefault(m.name, m.threshold)
        if m.score is not None and m.error is None:
            scores.setdefault(m.name, []).append(m.score)
    panels = []
    for name, s in summary.items():
        panels.append(
            {
                "name": name,
                "summary": s,
                "threshold": thresholds.get(name),
                "bars": _histogram_bars(scores.get(name, []), thresholds.get(name)),
                "n_scores": len(scores.get(name, [])),
            }
        )
    return panels


def render_html(result: EvaluationResult, title: str | None = None) -> str:
    """The report as one HTML string."""
    return "".join(iter_html(result, title))


def iter_html(result: EvaluationResult, title: str | None = None) -> Iterator[str]:
    """:func:`render_html` in pieces as the template renders them (one test case's rows at a time), for writing a
    large run without holding its whole page."""
    return _template().generate(
        title=title or f"deepeval run {result.identifier or result.run_id}",
        result=result,
        hyperparameters=_hyperparameters(result),
        status_counts=_status_counts(result),
        deciders=DECIDERS,
        verdict_view=verdict_view,
        totals=result.totals(),
        panels=_metric_panels(result),
        judges=result.judges,
        svg_w=SVG_W,
        svg_h=SVG_H,
        plot_x0=_PLOT_X0,
        plot_y0=_PLOT_Y0,
        plot_h=_PLOT_H,
        bar_step=_BAR_STEP,
        bins=BINS,
    )


#: how the report names who decided a verdict
DECIDERS = {
    "system_one": "System One",
    "embedded": "embedded judge",
    "llm": "LLM",
    "llm_fallback": "LLM (fallback)",
}


def verdict_view(v: dict[str, Any]) -> tuple[str, str]:
    """``(label, tone)`` of one verdict for the report: tone ``good`` / ``bad`` / ``unsure`` by what the verdict
    means for the score. A KnowledgeRetention verdict (it has ``attrition``) reads ``kept`` or ``forgot``
    (its ``yes`` means the turn forgot); a relevancy verdict ``yes`` is good, ``no`` bad, anything else unsure."""
    if "attrition" in v:
        return ("forgot", "bad") if v.get("attrition") else ("kept", "good")
    verdict = str(v.get("verdict", "-"))
    return verdict, {"yes": "good", "no": "bad"}.get(verdict, "unsure")


def _hyperparameters(result: EvaluationResult) -> dict[str, Any] | None:
    """The run's hyperparameters when the result carries them (attribute or ``extras``), else None."""
    value = getattr(result, "hyperparameters", None) or result.extras.get("hyperparameters")
    return dict(value) if isinstance(value, dict) and value else None


def _status_counts(result: EvaluationResult) -> dict[str, int]:
    """Rows by status, as the report lists them: the metric rows and the left-out ones (``skipped``)."""
    counts = dict.fromkeys(("all", "passed", "failed", "error", "skipped", "scored"), 0)
    for t in result.test_results:
        for m in t.metrics_data + (t.skipped_metrics or []):
            counts["all"] += 1
            counts[m.status] += 1
    return counts


@functools.lru_cache(maxsize=1)
def _template_env() -> jinja2.Environment:
    """The jinja2 environment of the report templates (autoescape on, ``fmt`` / ``pct`` filters)."""
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(Path(__file__).parent / "templates")),
        autoescape=True,
        finalize=html_finalize,  # control characters in test data shown as visible escapes, as on the console
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["fmt"] = lambda v, d=3: "-" if v is None else f"{v:.{d}f}"
    env.filters["pct"] = lambda v: "-" if v is None else f"{100 * v:.1f}%"
    return env


@functools.lru_cache(maxsize=1)
def _template() -> jinja2.Template:
    """The compiled report template (compiling it costs ~1.5 MB and a few ms, so once per process)."""
    return _template_env().get_template("report.html.j2")


def _file_part(identifier: str | None, default: str) -> str:
    """``identifier`` as part of a file name: characters outside ``[A-Za-z0-9_.-]`` become ``_``, at most 60, and no
    leading dot (``../../x`` would name a hidden file that ``ls`` does not show)."""
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", identifier or default)[:60].lstrip(".")
    return name or default


def run_file_stem(result: EvaluationResult) -> str:
    """``<identifier>-<YYYYmmdd-HHMMSS>-<run id prefix>``: the name of a run's export files."""
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    ident = _file_part(result.identifier, "run")
    return f"{ident}-{stamp}-{result.run_id[:8]}"


def save_json(result: EvaluationResult, path: str | Path) -> Path:
    """Write :meth:`EvaluationResult.to_json` to ``path``, one test case at a time (folders created; written whole
    or not at all, lone
    surrogates escaped so the file reads back losslessly, see :mod:`deepeval._files`); return the path.

    Raises:
        OSError: ``path`` cannot be written.
    """
    return write_chunks_atomic(path, result.iter_json())


def save_html(result: EvaluationResult, path: str | Path) -> Path:
    """Write :func:`render_html` to ``path`` (folders created; written whole or not at all, lone surrogates shown
    as ``\\udcff`` escapes); return the path.

    Raises:
        OSError: ``path`` cannot be written.
    """
    return write_chunks_atomic(path, iter_html(result))


def export_run(result: EvaluationResult, folder: str | Path) -> tuple[Path, Path]:
    """Write ``<identifier>-<time>-<run id>.json`` and ``.html`` into ``folder`` (``~`` expanded); return both
    paths."""
    stem = run_file_stem(result)
    folder = user_path(folder)
    return save_json(result, folder / f"{stem}.json"), save_html(result, folder / f"{stem}.html")


def export_test_cases(result: EvaluationResult, folder: str | Path) -> list[Path]:
    """One JSON file per test case (``test_case_<index>.json``) in ``folder`` (``~`` expanded); return the paths.
    The spans of a golden in component-level evaluation share its index: they are ``test_case_<index>_span_<k>.json``
    (k = 1, 2... in result order)."""
    import json

    folder = user_path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    spans: dict[int, int] = {}
    for t in result.test_results:
        text = json.dumps(t.to_dict(), indent=2, ensure_ascii=False, default=str)
        name = f"test_case_{t.index}"
        if t.span_type is not None:
            spans[t.index] = spans.get(t.index, 0) + 1
            name += f"_span_{spans[t.index]}"
        paths.append(write_text_atomic(folder / f"{name}.json", text))
    return paths


def _md_cell(value: Any) -> str:
    """One Markdown table cell or list item: inert text (:func:`deepeval._safe_text.markdown`: no HTML, no link,
    no emphasis, no heading; pipes escaped; line breaks as ``<br>``), the text itself kept whole."""
    return markdown("" if value is None else value)


def iter_markdown(result: EvaluationResult) -> Iterator[str]:
    """The report as Markdown, one test case at a time: a heading per test case with its status, its input and
    output (or turns), and a table of its metric rows with full reasons and errors. Every value from the run is
    written through :func:`deepeval._safe_text.markdown` (a name stays on its heading line)."""
    title = result.identifier or result.run_id or "evaluation"
    tot = result.totals()
    yield f"# deepeval run {markdown(title, one_line=True)}\n\n"
    yield f"{tot['test_cases_passed']}/{tot['test_cases']} test cases passed\n\n"
    if result.hyperparameters:
        yield "| Hyperparameter | Value |\n|:---|:---|\n"
        for key, value in result.hyperparameters.items():
            yield f"| {_md_cell(key)} | {_md_cell(value)} |\n"
        yield "\n"
    for t in result.test_results:
        status = "PASS" if t.success else "FAIL"
        span = "" if t.span_type is None else f" ({t.span_type} span of test case {t.index})"
        yield f"## {status} {markdown(t.name, one_line=True)}{markdown(span, one_line=True)}\n\n"
        if t.conversational:
            for turn in t.turns or []:
                yield f"- **{markdown(turn.get('role', ''), one_line=True)}**: {_md_cell(turn.get('content'))}\n"
        else:
            yield f"- **Input:** {_md_cell(t.input)}\n- **Actual output:** {_md_cell(t.actual_output)}\n"
        yield "\n| Status | Metric | Score | Threshold | Judge | Reason / error |\n|:---:|:---|:---:|:---:|:---|:---|\n"
        for m in t.metrics_data + (t.skipped_metrics or []):
            score = "-" if m.score is None else f"{m.score:.3f}"
            threshold = "-" if m.threshold is None else f"{m.threshold:g}"
            yield (
                f"| {m.status} | {_md_cell(m.name)} | {score} | {threshold} | {_md_cell(m.evaluation_model)} | "
                f"{_md_cell(m.error or m.reason)} |\n"
            )
        yield "\n"


def export_report_file(result: EvaluationResult, folder: str | Path, file_type: str) -> Path:
    """Write the whole report (``file_type`` ``"html"`` or ``"md"``) into ``folder`` (``~`` expanded) as
    ``<identifier>_<YYYYmmdd_HHMMSS>.<ext>`` (``evaluation`` without an identifier); return its path."""
    name = _file_part(result.identifier, "evaluation")
    stamp = _dt.datetime.now().strftime("%Y%m%d_%H%M%S")
    path = Path(folder).expanduser() / f"{name}_{stamp}.{file_type}"
    chunks = iter_html(result) if file_type == "html" else iter_markdown(result)
    return write_chunks_atomic(path, chunks)
