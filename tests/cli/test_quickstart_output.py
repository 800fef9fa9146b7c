"""What `deepeval quickstart` shows: conversations that forget fail (threshold 1.0) and the output says at once
which turn forgot what, beside the hand label."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from _support.markers import REGRESSION
from deepeval.cli.main import app

pytestmark = REGRESSION


@pytest.fixture(scope="module")
def output() -> str:
    result = CliRunner().invoke(app, ["quickstart", "--limit", "3"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    return result.stdout


def test_forgetting_conversations_fail(output: str) -> None:
    # the first three conversations: one keeps, two forget (it said 3/3 passed at deepeval's default 0.5)
    assert "1/3 test cases passed, 2 failed, 0 errored, 0 skipped" in " ".join(output.split())
    lines = output.splitlines()
    assert "PASS  travel-booking-retains  Knowledge Retention 1.000" in lines
    assert "FAIL  travel-booking-forgets-date" in lines and "FAIL  support-reasks-order-number" in lines


def test_the_output_names_the_turn_and_what_it_forgot(output: str) -> None:
    flat = " ".join(output.split())
    assert (
        "turn 5 forgot: There is a morning flight from Oslo to Rome on 13 July with standard meals included. "
        "the user had said: 'I need a flight from Oslo to Rome on 3 June for my wife and me.'"
    ) in flat
    assert "turn 3 forgot: Certainly. Before I continue, could you tell me your order number?" in flat
    # the per-conversation table: the hand label beside the judge's flagged turns
    assert re.search(r"│ travel-booking-forgets-date\s*│ turn 5\s*│ turn 5\s*│ FAIL", output), output
    assert re.search(r"│ travel-booking-retains\s*│ -\s*│ -\s*│ pass", output)
    assert "threshold 1: any forgetting turn fails" in flat


def test_every_line_fits_80_columns(output: str) -> None:
    """Except a command to copy, which stays one line (a command broken across lines cannot be pasted)."""
    commands = ("pip install ", "Failing test cases in full: deepeval view")
    assert max(len(line) for line in output.splitlines() if not line.startswith(commands)) <= 80
