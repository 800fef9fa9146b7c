"""Agreement statistics of a judge-eval run, and its text, JSON and HTML reports.

Units whose judge call failed are counted (``errors``) and left out of the statistics, never dropped from the
rows. Accuracy reads a unit as positive when P >= 0.5; AUROC, Brier and ECE (10 equal-width bins) use P. A
"confident wrong" verdict is a wrong one with confidence ``|2P - 1| >= 0.5`` (P <= 0.25 or P >= 0.75).
"""

from __future__ import annotations

import html
import json
import math
from collections import Counter
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

from deepeval.judge_eval import stats
from deepeval.judge_eval.tasks import get_task
from deepeval.judge_eval.units import Run, Unit

#: an item score counts as right when within this distance of the gold share
BAND = 0.15
CONFIDENT = 0.5


def _binary(units: list[Unit]) -> dict[str, Any]:
    ok = [u for u in units if u.p is not None]
    if not ok:
        return {"n": 0}
    y = np.array([1.0 if u.positive else 0.0 for u in ok])
    p = np.array([u.p for u in ok], dtype=float)  # ok holds the units with a p
    base_y = np.array([1.0 if u.baseline_positive else 0.0 for u in ok])
    wrong_confident = sum(
        1 for u in ok if u.judged_positive != u.positive and (u.confidence or 0.0) >= CONFIDENT
    )
    out: dict[str, Any] = {
        **stats.summary(y, p),
        "confident_wrong": wrong_confident,
        "confident_wrong_share": wrong_confident / len(ok),
        "borderline": sum(u.verdict == "borderline" for u in ok),
        "baseline_accuracy": float(np.mean(base_y == y)),
        "baseline_auroc": stats.auroc(y, np.array([u.baseline_p for u in ok])),
        "positives": int(y.sum()),
        # recall of each label with P >= 0.5 read as positive (an unsure verdict counts by its side of 0.5 here)
        "positive_recall": float(np.mean(p[y == 1] >= 0.5)) if (y == 1).any() else None,
        "negative_recall": float(np.mean(p[y == 0] < 0.5)) if (y == 0).any() else None,
    }
    return out


#: tags of a wrong answer that is vague or off-topic rather than a wrong value (training/blind/SCHEMA.md)
VAGUE_TAGS = frozenset({"vague", "vague_date", "different_attribute"})


def _grades(units: list[Unit]) -> dict[str, Any]:
    graded = [
        (int(grade), int(gold), int(u.baseline_grade or 1), bool(VAGUE_TAGS & set(u.tags)))
        for u in units
        if (grade := u.grade) is not None and (gold := u.gold_grade) is not None
    ]
    if not graded:
        return {}
    n = len(graded)
    diff = [abs(grade - gold) for grade, gold, _, _ in graded]
    wrong = [(grade, vague) for grade, gold, _, vague in graded if gold <= 2]
    vague_wrong = [grade for grade, vague in wrong if vague]
    base = [abs(baseline - gold) for _, gold, baseline, _ in graded]
    return {
        "exact": sum(d == 0 for d in diff) / n,
        "within_1": sum(d <= 1 for d in diff) / n,
        "mean_abs_error": sum(diff) / n,
        "wrong_graded_4_plus": (sum(grade >= 4 for grade, _ in wrong) / len(wrong)) if wrong else None,
        "vague_wrong_graded_4_plus": (
            (sum(grade >= 4 for grade in vague_wrong) / len(vague_wrong)) if vague_wrong else None
        ),
        "baseline_exact": sum(d == 0 for d in base) / n,
        "baseline_within_1": sum(d <= 1 for d in base) / n,
    }


def _confusion(metric: str, units: list[Unit]) -> dict[str, dict[str, int]]:
    table: dict[str, Counter[str]] = {}
    for u in units:
        table.setdefault(u.gold, Counter())[(u.verdict or "error") if u.p is not None else "error"] += 1
    return {gold: dict(sorted(c.items())) for gold, c in sorted(table.items())}


def _by_tag(units: list[Unit]) -> dict[str, dict[str, Any]]:
    tags = sorted({t for u in units for t in u.tags})
    out: dict[str, dict[str, Any]] = {}
    for tag in tags:
        sub = [u for u in units if tag in u.tags and u.p is not None]
        if not sub:
            continue
        out[tag] = {
            "n": len(sub),
            "accuracy": sum(u.judged_positive == u.positive for u in sub) / len(sub),
            "baseline_accuracy": sum(u.baseline_positive == u.positive for u in sub) / len(sub),
            "mean_p": sum(float(u.p) for u in sub) / len(sub),  # type: ignore[arg-type,misc]
            "confident_wrong": sum(
                1 for u in sub if u.judged_positive != u.positive and (u.confidence or 0.0) >= CONFIDENT
            ),
        }
    return out


def _tiers(units: list[Unit]) -> dict[str, Any] | None:
    """Per stage of a cascading judge (encoder, reader, unsure): units, their share and accuracy (P >= 0.5 against
    the label), and the share of units the reader was asked about; None when no unit has a tier."""
    tiered = [u for u in units if u.tier is not None and u.p is not None]
    if not tiered:
        return None
    out: dict[str, Any] = {}
    for tier in ("encoder", "reader", "unsure"):
        sub = [u for u in tiered if u.tier == tier]
        out[tier] = {
            "n": len(sub),
            "share": len(sub) / len(tiered),
            "accuracy": (sum(u.judged_positive == u.positive for u in sub) / len(sub)) if sub else None,
        }
    out["reader_asked_share"] = sum(u.stages is not None for u in tiered) / len(tiered)
    sure = [u for u in tiered if u.tier != "unsure"]
    out["sure_accuracy"] = (sum(u.judged_positive == u.positive for u in sure) / len(sure)) if sure else None
    return out


def _latency(run: Run) -> dict[str, Any]:
    per_unit = sorted(u.seconds for u in run.units)
    item_s = sorted(i.seconds for i in run.items)

    def q(xs: list[float], f: float) -> float | None:
        return float(np.quantile(xs, f)) if xs else None

    return {
        "total_s": run.seconds,
        "per_unit_mean_s": float(np.mean(per_unit)) if per_unit else None,
        "per_unit_p95_s": q(per_unit, 0.95),
        "item_score_mean_s": float(np.mean(item_s)) if item_s else None,
        "item_score_p95_s": q(item_s, 0.95),
    }


def _item_level(run: Run) -> dict[str, Any] | None:
    if not run.items:
        return None
    errors = [abs(score - i.gold) for i in run.items if (score := i.score) is not None]
    return {
        "n": len(run.items),
        "errors": len(run.items) - len(errors),
        "within_band": (sum(e <= BAND for e in errors) / len(errors)) if errors else None,
        "mean_abs_error": (sum(errors) / len(errors)) if errors else None,
        "baseline_within_band": sum(abs(float(i.baseline or 0.0) - i.gold) <= BAND for i in run.items)
        / len(run.items),
        "band": BAND,
    }


def summarize(run: Run) -> dict[str, Any]:
    """The statistics of a run (see module docstring) as a JSON-ready dict."""
    ok = [u for u in run.units if u.p is not None]
    out: dict[str, Any] = {
        "metric": run.metric,
        "judge": run.judge,
        "units": len(run.units),
        "items": len({u.item_id for u in run.units}),
        "errors": len(run.units) - len(ok),
        "binary": _binary(run.units),
        "positive_label": get_task(run.metric).positive,
        "confusion": _confusion(run.metric, run.units),
        "by_tag": _by_tag(run.units),
        "item_level": _item_level(run),
        "latency": _latency(run),
        "reliability": _reliability(ok),
        "tiers": _tiers(run.units),
    }
    if any(u.gold_grade is not None for u in run.units):  # a graded task (memory_grade): the 1-5 grades too
        out["grades"] = _grades(run.units)
    return out


def _reliability(ok: list[Unit]) -> list[dict[str, float]]:
    if not ok:
        return []
    y = np.array([1.0 if u.positive else 0.0 for u in ok])
    p = np.array([u.p for u in ok], dtype=float)  # callers pass the units with a p
    return stats.reliability(y, p)


def _f(x: Any, digits: int = 3) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    return f"{x:.{digits}f}" if isinstance(x, float) else str(x)


def render_text(summary: dict[str, Any]) -> str:
    """The report printed by the command."""
    b = summary["binary"]
    base = get_task(summary["metric"]).declared.baseline
    lines = [
        f"judge-eval: {summary['metric']} on {summary['items']} items, {summary['units']} labelled units; "
        f"judge: {summary['judge']}",
    ]
    if summary["errors"]:
        lines.append(f"  {summary['errors']} unit(s) not judged (judge error; see --json)")
    if b.get("n"):
        lines += [
            f"  positive label: {summary['positive_label']} ({b['positives']} of {b['n']})",
            f"  accuracy {_f(b['accuracy'])}   ({base}: {_f(b['baseline_accuracy'])})",
            f"  AUROC    {_f(b['auroc'])}   ({base}: {_f(b['baseline_auroc'])})",
            f"  Brier    {_f(b['brier'])}   ECE (10 bins) {_f(b['ece'])}",
            f"  confident (>= {CONFIDENT}) wrong verdicts: {b['confident_wrong']} ({_f(b['confident_wrong_share'])})"
            f"; borderline verdicts: {b['borderline']}",
        ]
    g = summary.get("grades")
    if g:
        lines.append(
            f"  grades: exact {_f(g['exact'])} (baseline {_f(g['baseline_exact'])}), within +-1 {_f(g['within_1'])}"
            f" (baseline {_f(g['baseline_within_1'])}), wrong answers (gold <= 2) graded >= 4: "
            f"{_f(g['wrong_graded_4_plus'])} (vague or off-topic ones: {_f(g.get('vague_wrong_graded_4_plus'))})"
        )
    tiers = summary.get("tiers")
    if tiers:
        lines.append(
            "  decided by (units, share, accuracy): "
            + "; ".join(
                f"{t} {tiers[t]['n']} ({_f(tiers[t]['share'], 2)}, {_f(tiers[t]['accuracy'])})"
                for t in ("encoder", "reader", "unsure")
            )
            + f"; reader asked for {_f(tiers['reader_asked_share'], 2)} of units; accuracy where sure "
            f"{_f(tiers['sure_accuracy'])}"
        )
    il = summary.get("item_level")
    if il:
        lines.append(
            f"  item scores within +-{il['band']} of the gold share: {_f(il['within_band'])} of {il['n']} items"
            f" ({base}: {_f(il['baseline_within_band'])}; mean |error| {_f(il['mean_abs_error'])}"
            + (f"; {il['errors']} metric error(s)" if il["errors"] else "")
            + ")"
        )
    lines.append("  confusion (rows: gold label, columns: judge verdict):")
    for gold, row in summary["confusion"].items():
        lines.append(f"    {gold:>14s}: " + ", ".join(f"{k} {v}" for k, v in row.items()))
    if summary["by_tag"]:
        lines.append(f"  by tag (n, accuracy, {base} accuracy, confident wrong):")
        for tag, t in summary["by_tag"].items():
            lines.append(
                f"    {tag:28s} {t['n']:4d}  {_f(t['accuracy'], 2)}  {_f(t['baseline_accuracy'], 2)}  "
                f"{t['confident_wrong']}"
            )
    lat = summary["latency"]
    lines.append(
        f"  latency: {_f(lat['total_s'], 1)} s in all; per unit mean {_f(lat['per_unit_mean_s'], 4)} s, "
        f"p95 {_f(lat['per_unit_p95_s'], 4)} s"
        + (
            f"; item score mean {_f(lat['item_score_mean_s'], 3)} s, p95 {_f(lat['item_score_p95_s'], 3)} s"
            if lat["item_score_mean_s"] is not None
            else ""
        )
    )
    return "\n".join(lines)


def _no_nan(value: Any) -> Any:
    """``value`` with every NaN float replaced by None (JSON has no NaN)."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {k: _no_nan(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_no_nan(v) for v in value]
    return value


def to_json(run: Run, summary: dict[str, Any]) -> str:
    """The summary and every unit and item row, as JSON (NaN written as null)."""
    doc = {
        "summary": summary,
        "units": [asdict(u) for u in run.units],
        "items": [asdict(i) for i in run.items],
    }
    return json.dumps(_no_nan(doc), indent=1, allow_nan=False)


def reliability_svg(bins: list[dict[str, float]], size: int = 320) -> str:
    """An inline SVG reliability plot: observed frequency against mean P per bin (dot area ~ count) and the
    diagonal of perfect calibration."""
    pad = 36
    inner = size - 2 * pad

    def xy(px: float, py: float) -> tuple[float, float]:
        return pad + px * inner, size - pad - py * inner

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" viewBox="0 0 {size} {size}" '
        'role="img" aria-label="reliability plot">',
        f'<rect x="{pad}" y="{pad}" width="{inner}" height="{inner}" fill="none" stroke="#999"/>',
        '<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#bbb" stroke-dasharray="4 3"/>'.format(
            *xy(0, 0), *xy(1, 1)
        ),
    ]
    for t in (0.0, 0.5, 1.0):
        x, y = xy(t, 0)
        parts.append(f'<text x="{x:.1f}" y="{y + 16:.1f}" font-size="11" text-anchor="middle">{t:g}</text>')
        x, y = xy(0, t)
        parts.append(f'<text x="{x - 6:.1f}" y="{y + 4:.1f}" font-size="11" text-anchor="end">{t:g}</text>')
    parts.append(
        f'<text x="{size / 2}" y="{size - 4}" font-size="11" text-anchor="middle">judge P (bin mean)</text>'
    )
    parts.append(
        f'<text x="12" y="{size / 2}" font-size="11" text-anchor="middle" '
        f'transform="rotate(-90 12 {size / 2})">observed share positive</text>'
    )
    total = sum(b["n"] for b in bins) or 1
    points = []
    for b in bins:
        x, y = xy(b["mean_p"], b["frequency"])
        points.append(f"{x:.1f},{y:.1f}")
        r = 3 + 12 * math.sqrt(b["n"] / total)
        parts.append(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="#3b6ea5" fill-opacity="0.6">'
            f"<title>P {b['lo']:.1f}-{b['hi']:.1f}: n={int(b['n'])}, mean P {b['mean_p']:.2f}, "
            f"observed {b['frequency']:.2f}</title></circle>"
        )
    if len(points) > 1:
        parts.append(f'<polyline points="{" ".join(points)}" fill="none" stroke="#3b6ea5"/>')
    parts.append("</svg>")
    return "".join(parts)


def to_html(run: Run, summary: dict[str, Any]) -> str:
    """One self-contained HTML page: the text report, the reliability plot (inline SVG) and every wrong unit."""
    esc = html.escape
    wrong = [u for u in run.units if u.p is None or u.judged_positive != u.positive]
    rows = "".join(
        f"<tr><td>{esc(u.item_id)}</td><td>{esc(u.where)}</td><td>{esc(u.gold)}</td>"
        f"<td>{esc(str(u.verdict))}</td><td>{_f(u.p)}</td><td>{esc(', '.join(u.tags))}</td>"
        f"<td>{esc(u.text[:300])}</td><td>{esc(u.error or u.note or '')}</td></tr>"
        for u in wrong
    )
    return (
        "<!doctype html><html><head><meta charset='utf-8'>"
        f"<title>judge-eval {esc(summary['metric'])}</title>"
        "<style>body{font-family:system-ui,sans-serif;margin:2em;max-width:70em}pre{background:#f6f6f6;"
        "padding:1em;overflow-x:auto}table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ddd;"
        "padding:3px 6px;vertical-align:top}</style></head><body>"
        f"<h1>judge-eval: {esc(summary['metric'])}</h1>"
        f"<pre>{esc(render_text(summary))}</pre>"
        f"<h2>Reliability (10 bins; ECE {_f(summary['binary'].get('ece'))})</h2>"
        f"{reliability_svg(summary['reliability'])}"
        f"<h2>Disagreements ({len(wrong)} of {len(run.units)} units)</h2>"
        "<table><tr><th>item</th><th>unit</th><th>gold</th><th>judge</th><th>P</th><th>tags</th><th>text</th>"
        f"<th>note</th></tr>{rows}</table></body></html>"
    )


def write(path: str | Path, text: str) -> None:
    """Write a report file (``~`` expanded, folders created, whole or not at all; never through a symbolic link).

    Raises:
        OSError: the file cannot be written.
    """
    from deepeval._files import user_path, write_text_atomic

    write_text_atomic(user_path(path), text)
