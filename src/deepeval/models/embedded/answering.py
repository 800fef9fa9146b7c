"""Whether a statement answers what a request asks, beyond being on its topic (features for ``statement_relevant``).

The encoder rates "Our trains have free Wi-Fi" close to "Can I bring my dog on the train?": same topic. What it
cannot see is that the statement leaves out what the request is about (the dog) and gives no yes/no, or that it
deflects ("I'm not sure, check their website"). These checks are ours and rule-based:

- :func:`is_polar_question`: a yes/no request ("Can I ...?", "Is the ... open ...?").
- :func:`gives_polarity`: the statement takes a side (yes/no, a negation, "allowed", "only", ...).
- :func:`is_deflection`: the statement hedges or sends the user elsewhere instead of answering.
- :func:`is_direct_reply`: the statement opens with a yes/no or a confirmation ("Yes, it is.", "Correct."), which
  answers a yes/no request completely even though it repeats none of its words.
"""

from __future__ import annotations

import re

from deepeval.models.embedded import text as tx

_POLAR_START = re.compile(
    r"^\s*(?:(?:hi|hello|hey|please|so|and|also|quick question)[,!.:]?\s+)*"
    r"(?:can|could|may|might|is|are|was|were|am|do|does|did|will|would|should|shall|has|have|had|must)\b",
    re.IGNORECASE,
)
# words that take a side on a yes/no request (besides negations, counted by tx.NEGATIONS / n't)
_POLARITY = frozenset(
    "yes yeah yep sure certainly definitely absolutely allowed permitted welcome accepted only cannot required "
    "must possible correct incorrect right wrong true false indeed exactly".split()
)
# words that open a direct reply to a yes/no request ("Yes, it is.", "Correct.", "Of course.", "Sorry, no.")
_REPLY_START = re.compile(
    r"^\s*(?:(?:sorry|well|oh|ah|so),?\s+)?(?:yes|yeah|yep|no|nope|correct|incorrect|right|true|false|indeed|exactly|"
    r"absolutely|certainly|definitely|sure|of course|that's (?:right|correct|true|wrong)|not at all|only)\b",
    re.IGNORECASE,
)
_DEFLECT = re.compile(
    r"\b(?:i(?:'m| am) (?:not sure|afraid|unable)|i (?:don't|do not|can't|cannot) (?:know|say|help|tell|answer)|"
    r"(?:no|don't have (?:that|any)|not have (?:that|any)) information|(?:please |you (?:should|could|might|may) "
    r"(?:want to )?)(?:check|ask|contact|look at|visit|call|refer to)|hard to say|it depends|"
    r"can't (?:say|help)|cannot (?:say|help)|beyond my|not able to)\b",
    re.IGNORECASE,
)


def is_polar_question(request: str) -> bool:
    """``request`` is a yes/no question: a question starting with an auxiliary verb."""
    return tx.is_question(request) and bool(_POLAR_START.match(tx.normalize_quotes(request)))


def gives_polarity(statement: str) -> bool:
    """``statement`` takes a side: a yes/no word, a negation or a permission/availability word."""
    toks = tx.tokens(statement)
    return any(t in _POLARITY or t in tx.NEGATIONS or t.endswith("n't") for t in toks)


def is_deflection(statement: str) -> bool:
    """``statement`` hedges or refers the user elsewhere ("I'm not sure", "please check the website")."""
    return bool(_DEFLECT.search(tx.normalize_quotes(statement)))


def is_direct_reply(statement: str) -> bool:
    """``statement`` opens with a yes/no or a confirmation word ("Yes, it is.", "No, they aren't.", "Correct.")."""
    return bool(_REPLY_START.match(tx.normalize_quotes(statement)))
