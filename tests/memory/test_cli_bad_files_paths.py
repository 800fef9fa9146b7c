"""`deepeval memory grade --json P --html P` (the same path for both reports)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from _support.markers import REGRESSION
from deepeval.cli.main import app

pytestmark = REGRESSION

MANIFEST = {
    "facts": [
        {"id": "f1", "statement": "The user's dog is named Biscuit.", "question": "What is the name of the user's dog?",
         "expected": "Biscuit"},
    ]
}  # fmt: skip


def test_same_path_for_json_and_html_is_refused_or_keeps_the_json(tmp_path: Path) -> None:
    manifest = tmp_path / "m.json"
    manifest.write_text(json.dumps(MANIFEST), encoding="utf-8")
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
