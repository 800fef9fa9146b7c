"""Progress bars of the memory commands: rich bars on a terminal, nothing when stderr is not one or with --quiet."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from _memory_paths import EXAMPLE
from rich.console import Console
from typer.testing import CliRunner

import deepeval.cli.memory_progress as progress_mod
from deepeval.cli.main import app
from deepeval.cli.memory_progress import MemoryProgress


def _terminal(buf: io.StringIO) -> Console:
    return Console(file=buf, force_terminal=True, width=110, color_system=None)


def test_bars_on_a_terminal() -> None:
    buf = io.StringIO()
    with MemoryProgress(console=_terminal(buf)) as p:
        assert p.enabled
        p.start("probing the memory", 3)
        p.advance()
        p.advance(2)
        p.start("extracting claims", 0)  # unknown length: a pulsing bar, completed when the next stage starts
        p.start("verifying claims", 2)
        p.advance(2)
    text = buf.getvalue()
    assert "probing the memory" in text and "3/3" in text and "verifying claims" in text and "2/2" in text
    assert p.stages == [("probing the memory", 3), ("extracting claims", 0), ("verifying claims", 2)]
    assert p.done == 5


def test_no_bars_off_a_terminal_or_when_quiet() -> None:
    plain = io.StringIO()
    with MemoryProgress(console=Console(file=plain, force_terminal=False)) as p:
        p.start("probing the memory", 2)
        p.advance(2)
    assert not p.enabled and plain.getvalue() == "" and p.done == 2
    buf = io.StringIO()
    with MemoryProgress(quiet=True, console=_terminal(buf)) as q:
        q.start("probing the memory", 2)
        q.advance()
    assert not q.enabled and buf.getvalue() == ""


@pytest.fixture
def terminal_progress(monkeypatch: pytest.MonkeyPatch) -> io.StringIO:
    """Make the commands' MemoryProgress draw on a fake terminal (CliRunner's stderr is not one)."""
    buf = io.StringIO()

    class OnTerminal(MemoryProgress):
        def __init__(self, quiet: bool = False, console: Any = None) -> None:
            super().__init__(quiet, _terminal(buf))

    monkeypatch.setattr(progress_mod, "MemoryProgress", OnTerminal)
    return buf


def test_grade_shows_its_stages(terminal_progress: io.StringIO, conversation, tmp_path: Path) -> None:
    conv = tmp_path / "c.json"
    conv.write_text(json.dumps(conversation.to_dict()), encoding="utf-8")
    wiki = tmp_path / "wiki"
    wiki.mkdir()
    (wiki / "Infra.md").write_text(
        "- The team chose PostgreSQL 16 for the new ledger service.\n", encoding="utf-8"
    )
    r = CliRunner().invoke(app, ["memory", "grade", str(EXAMPLE), "--wiki", str(wiki), "--transcript", str(conv),
                                 "--offline"])  # fmt: skip
    assert r.exit_code == 0, r.output
    assert "probing the memory" not in r.output  # the bar goes to the terminal (stderr), not the results
    bars = terminal_progress.getvalue()
    assert "probing the memory" in bars and "11/11" in bars  # 10 live facts + the never-stated one
    assert "verifying claims" in bars and "1/1" in bars
    terminal_progress.truncate(0)
    r = CliRunner().invoke(app, ["memory", "grade", str(EXAMPLE), "--empty", "--offline", "--quiet"])
    assert r.exit_code == 0 and terminal_progress.getvalue() == ""
