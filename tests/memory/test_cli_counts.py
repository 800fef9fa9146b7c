"""CLI: one count of stated facts for validate and generate; generate exits 0 when every fact is in the
conversation; grade prints abstention."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from deepeval.cli.main import app

MANIFEST = """
facts:
  - {id: db, statement: "The ledger will run on PostgreSQL 15.", question: "Which PostgreSQL version?", expected: "PostgreSQL 15"}
  - {id: db2, statement: "The ledger will run on PostgreSQL 16, not 15.", question: "Which PostgreSQL version?", expected: "PostgreSQL 16", supersedes: db}
  - {id: dnr, statement: "Mrs. Halvorsen asked that Pepper not receive CPR (DNR).", question: "What is the resuscitation status?", expected: "DNR"}
  - {id: rec, statement: "Recovery took nine hours.", question: "How long did recovery take?", expected: "9 hours"}
  - {id: dr, statement: "The DR site is Frankfurt.", question: "Where is the DR site?", expected: "Frankfurt", kind: never_stated}
"""


def test_validate_and_generate_print_the_same_count_and_generate_exits_0(tmp_path: Path) -> None:
    m = tmp_path / "m.yaml"
    m.write_text(MANIFEST, encoding="utf-8")
    r = CliRunner()
    v = r.invoke(app, ["memory", "validate", str(m)])
    assert v.exit_code == 0
    count = "4 stated in the conversation (3 current, 1 superseded), 1 never_stated"
    assert count in v.output
    out = tmp_path / "c.json"
    gen = r.invoke(app, ["memory", "generate", str(m), "--out", str(out), "--turns", "12"])
    assert gen.exit_code == 0, gen.output
    assert count in gen.output and "found in their turn: 4 of 4" in gen.output
    g = r.invoke(app, ["memory", "grade", str(m), "--transcript", str(out), "--offline"])
    assert g.exit_code == 0, g.output
    assert "abstention (1 never-stated facts):" in g.output
    assert json.loads(out.read_text(encoding="utf-8"))["introduced"]
