from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

from deepeval.memory.artifact import MemoryArtifact
from deepeval.memory.conditions import TranscriptReader, evaluate_artifact, run_short_term
from deepeval.memory.judges import EmbeddedMemoryJudge
from deepeval.memory.report import curve_svg, render_html, write_report

JUDGE = EmbeddedMemoryJudge()


def test_html_and_json_reports(manifest, conversation, tmp_path: Path) -> None:
    st = asyncio.run(run_short_term(manifest, conversation.turns, conversation.introduced, TranscriptReader(),
                                    judge=JUDGE, checkpoints=3))  # fmt: skip
    write_report(st, tmp_path / "r.json", tmp_path / "r.html")
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["condition"] == "short_term" and len(data["curve"]) == 3
    assert {f["fact_id"] for f in data["facts"]} >= {"db_choice", "series_b"}
    html = (tmp_path / "r.html").read_text()
    assert "<svg" in html and html.count("<circle") == 3
    assert not re.search(r"""(src|href)\s*=\s*["']?https?:""", html)  # no external assets
    assert "<script" not in html
    assert "db_choice" in html and "Which database did the team choose" in html


def test_html_escapes_memory_content(manifest) -> None:
    wiki = MemoryArtifact.from_wiki({"Evil": "<script>alert(1)</script> Sequoia Capital led the Series B."})
    r = asyncio.run(evaluate_artifact(manifest, wiki, transcript=MemoryArtifact.from_text("Nothing here."),
                                      judge=JUDGE))  # fmt: skip
    html = render_html(r)
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "Hallucinated claims" in html


def test_curve_svg() -> None:
    assert curve_svg([]) == ""
    svg = curve_svg([(9, 0.5), (19, 1.0)])
    assert svg.startswith("<svg") and svg.count("<circle") == 2 and "turn 19: 1.000" in svg
