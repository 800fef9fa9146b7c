"""The user's occupation as a slot: what a fact says the user does for a living, and which occupation an assistant
sentence takes the user to have ("As a teacher, you ...").

Occupations carry no number, date or capitalised name, so the value checks of the retention features cannot see a
contradiction ("As a teacher" to a nurse). ``I work as a(n) X`` names an occupation whatever X is; elsewhere ("I'm
a nurse", "as a teacher") a word must be in the small list below, so that "I'm a beginner" or "as a rule" name
none. The list is ours and deliberately short.
"""

from __future__ import annotations

import re

from deepeval.models.embedded import text as tx

_OCCUPATION_WORDS = """nurse teacher doctor physician surgeon dentist pharmacist vet veterinarian engineer developer programmer
    architect lawyer solicitor barrister accountant chef cook baker waiter waitress barista farmer electrician
    plumber carpenter mechanic pilot driver firefighter paramedic police officer soldier journalist writer editor
    designer artist musician photographer scientist researcher professor lecturer student librarian cashier
    salesman saleswoman consultant manager analyst translator therapist psychologist midwife carer cleaner
    hairdresser builder tutor actor actress banker""".split()
OCCUPATIONS = frozenset(tx.stem(w) for w in _OCCUPATION_WORDS)
_ARTICLE = r"(?:an?\s+)"
_PHRASE = r"(?:[a-z-]+\s+){0,2}[a-z-]+"  # up to three words: "second-year law student"
_WORK_AS = re.compile(rf"\bwork(?:ing|s|ed)?\s+as\s+{_ARTICLE}?({_PHRASE})", re.IGNORECASE)
_I_AM = re.compile(rf"\b(?:i\s+am|i'm|im)\s+{_ARTICLE}({_PHRASE})", re.IGNORECASE)
_MY_JOB = re.compile(rf"\bmy\s+(?:job|occupation|profession)\s+is\s+(?:an?\s+)?({_PHRASE})", re.I)
#: an assistant sentence that takes the user to have an occupation: "As a teacher, you", "since you're a chef"
_YOU_ARE = re.compile(
    rf"(?:^|[,;]\s*)as\s+{_ARTICLE}({_PHRASE})\s*,|\byou(?:\s+are|'re)\s+{_ARTICLE}({_PHRASE})|"
    rf"\bfor\s+{_ARTICLE}({_PHRASE})\s+like\s+you\b",
    re.IGNORECASE,
)


def _listed(phrase: str) -> str | None:
    """The first listed occupation in a short phrase ("law student in" -> "student"), else ``None``."""
    return next((w for w in (tx.stem(t) for t in phrase.lower().split()) if w in OCCUPATIONS), None)


def occupation_of(fact: str) -> str | None:
    """The occupation ``fact`` says the user has (its head word, stemmed), else ``None``."""
    text = tx.normalize_quotes(fact)
    m = _WORK_AS.search(text) or _MY_JOB.search(text)
    if m:
        return _listed(m.group(1)) or tx.stem(m.group(1).lower().split()[0])
    m = _I_AM.search(text)
    return _listed(m.group(1)) if m else None


def attributed_occupation(sentence: str) -> str | None:
    """The listed occupation ``sentence`` takes the user to have ("As a teacher, you might ..."), else ``None``."""
    for m in _YOU_ARE.finditer(tx.normalize_quotes(sentence)):
        phrase = next(g for g in m.groups() if g)
        found = _listed(phrase)
        if found:
            return found
    return None


#: a question for the occupation itself ("What do you do for a living?", "What's your job?"); "What do you do on
#: weekends?" and "What kind of engineering do you do?" ask for something else
_ASKS_JOB = re.compile(
    r"\bwhat do you do\s*(?:for (?:a living|work|your job)\b|\?)|\bwhat(?:'s| is) your (?:job|occupation|profession|"
    r"line of work)\b|\bwhat (?:kind|sort|type|line) of (?:work|job)\b|\bwhat (?:job|work) do you\b|\bwhere do you work\b",
    re.IGNORECASE,
)


def asks_occupation(question: str) -> bool:
    """True for a question that asks what the user does for a living."""
    return bool(_ASKS_JOB.search(tx.normalize_quotes(question)))
