"""Cues around a value: negated, superseded ("instead of 15"), only wished or considered ("considered York"), one
candidate among others ("MySQL or PostgreSQL"); the outdated value an answer gives as current (``_stale``)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from deepeval.models.embedded.grading.lexicon import _NEGATION, _TOKEN
from deepeval.models.embedded.grading.matching import (
    APPROX,
    EXACT,
    TokenBag,
    _entity_present,
    _match_date,
    _match_number,
)
from deepeval.models.embedded.grading.polarity import (
    DECIDED,
    NEGATING_PREDICATE,
    TAKEN_BACK_TAG,
    clause_negates,
    polarity_cue,
    undone,
    unsettled,
)
from deepeval.models.embedded.grading.slots import Slots, extract_slots
from deepeval.models.embedded.text import split_sentences

# a cue right before a value that makes it the negated or the old one: "not 15", "instead of 15", "from 40 mg"
_OLD_CUE = re.compile(
    r"\b(?:not|no\s+longer|never|isn't|wasn't|aren't|instead\s+of|rather\s+than|(?:down|up|reduced|cut\s+down|"
    r"increased|raised|lowered|changed|moved|switched|revised|corrected|updated|dropped|cut|bumped|pushed|"
    r"brought\s+forward)?\s*from(?:\s+(?:every|about|around|roughly))?|previously|formerly|originally|initially|replacing|replaces|replaced|"
    r"superseding|supersedes|was|used\s+to\s+be|old|earlier)\s+(?:the\s+|a\s+|an\s+)?$",
    re.IGNORECASE,
)


_CUE_WINDOW = 3  # words between the cue and the value ("not the 15 we planned" -> within the window)


def _value_marked(text: str, value: str, cue: re.Pattern[str]) -> list[bool]:
    """For each mention of ``value`` in ``text``: is it preceded, in its clause and within a few words, by ``cue``?"""
    out: list[bool] = []
    for m in re.finditer(rf"(?<!\w){re.escape(value)}(?!\w)", text, flags=re.IGNORECASE):
        clause = re.split(r"[.;:!?()\n]|,\s|\band\b|\bbut\b", text[: m.start()])[-1]
        tail = " ".join(clause.split()[-(_CUE_WINDOW + 2) :])
        out.append(bool(cue.search(tail + " ")))
    return out


_NEG_CUE = re.compile(
    r"\b(?:not|no\s+longer|never|isn't|wasn't|aren't|weren't|didn't|doesn't|don't|won't|cannot|can't|no)\b"
    r"(?:\s+\w+){0," + str(_CUE_WINDOW - 1) + r"}\s+$",
    re.IGNORECASE,
)


def _value_negated(answer: str, value: str) -> bool:
    """Some mention of ``value`` in ``answer`` follows a negation within its clause ("is not PostgreSQL 16"), and
    no mention states it plainly."""
    marks = _value_marked(answer, value, _NEG_CUE)
    return bool(marks) and all(marks)


# what ends a clause around a value: a sentence mark, a colon or semicolon, a bracket, ", ", a dash, "but", "and"
_CLAUSE_END = re.compile(r"[.;:!?()\[\]\n]|,\s|\s(?:-{1,2}|\u2013|\u2014)\s|\bbut\b|\band\b", re.IGNORECASE)


def fact_negated(answer: str, values: Sequence[str], numeric: Sequence[str] = ()) -> bool:
    """Every mention of the ``values`` in ``answer`` sits in a clause that negates its statement, before or after
    the value ("Priya Shah does not own it", "Priya Shah no longer owns it", "is not PostgreSQL 16"), and there is
    at least one. A negation in another clause ("Priya Shah, not Alice Moreau, owns it"; "Not 12: it has 14")
    leaves the value stated. ``numeric``: the values that are numbers. The clause's polarity:
    :func:`~deepeval.models.embedded.grading.polarity.clause_negates`."""
    found = False
    for value in values:
        for m in re.finditer(rf"(?<!\w){re.escape(value)}(?!\w)", answer, flags=re.IGNORECASE):
            if _struck_or_former(answer, m.start(), m.end()):
                found = True
                continue
            left = _without_trailing(
                _SUBORDINATE.split(_CLAUSE_END.split(answer[: m.start()])[-1])[-1], values
            )
            right = _SUBORDINATE.split(_predicate_after(answer[m.end() :], left))[0]
            # "but" ends a clause, except in an exception ("anywhere but Frankfurt"): that one reads the sentence
            sentence_left = re.split(r"[.;:!?()\[\]\n]", answer[: m.start()])[-1]
            negated = clause_negates(left, right, number=value in numeric, sentence_left=sentence_left)
            negated = negated or _tried_but_not(left, right, answer[m.end() :])
            if negated == _taken_back_by_tag(answer, m.end()):
                return False
            found = True
    return found


#: the start of a finite predicate ("is not part of", "was never signed off", "hasn't")
_FINITE_START = re.compile(
    r"^\s*(?:(?:is|are|was|were|has|have|had|will|would|did|does|do|can|could|should|may|might|never|still|"
    r"got|gets|remains|remained|stays|stayed)\b|\w+n['\u2019]t\b)",
    re.IGNORECASE,
)
_FINITE = re.compile(_FINITE_START.pattern.replace("^\\s*", "\\b"), re.IGNORECASE)


#: "but" and a negated predicate that shares the subject: "... was floated early on but isn't where we're going"
_BUT_NEXT_CLAUSE = re.compile(r"^[^.;!?]*?\bbut\b([^.;!?]*)", re.IGNORECASE)


def _tried_but_not(left: str, right: str, after: str) -> bool:
    """A value only tried, floated, proposed or requested (and not decided in its clause), then a later clause of
    its sentence that denies or undoes it with no other value named ("PostgreSQL 16 was evaluated but not chosen",
    "was proposed as owner, but the proposal fell through", "according to the draft, which has since been
    withdrawn") or an unsettled matter ("was requested and is still pending approval", "trial ended without a
    contract")."""
    around = f"{left} {right}"
    if not (_TENTATIVE_VERB.search(around) or _TENTATIVE_NOUN.search(around)) or DECIDED.search(around):
        return False
    rest = re.split(r"[.;!?](?:\s|$)", after, maxsplit=1)[0]
    if unsettled(f"{around} {rest}"):
        return True
    for clause in _LATER_CLAUSE.split(rest)[1:]:
        if NEGATING_PREDICATE.match(clause):  # "... but ultimately passed over", "... but said no"
            return True
        # with a subject of its own, a clause about another value is about that one ("PostgreSQL 16 was evaluated,
        # but MySQL was not"); a plain negator there may be about anything ("..., which nobody expected")
        named = extract_slots(clause)
        if not (named.entities or named.numbers or named.dates) and undone("", clause):
            return True
    return False


_LATER_CLAUSE = re.compile(r"\bbut\b|,\s*(?=which\b)|,\s*and\b", re.IGNORECASE)
#: a noun of trial or proposal: "Kestrel Systems' trial", "according to the draft"
_TENTATIVE_NOUN = re.compile(
    r"\b(?:trial|pilot|proposal|request|bid|nomination|candidacy|evaluation|shortlist|draft|estimate|rumou?r)s?\b",
    re.IGNORECASE,
)


#: a subordinate clause's start: a negation of the main clause does not reach into it ("Nobody objected when Porto
#: was named"), nor one inside it out of it ("Alice Moreau owns it because nobody else would")
_SUBORDINATE = re.compile(
    r"\b(?:when|whenever|after|before|because|since|although|though|while|whereas|once|until)\b",
    re.IGNORECASE,
)

#: what opens a parenthetical inside a noun phrase: a relative pronoun, a preposition, a participle phrase
_PARENTHETICAL = re.compile(
    r"^\s*(?:which|who|whom|whose|that|where|with|without|including|included|like|as|from|of|for|in|on|at|by|"
    r"led|run|owned|built|based|known|once|formerly|previously|originally|\w+ed\s+by)\b",
    re.IGNORECASE,
)


def _predicate_after(after: str, left: str = "") -> str:
    """The clause right of a value; where the value stands in a subject noun phrase (no verb before it in its
    clause) that commas interrupt ("pdfium, which the old app leaned on, is not part of the new stack"; "The
    14-person team ..., with two SREs, was never signed off"), the clause of its predicate after the parentheticals.
    A comma after a value whose clause already has its verb ends it ("will run in Frankfurt, never in us-east-1")."""
    sentence = re.split(r"(?<=[.!?])\s+|[;\n]", after, maxsplit=1)[0]
    first = _CLAUSE_END.split(sentence)[0]
    if _FINITE.search(first) or _FINITE.search(left):
        return first
    parts = re.split(r",\s|\s(?:-{1,2}|\u2013|\u2014)\s", sentence)[1:]
    for i, part in enumerate(parts):
        if i and _FINITE_START.match(part):
            return _CLAUSE_END.split(part)[0]
        if not _PARENTHETICAL.match(part):
            break
    return first
    for part in re.split(r",\s|\s(?:-{1,2}|\u2013|\u2014)\s", sentence)[1:]:
        if _FINITE_START.match(part):
            return _CLAUSE_END.split(part)[0]
    return first


#: a note right after a value that makes it a former one: "Priya Shah (former owner; now Alice Moreau)"
_FORMER_NOTE = (
    r"\s*\(\s*(?:the\s+|a\s+|an\s+)?(?:former|previous|ex-|outgoing|past|until\b|no\s+longer|retired)"
)
_FORMER_AFTER = re.compile(_FORMER_NOTE, re.IGNORECASE)

#: a self-correction after a value: "B214 - correction, B241", "5 years, but that was a mix-up", "14 (sorry, 15)"
_CORRECTED_AFTER = re.compile(
    r"^\s*(?:[-,:;(\u2013\u2014]\s*)*(?:correction|sorry|i\s+mean|make\s+that|scratch\s+that|strike\s+that|"
    r"actually)\b|^[^.;!?]{0,80}?(?:,\s*|\s+)but\s+(?:that|this|it)(?:['\u2019]s|\s+(?:was|is|turned\s+out\s+to\s+be))"
    r"\s+(?:a\s+|an\s+|just\s+a\s+)?(?:mix-?up|mistake|typo|error|wrong|incorrect|misunderstanding|misreading|"
    r"confusion|not\s+(?:right|true|correct|so))\b",
    re.IGNORECASE,
)


def _struck_or_former(answer: str, start: int, end: int, *, corrected: bool = True) -> bool:
    """The value at ``answer[start:end]`` is struck through in markdown ("~~Priya Shah~~ Alice Moreau") or followed
    by a note that makes it a former value ("Priya Shah (former owner)"), or with ``corrected``, by a self-correction
    ("B214 - correction, B241"): the memory takes it back."""
    struck = answer[:start].endswith("~~") and answer[end:].startswith("~~")
    return struck or bool(
        _FORMER_AFTER.match(answer[end:]) or (corrected and _CORRECTED_AFTER.match(answer[end:]))
    )


def taken_back(answer: str, values: Sequence[str]) -> bool:
    """Some mention of the ``values`` is struck through or noted as former (:func:`_struck_or_former`; a
    self-correction names the value in its place, so it is not taken back with nothing in its place)."""
    return any(
        _struck_or_former(answer, m.start(), m.end(), corrected=False)
        for v in values
        for m in re.finditer(rf"(?<!\w){re.escape(v)}(?!\w)", answer, flags=re.IGNORECASE)
    )


def _without_trailing(left: str, values: Sequence[str]) -> str:
    """``left`` without the values that end it: the parts of one written value ("rejected PostgreSQL" before "16")
    are read as one, so a cue right before the first part is right before each."""
    changed = True
    while changed:
        changed = False
        stripped = left.rstrip()
        for v in values:
            rest = stripped[: len(stripped) - len(v)]
            if v and stripped.lower().endswith(v.lower()) and not (rest and rest[-1].isalnum()):
                left, changed = rest, True
                break
    return left


def _taken_back_by_tag(answer: str, end: int) -> bool:
    """The sentence holding the value at ``end`` ends in a tag that takes it back ("..., said nobody ever")."""
    return bool(TAKEN_BACK_TAG.search(re.split(r"(?<=[.!?])\s+", answer[end:], maxsplit=1)[0]))


def negation_cue(text: str) -> bool:
    """``text`` has a cue that can negate or undo a statement (a negation word, "used to", an undoing verb, a
    frame that calls it false, a strike-through, a "(former ...)" note)."""
    return bool(
        _NEGATION.search(text)
        or "~~" in text
        or re.search(_FORMER_NOTE, text, re.IGNORECASE)
        or polarity_cue(text)
    )


def marked_old(text: str, value: str) -> bool:
    """``value`` appears in ``text`` only as a negated or former value ("16, not 15", "now 20 mg (reduced from 40
    mg)", "moved from 9:30 am"): the text says it is no longer the current one."""
    marks = _value_marked(text, value, _OLD_CUE)
    return bool(marks) and all(marks)


# a value named only as a past, considered or wished-for one is not the answer's value
_UNREAL_CUE = re.compile(
    r"\b(?:consider(?:ed|ing|s)?|thought about|thinking (?:about|of)|think(?:s)? about|might|would like to|"
    r"wants? to|wanted to|hop(?:e|es|ed|ing) to|plan(?:s|ned|ning)? (?:to|on)|was going to|used to|previously|"
    r"formerly|once lived|no longer|instead of|rather than|dream(?:s|ed)? of|maybe)\b",
    re.IGNORECASE,
)


_UNREAL_WINDOW = 5  # words between the cue and the value ("considered moving to York")


def _only_as_unreal(value: str, answer: str) -> bool:
    """Every mention of ``value`` in ``answer`` follows, within its clause and a few words, a cue that makes it a
    past, considered or wished-for value rather than the current one."""
    hits = list(re.finditer(rf"(?<!\w){re.escape(value)}(?!\w)", answer, flags=re.IGNORECASE))
    if not hits:
        return False
    for m in hits:
        # a comma ends the cue's reach ("previously in Dublin, now runs in Frankfurt")
        clause = re.split(r",\s", _CLAUSE.split(answer[: m.start()])[-1])[-1]
        cues = list(_UNREAL_CUE.finditer(clause))
        cue = cues[-1] if cues else None
        if cue is None or len(_TOKEN.findall(clause[cue.end() :])) > _UNREAL_WINDOW:
            return False
    return True


# a hedge: the answer lists the expected value among other candidates ("Either MySQL 8 or PostgreSQL 16.")
_OR_IDIOM = re.compile(
    r"\bor\s+(so|more|less|later|earlier|above|below|newer|older|higher|lower|fewer|greater|thereabouts|"
    r"equivalent|similar|whatever|something|rather|about|around|roughly|approximately|nearly|almost|some)\b",
    re.IGNORECASE,
)


_CLAUSE = re.compile(r"(?<=[.!?:])\s+|[;\n()\[\]]|\s+(?:-{1,2}|\u2013|\u2014)\s+")


_ALTERNATIVE = re.compile(
    r",\s+|\s+/\s+|\band/or\b|\bor\b|\beither\b|\bperhaps\b|\bmaybe\b|\bpossibly\b|\bprobably\b",
    re.IGNORECASE,
)


#: a clause that lists candidates, not a choice ("the options discussed were $40,000, $52,000 and $60,000"): its
#: items are alternatives whether "or" or "and" joins them
_CANDIDATE_LIST = re.compile(
    r"\b(?:options?|candidates?|alternatives?|choices|shortlist(?:ed)?|contenders?|proposals|on\s+the\s+table|"
    r"(?:were|are)\s+(?:considered|discussed|proposed|floated|suggested))\b",
    re.IGNORECASE,
)
_LIST_VERB = re.compile(
    r"^\W*(?:[\w'-]+\s+){0,4}?(?:are|were|include[sd]?|included|being)\b\s*:?|^\s*:", re.I
)
_LISTED = re.compile(rf"{_ALTERNATIVE.pattern}|\band\b", re.IGNORECASE)

_HEDGE_ITEM_TOKENS = 5  # a candidate in such a list is a short phrase; longer items are prose, not candidates


def _hedge_candidates(answer: str, expected: str, e_slots: Slots) -> list[str]:
    """The other candidates an answer lists beside the expected value with "or" (empty when it commits).

    In a clause that contains "or" (idioms like "or so" / "or later" and restatements like "or about $624k a year"
    / "or rather X" excluded), the items between ``,`` / ``or`` /
    ``either`` / ``perhaps`` ... are candidates when short. The answer hedges when one candidate holds an expected
    value and no other value, and another holds only values the expected answer does not name. A negation ends the
    list ("PostgreSQL 16, not MySQL 8 or Oracle" commits), and "and" does not split, so "Alice and Bob" for an
    expected pair is a committed answer.
    """
    e_tokens = TokenBag(_TOKEN.findall(expected))
    for clause in _CLAUSE.split(_OR_IDIOM.sub(" ", answer)):
        cue = _CANDIDATE_LIST.search(clause)
        listed = cue is not None
        if cue is not None:  # the list after "the options discussed were"
            clause = _LIST_VERB.sub("", clause[cue.end() :], count=1)
        elif not re.search(r"\bor\b", clause, re.IGNORECASE):
            continue
        with_expected = 0
        others: list[str] = []
        for raw in (_LISTED if listed else _ALTERNATIVE).split(clause):
            item = raw.strip(" \t,.!?\"'")
            if _NEGATION.search(item):
                break
            if not item or len(_TOKEN.findall(item)) > _HEDGE_ITEM_TOKENS:
                continue
            i_slots = extract_slots(item)
            i_tokens = TokenBag(_TOKEN.findall(item))
            hits = (
                [
                    _match_number(n, i_slots, item, Slots()) in (EXACT, APPROX)
                    for n in e_slots.numbers
                    if not n.alias
                ]
                + [_match_date(d, i_slots, Slots()) in (EXACT, APPROX) for d in e_slots.dates]
                + [_entity_present(e, item, i_tokens) for e in e_slots.entities]
            )
            extra = (
                [
                    n.text
                    for n in i_slots.numbers
                    if not n.alias and _match_number(n, e_slots, expected, Slots()) not in (EXACT, APPROX)
                ]
                + [d.text for d in i_slots.dates if _match_date(d, e_slots, Slots()) not in (EXACT, APPROX)]
                + [e for e in i_slots.entities if not _entity_present(e, expected, e_tokens)]
            )
            if any(hits) and not extra:
                with_expected += 1
            elif extra and not any(hits):
                others.append(item)
        if with_expected and others:
            return others
    return []


def _negation_near(answer: str, targets: Sequence[str]) -> bool:
    low = answer.lower()
    for m in _NEGATION.finditer(low):
        window = low[max(0, m.start() - 60) : m.end() + 60]
        if any(t.lower()[:5] in window for t in targets if t):
            return True
    return False


def _stale(
    outdated: Sequence[str], answer: str, expected: str, results: list[tuple[str, str, str]]
) -> str | None:
    """The superseded value the answer gives as current, or None. The latest value wins whether or not the old one
    is mentioned too ("PostgreSQL 16, not 15", "now 20 mg (reduced from 40 mg)"), unless the answer marks the latest
    as the old one and states the old one plainly ("15, not 16")."""
    current_ok = bool(results) and all(s in (EXACT, APPROX) for _, _, s in results)
    for old in outdated:
        o_slots = extract_slots(old)
        probe = (
            [n.text for n in o_slots.numbers if not n.alias]
            + [d.text for d in o_slots.dates]
            + o_slots.entities
        )
        probe = [p for p in probe if p.lower() not in expected.lower()] or [old]
        present = [p for p in probe if re.search(rf"(?<!\w){re.escape(p)}(?!\w)", answer, re.IGNORECASE)]
        if not present:
            continue
        plain_old = [p for p in present if not marked_old(answer, p)]
        if not current_ok:
            if plain_old:
                return old
            continue
        if plain_old and all(marked_old(answer, t) for _, t, _ in results):
            return old
    return None


# -- a value another one took the place of: "from X to Y", "Y over X", "previously X", "X lost ... to Y" ----------
#: a verb of change before "from": the value after it is the one the change left ("moved from Frankfurt to the
#: Dublin region", "slipped from 15 May to 1 July", "grew from 14 to 19", "changed from Kestrel Systems")
_CHANGE_VERB = (
    r"(?:move[sd]?|chang(?:e|es|ed)|switch(?:es|ed)?|shift(?:s|ed)?|slip(?:s|ped)|slid|push(?:es|ed)|"
    r"delay(?:s|ed)|postpone[sd]?|brought\s+forward|gr[eo]w|grown|grows|shr[aiu]nk|shrinks|rose|risen|rises|fell|"
    r"fallen|falls|dropped|jumped|climbed|increased|decreased|raised|lowered|reduced|cut|bumped|revised|corrected|"
    r"updated|went|gone|upgraded|downgraded|migrated|transferred|relocated|expanded|extended)"
)
_FROM_AFTER_CHANGE = re.compile(
    rf"\b{_CHANGE_VERB}(?:\s+(?!to\b|into\b)[\w'-]+){{0,3}}?\s+from\s+(?:the\s+|a\s+|an\s+)?$", re.IGNORECASE
)

#: a word right before a value that names it as the earlier one, the one given up or the one missed ("previously
#: 15 May", "once 14 engineers", "first reported as 2.7%", "instead of Porto", "will miss the 15 May deadline")
_SET_AS = r"(?:reported|announced|planned|set|given|stated|quoted|scheduled|slated|due|expected)"
_DISPLACED_BEFORE = re.compile(
    rf"(?:\b(?:(?:previously|formerly|originally|initially|once)(?:\s+{_SET_AS})?|first\s+{_SET_AS})"
    r"(?:\s+(?:as|at|for|on|in|to))?|"
    r"\b(?:instead\s+of|rather\s+than|"
    r"in\s+place\s+of|replacing|replaced|superseding|miss(?:es|ed|ing)?|had\s+been|(?:up|down)\s+from|beat|beats|"
    r"edged\s+out|won\s+out\s+over)|^\s*(?:was|were))\s+(?:the\s+|a\s+|an\s+)?$",
    re.IGNORECASE,
)

#: a verb of choice: a name after "over" in its clause is the option not chosen ("chose MySQL over PostgreSQL 16")
_CHOICE = re.compile(
    r"\b(?:cho(?:se|sen|ose|oses)|pick(?:s|ed)?|select(?:s|ed)?|prefer(?:s|red)?|favou?r(?:s|ed)?|went\s+with|"
    r"go(?:es)?\s+with|opted\s+for|won|wins)\b",
    re.IGNORECASE,
)
_OVER_BEFORE = re.compile(r"\bover\s+(?:the\s+|a\s+|an\s+)?$", re.IGNORECASE)

#: what a displaced value is followed by: another took its place ("X was replaced by Y", "X lost the deal to Y",
#: "X handed the service over to Y")
_DISPLACED_AFTER = re.compile(
    r"^\s*(?:(?:was|were|has\s+been|had\s+been|is|got)\s+(?:replaced|superseded|succeeded|overtaken)\s+by|"
    r"(?:was|were)\s+(?:the\s+)?(?:original|old|previous|former|initial|earlier|runner-up|second\s+choice)|"
    r"(?:lost\s+out|came\s+second|was\s+passed\s+over)|"
    r"(?:lost|loses|lose)\b(?:\s+[\w'-]+){0,4}?\s+to|"
    r"(?:handed|hands|passed|passes|gave|gives|transferred|transfers)\b(?:\s+[\w'-]+){0,4}?\s+(?:over\s+)?to)\b",
    re.IGNORECASE,
)

#: a clause that only tried, planned or weighed a value, followed by "but" ("PostgreSQL 16 was evaluated, but the
#: service will use MySQL", "was planned for Porto, but it will now open in Lisbon")
_TENTATIVE = re.compile(
    r"\b(?:planned|evaluated|considered|proposed|intended|tested|trialled|trialed|piloted|discussed|shortlisted|"
    r"suggested|initially|originally|said|told|telling|tells|claimed|claims|claiming|thought|assumed|believed|"
    r"quoted|quoting|insisted|insists|reckoned|rumou?red)\b",
    re.IGNORECASE,
)
_TENTATIVE_VERB = re.compile(
    r"\b(?:planned|evaluated|considered|proposed|intended|tested|trialled|trialed|piloted|discussed|shortlisted|"
    r"suggested|floated|pitched|mooted|explored|scouted|toured|visited|looked\s+at|weighed|asked|offered|invited|"
    r"nominated|approached|interviewed|courted|requested|put\s+forward|recommended)\b",
    re.IGNORECASE,
)
_BUT_NEXT = re.compile(r"^[^.;!?]*?\bbut\b([^.;!?]*)", re.IGNORECASE)


def _mention_displaced(left: str, right: str, rest: str, number: bool) -> bool:
    """One mention of a value (``left`` and ``right``: its clause on either side; ``rest``: the sentence after it)
    is displaced by another value (see :func:`displaced`)."""
    if _FROM_AFTER_CHANGE.search(left) or _DISPLACED_BEFORE.search(left) or _DISPLACED_AFTER.search(right):
        return True
    if not number and _OVER_BEFORE.search(left) and _CHOICE.search(left):
        return True
    but = _BUT_NEXT.search(rest)
    if but is None or not _TENTATIVE.search(f"{left} {right}"):
        return False
    then = extract_slots(but.group(1))  # the "but" clause names a value of the same kind in its place
    return bool(then.numbers or then.dates) if number else bool(then.entities)


def displaced(answer: str, values: Sequence[str], numeric: Sequence[str] = ()) -> list[str]:
    """The ``values`` that ``answer`` names only as displaced by another value: the one a change left ("moved from
    Frankfurt to the Dublin region", "grew from 14 to 19"), the earlier or missed one ("(previously 15 May 2026)",
    "once 14 engineers, now has 19", "will miss the 15 May 2026 deadline"), the option not chosen ("chose MySQL
    over PostgreSQL 16", "Kestrel Systems lost the deal to Orca Labs", "PostgreSQL 16 was evaluated, but ... MySQL").
    ``numeric``: the values that are numbers ("over 14" is "more than 14", not a choice). Our own rule."""
    out: list[str] = []
    for value in values:
        marks: list[bool] = []
        for m in re.finditer(rf"(?<!\w){re.escape(value)}(?!\w)", answer, flags=re.IGNORECASE):
            left = _without_trailing(_CLAUSE_END.split(answer[: m.start()])[-1], values)
            right = _CLAUSE_END.split(answer[m.end() :])[0]
            rest = re.split(r"[.;!?](?:\s|$)", answer[m.end() :])[0]
            marks.append(_mention_displaced(left, right, rest, value in numeric))
        if marks and all(marks):
            out.append(value)
    return out


def other_clauses(answer: str, values: Sequence[str]) -> str:
    """The other clauses of the sentences of ``answer`` that name one of ``values`` ("in Lisbon" from "It will open
    in Lisbon, not Porto."): what the answer says beside the value, in the same sentence."""
    low = [v.lower() for v in values]
    out: list[str] = []
    for sentence in split_sentences(answer):
        parts = _SENTENCE_CLAUSE.split(sentence)
        if any(v in sentence.lower() for v in low):
            out.extend(p for p in parts if p and not any(v in p.lower() for v in low))
    return " ".join(out)


#: what ends a clause inside a sentence (a full stop only before a space: "2.7%" is one value)
_SENTENCE_CLAUSE = re.compile(
    r"[;:!?()\[\]\n]|\.(?=\s|$)|,\s|\s(?:-{1,2}|\u2013|\u2014)\s|\bbut\b|\band\b", re.I
)


#: a word that places a value as a reference point, not as the value itself ("near Porto", "outside Lisbon")
_REFERENCE_BEFORE = re.compile(
    r"\b(?:near|nearby|outside|close\s+to|next\s+to|north\s+of|south\s+of|east\s+of|west\s+of|around)\s+$",
    re.IGNORECASE,
)


def only_as_reference(answer: str, value: str) -> bool:
    """Every mention of ``value`` places something near it ("will open near Porto, in Braga"): the place named is
    another one, when the sentence names it."""
    marks = _value_marked(answer, value, _REFERENCE_BEFORE)
    return bool(marks) and all(marks)


#: the start and the end of a span: a date after one is not the same fact as after the other ("from March 2026" /
#: "until March 2026")
_SPAN_START = re.compile(
    r"\b(?:from|since|starting(?:\s+(?:in|on|from))?|as\s+of|beginning(?:\s+in)?)\s+$", re.I
)
_SPAN_END = re.compile(r"\b(?:until|till|to|through|ending(?:\s+in)?|up\s+to)\s+$", re.I)


def span_end_flipped(expected: str, answer: str, value: str) -> bool:
    """``expected`` gives ``value`` as the start of a span and ``answer`` only as its end, or the other way round
    ("from March 2026" / "led it until March 2026"): another relation of the value."""
    for here, there in ((_SPAN_START, _SPAN_END), (_SPAN_END, _SPAN_START)):
        e_marks = _value_marked(expected, value, here)
        a_marks = _value_marked(answer, value, there)
        if e_marks and all(e_marks) and a_marks and all(a_marks):
            return True
    return False


#: a condition right after a value: it holds only as the fallback ("in Frankfurt only if the Dublin region is full")
_CONDITION_AFTER = re.compile(
    r"^\s*(?:[\w'-]+\s+){0,2}?(?:only\s+if|only\s+when|unless|if\s+needed|in\s+case|as\s+a\s+(?:fallback|backup))\b",
    re.IGNORECASE,
)


def condition_after(answer: str, value: str) -> str | None:
    """The text of the condition when every mention of ``value`` is followed by one ("Frankfurt only if the Dublin
    region is full" -> "the Dublin region is full"), else None."""
    rest: list[str] = []
    for m in re.finditer(rf"(?<!\w){re.escape(value)}(?!\w)", answer, flags=re.IGNORECASE):
        cond = _CONDITION_AFTER.match(answer[m.end() :])
        if cond is None:
            return None
        rest.append(re.split(r"[.;!?](?:\s|$)", answer[m.end() + cond.end() :])[0])
    return " ".join(rest) if rest else None


#: "X was the first pick": the earlier choice where the sentence gives another one, else the top choice
_FIRST_PICK_AFTER = re.compile(
    r"^\s*(?:was|were)\s+(?:the\s+|our\s+|their\s+)?first\s+(?:pick|choice|plan|option|candidate)\b",
    re.IGNORECASE,
)


def first_pick(answer: str, value: str) -> bool:
    """Every mention of ``value`` is followed by "was the first pick" (or choice, plan, option)."""
    hits = [
        answer[m.end() :] for m in re.finditer(rf"(?<!\w){re.escape(value)}(?!\w)", answer, re.IGNORECASE)
    ]
    return bool(hits) and all(_FIRST_PICK_AFTER.match(h) for h in hits)
