"""Verdict vocabulary: normalising judge verdict strings and mapping System One probabilities to verdicts.

deepeval counts a verdict only when the string is exactly ``"yes"``, so ``"Yes "``, ``"yes."`` or ``"YES"`` are
miscounted (REFERENCE §8). We normalise case, surrounding whitespace, quotes and trailing punctuation, and read the
first word, so ``"Yes, because ..."`` is ``yes``. Anything that still is not a known word raises ``ValueError``,
which makes the structured-output layer re-ask the judge.

Probability thresholds (REFERENCE §3): yes/no questions: P(yes) >= 0.5 is yes. Yes/no/borderline vocabularies:
P > 0.65 yes, P < 0.35 no, otherwise borderline.
"""

from __future__ import annotations

import re
from typing import Literal

Verdict = Literal["yes", "no", "borderline", "unsure"]

YES: Verdict = "yes"
NO: Verdict = "no"
BORDERLINE: Verdict = "borderline"
#: ours: a cascading System One judge (the embedded judge) where no stage was sure; never parsed from an LLM reply
UNSURE: Verdict = "unsure"

_WORDS: dict[str, Verdict] = {
    "yes": YES,
    "y": YES,
    "true": YES,
    "no": NO,
    "n": NO,
    "false": NO,
    "borderline": BORDERLINE,
    "idk": BORDERLINE,
    "unsure": BORDERLINE,
    "unclear": BORDERLINE,
    "partial": BORDERLINE,
    "partially": BORDERLINE,
    "ambiguous": BORDERLINE,
}

_FIRST_WORD = re.compile(r"[a-z]+")

#: P(yes) at or above which a yes/no decision is "yes".
YES_NO_CUTOFF = 0.5
#: For yes/no/borderline vocabularies: P(yes) above this is "yes" ...
BORDERLINE_HIGH = 0.65
#: ... and below this is "no"; in between (inclusive) is "borderline".
BORDERLINE_LOW = 0.35


def normalize_verdict(raw: object, *, allow_borderline: bool = True) -> Verdict:
    """Map a judge's verdict string to ``"yes"``, ``"no"`` or ``"borderline"``.

    Accepts any case, surrounding whitespace/quotes/punctuation and trailing explanation (``"Yes. It is..."``);
    booleans map to yes/no.

    Raises:
        ValueError: not a recognised verdict, or ``borderline`` when ``allow_borderline`` is False.
    """
    if isinstance(raw, bool):
        return YES if raw else NO
    if not isinstance(raw, str):
        raise ValueError(f"verdict must be a string, got {type(raw).__name__}")
    match = _FIRST_WORD.search(raw.strip().lower())
    word = match.group(0) if match else ""
    verdict = _WORDS.get(word)
    if verdict is None:
        allowed = "'yes', 'no' or 'idk'" if allow_borderline else "'yes' or 'no'"
        raise ValueError(f"verdict {raw!r} is not one of {allowed}")
    if verdict == BORDERLINE and not allow_borderline:
        raise ValueError(f"verdict {raw!r} must be 'yes' or 'no'")
    return verdict


def binary_from_probability(p: float) -> Verdict:
    """``yes`` when ``p >= 0.5`` else ``no``."""
    return YES if p >= YES_NO_CUTOFF else NO


def ternary_from_probability(p: float) -> Verdict:
    """``yes`` when ``p > 0.65``, ``no`` when ``p < 0.35``, else ``borderline``."""
    if p > BORDERLINE_HIGH:
        return YES
    if p < BORDERLINE_LOW:
        return NO
    return BORDERLINE
