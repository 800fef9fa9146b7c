"""Trivial baselines printed beside the judge: what a judge must beat to be worth running.

* relevancy (AR, CR): **word overlap**: P(relevant) = share of the input's content words (stop words dropped,
  stemmed) that the statement contains; relevant when it shares at least one (P > 0).
* knowledge retention: **always keeps** (P(forgets) = 0).
* claim support: **word overlap** against the transcript: P(supported) = share of the claim's content words found
  in the transcript; supported at >= 0.5.
* memory grade: **word overlap**: grade 5 when every content word of ``expected`` is in the answer, 3 when at
  least half are, else 1.
"""

from __future__ import annotations

from deepeval.models.embedded.text import content_words, stem


def _bag(text: str) -> set[str]:
    return {stem(w) for w in content_words(text)}


def overlap_share(needles: str, haystack: str) -> float:
    """Share of the content words of ``needles`` that occur in ``haystack`` (0 when ``needles`` has none)."""
    want = _bag(needles)
    if not want:
        return 0.0
    return len(want & _bag(haystack)) / len(want)


def relevancy_overlap(question: str, statement: str) -> float:
    """Word-overlap P(relevant) of a statement for an input."""
    return overlap_share(question, statement)


def relevant_by_overlap(p: float) -> bool:
    return p > 0.0


def claim_overlap(claim: str, transcript: str) -> float:
    """Word-overlap P(supported) of a claim against the transcript text."""
    return overlap_share(claim, transcript)


def grade_by_overlap(expected: str, answer: str) -> int:
    """Word-overlap memory grade (5, 3 or 1)."""
    share = overlap_share(expected, answer)
    return 5 if share >= 1.0 else 3 if share >= 0.5 else 1
