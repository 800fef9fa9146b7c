"""Features that read a relevance statement beside its neighbours: an answer statement beside the answer's most
relevant other statement, a context sentence by the size of its node (examples are ours)."""

from __future__ import annotations

import pytest

from deepeval.models.embedded import scorers
from deepeval.models.embedded.calibrated import logit

QUESTION = "Is there a young driver fee if I'm 23?"
ANSWER = "Yes, Roadmate charges a young driver fee of 14 euros per day for drivers aged 21 to 24."
CAP = "The surcharge is capped at 140 euros per rental."


def test_a_statement_alone_has_no_sibling_features() -> None:
    """Without other statements there is no evidence either way: the recalibration reads its training means."""
    _, rules = scorers.statement_relevant_parts(QUESTION, CAP)
    assert "sib_best" not in rules and "link" not in rules
    _, one = scorers.statement_relevant_parts(QUESTION, CAP, CAP)
    assert "sib_best" not in one and "link" not in one


def test_a_statement_reads_the_answers_best_other_statement() -> None:
    answer = "\n".join([ANSWER, CAP, "Safe travels!"])
    p_answer, _ = scorers.statement_relevant_parts(QUESTION, ANSWER)
    _, rules = scorers.statement_relevant_parts(QUESTION, CAP, answer)
    assert rules["sib_best"] == pytest.approx(logit(p_answer))
    # "per" is no content word; "euros" of the answer is not in the request: the cap continues the answer
    assert rules["link"] == 1.0
    _, social = scorers.statement_relevant_parts(QUESTION, "Safe travels!", answer)
    assert social["link"] == 0.0


def test_continuing_a_relevant_answer_raises_a_statement() -> None:
    answer = "\n".join([ANSWER, CAP])
    assert scorers.statement_relevant(QUESTION, CAP, answer) > scorers.statement_relevant(QUESTION, CAP)


def test_single_sentence_nodes_are_marked() -> None:
    q = "What is the capital of France?"
    _, one = scorers.context_statement_relevant_parts(q, "Paris is the capital.", "Paris is the capital.")
    assert one["single"] == 1.0 and one["below_best"] == 0.0
    node = "Paris is the capital. It has two airports."
    _, two = scorers.context_statement_relevant_parts(q, "It has two airports.", node)
    assert two["single"] == 0.0
    _, bare = scorers.context_statement_relevant_parts(q, "Paris is the capital.")
    assert bare["single"] == 1.0
