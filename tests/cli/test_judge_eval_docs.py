"""docs/judge_eval.md: each example block is one file of one kind that `deepeval judge-eval` runs as written, and
the embedded judge judges every labelled unit of the examples right (the knowledge-retention example used to show a
turn the judge got wrong, in one block with every kind, which the command refuses)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deepeval.cli.main import app

DOC = Path(__file__).resolve().parents[2] / "docs" / "judge_eval.md"


def _examples() -> dict[str, str]:
    """``{file name: file text}`` of the doc's example blocks (a `name.jsonl` line, then a json block)."""
    text = DOC.read_text(encoding="utf-8")
    return dict(re.findall(r"^`(\w+\.jsonl)`[^\n]*\n```json\n(.*?)^```", text, re.M | re.S))


def test_the_doc_gives_one_example_file_per_kind() -> None:
    examples = _examples()
    kinds = {
        name: {json.loads(line)["kind"] for line in body.splitlines()} for name, body in examples.items()
    }
    assert sorted(k for ks in kinds.values() for k in ks) == sorted(
        ["answer_relevancy", "contextual_relevancy", "knowledge_retention", "claim_support", "memory_grade"]
    )
    assert all(len(ks) == 1 for ks in kinds.values())  # a file holds one kind


@pytest.mark.parametrize("name", sorted(_examples()))
def test_each_doc_example_runs_as_written_and_is_judged_right(tmp_path: Path, name: str) -> None:
    body = _examples()[name]
    path = tmp_path / name
    path.write_text(body, encoding="utf-8")
    kind = json.loads(body.splitlines()[0])["kind"]
    report = tmp_path / "report.json"
    result = CliRunner().invoke(app, ["judge-eval", str(path), "--metric", kind, "--json", str(report)])
    assert result.exit_code == 0, result.output
    summary = json.loads(report.read_text())["summary"]
    assert summary["errors"] == 0
    assert summary["binary"]["accuracy"] == 1.0, summary["binary"]
    if kind == "knowledge_retention":  # the labelled turns are every checked turn: the item score matches too
        assert summary["item_level"]["within_band"] == 1.0


def test_the_doc_examples_in_one_file_are_refused_with_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "all.jsonl"
    path.write_text("".join(_examples().values()), encoding="utf-8")
    result = CliRunner().invoke(app, ["judge-eval", str(path), "--metric", "answer_relevancy"])
    assert result.exit_code == 2
