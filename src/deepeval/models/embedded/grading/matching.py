"""One value of the expected answer against the answer's values (numbers, dates), and word and entity presence
(:class:`TokenBag`, ``_token_match``, ``_entity_present``)."""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
from rapidfuzz import fuzz, process

from deepeval.models.embedded.grading.lexicon import (
    _HEDGE,
    _STOP,
    _TOKEN,
    CLOCK_NEAR_MIN,
    NEAR_NUMBER,
    ROUNDED_NUMBER,
    SAME_NUMBER,
)
from deepeval.models.embedded.grading.slots import _TITLES, DateVal, Number, Slots, _stem, extract_slots

# ---------------------------------------------------------------------------------------------------------------
# matching
EXACT, APPROX, MISSING, CONFLICT = "exact", "approx", "missing", "conflict"


def _kinds_compatible(a: str, b: str) -> bool:
    if a == b or "plain" in (a, b):
        return True
    return a.startswith("money") and b.startswith("money")


def _other_currency(a: str, b: str) -> bool:
    """Two amounts in two named currencies ("€52,000" for "$52,000"): a wrong unit, so a wrong value."""
    return a.startswith("money:") and b.startswith("money:") and a != b and "" not in (a[6:], b[6:])


def _comparable(n: Number, m: Number) -> tuple[float, float]:
    """The two values to compare: base units for two quantities (per second for two rates), the number as written
    when only one side has a unit ("52 minutes" vs "52")."""
    a, b = n.value, m.value
    if n.kind.startswith("qty:") != m.kind.startswith("qty:"):
        a = n.shown if n.shown is not None else a
        b = m.shown if m.shown is not None else b
    if n.per and m.per:
        a, b = a / n.per, b / m.per
    return a, b


def _unit_conflict(n: Number, answer: Slots) -> bool:
    """The answer gives a quantity of another dimension ("500 ml" for "500 g"): a wrong unit is a wrong value."""
    return n.kind.startswith("qty:") and any(
        m.kind.startswith("qty:") and m.kind != n.kind for m in answer.numbers
    )


def _beside_kind(m: Number, kind: str, answer_text: str) -> bool:
    """The plain number ``m`` shares its sentence with a number of ``kind`` ("2.7 points ..., 3.1% of customers"):
    the sentence writes that kind with its unit, so the plain number is another quantity."""
    for sentence in re.split(r"(?<=[.!?;])\s+|\n", answer_text):
        if re.search(rf"(?<![\w.]){re.escape(m.text)}(?!\w)", sentence) and any(
            x.kind == kind for x in extract_slots(sentence).numbers
        ):
            return True
    return False


def _round_sig(x: float, digits: int) -> float:
    if x == 0:
        return 0.0
    return round(x, -int(np.floor(np.log10(abs(x)))) + digits - 1)


def _match_number(
    n: Number, answer: Slots, answer_text: str, question: Slots, expected_text: str = ""
) -> str:
    """The match status of the expected number ``n`` against the answer's numbers; the same number after a hedge
    ("about 14") is approximate unless ``expected_text`` hedges it too."""
    best = MISSING
    for m in answer.numbers:
        if not _kinds_compatible(n.kind, m.kind) or _other_currency(n.kind, m.kind):
            continue
        if m.kind == "plain" != n.kind and _beside_kind(m, n.kind, answer_text):
            continue  # "2.7 points of revenue, 3.1% of customers" for 2.7%: the percentage is the 3.1%
        if n.kind == "year" or m.kind == "year":
            if n.value == m.value:
                return EXACT
            continue
        nv, mv = _comparable(n, m)
        if n.kind == m.kind == "qty:clock":  # a time of day: the same minute, or a hedged one near it
            if nv == mv:
                return EXACT
            best = APPROX if abs(nv - mv) <= CLOCK_NEAR_MIN and _HEDGE.search(answer_text) else best
            continue
        rel = abs(nv - mv) / max(abs(nv), 1e-9)
        if rel <= SAME_NUMBER:
            if _hedged(m, answer_text) and not _hedged(n, expected_text):
                best = APPROX  # "about 14" for 14: a hedged approximation, a minor imprecision (LABELS.md: 4)
                continue
            return EXACT
        if rel <= NEAR_NUMBER and (m.digits < n.digits or _HEDGE.search(answer_text) or n.digits < m.digits):
            best = APPROX
        elif (
            rel <= ROUNDED_NUMBER
            and m.digits < n.digits
            and _round_sig(nv, m.digits) == _round_sig(mv, m.digits)
        ):
            best = APPROX
    if best == MISSING and _unit_conflict(n, answer):
        return CONFLICT
    if best == MISSING:
        q_values = {x.value for x in question.numbers}
        if any(
            _kinds_compatible(n.kind, m.kind)
            and m.value not in q_values
            and (m.kind == "year") == (n.kind == "year")
            for m in answer.numbers
        ):
            return CONFLICT
        if n.kind == "year" and any(d.year and d.year != n.value for d in answer.dates):
            return CONFLICT
        if n.kind == "year" and any(d.year == n.value for d in answer.dates):
            return EXACT
    return best


#: a hedge right before a number: the number is given as an approximation ("about 14"); a bound ("at least 14",
#: "up to three") is left out, as it often states the fact itself (a limit: "may bring up to three crates")
_HEDGED_BEFORE = re.compile(
    r"(?:\b(?:about|around|approximately|roughly|nearly|almost|circa|some)|~)\s*$", re.IGNORECASE
)


def _hedged(m: Number, answer_text: str) -> bool:
    """Every mention of the number ``m`` in ``answer_text`` comes right after a hedge."""
    hits = [h.start() for h in re.finditer(rf"(?<![\w.]){re.escape(m.text)}(?![\w])", answer_text)]
    return bool(hits) and all(_HEDGED_BEFORE.search(answer_text[:i]) for i in hits)


def _match_date(d: DateVal, answer: Slots, question: Slots) -> str:
    best = MISSING
    for a in answer.dates:
        fields = [(d.year, a.year), (d.month, a.month), (d.day, a.day), (d.quarter, a.quarter)]
        if any(x is not None and y is not None and x != y for x, y in fields):
            continue
        if d.quarter is None and a.quarter is not None and d.month is not None:
            if (d.month - 1) // 3 + 1 == a.quarter and (d.year is None or a.year in (None, d.year)):
                best = APPROX
            continue
        if all(y is not None for x, y in fields if x is not None):
            return EXACT
        if any(x is not None and y is not None for x, y in fields):
            best = APPROX
    if best == MISSING:
        for n in answer.numbers:
            if n.kind == "year" and d.year is not None:
                if n.value == d.year:
                    # a year alone for a day ("in 2022" for "14 March 2022") is vague: it checks nothing asked
                    best = MISSING if d.day else (APPROX if d.month else EXACT)
                    if d.day:
                        break
                else:
                    return CONFLICT
        q_dates = {x.text.lower() for x in question.dates}
        if best == MISSING and any(a.text.lower() not in q_dates for a in answer.dates):
            return CONFLICT
    return best


class TokenBag:
    """Tokens of a text indexed for fast :func:`_token_match` (exact, stem, 4+-character prefix, fuzzy >= 85)."""

    __slots__ = ("long", "prefixes", "stems", "tokens")

    def __init__(self, tokens: Sequence[str]) -> None:
        low = [t.lower() for t in tokens]
        self.tokens = frozenset(low)
        self.stems = frozenset(_stem(t) for t in low)
        self.prefixes: dict[str, list[str]] = {}
        for t in self.tokens:
            if len(t) >= 4:
                self.prefixes.setdefault(t[:4], []).append(t)
        self.long = [t for t in self.tokens if len(t) >= 5]

    def match(self, word: str) -> bool:
        w = word.lower()
        if w in self.tokens or _stem(w) in self.stems:
            return True
        if len(w) >= 4:
            for lt in self.prefixes.get(w[:4], ()):
                n = min(len(w), len(lt))
                if lt.startswith(w[:n]) or w.startswith(lt[:n]):
                    return True
        if len(w) >= 5 and self.long:
            return process.extractOne(w, self.long, scorer=fuzz.ratio, score_cutoff=85) is not None
        return False


def _token_match(word: str, tokens: Sequence[str] | TokenBag) -> bool:
    bag = tokens if isinstance(tokens, TokenBag) else TokenBag(tokens)
    return bag.match(word)


def _entity_present(
    entity: str, answer_text: str, answer_tokens: Sequence[str] | TokenBag, *, whole_name: bool = False
) -> bool:
    """Every content word of ``entity`` is in the answer (exactly, by stem, by a 4+-character prefix: "Postgres"
    for "PostgreSQL", or fuzzily), the entity is verbatim, or the answer names it by an alias
    (:func:`_named_by_alias`).

    With ``whole_name`` (the expected value itself, not a subject the question names) the entity must be the whole
    name where it appears: a verbatim occurrence inside a longer proper name ("New York" for "York", "Porto Alegre",
    "Java Script") or a longer word that begins with it ("Yorkshire", "JavaScript") does not count."""
    if not whole_name:
        if entity.lower() in answer_text.lower():
            return True
        match_word = _token_match
    else:
        verbatim = _verbatim_spans(entity, answer_text)
        if any(not _inside_longer_name(answer_text, s, e) for s, e in verbatim):
            return True
        if verbatim:
            return False  # only inside a longer name
        match_word = _name_word_match
    words = [w for w in _TOKEN.findall(entity) if w.lower() not in _STOP]
    bag = answer_tokens if isinstance(answer_tokens, TokenBag) else TokenBag(answer_tokens)
    if bool(words) and all(match_word(w, bag) for w in words):
        return True
    return bool(words) and _named_by_alias(words, answer_text)


def named_as_name(entity: str, answer_text: str) -> bool:
    """Each capitalised word of ``entity`` is named in ``answer_text`` by the same word or a short form written as
    a name ("Postgres" for "PostgreSQL"), not by an ordinary lower-case word that resembles it ("port" for
    "Porto")."""
    words = [w for w in _TOKEN.findall(entity) if w.lower() not in _STOP]
    if _verbatim_spans(entity, answer_text) or _named_by_alias(words, answer_text):
        return True
    bag = TokenBag(_TOKEN.findall(answer_text))
    return all(_named_word(w, bag, answer_text) for w in words)


def _named_word(word: str, bag: TokenBag, answer_text: str) -> bool:
    """A capitalised word of a name is named by the same word, or by a short form written as a name ("Postgres"
    for "PostgreSQL"), not by an ordinary lower-case word that resembles it ("port" for "Porto")."""
    w = word.lower()
    if not word[:1].isupper() or w in bag.tokens or _stem(w) in bag.stems:
        return True
    return _name_word_match(word, TokenBag([t for t in _TOKEN.findall(answer_text) if not t.islower()]))


#: a longer word that begins with a name and goes on for this many letters or more is another name ("Yorkshire",
#: "JavaScript"); fewer is the same name's variant or short form ("PostgreSQL" / "Postgres", "MongoDB" / "Mongo")
_LONGER_NAME_TAIL = 3


def _verbatim_spans(entity: str, text: str) -> list[tuple[int, int]]:
    """Where ``entity`` occurs in ``text`` as whole words, its words apart or joined by hyphens
    (case-insensitive)."""
    if not entity.strip():
        return []
    # the words of a name joined by a hyphen are the same name ("Priya-Shah")
    words = r"(?:\s+|-)".join(re.escape(w) for w in entity.split())
    pattern = rf"(?<![\w-]){words}(?![\w]|-\w)"
    return [m.span() for m in re.finditer(pattern, text, re.IGNORECASE)]


def _proper_word(word: str) -> bool:
    """A capitalised word that is part of a name (not a function word, a title or a sentence's end: "The", "In",
    "Dr.")."""
    low = word.lower()
    return word[:1].isupper() and not word.endswith(".") and low not in _STOP and low not in _TITLES


def _inside_longer_name(text: str, start: int, end: int) -> bool:
    """The words at ``text[start:end]`` are part of a longer proper name: a capitalised word joins them directly,
    before (not opening the sentence) or after, with only spaces between ("New York", "Porto Alegre", "Kestrel
    Analytics")."""
    # a capitalised word that opens a sentence is no evidence of a name ("Possibly Alice Moreau")
    before = re.search(r"(?<=[\w,'\")] )([A-Za-z][\w'-]*\.?) +$", text[:start])
    after = re.match(r" +([A-Za-z][\w'-]*)", text[end:])
    return bool((before and _proper_word(before.group(1))) or (after and _proper_word(after.group(1))))


def _name_word_match(word: str, tokens: Sequence[str] | TokenBag) -> bool:
    """:meth:`TokenBag.match` for a word of a name, which a longer answer word that merely begins with it does not
    name ("York" is not in "Yorkshire", "Java" not in "JavaScript"; "Postgres" still names "PostgreSQL")."""
    bag = tokens if isinstance(tokens, TokenBag) else TokenBag(tokens)
    w = word.lower()
    if w in bag.tokens or _stem(w) in bag.stems:
        return True
    longer = [t for t in bag.tokens if t.startswith(w) and len(t) - len(w) >= _LONGER_NAME_TAIL]
    if not longer:
        return bag.match(word)
    return TokenBag([t for t in bag.tokens if t not in longer]).match(word)


#: the fewest letters of initials that name an entity ("AWS"; two letters, "PS", name too many things)
_MIN_INITIALS = 3


def _named_by_alias(words: Sequence[str], answer_text: str) -> bool:
    """The answer names the entity of ``words`` by a short form: its numeronym (first letter, the count of the
    letters between, last letter: "k8s" for "Kubernetes", "i18n"), a personal name with initials for its given
    names ("P. Shah"), or, for a name of three or more words, its initials in capitals ("AWS" for "Amazon Web
    Services")."""
    if len(words) == 1 and len(words[0]) >= 6 and words[0].isalpha():
        w = words[0].lower()
        if re.search(rf"(?<![\w-]){w[0]}{len(w) - 2}{w[-1]}(?![\w-])", answer_text, re.IGNORECASE):
            return True
    if _given_names_initialled(words, answer_text):
        return True
    if len(words) < _MIN_INITIALS or not all(w[:1].isalpha() for w in words):
        return False
    initials = "".join(w[0] for w in words).upper()
    return re.search(rf"(?<![\w-]){initials}(?![\w-])", answer_text) is not None


def _given_names_initialled(words: Sequence[str], answer_text: str) -> bool:
    """A personal name written with its given names as initials and its last name in full ("P. Shah", "P Shah",
    "M. J. Okafor" for "Mary Jane Okafor"): the same person in a common format. Only for capitalised names of two
    or more words; the initials are capitals."""
    if len(words) < 2 or not all(w[:1].isupper() and w.isalpha() for w in words):
        return False
    initials = r"\s*".join(rf"{w[0]}\.?" for w in words[:-1])
    return re.search(rf"(?<![\w-]){initials}\s+{re.escape(words[-1])}(?![\w-])", answer_text) is not None


def _name_in_part(entity: str, answer: str) -> bool:
    """The answer names a multi-word entity by its last word alone, as its own name ("Dr. Lenz" for "Dr. Hugo
    Lenz", "Moreau" for "Celeste Moreau"): not preceded by another capitalised word ("Mehmet Demir" is someone
    else)."""
    words = entity.split()
    if len(words) < 2:
        return False
    for m in re.finditer(rf"(?<!\w){re.escape(words[-1])}(?!\w)", answer):
        before = answer[: m.start()].split()
        prev = before[-1] if before else ""
        if not (prev[:1].isupper() and prev.lower().rstrip(".") not in _TITLES):
            return True
    return False


def _entity_conflict(answer: Slots, question: Slots, expected_text: str, expected_all: Slots) -> bool:
    known = " ".join([*question.entities, *question.keywords, expected_text]).lower()
    qtokens = TokenBag(_TOKEN.findall(known))
    for e in answer.entities:
        if e.lower() in known:
            continue
        if all(_token_match(w, qtokens) for w in _TOKEN.findall(e)):
            continue
        return True
    return False
