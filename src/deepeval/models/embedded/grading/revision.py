"""A value the memory states and later revises: "Update: X no longer owns it", "Correction: that was wrong; Y owns
it", "As of June, Y took over", "Scratch that, it runs on MySQL 8". The latest statement about the subject is the
memory's answer, so the grader reads the answer from the last revising sentence on (:func:`latest_statement`), and
retrieval brings such a later sentence along with the one it revises (``memory/retrieval.py``). Our own rule."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from deepeval.models.embedded.grading.cues import fact_negated
from deepeval.models.embedded.grading.lexicon import _STOP, _TOKEN
from deepeval.models.embedded.grading.matching import TokenBag
from deepeval.models.embedded.grading.slots import extract_slots
from deepeval.models.embedded.text import split_sentences

#: a sentence that revises an earlier statement: a correction or update label, a retraction, a change of hands or
#: of state from some time on
REVISES = re.compile(
    r"\b(?:update[sd]?|correction|corrected|scratch\s+that|(?:that|this|it)(?:\s+was|'s|\s+is)\s+(?:wrong|"
    r"incorrect|outdated|not\s+(?:right|true|correct))|no\s+longer|not\s+any\s*more|as\s+of|took\s+over|taken\s+over|"
    r"takes\s+over|actually|instead|moved|switched|turns\s+out|retract\w*|cancell?ed|called\s+off|scrapped|shelved|"
    r"abandoned|reversed)\b",
    re.IGNORECASE,
)

#: a revision that needs no words of the question: it takes back what was just said ("Scratch that, ...")
_TAKES_BACK = re.compile(
    r"\b(?:correction|scratch\s+that|(?:that|this|it)(?:\s+was|'s|\s+is)\s+(?:wrong|incorrect|outdated|not\s+"
    r"(?:right|true|correct))|retract\w*)\b",
    re.IGNORECASE,
)


def question_words(question: str) -> list[str]:
    """The question's content words that a sentence about its subject names."""
    return [w for w in extract_slots(question).keywords if len(w) > 2 and w.lower() not in _STOP]


def takes_back(sentence: str) -> bool:
    """``sentence`` takes back what was said just before it, naming nothing ("Scratch that", "that was wrong")."""
    return _TAKES_BACK.search(sentence) is not None


#: the share of the question's words a revising sentence names to be about the question's subject
REVISION_SHARE = 0.5


def revises(sentence: str, question_words: Sequence[str], earlier: frozenset[str] = frozenset()) -> bool:
    """``sentence`` revises an earlier statement about the subject of ``question_words``: it carries a revision cue
    and names at least :data:`REVISION_SHARE` of those words, or it negates or undoes one of the names ``earlier``
    (:func:`stated_names`: what the memory said about the subject before it) states ("Update: the Porto plan was
    cancelled; Lisbon instead" after "The office will open in Porto"), or it takes back what was just said."""
    if _TAKES_BACK.search(sentence):
        return True
    if not REVISES.search(sentence) or not question_words:
        return False
    if _about(sentence, question_words):
        return True
    return any(fact_negated(sentence, [name]) for name in _names(sentence) & earlier)


def _names(text: str) -> set[str]:
    """The names ``text`` states, lower-cased."""
    return {e.lower() for e in extract_slots(text).entities}


def stated_names(earlier: str, question: str) -> frozenset[str]:
    """The names ``earlier`` states that the question does not (a name the question gives is its subject, not a
    value of it; numbers are left out: a shared count or amount is too common to tie two sentences together)."""
    return frozenset(_names(earlier) - _names(question))


def _about(sentence: str, question_words: Sequence[str]) -> bool:
    """``sentence`` names at least :data:`REVISION_SHARE` of the question's words: it speaks about its subject."""
    bag = TokenBag(_TOKEN.findall(sentence))
    return sum(bag.match(w) for w in question_words) >= max(
        1, math.ceil(REVISION_SHARE * len(question_words))
    )


def latest_statement(question: str, answer: str) -> str:
    """``answer`` from its last sentence that revises an earlier statement about the question's subject on (the whole
    answer when none does): the value stated before it is no longer the memory's answer."""
    sentences = split_sentences(answer)
    if len(sentences) < 2:
        return answer
    words = question_words(question)
    for j in range(len(sentences) - 1, 0, -1):
        earlier = stated_names(" ".join(s for s in sentences[:j] if words and _about(s, words)), question)
        if revises(sentences[j], words, earlier):
            return " ".join(sentences[j:])
    return answer
