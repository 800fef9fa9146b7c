from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from _memory_paths import DATASETS, EXAMPLE
from typer.testing import CliRunner

from deepeval.cli.main import app
from deepeval.memory.locomo import load_locomo

needs_locomo = pytest.mark.skipif(
    not (DATASETS / "locomo" / "locomo10.json").is_file(),
    reason="LoCoMo (CC BY-NC) is read from ../shared/datasets, which is absent here",
)


@needs_locomo
def test_locomo_loader() -> None:
    s = load_locomo(0, DATASETS)
    assert s.sample_id == "conv-26"
    assert len(s.turns) == 419
    assert len(s.manifest.facts) == 152  # categories 1-4 of conversation 0
    assert s.corrected > 0
    facts = {f.id: f for f in s.manifest.facts}
    assert facts["locomo_0_qa2"].expected == "Counseling or mental health"  # audit correction applied
    assert facts["locomo_0_qa0"].expected == "7 May 2023"
    assert s.introduced["locomo_0_qa0"] == 2  # evidence D1:3 is the third turn
    assert "LGBTQ support group" in s.turns[2].content
    assert s.turns[0].content.startswith("(session 1, 1:56 pm on 8 May, 2023) Caroline:")
    with pytest.raises(IndexError):
        load_locomo(10, DATASETS)


def test_locomo_missing_folder(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="LoCoMo not found"):
        load_locomo(0, tmp_path)


def test_cli_schema_validate_generate_grade(tmp_path: Path) -> None:
    runner = CliRunner()
    r = runner.invoke(app, ["memory", "schema"])
    assert r.exit_code == 0 and "facts" in json.loads(r.output)["properties"]
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "facts:\n  - {id: a, statement: s, question: q, expected: e}\n  - {id: a, statement: s, question: q, expected: e}\n"
    )
    r = runner.invoke(app, ["memory", "validate", str(bad)])
    assert r.exit_code == 2 and "duplicate fact id 'a'" in r.output
    conv = tmp_path / "conv.json"
    r = runner.invoke(
        app, ["memory", "generate", str(EXAMPLE), "-o", str(conv), "--turns", "30", "--seed", "2"]
    )
    assert r.exit_code == 0, r.output
    assert "missing facts: none" in r.output and len(json.loads(conv.read_text())["turns"]) == 30
    r = runner.invoke(app, ["memory", "grade", str(EXAMPLE), "--empty", "--offline"])
    # the empty-memory control reads 0 first (the README's "control: 0.0"); weighted recall's 0.200 is its floor
    first = r.output.splitlines()[0]
    assert r.exit_code == 0 and re.match(r"recall \(\d+ facts\): normalised 0\.000, weighted 0\.200, ", first)
    assert "empty memory's weighted recall is 0.200" in r.output
    r = runner.invoke(app, ["memory", "grade", str(EXAMPLE), "--transcript", str(conv), "--offline",
                            "--html", str(tmp_path / "r.html")])  # fmt: skip
    assert r.exit_code == 0 and "normalised 1.000" in r.output, r.output
    assert (tmp_path / "r.html").read_text().startswith("<!doctype html>")
