"""Reports of a memory evaluation: JSON (``MemoryReport.to_dict()``) and a self-contained HTML page (jinja2, inline
SVG recall-vs-turn curve, no external assets or scripts)."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import jinja2

from deepeval._files import write_text_atomic
from deepeval._safe_text import html_finalize
from deepeval.memory.conditions import MemoryReport


def _fmt(v: Any) -> str:
    return "n/a" if v is None else f"{float(v):.3f}"


def curve_svg(points: list[tuple[int, float]], width: int = 640, height: int = 260) -> str:
    """An inline SVG line chart of (turn, recall in [0, 1]) points; empty string for no points."""
    if not points:
        return ""
    pad = 40
    max_turn = max(t for t, _ in points) or 1

    def x(t: float) -> float:
        return pad + (width - 2 * pad) * t / max_turn

    def y(v: float) -> float:
        return height - pad - (height - 2 * pad) * v

    path = " ".join(f"{'M' if i == 0 else 'L'}{x(t):.1f},{y(v):.1f}" for i, (t, v) in enumerate(points))
    dots = "".join(
        f'<circle cx="{x(t):.1f}" cy="{y(v):.1f}" r="3.5" fill="#2b6cb0"><title>turn {t}: {v:.3f}</title></circle>'
        for t, v in points
    )
    grid = "".join(
        f'<line x1="{pad}" x2="{width - pad}" y1="{y(g):.1f}" y2="{y(g):.1f}" stroke="#eee"/>'
        f'<text x="{pad - 6}" y="{y(g) + 4:.1f}" font-size="10" text-anchor="end">{g:.2f}</text>'
        for g in (0, 0.25, 0.5, 0.75, 1.0)
    )
    xlabels = "".join(
        f'<text x="{x(t):.1f}" y="{height - pad + 14}" font-size="10" text-anchor="middle">{t}</text>'
        for t, _ in points
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
        f'aria-label="normalised recall by turn">{grid}'
        f'<line x1="{pad}" x2="{width - pad}" y1="{height - pad}" y2="{height - pad}" stroke="#999"/>'
        f'<path d="{path}" fill="none" stroke="#2b6cb0" stroke-width="2"/>{dots}{xlabels}'
        f'<text x="{width / 2}" y="{height - 6}" font-size="11" text-anchor="middle">turn (last turn in context)</text>'
        "</svg>"
    )


def render_html(report: MemoryReport) -> str:
    """The report as one self-contained HTML document (all content escaped)."""
    env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined, finalize=html_finalize)
    template = env.from_string(
        resources.files("deepeval.memory").joinpath("templates/report.html.j2").read_text(encoding="utf-8")
    )
    d = report.to_dict()
    pts = [
        (c["turn"], c["recall"]["normalised"]) for c in d["curve"] if c["recall"]["normalised"] is not None
    ]
    checkpoints, rows = answers_by_checkpoint(d["checkpoint_facts"])
    return template.render(
        r=d, fmt=_fmt, curve_svg=curve_svg(pts), hallucinated=[c for c in d["claims"] if c["score"] == 1],
        checkpoints=checkpoints, by_checkpoint=rows,
    )  # fmt: skip


def answers_by_checkpoint(facts: list[dict[str, Any]]) -> tuple[list[int], list[dict[str, Any]]]:
    """The checkpoint turns and one row per probed fact (first-probed order): ``fact_id``, ``question``,
    ``expected``, ``cells`` (checkpoint turn -> that probe's fact result) and ``absent`` (checkpoint turn -> why
    the fact was not probed there: ``"not yet introduced"`` before its turn, ``"superseded by <id>"`` once a later
    fact replaced it) from a report's ``checkpoint_facts``."""
    checkpoints = sorted({f["checkpoint"] for f in facts if f["checkpoint"] is not None})
    rows: dict[str, dict[str, Any]] = {}
    for f in facts:
        if f["checkpoint"] is None:
            continue
        row = rows.setdefault(f["fact_id"], {"fact_id": f["fact_id"], "question": f["question"],
                                             "expected": f["expected"], "introduced_at": f.get("introduced_at"),
                                             "cells": {}})  # fmt: skip
        row["cells"][f["checkpoint"]] = f
    for row in rows.values():
        row["absent"] = {
            t: _absent_reason(row, t, rows.values()) for t in checkpoints if t not in row["cells"]
        }
    return checkpoints, list(rows.values())


def _absent_reason(row: dict[str, Any], turn: int, rows: Any) -> str:
    """Why ``row``'s fact has no probe at checkpoint ``turn``: a stated fact drops out of the probes only when a
    later fact supersedes it (the successor: the first fact with the same probe probed from then on)."""
    probed = sorted(row["cells"])
    intro = row.get("introduced_at")
    if not probed or turn < probed[0] or (intro is not None and turn < intro):
        return "not yet introduced"
    after = [
        r
        for r in rows
        if r is not row and r["cells"] and min(r["cells"]) > probed[-1] and min(r["cells"]) <= turn
    ]
    same = [r for r in after if r["question"] == row["question"]] or after
    return f"superseded by {same[0]['fact_id']}" if same else "superseded (no longer probed)"


def write_report(
    report: MemoryReport, json_path: str | Path | None = None, html_path: str | Path | None = None
) -> None:
    """Write the JSON and/or HTML report (parent folders are created; each file is written whole or not at all,
    see :func:`deepeval._files.write_text_atomic`).

    Raises:
        OSError: a path cannot be written.
    """
    if json_path is not None:
        write_text_atomic(json_path, json.dumps(report.to_dict(), indent=2, ensure_ascii=False))
    if html_path is not None:
        write_text_atomic(html_path, render_html(report))
