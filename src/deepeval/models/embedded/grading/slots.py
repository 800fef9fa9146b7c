"""Values in a text: numbers with units, magnitudes and currencies, dates and times of day, named entities
(:func:`extract_slots`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from deepeval.models.embedded.grading.lexicon import (
    _BIG,
    _CAMEL,
    _CURRENCY_WORDS,
    _DATE_PATTERNS,
    _ENTITY,
    _MAG,
    _NUM_RE,
    _NUMBER_WORDS,
    _ROMAN,
    _ROMAN_NOT_AFTER,
    _ROMAN_VALUE,
    _STOP,
    _TOKEN,
    _WORD_NUM_RE,
    MONTH_MAY_CUE,
)
from deepeval.models.embedded.text import (
    _MONTHS,  # one month table for extraction and grading
    quantities,
    rate_per,
)


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
            if (
                mn
                and mn.lower() == "may"
                and day is None
                and y is None
                and not MONTH_MAY_CUE.search(text[: m.start()])
            ):
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
    out.extend(_roman_numbers(text))
    return [(pos, _with_rate(n, text, pos)) for pos, n in out]


def _roman_numbers(text: str) -> list[tuple[int, Number]]:
    """Roman numerals used as a count ("The platform team has XIV engineers": 14), see :data:`_ROMAN`."""
    out: list[tuple[int, Number]] = []
    for m in _ROMAN.finditer(text):
        numeral = m.group(0)
        before = text[: m.start()].split()
        if not numeral or not before or not before[-1].islower() or before[-1] in _ROMAN_NOT_AFTER:
            continue
        values = [_ROMAN_VALUE[c] for c in numeral]
        value = sum(-v if v < nxt else v for v, nxt in zip(values, [*values[1:], 0], strict=True))
        out.append((m.start(), Number(float(value), "plain", numeral, len(str(value)))))
    return out


def _with_rate(n: Number, text: str, pos: int) -> Number:
    per = rate_per(text, pos + len(n.text))
    return Number(n.value, n.kind, n.text, n.digits, per=per) if per else n


#: an adjective that makes an amount a rate ("the *monthly* budget"): the seconds of its period
PERIOD_WORDS = {
    "hourly": 3600.0,
    "daily": 86400.0,
    "weekly": 7 * 86400.0,
    "monthly": 86400.0 * 365.25 / 12,
    "quarterly": 86400.0 * 365.25 / 4,
    "yearly": 86400.0 * 365.25,
    "annual": 86400.0 * 365.25,
    "annually": 86400.0 * 365.25,
}
_PERIOD = re.compile(rf"\b(?:{'|'.join(PERIOD_WORDS)})\b", re.IGNORECASE)


def period_of(text: str) -> float | None:
    """The seconds of the one period ``text`` names with an adjective ("What is the monthly budget?" -> a month),
    None when it names none or several."""
    found = {PERIOD_WORDS[m.group(0).lower()] for m in _PERIOD.finditer(text)}
    return found.pop() if len(found) == 1 else None


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
