"""The schemas our metrics hand a custom model carry deepeval 4.3.1's class and field names, so user code that
branches on the schema it receives (deepeval's JSON-confinement pattern) runs unchanged: the same script
(``schema_branching_user.py``) is run under ours and under deepeval 4.3.1 and must see the same schemas and scores."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from _support.reference import reference_python, run_user_script

SCRIPT = Path(__file__).with_name("schema_branching_user.py")

#: per metric, the schemas (name, fields) a custom model is handed in llm mode, in call order
EXPECTED_OURS = {
    "AnswerRelevancyMetric": [
        ["Statements", ["statements"]],
        ["Verdicts", ["verdicts"]],
        ["AnswerRelevancyScoreReason", ["reason"]],
    ],
    "ContextualRelevancyMetric": [
        ["ContextualRelevancyVerdicts", ["verdicts"]],
        ["ContextualRelevancyScoreReason", ["reason"]],
    ],
    "KnowledgeRetentionMetric": [
        ["Knowledge", ["data", "supersedes"]],  # ours: the optional ``supersedes`` beside deepeval's ``data``
        ["Knowledge", ["data", "supersedes"]],
        ["KnowledgeRetentionVerdict", ["reason", "verdict"]],
        ["KnowledgeRetentionVerdict", ["reason", "verdict"]],
        ["KnowledgeRetentionScoreReason", ["reason"]],
    ],
}
SCORES = {"AnswerRelevancyMetric": 0.5, "ContextualRelevancyMetric": 1.0, "KnowledgeRetentionMetric": 1.0}


def _without_supersedes(seen: list[list[Any]]) -> list[list[Any]]:
    """The calls as deepeval's classes name them: without our extra ``Knowledge.supersedes``."""
    return [[name, [f for f in fields if f != "supersedes"]] for name, fields in seen]


def test_a_custom_model_branching_on_the_schema_class_works_on_ours() -> None:
    got = run_user_script(SCRIPT, reference=False)
    for metric, expected in EXPECTED_OURS.items():
        assert got[metric]["error"] is None, got[metric]
        assert got[metric]["score"] == pytest.approx(SCORES[metric]), metric
        assert got[metric]["seen"] == expected, metric


@pytest.mark.skipif(reference_python() is None, reason="deepeval 4.3.1 is not installed (bench/.venvs)")
def test_deepeval_431_hands_the_same_schemas_to_the_same_user_code() -> None:
    ours = run_user_script(SCRIPT, reference=False)
    ref = run_user_script(SCRIPT, reference=True)
    for metric in EXPECTED_OURS:
        assert ref[metric]["error"] is None, ref[metric]
        assert ref[metric]["score"] == pytest.approx(ours[metric]["score"]), metric
        # the same classes in the same order; deepeval's Knowledge has ``data`` only
        assert _without_supersedes(ours[metric]["seen"]) == ref[metric]["seen"], metric
