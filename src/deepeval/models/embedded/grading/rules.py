"""The grading rules on one (question, expected, answer) case, tried in order (:data:`_RULES`); :func:`_grade`."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from deepeval.models.embedded.grading.abstention import is_abstention
from deepeval.models.embedded.grading.cues import (
    _hedge_candidates,
    _only_as_unreal,
    _stale,
    _value_negated,
    condition_after,
    displaced,
    fact_negated,
    first_pick,
    negation_cue,
    only_as_reference,
    other_clauses,
    span_end_flipped,
    taken_back,
)
from deepeval.models.embedded.grading.grade import Grade
from deepeval.models.embedded.grading.lexicon import (
    _NEGATION,
    _NO,
    _STOP,
    _TOKEN,
    _YES,
    ALL_COVERED,
    CLOSE_PARAPHRASE_SIM,
    HALF_COVERED,
    PARAPHRASE_SIM,
    RELATED_SIM,
    RESIDUAL_SIM,
    SYNONYM_SIM,
)
from deepeval.models.embedded.grading.matching import (
    APPROX,
    CONFLICT,
    EXACT,
    MISSING,
    TokenBag,
    _entity_conflict,
    _entity_present,
    _kinds_compatible,
    _match_date,
    _match_number,
    _name_in_part,
    _token_match,
    named_as_name,
)
from deepeval.models.embedded.grading.polarity import BOUND_WORD, bounded
from deepeval.models.embedded.grading.revision import latest_statement, question_words
from deepeval.models.embedded.grading.similarity import embed_passages, similarity
from deepeval.models.embedded.grading.slots import Slots, _stem, extract_slots, period_of
from deepeval.models.embedded.grading.subject import off_subject_sentences
from deepeval.models.embedded.text import normalize_formats, split_sentences


@dataclass
class _Case:
    """Everything the grading rules read about one (question, expected, answer): slots, tokens, the per-slot match
    results in the expected answer's order, and the keyword coverage."""

    question: str
    expected: str
    answer: str
    outdated: Sequence[str]
    e_slots: Slots
    a_slots: Slots
    q_slots: Slots
    a_tokens: TokenBag
    results: list[tuple[str, str, str]]  # (slot type, text, status)
    kws: list[str]
    kw_hits: list[str]

    @property
    def kw_cov(self) -> float:
        return len(self.kw_hits) / len(self.kws) if self.kws else 1.0

    @property
    def statuses(self) -> list[str]:
        return [s for _, _, s in self.results]

    @property
    def all_matched(self) -> bool:
        return bool(self.results) and all(s in (EXACT, APPROX) for s in self.statuses)


def _slot_results(expected: str, answer: str, question: str, e: Slots, a: Slots, q: Slots,
                  a_tokens: TokenBag) -> list[tuple[str, str, str]]:  # fmt: skip
    """Match status of each value of the expected answer, in its order (the first is the core)."""
    results: list[tuple[str, str, str]] = []
    for _, kind, i in e.order:
        if kind == "number":
            n = e.numbers[i]
            if any(abs(n.value - x.value) < 1e-9 for x in q.numbers):
                continue  # the question already names it
            known = Slots(numbers=[*q.numbers, *(x for x in e.numbers if x is not n)], dates=q.dates)
            period = None if n.per else period_of(question) or period_of(expected)
            # "$52,000" for "the monthly budget" is $52,000 a month: "$52,000 per year" is another amount
            asked = replace(n, per=period) if period else n
            results.append((kind, n.text, _match_number(asked, a, answer, known, expected)))
        elif kind == "date":
            results.append((kind, e.dates[i].text, _match_date(e.dates[i], a, q)))
        else:
            ent = e.entities[i]
            present = _entity_present(ent, answer, a_tokens, whole_name=True)
            if present and _a_name(ent, expected) and not named_as_name(ent, answer):
                present = False  # "Porto" is not "the port"
            if _question_names(ent, question) and not _EITHER_OR.search(question):
                continue  # a question entity repeated in the expected answer is not the fact itself
            if present and _only_as_unreal(ent, answer):
                present = False  # "Lives in Leeds (considered moving to York)" does not say York
            status = EXACT if present else (APPROX if _name_in_part(ent, answer) else MISSING)
            results.append((kind, ent, status))
    if any(k == "entity" and s == MISSING for k, _, s in results) and _entity_conflict(a, q, expected, e):
        results = [(k, t, CONFLICT if (k == "entity" and s == MISSING) else s) for k, t, s in results]
    return results


def _a_name(entity: str, expected: str) -> bool:
    """``entity`` is a name, not a word capitalised because it opens the expected answer ("Optional, off by
    default")."""
    return len(entity.split()) > 1 or not expected.strip().startswith(entity)


def _question_names(entity: str, question: str) -> bool:
    """The question names ``entity`` itself: verbatim, or each of its words by stem ("Porto" is not "the port")."""
    if re.search(rf"(?<!\w){re.escape(entity)}(?!\w)", question, re.IGNORECASE):
        return True
    q_stems = {_stem(t.lower()) for t in _TOKEN.findall(question)}
    words = [w for w in _TOKEN.findall(entity) if w.lower() not in _STOP]
    return bool(words) and all(_stem(w.lower()) in q_stems for w in words)


def _case(question: str, expected: str, answer: str, outdated: Sequence[str]) -> _Case:
    e, a, q = extract_slots(expected), extract_slots(answer), extract_slots(question)
    a_tokens = TokenBag(_TOKEN.findall(answer))
    q_tokens = {_stem(t) for t in _TOKEN.findall(question)}
    kws = [k for k in e.keywords if _stem(k) not in q_tokens] or e.keywords
    short = [t.lower() for t in _TOKEN.findall(answer) if len(t) >= 3 and t.lower() not in _STOP]
    return _Case(question, expected, answer, outdated, e, a, q, a_tokens,
                 _slot_results(expected, answer, question, e, a, q, a_tokens), kws,
                 [k for k in kws if _token_match(k, a_tokens) or _abbreviated(k, short)])  # fmt: skip


def _abbreviated(word: str, short_tokens: Sequence[str]) -> bool:
    """``word`` appears abbreviated in the answer ("req" for "requests", "min" for "minute")."""
    w = word.lower()
    return len(w) >= 5 and any(len(t) < len(w) and w.startswith(t) for t in short_tokens)


# -- the rules, in the order they apply; each returns a Grade or None (not its case) ------------------------------
def _rule_yes_no(c: _Case) -> Grade | None:
    """A yes/no fact: the same polarity is 5, the opposite 1."""
    e_yes, e_no = bool(_YES.match(c.expected)), bool(_NO.match(c.expected))
    if not (e_yes or e_no):
        return None
    a_yes, a_no = bool(_YES.match(c.answer)), bool(_NO.match(c.answer))
    if (e_yes and a_no) or (e_no and a_yes):
        return Grade(1, "the answer gives the opposite yes/no", 0.9)
    if (e_yes and a_yes) or (e_no and a_no):
        return Grade(5, "same yes/no answer", 0.85)
    neg_e, neg_a = bool(_NEGATION.search(c.expected)), bool(_NEGATION.search(c.answer))
    if e_no != neg_a and neg_a != neg_e:
        return Grade(1, "the answer's polarity contradicts the expected answer", 0.6)
    return None


def _rule_negated(c: _Case) -> Grade | None:
    """The answer states the expected value only in a clause that negates it ("Priya Shah does not own the
    authentication service", "no longer", "was never", "is not PostgreSQL 16"): a contradiction, 1; where it names
    another value of the kind in its place ("Lisbon, not Porto", "Porto was ruled out; ... in Lisbon"), the asked
    slot is filled with another value: 2."""
    found = _mentioned(c)
    numeric = [t for k, t, s in c.results if k == "number"]
    negation_new = negation_cue(c.answer) and not negation_cue(c.expected) and not negation_cue(c.question)
    # the core value negated negates the fact, whatever its details ("Ravi Patel stepped down ... in March 2026")
    if (
        found
        and negation_new
        and (fact_negated(c.answer, found, numeric) or fact_negated(c.answer, found[:1], numeric))
    ):
        # a value struck through or noted as former is taken back (1), whatever follows it
        rival = None if taken_back(c.answer, found) else _rival(c, other_clauses(c.answer, found))
        if rival:
            return Grade(2, f"negates the expected value and gives another in its place ({rival})", 0.7)
        return Grade(1, "the answer negates the expected fact", 0.7)
    return None


def _mentioned(c: _Case) -> list[str]:
    """The expected values the answer names: its matched slots, else the expected answer written out in it (a name
    the slot reader does not take: "eu-west-2", "pdfium", "Thursday")."""
    found = [t for _, t, s in c.results if s in (EXACT, APPROX)]
    if found or not c.expected.strip():
        return found
    hit = re.search(rf"(?<!\w){re.escape(c.expected.strip())}(?!\w)", c.answer, re.IGNORECASE)
    return [hit.group(0)] if hit else []


_ASKED = re.compile(r"(?:[^.!?\n]|\.(?=\w))*\?")  # a full stop inside a number ("2.7%") ends no sentence
_QUESTION_START = re.compile(r"\s(?:-{1,2}|\u2013|\u2014)\s|[;:]\s")


def _rule_only_asked(c: _Case) -> Grade | None:
    """The expected value named only in questions ("Did anyone confirm the 10:15 kickoff?", "Ines? Or is that his
    niece?"): the memory asks, it does not state: 1."""
    found = _mentioned(c)
    if not found or "?" not in c.answer or "?" in c.expected:
        return None
    # a question starts after a sentence mark, a dash, a colon or a semicolon ("Leo's daughter is Ines - was she
    # the one at the barbecue?" asks about the barbecue, not the name)
    asked = " ".join(_QUESTION_START.split(m.group(0))[-1] for m in _ASKED.finditer(c.answer))
    stated = _ASKED.sub(lambda m: " ".join(_QUESTION_START.split(m.group(0))[:-1]) + " ", c.answer)
    if all(_in_text(v, asked) and not _in_text(v, stated) for v in found):
        return Grade(1, "names the expected value only in a question: the memory does not state it", 0.65)
    return None


def _in_text(value: str, text: str) -> bool:
    return bool(re.search(rf"(?<!\w){re.escape(value)}(?!\w)", text, re.IGNORECASE))


def _rival(c: _Case, text: str) -> str | None:
    """A value of the kind of the expected core value that ``text`` (from the answer) names and the expected answer
    and the question do not ("Lisbon" beside "not Porto"), or None."""
    if not c.results or not text.strip():
        return None
    a_slots = extract_slots(text)
    kind = c.results[0][0]
    known = f"{c.expected} {c.question}"
    if kind == "entity":
        k_bag = TokenBag(_TOKEN.findall(known))
        return next(
            (
                e
                for e in a_slots.entities
                if not _entity_present(e, known, k_bag) and not re.search(rf"{re.escape(e)}\s*:", text)
            ),
            None,
        )
    if kind == "date":
        k_dates = extract_slots(known).dates
        return next((d.text for d in a_slots.dates if _match_date(d, Slots(dates=k_dates), Slots()) == MISSING
                     and not any(d.text.lower() in k.text.lower() for k in k_dates)), None)  # fmt: skip
    e_num = next(n for n in c.e_slots.numbers if n.text == c.results[0][1])
    k_values = {n.value for n in extract_slots(known).numbers}
    return next(
        (
            m.text
            for m in a_slots.numbers
            if m.value not in k_values and _kinds_compatible(e_num.kind, m.kind)
        ),
        None,
    )


def _rule_bounded(c: _Case) -> Grade | None:
    """An expected number given only as a bound ("fewer than 14 engineers", "over $50,000") states a range, not the
    number: a vague answer, 1 (unless the expected answer is itself a bound)."""
    numbers = [t for k, t, s in c.results if k == "number" and s in (EXACT, APPROX)]
    if not numbers or BOUND_WORD.search(c.expected):
        return None
    given = [t for t in numbers if bounded(c.answer, t)]
    if given:
        return Grade(1, f"gives {given[0]!r} only as a bound, not as the value", 0.7)
    return None


def _rule_displaced(c: _Case) -> Grade | None:
    """The answer names an expected value only as the one another value displaced: the value a change left
    ("moved from Frankfurt to the Dublin region", "slipped from 15 May 2026 to 1 July 2026"), an earlier one
    ("(previously 15 May 2026)", "once 14 engineers, now has 19"), the option not chosen ("chose MySQL over
    PostgreSQL 16", "Kestrel Systems lost the deal to Orca Labs") or a missed one ("will miss the 15 May 2026
    deadline"): an outdated value or another relation, 2."""
    # a name set aside as a past one ("previously in Dublin") reads as absent to the slot match, but is named
    found = [
        (k, t)
        for k, t, s in c.results
        if s in (EXACT, APPROX) or (k == "entity" and _only_as_unreal(t, c.answer))
    ]
    if not found:
        return None
    numeric = [t for k, t in found if k != "entity"]
    gone = [v for v in displaced(c.answer, [t for _, t in found], numeric) if not displaced(c.expected, [v])]
    if gone:
        return Grade(2, f"names {gone[0]!r} only as the value another one displaced", 0.7)
    flipped = [t for _, t in found if span_end_flipped(c.expected, c.answer, t)]
    if flipped:
        return Grade(2, f"gives {flipped[0]!r} as the other end of the span (another relation)", 0.65)
    core = found[0][1]
    if found[0][0] == "entity" and (only_as_reference(c.answer, core) or first_pick(c.answer, core)):
        rival = _rival(c, other_clauses(c.answer, [core]))
        if rival:
            return Grade(
                2, f"names {core!r} only as a place near or a pick before the value given ({rival})", 0.65
            )
    condition = condition_after(c.answer, core)
    rival = _rival(c, condition) if condition else None
    if rival:
        return Grade(2, f"gives {core!r} only as a fallback; the value the condition names is {rival}", 0.6)
    return None


def _rule_stale(c: _Case) -> Grade | None:
    """A superseded value given as the current one is 2 (the latest value, with or without its history, is not)."""
    stale = _stale(c.outdated, c.answer, c.expected, c.results)
    return (
        Grade(2, f"gives the superseded value {stale!r} instead of the current one", 0.8) if stale else None
    )


def _rule_hedge(c: _Case) -> Grade | None:
    """The expected value listed among other candidates ("Lisbon, Porto or Berlin") dodges the fact: 1."""
    if not any(s in (EXACT, APPROX) for s in c.statuses):
        return None
    hedged = _hedge_candidates(c.answer, c.expected, c.e_slots)
    if not hedged:
        return None
    return Grade(
        1, f"lists other candidates ({', '.join(hedged)}) beside the expected value: dodges the fact", 0.75
    )


def _rule_all_values(c: _Case) -> Grade | None:
    """Every expected value present: 5, or 4 with an approximate one, 3 when most of the wording is missing, 1
    when the answer negates the value itself ("not PostgreSQL 16")."""
    if not c.all_matched:
        return None
    if APPROX in c.statuses:
        approx = ", ".join(t for _, t, s in c.results if s == APPROX)
        return Grade(4, f"core fact right, a detail imprecise ({approx})", 0.7)
    missing = _missing_part(c)
    if missing:
        return Grade(3, f"names the expected values, misses part of the answer ({', '.join(missing)})", 0.55)
    return Grade(5, "every expected value is present", 0.85)


def _missing_part(c: _Case) -> list[str]:
    """The expected answer's content words the answer neither repeats nor paraphrases: a missing attribute ("every
    evening", "seat 32A"). Paraphrased means the words together are close to the answer (:data:`RESIDUAL_SIM`) or
    each is close to one word of the answer (:data:`SYNONYM_SIM`: "job" / "work")."""
    # a word the question names is not missing ("48 rooms" / "48")
    q_bag = TokenBag(_TOKEN.findall(c.question))
    missing = [k for k in c.kws if k not in c.kw_hits and not q_bag.match(k)]
    if not missing or similarity(" ".join(missing), c.answer) >= RESIDUAL_SIM:
        return []
    words = list(dict.fromkeys(t.lower() for t in _TOKEN.findall(c.answer) if t.lower() not in _STOP))
    if not words:
        return missing
    vecs = embed_passages([*missing, *words])
    sims = vecs[: len(missing)] @ vecs[len(missing) :].T
    return [k for k, row in zip(missing, sims, strict=True) if float(row.max()) < SYNONYM_SIM]


#: what parts two parallel statements in one sentence ("X ships by 15 May; Y ships by 30 June", "... while ..."); a
#: comma or "and" is left out: it joins an apposition or a detail of one statement ("Meridian, led by Dr. Asante")
_PARALLEL = re.compile(r"\s*;\s*|,?\s+(?:while|whereas)\s+", re.IGNORECASE)


def _rule_other_clause(c: _Case) -> Grade | None:
    """In a sentence of parallel clauses (:data:`_PARALLEL`), the expected value sits in a clause that names fewer
    of the question's words than a clause giving another value of its kind ("Production will run in the Dublin
    region; backups go to Frankfurt" for the production region; "Churn two quarters ago was 2.7%; last quarter it
    was 3.4%", where "it" carries the subject of the clause before): the value belongs to another subject and the
    asked one holds the other value, 2 (LABELS.md: the asked slot filled with another entity)."""
    if not c.results or c.results[0][2] not in (EXACT, APPROX):
        return None
    value = c.results[0][1].lower()
    e_bag = TokenBag(_TOKEN.findall(c.expected))
    words = [w for w in question_words(c.question) if w not in _QUESTION_ONLY and not e_bag.match(w)]
    if not words:
        return None
    for sentence in split_sentences(c.answer):
        clauses = [x for x in _PARALLEL.split(sentence) if x and x.strip()]
        named = _named_per_clause(words, clauses)
        ours = [len(n) for x, n in zip(clauses, named, strict=True) if value in x.lower()]
        rivals = [
            (len(n), r)
            for x, n in zip(clauses, named, strict=True)
            if value not in x.lower()
            and (r := _rival(c, x))
            and not displaced(sentence, [r])
            and not fact_negated(x, [r])  # a clause that denies its value fills no slot ("no longer $29")
        ]
        if ours and rivals and max(rivals)[0] > max(ours):
            return Grade(
                2, f"the value belongs to another clause's subject; the asked one is {max(rivals)[1]}", 0.6
            )
    return None


_ACRONYM_MIN = 2


def _acronyms(words: Sequence[str]) -> dict[str, set[str]]:
    """The initials of each run of two to four consecutive ``words`` ("rvt" -> registered, veterinary, technician)."""
    out: dict[str, set[str]] = {}
    for i in range(len(words)):
        for n in range(_ACRONYM_MIN, 5):
            run = words[i : i + n]
            if len(run) == n:
                out.setdefault("".join(w[0].lower() for w in run), set()).update(run)
    return out


#: a pronoun that carries the subject of the clause before it ("last quarter *it* was 3.4%")
_CARRIES_SUBJECT = frozenset("it its they their them".split())


def _named_per_clause(words: Sequence[str], clauses: Sequence[str]) -> list[set[str]]:
    """Per clause, the question's ``words`` it names (a run of them by its initials too: "RVT" for "registered
    veterinary technician"), with those of the clause before when a pronoun refers back."""
    acronyms = _acronyms(words)
    out: list[set[str]] = []
    for x in clauses:
        tokens = _TOKEN.findall(x)
        bag = TokenBag(tokens)
        here = {w for w in words if bag.match(w)}
        for t in tokens:
            if len(t) >= _ACRONYM_MIN and t.isupper():
                here |= acronyms.get(t.lower(), set())
        if out and any(t.lower() in _CARRIES_SUBJECT for t in tokens):
            here |= out[-1]
        out.append(here)
    return out


#: "How many bus routes does ...": the counted noun phrase (its last word is the noun)
_HOW_MANY = re.compile(
    r"\bhow\s+many\s+((?:[A-Za-z][\w-]*\s+){0,2}?[A-Za-z][\w-]*)\s+(?:do|does|did|are|is|were|was|will|would|can|could|"
    r"have|has|had|should|must|work|live|attend)\b",
    re.IGNORECASE,
)

#: words between a count and the noun it counts ("14 full-time engineers")
_COUNT_WINDOW = 3


def _rule_counted_other(c: _Case) -> Grade | None:
    """For "How many engineers ...", the expected count counts another noun ("14 open roles and 9 engineers") while
    another number counts the asked one: the asked slot holds the other number, 2."""
    m = _HOW_MANY.search(c.question)
    if m is None or not c.results or c.results[0][0] != "number" or c.results[0][2] not in (EXACT, APPROX):
        return None
    noun, value = m.group(1).split()[-1], c.results[0][1]
    counts = [(x.text, _counts(c.answer, x.text, noun)) for x in c.a_slots.numbers]
    ours = [ok for t, ok in counts if t == value]
    rival = next((t for t, ok in counts if t != value and ok), None)
    if ours and not any(ours) and rival:
        return Grade(2, f"{value} counts something else; the {noun} number {rival}", 0.65)
    return None


def _counts(answer: str, number: str, noun: str) -> bool:
    """Some mention of ``number`` in ``answer`` is followed, within a few words, by ``noun``, or by no noun at all
    ("from 41 routes to 28, with ...": the noun is understood)."""
    for m in re.finditer(rf"(?<![\w.]){re.escape(number)}(?!\w)", answer):
        rest = answer[m.end() :]
        after = _TOKEN.findall(rest)[:_COUNT_WINDOW]
        if (
            not after
            or not re.match(r"\s+\w", rest)
            or after[0].lower() in _STOP
            or TokenBag(after).match(noun)
        ):
            return True
    return False


def _rule_some_values(c: _Case) -> Grade | None:
    """Some expected values missing or different: 3 (core right, a part missing), 2 (a value wrong), 1 (absent)."""
    if not c.results or c.all_matched:
        return None
    conflicts = [t for _, t, s in c.results if s == CONFLICT]
    matched = [s in (EXACT, APPROX) for s in c.statuses]
    if matched[0]:
        if conflicts:
            return Grade(2, f"core right but a detail is wrong ({', '.join(conflicts)})", 0.6)
        missing = [t for _, t, s in c.results if s == MISSING]
        return Grade(3, f"core fact present, missing {', '.join(missing)}", 0.65)
    if conflicts:
        if not _addresses_question(c):
            return Grade(1, "the expected value is absent: the answer is about something else", 0.75)
        return Grade(2, f"materially wrong: gives a different value for {conflicts[0]}", 0.8)
    if sum(matched) * 2 >= len(matched):
        return Grade(3, "most of the fact is present, the first part is missing", 0.5)
    if any(matched):
        return Grade(2, "only a secondary part of the fact is right", 0.5)
    if c.kws and c.kw_cov >= HALF_COVERED and similarity(c.expected, c.answer) >= PARAPHRASE_SIM:
        return Grade(3, "the rest of the fact is present, its value is missing", 0.4)
    return Grade(1, "the expected value is absent (vague or off-topic answer)", 0.75)


#: a reply of at most this many content words is a direct answer, not a passage of another text
_SHORT_REPLY_WORDS = 4

#: question words that name no topic: an answer sharing only these with the question is about something else
_QUESTION_ONLY = frozenset("many much long often old far soon".split())


def _addresses_question(c: _Case) -> bool:
    """The answer shares a topic word or an entity with the question. A memory holding other names or numbers
    (an unrelated summary: "Maria runs a bakery with 12 employees" for "How many engineers are on the platform
    team?") does not fill the asked slot with a wrong value; it does not answer at all (grade 1, not 2)."""
    words = [w for w in c.q_slots.keywords if len(w) > 2 and w.lower() not in _QUESTION_ONLY]
    if not words and not c.q_slots.entities:
        return True  # "How much is it?": nothing to check the topic by
    content = [t for t in _TOKEN.findall(c.answer) if t.lower() not in _STOP and not t[0].isdigit()]
    if len(content) <= _FILLER_WORDS:
        return True  # a bare value ("12", "300 ml") answers the asked slot
    if any(_entity_present(e, c.answer, c.a_tokens) for e in c.q_slots.entities):
        return True
    # a short reply ("Three short walks a day.") answers with one topic word; a passage needs half the question's
    # topic words, since one shared word ("team", "owns", "office") in a longer text is another topic
    shared = sum(_token_match(w, c.a_tokens) for w in words)
    return shared >= 1 if len(content) <= _SHORT_REPLY_WORDS else shared * 2 >= len(words) > 0


def _rule_words(c: _Case) -> Grade:
    """No explicit values in the expected answer: word coverage and embedding similarity decide."""
    sim = similarity(c.expected, c.answer)
    cov = c.kw_cov
    if _negation_expected(c) and cov >= HALF_COVERED and any(_value_negated(c.answer, k) for k in c.kw_hits):
        return Grade(1, "the answer negates the expected fact", 0.6)
    close = (cov >= HALF_COVERED and sim >= RELATED_SIM) or sim >= CLOSE_PARAPHRASE_SIM
    complete = cov >= ALL_COVERED or not _missing_part(c)  # every word repeated or paraphrased
    if cov >= ALL_COVERED or (close and complete):
        return Grade(5, f"same content (word coverage {cov:.2f}, similarity {sim:.2f})", 0.6)
    if cov >= HALF_COVERED or sim >= PARAPHRASE_SIM:
        return Grade(4 if sim >= RELATED_SIM and complete else 3,
                     f"partly the same content (word coverage {cov:.2f}, similarity {sim:.2f})", 0.45)  # fmt: skip
    if cov > 0:
        return Grade(2, f"touches the fact but misses most of it (word coverage {cov:.2f})", 0.45)
    return Grade(1, f"the expected content is absent (similarity {sim:.2f})", 0.6)


# an either-or question: "the window or the aisle seat", "the cello or the violin"
_EITHER_OR = re.compile(
    r"\b([A-Za-z][\w'-]*)\s*,?\s+or\s+(?:the\s+|a\s+|an\s+|my\s+|his\s+|her\s+)?([A-Za-z][\w'-]*)"
)


def _rule_other_option(c: _Case) -> Grade | None:
    """An either-or question answered with the option the expected answer did not pick: 2 (materially wrong)."""
    m = _EITHER_OR.search(c.question)
    if m is None:
        return None
    options = [m.group(1), m.group(2)]
    e_bag = TokenBag(_TOKEN.findall(c.expected))
    e_pick = [o for o in options if e_bag.match(o)]
    a_pick = [o for o in options if c.a_tokens.match(o)]
    if len(e_pick) == 1 and len(a_pick) == 1 and e_pick != a_pick and not _NEGATION.search(c.answer):
        return Grade(2, f"picks the other option ({a_pick[0]}) of the question", 0.75)
    return None


# people named by their relation to someone: another relation than the expected one is another person
_RELATIONS = frozenset(
    """mother father mom mum dad parent parents son daughter child children kid kids brother sister sibling aunt
    uncle niece nephew cousin grandmother grandfather grandma grandpa granny grandson granddaughter grandparents
    wife husband partner spouse boyfriend girlfriend fiance fiancee friend colleague coworker boss manager neighbour
    neighbor roommate flatmate teacher coach mentor tutor stepmother stepfather stepson stepdaughter""".split()
)


def _relations(text: str) -> set[str]:
    return {t.lower().removesuffix("'s") for t in _TOKEN.findall(text)} & _RELATIONS


def _rule_other_relation(c: _Case) -> Grade | None:
    """The answer names someone by another relation than the expected one ("her son" for "her daughter"): the
    other person, 2 (materially wrong)."""
    expected, given = _relations(c.expected), _relations(c.answer)
    if not expected and c.results and c.results[0][0] == "entity" and c.results[0][2] == EXACT:
        name = c.results[0][1]
        kin = _kin_of(c.answer, name)
        if kin:  # "owned by Alice Moreau's manager": the manager, not Alice Moreau
            return Grade(2, f"names {name!r} only through another person ({name}'s {kin})", 0.7)
    if not expected or not given or expected & given or _NEGATION.search(c.answer):
        return None
    return Grade(
        2, f"names another relation ({', '.join(sorted(given))}) than {', '.join(sorted(expected))}", 0.75
    )


#: "Who owns ...?": the verb whose subject the question asks for (an auxiliary is no such verb)
_WHO_VERB = re.compile(
    r"^\s*who\s+(?!is\b|was\b|are\b|were\b|does\b|did\b|do\b|will\b|would\b|has\b|have\b|had\b|can\b|should\b)"
    r"([a-z]+)|^\s*which\s+[a-z]+\s+(?:is|are|was|were|will\s+be)\s+(?:being\s+)?([a-z]+ed)\s*\?",
    re.IGNORECASE,
)

#: a copula between a subject and its participle ("Route 3 *is being* discontinued")
_COPULA = r"(?:(?:is|are|was|were|will\s+be|has\s+been|have\s+been|had\s+been)\s+(?:being\s+)?)?"


def _rule_other_agent(c: _Case) -> Grade | None:
    """For "Who owns X?" ("Which route is being discontinued?"), the expected person (thing) is named doing
    something else while another one is the subject of the asked verb ("Alice Moreau reviews the authentication
    service, which Tom Greer owns"; "Route 3 is discontinued and replaced by a Route 14 extension"): that one is the
    answer, 2 (LABELS.md: an entity of the expected answer in another relation)."""
    m = _WHO_VERB.match(c.question)
    if m is None or not c.results or c.results[0][2] != EXACT:
        return None
    verb = m.group(1) or m.group(2)
    name = (
        c.expected.strip().rstrip(".")
        if _NUMBERED.fullmatch(c.expected.strip().rstrip("."))
        else c.results[0][1]
    )
    if c.results[0][0] != "entity" and name == c.results[0][1]:
        return None  # a bare number or date: no one to name
    if not re.search(rf"(?<!\w){re.escape(name)}(?!\w)", c.answer, re.IGNORECASE) or _agent_of(
        c.answer, name, verb
    ):
        return None  # a name written otherwise ("P. Shah") is left to the other rules
    known = TokenBag(_TOKEN.findall(f"{c.expected} {c.question}"))
    candidates = [*c.a_slots.entities, *(x.group(0) for x in _NUMBERED.finditer(c.answer))]
    other = next(
        (
            e
            for e in candidates
            if e.lower() != name.lower()
            and (_NUMBERED.fullmatch(e) or not _entity_present(e, c.expected, known))
            and _agent_of(c.answer, e, verb, strict=True)
        ),
        None,
    )
    return (
        Grade(2, f"{other} is the one that {verb}; {name} is named in another relation", 0.6)
        if other
        else None
    )


#: a named, numbered thing ("Route 14", "Gate 3", "Line 12A")
_NUMBERED = re.compile(r"\b[A-Z][A-Za-z-]*\s+\d+[A-Za-z]?\b")


def _root(word: str) -> str:
    """``word`` lower-cased without a verb ending ("owns", "owned" -> "own")."""
    low = word.lower()
    return re.sub(r"(?:es|s|ed|d|ing)$", "", low) if len(low) > _ROOT_MIN else low


_ROOT_MIN = 4
_AGENT_REACH = 8  # words after a name within which its verb comes ("Alice Moreau, who joined in May, owns")


def _agent_of(answer: str, name: str, verb: str, *, strict: bool = False) -> bool:
    """``name`` is the subject of ``verb`` in ``answer``: the verb right after it ("Tom Greer owns") or, unless
    ``strict``, further on in its clause before another name ("Alice Moreau, who joined in May, owns"), or
    "owned by" before it."""
    root = _root(verb)
    others = {e.split()[0] for e in extract_slots(answer).entities if e.lower() != name.lower()}
    for m in re.finditer(rf"(?<!\w){re.escape(name)}(?!\w)", answer, flags=re.IGNORECASE):
        clause = re.split(r"[;.!?](?:\s|$)", answer[m.end() :])[0]
        if strict and re.search(r"\b(?:not|never|nor)\s+$", answer[: m.start()], re.IGNORECASE):
            continue  # "Priya Shah, not Alice Moreau, owns it"
        if strict:  # the verb right after the name, no comma between ("Alice Moreau, owns" is an aside)
            right_after = re.match(rf"\s+{_COPULA}[\w'-]+", clause)
            clause = right_after.group(0) if right_after else ""
        words = _TOKEN.findall(clause)[:_AGENT_REACH]
        before = _TOKEN.findall(answer[: m.start()])[-2:]
        for k, w in enumerate(words):
            if _root(w) == root:
                return True
            if w in others and not (k and words[k - 1].lower() in ("not", "nor")):
                break  # another name (not one set aside: "not Alice Moreau"): the verb after it is that name's
        if len(before) == 2 and before[1].lower() == "by" and _root(before[0]) == root:
            return True
    return False


def _kin_of(answer: str, name: str) -> str | None:
    """The relation word when every mention of ``name`` is a possessive before one ("Alice Moreau's manager")."""
    kin = None
    for m in re.finditer(rf"(?<!\w){re.escape(name)}(?!\w)", answer, flags=re.IGNORECASE):
        after = re.match(r"['\u2019]s?\s+(?:(?:new|former|old|own)\s+)?([A-Za-z]+)", answer[m.end() :])
        if after is None or after.group(1).lower() not in _RELATIONS:
            return None
        kin = after.group(1)
    return kin


#: an answer of at most this many new content words fills the asked slot with a name or phrase
_FILLER_WORDS = 3


def _rule_other_filler(c: _Case) -> Grade | None:
    """A short answer that shares no word with the expected one but is of its kind ("her aunt" for "her
    grandmother": similarity at least :data:`RELATED_SIM`) names another thing in the asked slot: 2, however close
    the embeddings of the pair (0.93 here: similarity alone would call it a paraphrase)."""
    if c.results or not c.kws or c.kw_hits or _NEGATION.search(c.answer):
        return None
    q_bag = TokenBag(_TOKEN.findall(c.question))
    new = [t for t in _TOKEN.findall(c.answer) if t.lower() not in _STOP and not q_bag.match(t)]
    if not 1 <= len(new) <= _FILLER_WORDS or similarity(c.expected, c.answer) < RELATED_SIM:
        return (
            None  # under RELATED_SIM the answer is about another attribute ("he is 34" for "by cycling"): 1
        )
    return Grade(2, f"names something else in the asked slot ({' '.join(new)})", 0.55)


_RULES: tuple[Callable[[_Case], Grade | None], ...] = (
    _rule_yes_no, _rule_other_option, _rule_other_relation, _rule_only_asked, _rule_negated, _rule_bounded, _rule_displaced, _rule_stale, _rule_hedge, _rule_other_clause, _rule_counted_other, _rule_other_agent, _rule_all_values, _rule_some_values,
    _rule_other_filler,
)  # fmt: skip


def _rule_abstention(question: str, expected: str, answer: str) -> Grade | None:
    """ "Not in memory": 5 for a never-stated fact, 1 otherwise; any asserted answer to a never-stated fact is 1."""
    expected_absent = is_abstention(expected)
    if is_abstention(answer):
        if expected_absent:
            return Grade(5, "correctly says the fact is not in memory", 0.9)
        return Grade(1, "the answer says it does not know", 0.9)
    if expected_absent:
        return Grade(1, "asserts an answer for a fact that was never stated", 0.8)
    return None


def _grade(question: str, expected: str, answer: str, outdated: Sequence[str]) -> Grade:
    first = _rule_abstention(question, expected, answer)
    if first is not None:
        return first
    # a later correction or retraction replaces what the memory said before it ("Update: X no longer owns it")
    answer = latest_statement(question, answer)
    # only what the answer says about the question's subject is graded ("Alice owns the billing service" states
    # nothing about who owns the authentication service)
    about, elsewhere = off_subject_sentences(question, answer, expected)
    if elsewhere:
        if not about:
            return Grade(
                1, f"the answer is about another subject ({elsewhere[0]}): the expected value is absent", 0.75
            )
        answer = " ".join(about)
    c = _case(normalize_formats(question), normalize_formats(expected), normalize_formats(answer),
              [normalize_formats(o) for o in outdated])  # fmt: skip
    for rule in _RULES:
        g = rule(c)
        if g is not None:
            return g
    return _rule_words(c)


def _negation_expected(c: _Case) -> bool:
    """The answer has a negation that neither the expected answer nor the question has."""
    return (
        bool(_NEGATION.search(c.answer))
        and not _NEGATION.search(c.expected)
        and not _NEGATION.search(c.question)
    )
