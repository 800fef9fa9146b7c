"""The quickstart's own explanations of what the offline judge did (issue 42, first impression)."""

from __future__ import annotations

import io
from types import SimpleNamespace as NS

import pytest
from rich.console import Console

from deepeval.cli import quickstart


def _render(table: object) -> str:
    out = io.StringIO()
    Console(file=out, width=200, color_system=None).print(table)
    return out.getvalue()


def _conv(verdicts: list[dict], status: str) -> NS:
    return NS(test_results=[NS(name="c", status=status, metrics_data=[NS(error=None, verdicts=verdicts)])])


@pytest.mark.regression
def test_retention_table_shows_the_unsure_turn_that_fails_a_conversation() -> None:
    """A hand-labelled keeping conversation failed on one unsure turn, and a forgetting one showed 'judge missed
    it' beside FAIL: the unsure turn and its P are shown, and why it fails."""
    unsure = [{"turn": 3, "attrition": False, "verdict": "unsure", "p_yes": 0.46}]
    keeping = _render(quickstart.retention_table(_conv(unsure, "failed"), [[]]))
    assert "turn 3 unsure (P=0.46)" in keeping
    forgetting = _render(quickstart.retention_table(_conv(unsure, "failed"), [[3]]))
    assert "the unsure turn fails it" in forgetting and "judge missed it" not in forgetting
    missed = _render(quickstart.retention_table(_conv([], "passed"), [[3]]))
    assert "judge missed it" in missed


def test_encoder_only_note_names_the_failures_and_the_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEEPEVAL_READER", "off")
    row = lambda ok: NS(metrics_data=[NS(success=True), NS(success=ok)])  # noqa: E731
    rag = NS(test_results=[row(False), row(True), row(False)])
    note = quickstart._encoder_only_note(rag)
    assert note is not None and note.startswith("ContextualRelevancy failed 2 of 3 human-curated items")
    assert "--reader-only" in note and "0.80 to 0.94" in note
    assert quickstart._encoder_only_note(NS(test_results=[row(True)])) is None
