"""Answers that say the information is unknown, and text that addresses the grader."""

from __future__ import annotations

from deepeval.models.embedded.grading.lexicon import _ABSTAIN, _TOKEN
from deepeval.models.embedded.text import (
    is_instruction_to_evaluator,
    split_sentences,
)


# ---------------------------------------------------------------------------------------------------------------
# public API
def is_abstention(text: str) -> bool:
    """``True`` when ``text`` says the information is unknown / not in memory (e.g. "I don't know")."""
    t = text.strip()
    if not t:
        return True
    m = _ABSTAIN.search(t)
    return m is not None and len(_TOKEN.findall(t)) <= 40


def is_instruction_bearing(text: str) -> bool:
    """``True`` when some sentence of ``text`` addresses the grader (asks for a score, tells it to ignore its
    rubric): the shared detector of :mod:`deepeval.models.embedded.text`."""
    return any(is_instruction_to_evaluator(s) for s in split_sentences(text))
