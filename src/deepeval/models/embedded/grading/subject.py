"""Whose value a sentence states: the probe's subject or another one (:func:`off_subject_sentences`).

A question names its subject with a modifier before a head word: "the *authentication* service", "the *platform*
team", "*Ravi's* birthday". A sentence that leaves the modifier out and puts another word before the same head ("the
*billing* service", "the *design* team", "*Maria's* birthday") speaks about another subject: whatever value it states
(another name, or the expected one) does not answer the probe, so the grader reads it as absent (grade 1), not as a
wrong value (2) or a right one (5). A sentence that repeats the modifier, shortens it ("auth" for "authentication"),
or puts a synonym there (cosine of the two words at least :data:`~.lexicon.SYNONYM_SIM`: "login" / "authentication")
is about the probe's subject. Our own rule.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from deepeval.models.embedded.grading.lexicon import _ENTITY, _NUM_WORD, _STOP, _TOKEN, SYNONYM_SIM
from deepeval.models.embedded.grading.matching import TokenBag
from deepeval.models.embedded.grading.similarity import similarity
from deepeval.models.embedded.grading.slots import PERIOD_WORDS, _stem, extract_slots
from deepeval.models.embedded.text import split_sentences

# a word (with inner apostrophes and hyphens) or one punctuation mark: punctuation ends a noun phrase
_PIECE = re.compile(r"[A-Za-z0-9][A-Za-z0-9'\u2019-]*|[^\sA-Za-z0-9]")

#: words that name no subject: question words ("how many", "what size crate", "what dose now") and prepositions ("instructions before
#: surgery", "the night before")
_NOT_SUBJECT = frozenset(
    """many much long often old far soon size now currently today still ever yet again usually exactly actually before
    after during since until till within without between among across behind beyond near against toward towards
    upon""".split()
)

#: an auxiliary before the question's subject inverts it: the word after the subject is its verb ("At what
#: temperature does the cider ferment?", "How much juice did the co-op press?", "Which region will production run
#: in?"), not the head of a noun phrase
_AUXILIARIES = frozenset("do does did will would can could should shall may might must".split())

#: determiners between an auxiliary and the subject it inverts ("does *the* cider ferment")
_DETERMINERS = frozenset("the a an this that these those my your his her its our their".split())

#: modifiers that name a state or a version of one thing, or describe its size or pace, not another thing ("the
#: new network" / "the final network", "lead walks" / "short walks"): a value given there is the value of the asked
#: subject (an outdated, an imprecise or a wrong one, which the value rules grade)
_VERSION_WORDS = frozenset(
    """new old current final latest existing previous prior original draft proposed planned revised updated
    present future upcoming next first initial recent earlier later interim temporary permanent short long big
    small large little quick slow brief extra other same different whole full usual regular normal""".split()
)

#: a word before a question's modifier that makes the pair a verb and its object, not a noun phrase ("who owns X")
_NOT_A_DETERMINER = frozenset(["who", "whom"])


def _other_period(a: str, b: str) -> bool:
    """Two different period adjectives ("monthly" / "yearly"): close in meaning, but two subjects."""
    return a != b and a in PERIOD_WORDS and b in PERIOD_WORDS


def _is_word(piece: str) -> bool:
    return piece[:1].isalnum()


_NUMBER_WORD = re.compile(rf"(?:{_NUM_WORD}|once|twice|thrice)", re.IGNORECASE)


def _content(piece: str) -> bool:
    """A word that can name a subject: not a stop word, a contraction ("who'll"), a number or a number word, alone
    or in a compound ("two freezers", "eleven-person", "minus-eighty")."""
    low = piece.lower()
    if not _is_word(piece) or low in _STOP or low in _NOT_SUBJECT or re.search(r"['\u2019](?!s?$)", low):
        return False
    return not _number(low)


def _number(piece: str) -> bool:
    """Digits or a number word, alone or in a compound ("12", "two", "thirty-five", "eleven-person")."""
    return any(part[:1].isdigit() or _NUMBER_WORD.fullmatch(part) for part in piece.lower().split("-"))


def _bare(word: str) -> str:
    """``word`` lower-cased without a possessive ending ("Ravi's" -> "ravi")."""
    return re.sub(r"['\u2019]s?$", "", word.lower())


def _possessive(word: str) -> bool:
    return bool(re.search(r"['\u2019]s?$", word))


@dataclass(frozen=True)
class _Pair:
    """A noun phrase of the question that ends in two content words: ``modifier`` ``head``, and the word after
    it (``then``: empty when a stop word, punctuation or the end follows)."""

    modifier: str
    head: str
    common: bool  # the modifier is a lower-case word, not a name or a possessive ("Ravi's", "the co-op's")
    then: str


def _subject_pairs(question: str) -> list[_Pair]:
    """The (modifier, head) pairs of the question ("the authentication service", "Ravi's birthday", "which union
    local", "the new engineering office open"): the modifier follows a determiner, punctuation, or another word of
    the phrase ("who owns Pepper" is a verb and its object), and no auxiliary makes it a subject before its verb
    ("does the cider ferment")."""
    pieces = [".", ".", *_PIECE.findall(question), "."]
    out = []
    for i in range(2, len(pieces) - 2):
        before, mod, head, after = pieces[i - 1 : i + 3]
        if not (_content(mod) and _content(head)) or before.lower() in _NOT_A_DETERMINER:
            continue
        if _bare(mod) in _VERSION_WORDS:
            continue
        then = _bare(after) if _content(after) else ""
        if _inverted(pieces[max(i - 3, 0)], pieces[i - 2], before):
            if not _compound_subject(pieces[i - 2], before, then):
                continue
            then = ""  # the word after the head is the verb ("does the ledger service run"), not part of the phrase
        common = mod[:1].islower() and not _possessive(mod)
        if any(p.lower() in _AUXILIARIES for p in pieces[max(i - 3, 0) : i]):
            then = ""  # after "will the new engineering office" the next word is the verb ("open") as well
        out.append(_Pair(_bare(mod), _bare(head), common, then))
    return out


#: words after a subject that start a time phrase, not a verb ("did the co-op press last year")
_TIME_WORDS = frozenset("last next this every each today yesterday tomorrow tonight".split())


def _compound_subject(two_before: str, before: str, then: str) -> bool:
    """After "auxiliary determiner", the modifier and head are a two-word subject when a verb follows them ("does
    the ledger service run"): a third content word that starts no time phrase ("did the co-op press last year"
    is a one-word subject and its verb)."""
    return (
        before.lower() in _DETERMINERS
        and two_before.lower() in _AUXILIARIES
        and bool(then)
        and then not in _TIME_WORDS
    )


def _inverted(three_before: str, two_before: str, before: str) -> bool:
    """The modifier is the subject of an auxiliary before it, or ends a two-word subject of one ("does the cider",
    "will production", "does the Lanternfall port target"): the next word is a verb. A version word before it
    starts a longer noun phrase instead ("will the new engineering office open")."""
    low, low2, low3 = before.lower(), two_before.lower(), three_before.lower()
    return (
        low in _AUXILIARIES
        or (low in _DETERMINERS and low2 in _AUXILIARIES)
        or (low2 in _DETERMINERS and low3 in _AUXILIARIES and _bare(before) not in _VERSION_WORDS)
    )


def _same_word(a: str, b: str) -> bool:
    return a == b or _stem(a) == _stem(b)


def _proper_name(piece: str, before: str) -> bool:
    """An acronym ("ATU") or a capitalised word inside a sentence ("drivers are Unite members"), not one that is
    capitalised only because it starts a sentence or a label ("Planning budget: ...")."""
    if _possessive(piece):
        return False
    return (len(piece) >= 2 and piece.isupper()) or (piece[:1].isupper() and _is_word(before))


def _substitute(pair: _Pair, sentence: str, q_bag: TokenBag, answer: TokenBag) -> str | None:
    """The word the sentence puts before ``head`` in place of the question's ``modifier`` ("billing" for
    "authentication" before "service"), or None. The head is the same word (or stem), never a prefix ("brand" is
    not "Brandvold"); the other word must start the sentence's noun phrase (a stop word, punctuation, the start or
    another word of the question precedes it) and be no number, unit, version or size word. For a lower-case
    ``modifier`` (``common``), a proper name in its place names the asked thing ("drivers are ATU Local 1742" for
    "which union local"), not another one; a name or possessive modifier ("Ravi's", "the co-op's") named anywhere in
    the answer sets its subject for the sentences after it. Where the question's head is followed by another word ("office open"), that word
    must be in the sentence too ("the new sales office will open"): the head is then the same thing, not a
    modifier of a third word ("daily maropitant")."""
    modifier, head = pair.modifier, pair.head
    pieces = _PIECE.findall(sentence)
    shouted = sentence.isupper()
    words = TokenBag([_bare(p) for p in pieces if _is_word(p)])
    if words.match(modifier) or (pair.then and not words.match(pair.then)):
        return None  # the sentence names the question's subject, or is not about the same phrase
    if not pair.common and answer.match(modifier):
        return (
            None  # a name or an owner set earlier in the answer ("I chair the Hollowmere co-op. ... the fee")
        )
    for j in range(1, len(pieces)):
        if not (_is_word(pieces[j]) and _same_word(_bare(pieces[j]), head)):
            continue
        other = pieces[j - 1]
        before = pieces[j - 2] if j >= 2 else "."
        if not _content(other) or q_bag.match(_bare(other)) or _bare(other) in _VERSION_WORDS:
            continue
        # another modifier of the question may come first ("the new sales office" for "the new engineering office")
        if (_content(before) and not q_bag.match(_bare(before))) or _number(before):
            continue  # a unit after a number ("15 mg now", "thirty-five pound annual fee") is not a modifier
        if pair.common and not shouted and _proper_name(other, before):
            continue  # in a sentence in capitals a capital marks no name ("ALICE OWNS THE BILLING SERVICE")
        if not _other_period(modifier, _bare(other)) and similarity(modifier, _bare(other)) >= SYNONYM_SIM:
            continue  # another word for the same subject ("login" / "authentication"), not another period
        return other
    return None


def off_subject_sentences(question: str, answer: str, expected: str = "") -> tuple[list[str], list[str]]:
    """The sentences of ``answer`` about the question's subject, and a note for each one about another subject
    ("billing service, not authentication service"; a clause about another named person,
    :func:`_bind_to_names`). With no (modifier, head) pair in the question every sentence is kept."""
    pairs = _subject_pairs(question)
    sentences, name_notes = _bind_to_names(split_sentences(answer) or [answer], question, expected)
    if not pairs:
        return sentences, name_notes
    q_bag = TokenBag([_bare(p) for p in _PIECE.findall(question) if _is_word(p)])
    a_bag = TokenBag([_bare(p) for p in _PIECE.findall(answer) if _is_word(p)])
    kept: list[str] = []
    notes: list[str] = []
    for s in sentences:
        clauses = _CLAUSE_BREAK.split(s)
        others = [n for c in clauses if (n := _other_subject(pairs, c, q_bag, a_bag)) is not None]
        ours = [c for c in clauses if _other_subject(pairs, c, q_bag, a_bag) is None]
        if others and ours and any(_names_subject(pairs, c) for c in ours):
            # each value binds to the subject of its own clause ("the platform team has 9 engineers; the data team
            # has 14"): only the clauses not about another subject are graded
            kept.append(" ".join(ours))
            notes.extend(others)
            continue
        note = _other_subject(pairs, s, q_bag, a_bag)
        if note is None:
            kept.append(s)
        else:
            notes.append(note)
    return kept, [*name_notes, *notes]


#: a label that opens a clause ("Owners: Alice Moreau (authentication service)")
_OPENING_LABEL = re.compile(r"^\s*[A-Za-z][\w' -]{0,30}:\s+")

#: a pronoun in a clause points back to a person already named: the clause may speak about the question's person
_PRONOUNS = frozenset("he she him her his hers they them their theirs".split())


def _bind_to_names(sentences: list[str], question: str, expected: str) -> tuple[list[str], list[str]]:
    """Where the question names its subject by name ("Which service does Priya Shah own?") and a sentence lists
    clauses about several named subjects ("Alice Moreau owns the authentication service and Priya Shah owns the
    billing service", "Owners: Alice Moreau (authentication); Priya Shah (billing)"), each value binds to the name
    that opens its clause: where one clause opens with the question's name, the clauses opened by another name (not
    the question's, not the expected answer's, with no pronoun pointing back) are about another subject, so only
    the rest of the sentence is graded. Any other sentence is left whole."""
    q_names = extract_slots(question).entities
    if not q_names:
        return sentences, []
    known = TokenBag(_TOKEN.findall(" ".join([*q_names, expected])))
    q_bag = TokenBag(_TOKEN.findall(" ".join(q_names)))
    kept: list[str] = []
    notes: list[str] = []
    for s in sentences:
        clauses = [c for c in _CLAUSE_BREAK.split(s) if c.strip()]
        others = [c for c in clauses if _opening_name(c, known) is False]
        if others and any(_opening_name(c, q_bag) for c in clauses):
            kept.append(" ".join(c for c in clauses if c not in others))
            notes.extend(f"{c.strip()}: about another person than {q_names[0]}" for c in others)
        else:
            kept.append(s)
    return kept, notes


def _opening_name(clause: str, names: TokenBag) -> bool | None:
    """Whether the name that opens ``clause`` (after a label) is one of ``names`` (any of its words): None when no
    name opens it or a pronoun in it points back to a person already named."""
    m = _ENTITY.match(_OPENING_LABEL.sub("", clause.strip(), count=1))
    if m is None or any(t.lower() in _PRONOUNS for t in _TOKEN.findall(clause)):
        return None
    words = [w for w in _TOKEN.findall(m.group(0)) if w.lower() not in _STOP]
    return any(names.match(w) for w in words) if words else None


#: where a sentence's clauses part: a semicolon, a comma, or a conjunction between two statements
_CLAUSE_BREAK = re.compile(r"\s*;\s*|,?\s+(?:and|but|while|whereas)\s+|,\s+", re.IGNORECASE)

#: words that point back to a subject already named ("that's due at 8 am"): never another subject
_POINTERS = frozenset("that's it's this that these those it they its their there here which what".split())


def _other_subject(pairs: list[_Pair], text: str, q_bag: TokenBag, a_bag: TokenBag) -> str | None:
    """A note when ``text`` puts another word before one of the question's subject heads, else None."""
    for pair in pairs:
        other = _substitute(pair, text, q_bag, a_bag)
        if other is not None and _bare(other).lower() not in _POINTERS:
            return f"{other} {pair.head}, not {pair.modifier} {pair.head}"
    return None


def _names_subject(pairs: list[_Pair], text: str) -> bool:
    """``text`` names a subject of the question by its modifier and head ("the platform team"), or by a lower-case
    modifier alone beside a clause that puts another word there ("Kestrel for logging; Orca for *observability*",
    "the yearly cloud budget is ...; the *monthly* budget is ...")."""
    words = TokenBag([_bare(p) for p in _PIECE.findall(text) if _is_word(p)])
    return any(words.match(p.modifier) and (words.match(p.head) or p.common) for p in pairs)
