"""`deepeval memory validate|grade` with bad files -- the documented contract is exit code 2 and a
one-line error, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from _support.markers import REGRESSION
from deepeval.cli.main import app

pytestmark = REGRESSION


MANIFEST = {
    "facts": [
        {"id": "f1", "statement": "The user's dog is named Biscuit.", "question": "What is the name of the user's dog?",
         "expected": "Biscuit"},
        {"id": "f2", "statement": "The user lives in Leeds.", "question": "Where does the user live?",
         "expected": "Leeds"},
        {"id": "f3", "statement": "The user moved to York.", "question": "Where does the user live?",
         "expected": "York", "supersedes": "f2"},
    ]
}  # fmt: skip


@pytest.fixture
def manifest(tmp_path: Path) -> Path:
    path = tmp_path / "m.json"
    path.write_text(json.dumps(MANIFEST), encoding="utf-8")
    return path


def _clean_usage_error(args: list[str]) -> None:
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2, (result.exit_code, repr(result.exception), result.output[-400:])
    assert isinstance(result.exception, SystemExit), repr(result.exception)


def test_validate_non_utf8_manifest_is_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(b"\xff\xfe\x00garbage")
    _clean_usage_error(["memory", "validate", str(path)])


@pytest.mark.parametrize("payload", [{"turns": 5}, {"foo": 1}, [{"role": "user"}]])
def test_grade_malformed_transcript_is_exit_2(manifest: Path, tmp_path: Path, payload: object) -> None:
    transcript = tmp_path / "t.json"
    transcript.write_text(json.dumps(payload), encoding="utf-8")
    _clean_usage_error(["memory", "grade", str(manifest), "--transcript", str(transcript)])


def test_grade_summary_and_wiki_together_is_a_usage_error(manifest: Path, tmp_path: Path) -> None:
    summary = tmp_path / "s.md"
    summary.write_text("- Dog: Biscuit\n- Lives in York\n", encoding="utf-8")
    wiki = tmp_path / "wiki"
    wiki.mkdir()
    _clean_usage_error(["memory", "grade", str(manifest), "--summary", str(summary), "--wiki", str(wiki)])


def test_grade_unwritable_json_path_is_a_clean_error(manifest: Path, tmp_path: Path) -> None:
    summary = tmp_path / "s.md"
    summary.write_text("- Dog: Biscuit\n", encoding="utf-8")
    blocker = tmp_path / "blocker"
    blocker.write_text("a file, not a folder", encoding="utf-8")
    result = CliRunner().invoke(
        app, ["memory", "grade", str(manifest), "--summary", str(summary), "--json", str(blocker / "r.json")]
    )
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code in (1, 2)


def test_grade_mentioned_but_not_current_value_is_not_top_grade(manifest: Path, tmp_path: Path) -> None:
    summary = tmp_path / "s.md"
    summary.write_text("- Lives in Leeds (considered moving to York)\n", encoding="utf-8")
    out = tmp_path / "r.json"
    result = CliRunner().invoke(
        app, ["memory", "grade", str(manifest), "--summary", str(summary), "--json", str(out), "--offline"]
    )
    assert result.exit_code == 0, result.output
    scores = {f["fact_id"]: f["score"] for f in json.loads(out.read_text(encoding="utf-8"))["facts"]}
    assert scores["f3"] < 5


def test_control_grade_superseded_value_scores_low(manifest: Path, tmp_path: Path) -> None:
    summary = tmp_path / "s.md"
    summary.write_text("- Dog: Biscuit\n- Lives in Leeds\n", encoding="utf-8")
    out = tmp_path / "r.json"
    result = CliRunner().invoke(
        app, ["memory", "grade", str(manifest), "--summary", str(summary), "--json", str(out), "--offline"]
    )
    assert result.exit_code == 0, result.output
    scores = {f["fact_id"]: f["score"] for f in json.loads(out.read_text(encoding="utf-8"))["facts"]}
    assert scores == {"f1": 5, "f3": 2}


def test_generated_transcript_probed_as_memory_gets_the_current_value(manifest: Path, tmp_path: Path) -> None:
    conv = tmp_path / "conv.json"
    runner = CliRunner()
    gen = runner.invoke(app, ["memory", "generate", str(manifest), "-o", str(conv), "--turns", "6"])
    assert gen.exit_code == 0, gen.output
    out = tmp_path / "r.json"
    result = runner.invoke(
        app, ["memory", "grade", str(manifest), "--transcript", str(conv), "--json", str(out), "--offline"]
    )
    assert result.exit_code == 0, result.output
    scores = {f["fact_id"]: f["score"] for f in json.loads(out.read_text(encoding="utf-8"))["facts"]}
    assert scores == {"f1": 5, "f3": 5}


def test_short_term_unreachable_endpoint_is_a_clean_error(
    manifest: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    conv = tmp_path / "conv.json"
    runner = CliRunner()
    assert (
        runner.invoke(app, ["memory", "generate", str(manifest), "-o", str(conv), "--turns", "6"]).exit_code
        == 0
    )
    monkeypatch.setenv("BREAKER_ENDPOINT_KEY", "sk-test-endpoint")
    result = runner.invoke(
        app,
        ["memory", "short-term", str(manifest), "--transcript", str(conv), "--base-url", "http://127.0.0.1:9/v1",
         "--model", "m", "--api-key-env", "BREAKER_ENDPOINT_KEY", "--offline", "--checkpoints", "1"],
    )  # fmt: skip
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code in (1, 2)
    assert "127.0.0.1:9" in result.output
    assert "judge" not in result.output  # the model under test is no judge (outside attack 5, L16)


# ----------------------------------------------------------------------------------------------------------
# `deepeval memory grade --json P --html P` (the same path for both reports).


ONE_FACT_MANIFEST = {
    "facts": [
        {"id": "f1", "statement": "The user's dog is named Biscuit.", "question": "What is the name of the user's dog?",
         "expected": "Biscuit"},
    ]
}  # fmt: skip


def test_same_path_for_json_and_html_is_refused_or_keeps_the_json(tmp_path: Path) -> None:
    manifest = tmp_path / "m.json"
    manifest.write_text(json.dumps(ONE_FACT_MANIFEST), encoding="utf-8")
    summary = tmp_path / "s.md"
    summary.write_text("- Dog: Biscuit\n", encoding="utf-8")
    out = tmp_path / "r.json"
    result = CliRunner().invoke(
        app,
        ["memory", "grade", str(manifest), "--summary", str(summary), "--json", str(out), "--html", str(out)],
    )
    if result.exit_code == 2:  # refused up front: fine
        return
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text(encoding="utf-8"))["facts"][0]["fact_id"] == "f1"
