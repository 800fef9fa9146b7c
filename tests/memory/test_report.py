from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest
from markupsafe import escape as html_escape

from deepeval.memory.artifact import MemoryArtifact
from deepeval.memory.conditions import TranscriptReader, evaluate_artifact, run_short_term
from deepeval.memory.judges import EmbeddedMemoryJudge
from deepeval.memory.report import answers_by_checkpoint, curve_svg, render_html, write_report

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


def test_html_shows_every_checkpoints_answers(manifest, conversation) -> None:
    st = asyncio.run(run_short_term(manifest, conversation.turns, conversation.introduced, TranscriptReader(),
                                    judge=JUDGE, checkpoints=4))  # fmt: skip
    checkpoints, rows = answers_by_checkpoint(st.to_dict()["checkpoint_facts"])
    assert checkpoints == [9, 19, 29, 39]
    cells = {r["fact_id"]: sorted(r["cells"]) for r in rows}
    assert cells["auth_owner"] == [9, 19, 29, 39]  # introduced at turn 0: probed at every checkpoint
    assert cells["office_city"] == [39]  # introduced at turn 36
    assert cells["budget_v1"] == [9] and cells["budget_v2"] == [19, 29, 39]  # superseded at turn 18
    html = render_html(st)
    section = html.split("<h2>Answers by checkpoint</h2>", 1)[1].split("</table>", 1)[0]
    assert [f"after turn {t}" in section for t in checkpoints] == [True] * 4
    # one answer cell per probe; an empty cell says why: not yet introduced, or superseded by the later fact
    assert section.count('class="ans"') == len(st.checkpoint_facts) == sum(len(v) for v in cells.values())
    budget_v1 = next(r for r in rows if r["fact_id"] == "budget_v1")
    assert budget_v1["absent"] == {t: "superseded by budget_v2" for t in (19, 29, 39)}
    assert section.count("superseded by budget_v2") == 3
    assert section.count("not yet introduced") == 4 * len(rows) - len(st.checkpoint_facts) - 3
    row = section.split("<td>budget_v1</td>", 1)[1].split("</tr>", 1)[0]
    assert (
        "not yet introduced" not in row
    )  # after turn 18 the old budget is superseded, not "not yet" anything
    first = next(f for f in st.checkpoint_facts if f.checkpoint == 9 and f.fact_id == "churn")
    assert (
        first.answer and str(html_escape(first.answer)) in section
    )  # the answer at checkpoint 9, not only the last


def test_single_checkpoint_reports_have_no_checkpoint_table(manifest, conversation) -> None:
    st = asyncio.run(run_short_term(manifest, conversation.turns, conversation.introduced, TranscriptReader(),
                                    judge=JUDGE, checkpoints=1))  # fmt: skip
    assert "Answers by checkpoint" not in render_html(st)


@pytest.mark.regression
def test_memory_html_report_shows_control_characters_as_escapes() -> None:
    """ESC, BEL and U+202E from a --summary stayed raw in the memory HTML report (h-break low); the evaluate report
    already escaped them. Both now use _safe_text.html_finalize."""
    from deepeval._safe_text import html_finalize

    assert html_finalize("a\x1b[2Jb\u202e") == "a\\x1b[2Jb\\u202e"
    from markupsafe import Markup

    assert html_finalize(Markup("<b>ok</b>")) == Markup("<b>ok</b>")
