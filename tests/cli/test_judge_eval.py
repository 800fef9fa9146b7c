"""``deepeval judge-eval``: reading labelled sets (clear errors, exit 2), the statistics on hand-made sets whose
values are computed by hand, and the reports."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from deepeval.cli.main import app
from deepeval.judge_eval import a_run, load_items, summarize, to_html
from deepeval.judge_eval.schema import JudgeSetError
from deepeval.testing.scripted import ScriptedSystemOne

runner = CliRunner()


def _write(tmp_path: Path, rows: list[Any], name: str = "set.jsonl") -> Path:
    path = tmp_path / name
    path.write_text(
        "\n".join(r if isinstance(r, str) else json.dumps(r) for r in rows) + "\n", encoding="utf-8"
    )
    return path


def _ar(item_id: str, question: str, statement: str, label: str, tags: list[str] | None = None) -> dict:
    return {
        "id": item_id,
        "kind": "answer_relevancy",
        "input": question,
        "actual_output": statement,
        "statements": [{"text": statement, "label": label, "tags": tags or []}],
        "tags": [],
    }


# four one-statement items; the scripted judge's P(relevant) per statement (2 right, 2 wrong)
AR_ITEMS = [
    _ar("a1", "When does the pool open?", "The pool opens at 7 am.", "relevant", ["direct_answer"]),
    _ar("a2", "Is the pool heated?", "Hello there!", "irrelevant", ["greeting"]),
    _ar("a3", "Does the pool have lockers?", "We sell towels.", "irrelevant", ["off_topic_fact"]),
    _ar("a4", "What do lockers cost?", "Lockers cost two euros.", "relevant", ["direct_answer"]),
]
P_BY_STATEMENT = {
    "The pool opens at 7 am.": 0.9,
    "Hello there!": 0.2,
    "We sell towels.": 0.8,  # wrong with confidence 0.6
    "Lockers cost two euros.": 0.4,  # wrong with confidence 0.2 (borderline)
}


def _scripted() -> ScriptedSystemOne:
    def respond(state: Any, questions: dict[str, Any]) -> dict[str, float]:
        return {qid: P_BY_STATEMENT[q.data["statement"]] for qid, q in questions.items()}

    return ScriptedSystemOne(respond)


def test_statistics_of_a_four_item_set_match_the_hand_computed_values(tmp_path: Path) -> None:
    items = load_items(_write(tmp_path, AR_ITEMS), "answer_relevancy")
    judge = _scripted()
    run = asyncio.run(a_run("answer_relevancy", items, eval_mode="hybrid", system_one_model=judge))
    s = summarize(run)
    b = s["binary"]
    assert (s["items"], s["units"], s["errors"]) == (4, 4, 0)
    assert b["accuracy"] == 0.5
    assert b["auroc"] == pytest.approx(0.75)  # pairs (pos > neg): 0.9>0.2, 0.9>0.8, 0.4>0.2; not 0.4>0.8
    assert b["brier"] == pytest.approx((0.1**2 + 0.2**2 + 0.8**2 + 0.6**2) / 4)
    assert b["ece"] == pytest.approx((0.1 + 0.2 + 0.8 + 0.6) / 4)  # one unit per bin
    assert (b["confident_wrong"], b["borderline"]) == (1, 1)
    assert b["baseline_accuracy"] == 1.0  # word overlap is right on all four
    assert s["confusion"] == {
        "irrelevant": {"irrelevant": 1, "relevant": 1},
        "relevant": {"borderline": 1, "relevant": 1},
    }
    assert s["by_tag"]["direct_answer"]["n"] == 2 and s["by_tag"]["direct_answer"]["accuracy"] == 0.5
    assert s["by_tag"]["greeting"]["accuracy"] == 1.0
    # item level: the metric's own score (borderline counts as relevant): 1, 0, 1, 1 against gold 1, 0, 0, 1
    il = s["item_level"]
    assert [i.score for i in run.items] == [1.0, 0.0, 1.0, 1.0]
    assert il["within_band"] == 0.75 and il["baseline_within_band"] == 1.0
    # one System One request per item for the statements and one per item for the metric's score
    assert judge.call_count == 8


def test_a_failing_judge_keeps_every_row_and_counts_the_errors(tmp_path: Path) -> None:
    items = load_items(_write(tmp_path, AR_ITEMS[:2]), "answer_relevancy")

    def respond(state: Any, questions: dict[str, Any]) -> dict[str, float]:
        raise RuntimeError("judge down")

    run = asyncio.run(
        a_run("answer_relevancy", items, eval_mode="hybrid", system_one_model=ScriptedSystemOne(respond))
    )
    s = summarize(run)
    assert (s["units"], s["errors"]) == (2, 2)
    assert all(u.p is None and "judge down" in (u.error or "") for u in run.units)
    assert s["confusion"] == {"irrelevant": {"error": 1}, "relevant": {"error": 1}}
    assert s["item_level"]["errors"] == 2


MG_ITEMS = [
    {"id": "m1", "kind": "memory_grade", "question": "When did Lena adopt Biscuit?", "expected": "7 May 2023",
     "answer": "7 May 2023", "grade": 5, "tags": ["exact"]},
    {"id": "m2", "kind": "memory_grade", "question": "When did Lena adopt Biscuit?", "expected": "7 May 2023",
     "answer": "I don't know", "grade": 1, "tags": ["dont_know"]},
    {"id": "m3", "kind": "memory_grade", "question": "How many rooms does the hotel have?", "expected": "48 rooms",
     "answer": "48", "grade": 5, "tags": ["short_answer"]},
    {"id": "m4", "kind": "memory_grade", "question": "When did Lena adopt Biscuit?", "expected": "7 May 2023",
     "answer": "12 May 2023", "grade": 2, "tags": ["wrong_number"]},
]  # fmt: skip


def test_cli_on_the_embedded_grader_prints_counts_and_writes_html_with_a_reliability_plot(
    tmp_path: Path,
) -> None:
    path = _write(tmp_path, MG_ITEMS)
    html_out, json_out = tmp_path / "r.html", tmp_path / "r.json"
    result = runner.invoke(
        app,
        [
            "judge-eval",
            str(path),
            "--metric",
            "memory_grade",
            "--html",
            str(html_out),
            "--json",
            str(json_out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "memory_grade on 4 items, 4 labelled units" in result.output
    doc = json.loads(json_out.read_text())
    assert [u["grade"] for u in doc["units"]] == [5, 1, 5, 2]
    assert doc["summary"]["grades"]["exact"] == 1.0
    assert doc["summary"]["grades"]["wrong_graded_4_plus"] == 0.0
    assert doc["summary"]["binary"]["accuracy"] == 1.0
    page = html_out.read_text()
    assert page.startswith("<!doctype html>") and "<svg" in page and "<script" not in page
    assert "<circle" in page and "Disagreements (0 of 4 units)" in page


@pytest.mark.regression
@pytest.mark.parametrize("option", ["--json", "--html"])
def test_unwritable_report_path_is_refused_before_any_judging(tmp_path: Path, option: str) -> None:
    path = _write(tmp_path, MG_ITEMS)
    (tmp_path / "blocker").write_text("a file, not a folder")
    bad = tmp_path / "blocker" / "report.out"
    result = runner.invoke(app, ["judge-eval", str(path), "--metric", "memory_grade", option, str(bad)])
    assert result.exit_code == 2, result.output
    assert result.output.startswith(f"deepeval judge-eval: {option} {bad} cannot be written (")
    assert "memory_grade on" not in result.output and len(result.output.splitlines()) == 1


@pytest.mark.regression
def test_a_report_failing_at_write_time_is_one_line_and_the_other_is_still_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno

    from deepeval.judge_eval import report

    path = _write(tmp_path, MG_ITEMS)
    html_out, json_out = tmp_path / "r.html", tmp_path / "r.json"
    real_write = report.write

    def disk_full_for_json(target: str | Path, text: str) -> None:
        if Path(target) == json_out:
            raise OSError(errno.ENOSPC, "No space left on device")
        real_write(target, text)

    monkeypatch.setattr(report, "write", disk_full_for_json)
    result = runner.invoke(
        app,
        [
            "judge-eval",
            str(path),
            "--metric",
            "memory_grade",
            "--json",
            str(json_out),
            "--html",
            str(html_out),
        ],
    )
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.output
    assert "memory_grade on 4 items" in result.output  # the summary was printed first
    assert f"deepeval judge-eval: cannot write --json {json_out}: No space left on device" in result.output
    assert not json_out.exists() and html_out.read_text().startswith("<!doctype html>")
    assert f"wrote {html_out}" in result.output


def test_limit_judges_only_the_first_items(tmp_path: Path) -> None:
    path = _write(tmp_path, MG_ITEMS)
    result = runner.invoke(app, ["judge-eval", str(path), "--metric", "memory_grade", "--limit", "2"])
    assert result.exit_code == 0, result.output
    assert "memory_grade on 2 items, 2 labelled units" in result.output


@pytest.mark.parametrize(
    ("rows", "metric", "message"),
    [
        (['{"id": "x",'], "memory_grade", "set.jsonl:1: not valid JSON"),
        ([MG_ITEMS[0], "[1, 2]"], "memory_grade", "set.jsonl:2: a line must hold one JSON object"),
        ([{**MG_ITEMS[0], "grade": 7}], "memory_grade", "set.jsonl:1: field 'grade': must be an integer 1-5"),
        ([MG_ITEMS[0], MG_ITEMS[0]], "memory_grade", "set.jsonl:2: field 'id': 'm1' was already used on line 1"),
        ([MG_ITEMS[0]], "answer_relevancy", "set.jsonl:1: field 'kind': must be 'answer_relevancy'"),
        (
            [{**AR_ITEMS[0], "statements": [{"text": "x", "label": "yes"}]}],
            "answer_relevancy",
            "set.jsonl:1: field 'statements[0].label': must be one of relevant, irrelevant",
        ),
        (
            [{**AR_ITEMS[0], "input": 3}],
            "answer_relevancy",
            "set.jsonl:1: field 'input': must be a string, got int",
        ),
        (
            [{"id": "c", "kind": "contextual_relevancy", "input": "q", "retrieval_context": ["a."],
              "statements": [{"node": 1, "text": "a.", "label": "relevant"}]}],
            "contextual_relevancy",
            "field 'statements[0].node': must be a node index 0..0; got 1",
        ),
        (
            [{"id": "k", "kind": "knowledge_retention",
              "turns": [{"role": "user", "content": "I am 30."}, {"role": "assistant", "content": "Ok."}],
              "labels": [{"turn": 0, "label": "keeps"}]}],
            "knowledge_retention",
            "field 'labels[0].turn': turn 0 is a user turn, not an assistant turn",
        ),
        ([""], "memory_grade", "no items (the file is empty)"),
    ],
)  # fmt: skip
def test_bad_files_exit_2_naming_file_line_and_field(
    tmp_path: Path, rows: list[Any], metric: str, message: str
) -> None:
    path = _write(tmp_path, rows)
    result = runner.invoke(app, ["judge-eval", str(path), "--metric", metric])
    assert result.exit_code == 2
    assert message in result.output
    with pytest.raises(JudgeSetError, match=r"set\.jsonl"):
        load_items(path, metric)


def test_unknown_metric_and_missing_file_exit_2(tmp_path: Path) -> None:
    result = runner.invoke(app, ["judge-eval", str(tmp_path / "x.jsonl"), "--metric", "no_such_metric"])
    assert result.exit_code == 2 and "--metric must be one of" in result.output
    result = runner.invoke(app, ["judge-eval", str(tmp_path / "missing.jsonl"), "--metric", "memory_grade"])
    assert result.exit_code == 2 and "missing.jsonl: cannot read the file" in result.output


def test_html_report_escapes_item_text(tmp_path: Path) -> None:
    rows = [_ar("a1", "Is it open?", "<b>We sell towels.</b>", "irrelevant")]
    items = load_items(_write(tmp_path, rows), "answer_relevancy")
    judge = ScriptedSystemOne(lambda state, qs: dict.fromkeys(qs, 0.9))
    run = asyncio.run(a_run("answer_relevancy", items, eval_mode="hybrid", system_one_model=judge))
    page = to_html(run, summarize(run))
    assert "&lt;b&gt;We sell towels.&lt;/b&gt;" in page and "<b>We sell" not in page


def test_grade_summary_counts_vague_or_off_topic_wrong_answers_graded_4_or_more_apart() -> None:
    from deepeval.judge_eval.report import _grades
    from deepeval.judge_eval.runners import Unit

    def unit(gold: int, grade: int, tags: list[str]) -> Unit:
        return Unit(
            "i", "item", "a", str(gold), gold >= 3, tags, gold_grade=gold, grade=grade, baseline_grade=1
        )

    g = _grades(
        [unit(1, 4, ["vague_date"]), unit(1, 1, ["vague"]), unit(2, 5, ["wrong_number"]), unit(5, 5, [])]
    )
    assert g["wrong_graded_4_plus"] == pytest.approx(2 / 3)
    assert g["vague_wrong_graded_4_plus"] == 0.5
    assert _grades([unit(5, 5, [])])["vague_wrong_graded_4_plus"] is None
