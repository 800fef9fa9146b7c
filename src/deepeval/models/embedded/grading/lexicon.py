"""Word lists, patterns and thresholds of the grading rules (where a threshold was set, on what data, beside it)."""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np

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


# The word-coverage and number thresholds below were hand-set with the grader's rules on
# tests/memory/data/grader_set (ours), as the cosines above; named here so each rule reads them from one place.
#: a cosine this far above PARAPHRASE_SIM is a paraphrase even without half the expected words
CLOSE_PARAPHRASE_SIM = PARAPHRASE_SIM + 0.02
#: share of the expected answer's content words an answer repeats: at least half of them / (practically) all
HALF_COVERED = 0.5
ALL_COVERED = 0.99
#: claim support by the share of the claim's content words found in the transcript: 5 (every value and the wording),
#: 4 (minor differences), 3 (partly); under PARTLY_SUPPORTED down to WEAK_SUPPORT it is weakly supported (2)
FULLY_SUPPORTED = 0.8
MOSTLY_SUPPORTED = 0.6
PARTLY_SUPPORTED = 0.4
#: numbers: the same value within this relative difference; an approximation within NEAR_NUMBER when hedged or
#: given with other precision; within ROUNDED_NUMBER when the answer is the expected value rounded
SAME_NUMBER = 1e-3
NEAR_NUMBER = 0.06
ROUNDED_NUMBER = 0.1


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
    # a month alone, capitalised ("mid-May", "in early October"): a checkable month, approximate for a day in it
    re.compile(
        r"\b(?P<mn>January|February|March|April|May|June|July|August|September|October|November|December)\b"
    ),
]

#: what makes a bare "May" the month, not the verb: "mid-May", "in May", "by early May"
MONTH_MAY_CUE = re.compile(
    r"(?:\bmid-|\b(?:in|by|until|till|since|from|before|after|during|through|of|early|late|mid|end|start)\s+)$",
    re.IGNORECASE,
)


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


#: number words of French, German, Spanish, Italian and Portuguese that a memory written in (or quoting) those
#: languages uses for a count ("quatorze ingénieurs", "vierzehn Ingenieure"); words that are also English words or
#: common names ("six", "once", "due", "sept", "seize", "elf", "dix", "Otto") are left out
_FOREIGN_NUMBER_WORDS = {
    "deux": 2, "trois": 3, "quatre": 4, "cinq": 5, "huit": 8, "neuf": 9, "onze": 11, "douze": 12, "treize": 13,
    "quatorze": 14, "quinze": 15, "vingt": 20, "trente": 30, "quarante": 40, "cinquante": 50, "soixante": 60,
    "zwei": 2, "drei": 3, "vier": 4, "fünf": 5, "sechs": 6, "sieben": 7, "acht": 8, "neun": 9, "zehn": 10,
    "zwölf": 12, "dreizehn": 13, "vierzehn": 14, "fünfzehn": 15, "sechzehn": 16, "siebzehn": 17, "achtzehn": 18,
    "neunzehn": 19, "zwanzig": 20, "dreißig": 30, "vierzig": 40, "fünfzig": 50,
    "tres": 3, "cuatro": 4, "cinco": 5, "seis": 6, "siete": 7, "ocho": 8, "nueve": 9, "diez": 10, "doce": 12,
    "trece": 13, "catorce": 14, "quince": 15, "veinte": 20, "treinta": 30, "cuarenta": 40,
    "quattro": 4, "cinque": 5, "sette": 7, "dieci": 10, "undici": 11, "dodici": 12, "tredici": 13,
    "quattordici": 14, "quindici": 15, "trenta": 30,
    "dois": 2, "sete": 7, "oito": 8, "dez": 10, "doze": 12, "treze": 13, "vinte": 20, "trinta": 30,
}  # fmt: skip
_NUMBER_WORDS.update(_FOREIGN_NUMBER_WORDS)


#: a Roman numeral of two or more letters up to 39 ("XIV"), read as a count only between lower-case words ("has
#: XIV engineers"), not after a determiner ("the IV line") and not in a name ("Louis XIV", "Part IV")
_ROMAN = re.compile(r"(?<=[a-z] )(?=[IVX]{2,} [a-z])(X{0,3})(IX|IV|V?I{0,3})(?= [a-z])")
_ROMAN_NOT_AFTER = frozenset("the a an this that these those his her its their our my your".split())
_ROMAN_VALUE = {"I": 1, "V": 5, "X": 10}


_BIG = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}


_NUM_WORD = "|".join(sorted([*_NUMBER_WORDS, *_BIG], key=len, reverse=True))


# a run of number words: "fifty-two thousand", "one thousand five hundred", "two hundred and forty"
_WORD_NUM_RE = re.compile(rf"\b(?:{_NUM_WORD})(?:(?:\s+and\s+|[\s-]+)(?:{_NUM_WORD}))*\b", re.I)


_TOKEN = re.compile(r"[a-z0-9][a-z0-9'-]*", re.I)


_ENTITY = re.compile(r"\b([A-Z][a-zA-Z0-9&'.-]*[a-zA-Z0-9]|[A-Z])(?:\s+[A-Z][a-zA-Z0-9&'-]*[a-zA-Z0-9]?)*")


_CAMEL = re.compile(r"\b[a-z]+[A-Z0-9][a-zA-Z0-9]*\b")
