"""What a user says they have or lack ("I have a dog named Max", "I have two sons", "I don't have a car") and
whether an assistant sentence presupposes something else ("How is your cat doing?", "drive your car there").

Pets, children, siblings and partners carry no number, date or capitalised name, so the value checks of the
retention features cannot see "your cat" said to a dog owner. Within one of the small classes below, a "your X"
the facts never give, where the facts give another member of the class, is a conflicting value of that slot; a
"your X" for something the user said they lack is a negated fact presupposed. Word lists are ours and short.
"""

from __future__ import annotations

import re

from deepeval.models.embedded import text as tx

_CLASSES = {
    "pet": "dog puppy cat kitten hamster rabbit bunny parrot budgie guinea-pig tortoise turtle horse pony ferret",
    "child": "son daughter",
    "sibling": "brother sister",
    "partner": "husband wife boyfriend girlfriend",
}
#: stemmed member -> its class
_CLASS_OF = {tx.stem(w): c for c, words in _CLASSES.items() for w in words.split()}
#: a lacked class named by its collective word ("I don't have kids")
_COLLECTIVE = {
    "kid": "child",
    "kids": "child",
    "children": "child",
    "child": "child",
    "pet": "pet",
    "pets": "pet",
}
_NUM = r"(?:an?|one|two|three|four|five|\d+|some)"
_WORD = r"[a-z][\w-]*"
#: "I have a dog", "I've got two little sisters", "my son", "our cat"
_HAS = re.compile(
    rf"\b(?:i|we)(?:\s+have|\s+own|'ve got|\s+have got)\s+(?:{_NUM}\s+)?((?:{_WORD}\s+){{0,2}}{_WORD})"
    rf"|\b(?:my|our)\s+((?:{_WORD}\s+){{0,1}}{_WORD})",
    re.IGNORECASE,
)
#: "I don't have a car", "I have no kids", "I do not own a TV"
_LACKS = re.compile(
    rf"\bi\s+(?:don't|do not|didn't|did not)\s+(?:have|own)\s+(?:an?\s+|any\s+)?({_WORD})|\bi\s+have\s+no\s+({_WORD})",
    re.IGNORECASE,
)
_NOT_OWNED = re.compile(rf"\b{_WORD}\s+(?:allerg\w*|intoleran\w*|hair|walker|sitter|food)\b", re.IGNORECASE)
_YOUR = re.compile(rf"\byour\s+((?:{_WORD}\s+)?{_WORD})", re.IGNORECASE)


def _stems(phrase: str) -> list[str]:
    return [tx.stem(w) for w in phrase.lower().split()]


def owned(fact: str) -> frozenset[str]:
    """Stemmed class members (pets, children, siblings, partners) ``fact`` says the user has."""
    # "a cat allergy" / "my dog walker" names no pet the user has
    text = _NOT_OWNED.sub(" ", tx.normalize_quotes(fact))
    out = {w for m in _HAS.finditer(text) for g in m.groups() if g for w in _stems(g) if w in _CLASS_OF}
    return frozenset(out)


def lacked(fact: str) -> frozenset[str]:
    """Stemmed nouns ``fact`` says the user does not have ("car"); a lacked class stands for all its members."""
    out: set[str] = set()
    for m in _LACKS.finditer(tx.normalize_quotes(fact)):
        word = (m.group(1) or m.group(2)).lower()
        cls = _COLLECTIVE.get(word)
        out.add(tx.stem(word))
        if cls:  # "no kids" also rules out "your children" and "your son"
            out.update(w for w, c in _CLASS_OF.items() if c == cls)
            out.update(tx.stem(k) for k, c in _COLLECTIVE.items() if c == cls)
    return frozenset(out)


def presupposed(sentence: str) -> frozenset[str]:
    """Stemmed nouns a sentence takes the user to have: "your cat", "your new car", "your two daughters"."""
    return frozenset(w for m in _YOUR.finditer(tx.normalize_quotes(sentence)) for w in _stems(m.group(1)))


def conflicts(facts: list[str], sentence: str) -> tuple[bool, bool]:
    """(another member of a class the facts fill, something a fact says the user lacks) that ``sentence``
    presupposes. A member the facts name anywhere ("my son" beside "two daughters") conflicts with nothing."""
    said = presupposed(sentence)
    if not said:
        return False, False
    have = frozenset().union(*(owned(f) for f in facts))
    lack = frozenset().union(*(lacked(f) for f in facts)) - have
    named = {tx.stem(w) for f in facts for w in tx.tokens(f.lower())}
    classes = {_CLASS_OF[w] for w in have}
    other = any(w in _CLASS_OF and _CLASS_OF[w] in classes and w not in named for w in said)
    return other, bool(said & lack)
