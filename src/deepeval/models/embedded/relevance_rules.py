"""Named rules for relevance decisions (answer statements and context sentences), each explicit evidence the
encoder misses. They feed the blind recalibration of :mod:`deepeval.models.embedded.scorers` as 0/1 features; none
decides alone.

* :func:`is_social`: greetings, thanks, sign-offs and pleasantries ("Hi there!", "Great question!", "Happy baking!",
  "Let me know if you need anything else.") state nothing that answers anything.
* :func:`is_filler`: a generic remark about the topic with no checkable content ("Taxes are never fun, are they?",
  "Citations can be fiddly at first.").
* :func:`is_boilerplate`: navigation bars, footers and legal lines ("Plan your journey | Tickets | Live trains").
* :func:`answers_other_variant`: the statement is about a neighbouring case of the request: another day, month or
  season; the opposite action (uninstall for install, import for export); another variant of the same named thing
  ("Kestrel Max" for "Kestrel Go", "Year 1" for "Year 2"); or it says so ("by contrast", "unlike").
* :func:`continues_answer`: the statement shares a content word that the request does not use with the answer's
  most relevant other statement ("The surcharge is capped at 140 euros." after "Yes, a young driver surcharge of 14
  euros a day applies."): a condition or step of that answer, even when it repeats nothing of the request.
* :func:`no_shared_content`: the statement shares no content word with the request, so any relevance must be
  inferred: the evidence is weak, and :func:`unsure_when_weak` keeps the probability at or above 0.26 unless
  another rule speaks or the sentence has neighbours in its node (confidence below 0.5: the judge says it is unsure rather than give a confident no).
* :func:`restates_request`: the statement only gives the request back (asks it again, names the asking, or
  repeats it word for word); :func:`after_rules` makes it a confident no, and the scorers leave it out of the
  evidence its neighbours are read against (the answer's best other statement, its node's best sentence).
"""

from __future__ import annotations

import re

from deepeval.models.embedded import text as tx
from deepeval.models.embedded.text import MONTH_NAMES, WEEKDAY_NAMES

_SOCIAL = re.compile(
    r"^\s*(?:(?:hi|hello|hey|greetings|good (?:morning|afternoon|evening))\b"
    r"|(?:many )?thanks?\b|thank you\b|cheers\b"
    r"|(?:great|good|excellent|fair) question\b"
    r"|happy \w+\s*[!.]?\s*$"
    r"|enjoy (?:your|the)\b[^.]*!\s*$"
    r"|(?:good luck|best of luck|take care|have a (?:great|good|nice|lovely|wonderful) \w+)\b"
    r"|(?:i )?hope (?:this|that) helps\b"
    r"|(?:please )?(?:let me|let us) know if\b"
    r"|feel free to (?:ask|reach out|get in touch|contact)\b"
    r"|(?:i'm|i am|we're|we are) (?:happy|glad) to help\b"
    r"|(?:is there )?anything else (?:i|we) can\b"
    r"|give \w+ (?:\w+ )?a \w+ from (?:us|me)\b)",
    re.IGNORECASE,
)
_GREETING_WORDS = frozenset(
    "hi hello hey thanks thank cheers bye goodbye greetings morning afternoon evening there lot much".split()
)
_EVALUATIVE = frozenset(
    """fun confusing common magical brilliant smart fiddly tricky great wonderful lovely exciting amazing fantastic
    stressful daunting overwhelming frustrating rewarding beautiful popular important normal natural""".split()
)
_CHATTY = re.compile(
    r"!\s*$|,\s*(?:are|is|isn't|aren't|don't|doesn't|right)\s+(?:they|it|you|we)?\s*\?\s*$|\bhonestly\b"
    r"|\bat first\b|\bwith practice\b|\bthis time of year\b|\bso common\b|\ba good idea\b|\bsmart to\b",
    re.IGNORECASE,
)
_BOILERPLATE = re.compile(
    r"(?:\S\s+\|\s+\S.*\|)|\ball rights reserved\b|©|\bcookies?\b.*\b(?:accept|consent|settings|use)\b"
    r"|\b(?:privacy policy|terms (?:of use|and conditions)|subscribe to our|sign up for our newsletter)\b"
    r"|\bis a trading name of\b|\bregistered in england\b",
    re.IGNORECASE,
)
_WEEKDAYS = (*WEEKDAY_NAMES, "weekday", "weekend")
_MONTHS = tuple(m for m in MONTH_NAMES if m != "may")  # "may" is also a verb
_SEASONS = ("spring", "summer", "autumn", "fall", "winter")
_OPPOSITES = (
    ("install", "uninstall"),
    ("import", "export"),
    ("upload", "download"),
    ("enable", "disable"),
    ("buy", "sell"),
    ("deposit", "withdraw"),
    ("arrival", "departure"),
    ("log in", "log out"),
    ("sign in", "sign out"),
    ("join", "leave"),
    ("activate", "deactivate"),
    ("encrypt", "decrypt"),
    ("subscribe", "unsubscribe"),
    ("lend", "borrow"),
)
_MARKERS = re.compile(r"\bby contrast\b|\bin contrast\b|\bunlike\b|\bon the other hand\b", re.IGNORECASE)
_NAMED_VARIANT = re.compile(r"\b([A-Z][\w'-]+)\s+([A-Z][\w'-]*|\d+[A-Za-z]?)\b")


def _words(text: str) -> set[str]:
    return set(tx.tokens(text))


def is_social(statement: str) -> bool:
    """A greeting, thanks, sign-off or pleasantry of at most 14 words with no number (see module docstring)."""
    s = tx.normalize_quotes(statement).strip()
    toks = tx.tokens(s)
    if toks and set(toks) & _GREETING_WORDS and all(t in _GREETING_WORDS or t in tx.STOPWORDS for t in toks):
        return True  # "Hi there!", "Thanks so much!" (not "Yes, it is.": a reply to a yes/no question)
    return len(toks) <= 14 and not tx.numbers(s) and bool(_SOCIAL.search(s))


def is_filler(statement: str) -> bool:
    """A short generic remark (at most 12 words, no number) with an evaluative word and a chatty form."""
    s = tx.normalize_quotes(statement).strip()
    toks = tx.tokens(s)
    if len(toks) > 12 or tx.numbers(s):
        return False
    return bool(_EVALUATIVE & set(toks)) and bool(_CHATTY.search(s))


def is_boilerplate(statement: str) -> bool:
    """Navigation (several ``|`` separators), copyright, cookie, legal or newsletter lines."""
    return bool(_BOILERPLATE.search(tx.normalize_quotes(statement)))


def _other_of_class(q: set[str], s: set[str], members: tuple[str, ...] | list[str]) -> bool:
    def norm(words: set[str]) -> set[str]:
        return {m for m in members if m in words or f"{m}s" in words}

    qm, sm = norm(q), norm(s)
    return bool(qm) and bool(sm) and not (qm & sm)


def _opposite_action(question: str, statement: str) -> bool:
    ql, sl = f" {question.lower()} ", f" {statement.lower()} "
    for a, b in _OPPOSITES:
        for mine, other in ((a, b), (b, a)):
            mine_re, other_re = rf"\b{mine}(?:s|ed|ing|ation)?\b", rf"\b{other}(?:s|ed|ing|ation)?\b"
            if re.search(mine_re, ql) and re.search(other_re, sl) and not re.search(mine_re, sl):
                return True
    return False


def _other_variant(question: str, statement: str) -> bool:
    """The question names "<Name> <Variant>" and the statement names the same Name with another variant, and not
    the question's."""
    for name, variant in _NAMED_VARIANT.findall(question):
        if f"{name} {variant}".lower() in statement.lower():
            continue
        for s_name, s_variant in _NAMED_VARIANT.findall(statement):
            if s_name.lower() == name.lower() and s_variant.lower() != variant.lower():
                return True
    return False


def answers_other_variant(question: str, statement: str) -> bool:
    """The statement is about a neighbouring case of the request (see module docstring)."""
    q, s = _words(question), _words(statement)
    return (
        _other_of_class(q, s, _WEEKDAYS)
        or _other_of_class(q, s, _MONTHS)
        or _other_of_class(q, s, _SEASONS)
        or _opposite_action(question, statement)
        or _other_variant(question, statement)
        or bool(_MARKERS.search(statement))
    )


def no_shared_content(question: str, statement: str) -> bool:
    """No content word (stemmed) of the request occurs in the statement."""
    qw = {tx.stem(w) for w in tx.content_words(question)}
    sw = {tx.stem(w) for w in tx.content_words(statement)}
    return bool(qw) and not (qw & sw)


#: words that name the asking itself ("You are asking ...", "You want to know ..."), stemmed as content words are
_ASKING = frozenset(
    tx.stem(w) for w in "ask asking asked question wonder wondering want wants know like mean".split()
)


def restates_request(question: str, statement: str) -> bool:
    """The statement only gives the request back: every content word (stemmed) it has is the request's or names the
    asking, and it is a question itself ("What is the refund window?"), names the asking ("You are asking about
    the refund window."), or is the request word for word. It answers nothing, however much it shares with the
    request (the encoder reads it as a perfect match)."""
    sw = [tx.stem(w) for w in tx.content_words(statement)]
    qw = {tx.stem(w) for w in tx.content_words(question)}
    if not sw or not qw or set(sw) - qw - _ASKING:
        return False
    return (
        tx.is_question(statement)
        or bool(set(sw) & _ASKING - qw)
        or tx.tokens(statement) == tx.tokens(question)
    )


def continues_answer(question: str, statement: str, best_other: str | None) -> bool:
    """``statement`` shares a content word (stemmed) with ``best_other``, the answer's most relevant other
    statement, that the request does not contain (False without one)."""
    if not best_other:
        return False
    qw = {tx.stem(w) for w in tx.content_words(question)}
    own = {tx.stem(w) for w in tx.content_words(statement)}
    return bool(own & ({tx.stem(w) for w in tx.content_words(best_other)} - qw))


def rule_features(question: str, statement: str) -> dict[str, float]:
    """The rules as 0/1 features: ``social``, ``filler``, ``boilerplate``, ``other_variant``, ``weak``, ``echo``
    (:func:`restates_request`; read by :func:`after_rules`, not by the recalibration)."""
    return {
        "social": float(is_social(statement)),
        "filler": float(is_filler(statement)),
        "boilerplate": float(is_boilerplate(statement)),
        "other_variant": float(answers_other_variant(question, statement)),
        "weak": float(no_shared_content(question, statement)),
        "echo": float(restates_request(question, statement)),
    }


#: the lowest P(relevant) of a statement with weak evidence (confidence |2P - 1| < 0.5: unsure)
WEAK_FLOOR = 0.26
_EXPLICIT = ("social", "filler", "boilerplate", "other_variant", "echo")
#: the highest P(relevant) of a statement that only gives the request back (a confident "no")
ECHO_P = 0.05


def unsure_when_weak(p: float, rules: dict[str, float]) -> float:
    """``p`` raised to :data:`WEAK_FLOOR` when the statement shares no content word with the request and no explicit
    rule fired (an inference, or a fact about something else: the encoder cannot tell them apart, so the judge is
    unsure, not confidently negative); else ``p`` unchanged. The verdict stays "no" (0.26 is below the borderline
    band); under the embedded judge's share ramp the statement weighs 0.2 in a score. Chosen on blind-dev over shrinking towards 0.5 (which made off-topic statements
    borderline, counted as relevant): confident wrong verdicts 16 -> 12 (AR) and 11 -> 9 (CR), ECE 0.052 -> 0.047
    (AR) and 0.041 -> 0.064 (CR). Not for a context sentence in a node of several sentences (``single`` 0): there its
    neighbours are evidence the recalibration reads (``node_best``, ``below_best``); on blind-dev the floor raised 38
    context sentences, 1 of them relevant, and context ECE was 0.091 with it everywhere, 0.075 without it there."""
    if not rules.get("weak") or any(rules.get(k) for k in _EXPLICIT) or not rules.get("single", 1.0):
        return p
    return max(p, WEAK_FLOOR)


def after_rules(p: float, rules: dict[str, float]) -> float:
    """The last step of a relevance probability: at most :data:`ECHO_P` for a statement that restates the request
    (the encoder scores it as a perfect match, though it answers nothing: an off-topic answer plus the question
    scored AR 0.60 and CR 0.96, the question alone 1.00), else :func:`unsure_when_weak`. No blind-dev statement
    restates its request but one social line (labelled irrelevant), so blind-dev numbers are unchanged."""
    if rules.get("echo"):
        return min(p, ECHO_P)
    return unsure_when_weak(p, rules)
