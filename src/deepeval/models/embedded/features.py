"""Feature extraction for the embedded judge, one function per question family.

Each function returns a ``dict[str, float]`` of named features; the calibrated models in
:mod:`deepeval.models.embedded.calibrated` pick the features they were fitted on by name. Features combine the
bundled encoder's cosine similarities with explicit checks the encoder cannot make: numbers and quantities, dates
and times, negation, named entities and swapped entities, question form, re-asking versus confirming, and lexical
overlap / fuzzy matching (``rapidfuzz``). Similarities are in [-1, 1]; shares and flags in [0, 1].
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from rapidfuzz import fuzz

from deepeval.models.embedded import answering as ans
from deepeval.models.embedded import text as tx
from deepeval.models.embedded.encoder import embed
from deepeval.models.embedded.encoder import generation as encoder_generation
from deepeval.models.embedded.lexical import idf_coverage

Features = dict[str, float]

_CONFIRM = re.compile(
    r"\b(confirm|just to (?:be sure|check|double[- ]check|make sure|clarify)|to clarify|did you mean|do you mean|"
    r"you (?:said|mentioned|told me)|as you said|still|correct\?|right\?|is that (?:right|correct)|"
    r"am i right|to be clear|which (?:one|of)|or (?:the|a|do|did|would)|between)\b",
    re.IGNORECASE,
)
_FORGOT = re.compile(
    r"\b(remind me|i don'?t (?:know|have|recall|remember)|you haven'?t (?:told|mentioned|said)|"
    r"(?:can|could) you (?:tell|remind) me (?:again )?(?:your|what|where|when|how)|what was your|"
    r"i(?:'m| am) not sure (?:what|where|when|which) your|haven'?t (?:shared|told))\b",
    re.IGNORECASE,
)
_ASK = re.compile(
    r"\b(what(?:'s| is| are| was)? your|where (?:do|are|is|did) you|when (?:is|are|do|did|will) your|"
    r"how (?:many|much|old)|which .* (?:do|did|are) you|(?:can|could|would) you (?:tell|share|let me know|give)|"
    r"do you have|are you|please (?:tell|share|provide|let me know)|let me know your|may i (?:ask|have|know))\b",
    re.IGNORECASE,
)


@lru_cache(maxsize=4096)
def _sentences(text: str) -> tuple[str, ...]:
    sents = tuple(s for s in tx.split_sentences(text) if any(c.isalnum() for c in s))
    return sents or ((text.strip(),) if text.strip() else ())


def sentences_of(text: str) -> tuple[str, ...]:
    """The sentences the features split ``text`` into (those with a letter or digit; ``()`` for blank text)."""
    return _sentences(text) if text.strip() else ()


@lru_cache(maxsize=8192)
def _cw(text: str) -> frozenset[str]:
    return frozenset(tx.content_words(text))


@lru_cache(maxsize=8192)
def _values(text: str) -> tuple[frozenset[str], frozenset[str], tuple[str, ...]]:
    nums = frozenset(f"{n:g}" for n in tx.numbers(text))
    ds = frozenset(tx.dates(text))
    date_nums = {d.split(":")[1].lstrip("0") or "0" for d in ds if d[0] in "dy"}
    return nums - date_nums, ds, tuple(tx.entities(text))


@lru_cache(maxsize=8192)
def _masked_cw(text: str) -> frozenset[str]:
    """Content words of ``text`` without its values (numbers, names): what the sentence is about."""
    from deepeval.models.embedded.extraction import mask_values

    return frozenset(w for w in tx.content_words(mask_values(text)) if w not in {"#", "way", "know", "tell"})


def _share_missing(items: Sequence[str] | frozenset[str], pool: str, fuzzy: bool = False) -> float:
    """Share of ``items`` not found in ``pool`` (0 when there are no items)."""
    if not items:
        return 0.0
    low = pool.lower()
    miss = 0
    for it in items:
        if it in low:
            continue
        if fuzzy and fuzz.partial_ratio(it, low) >= 88:
            continue
        miss += 1
    return miss / len(items)


#: the singular is the attributive form: "a 900 pound budget", "a 20-euro note"
_MONEY = re.compile(
    r"[$€£]\s?\d[\d,.]*\s?(?:k|m|bn)?\b|\b\d[\d,.]*\s?(?:k|m|bn)?[\s-]*(?:dollars?|euros?|pounds?|usd|eur|gbp|bucks)\b",
    re.IGNORECASE,
)
_PERCENT = re.compile(r"\b\d[\d.]*\s?(?:%|percent\b|per cent\b)", re.IGNORECASE)


def _numbers_by_unit(text: str) -> dict[str, frozenset[str]]:
    """``text``'s numbers (as :func:`_values` gives them) grouped by what they count: ``money``, ``pct`` or
    ``plain`` -- a changed budget next to an unchanged head count is still a changed budget."""
    nums = _values(text)[0]
    money = frozenset(f"{n:g}" for m in _MONEY.finditer(text) for n in tx.numbers(m.group(0))) & nums
    pct = frozenset(f"{n:g}" for m in _PERCENT.finditer(text) for n in tx.numbers(m.group(0))) & nums
    return {"money": money, "pct": pct, "plain": nums - money - pct}


def _num_conflict(fact: str, sent: str, msg_nums: frozenset[str]) -> bool:
    """``sent`` gives another value than ``fact`` for numbers of the same unit that the message does not also
    repeat ("$5,000 budget ... two kids" against "two kids and a budget of $1,500")."""
    fu, su = _numbers_by_unit(fact), _numbers_by_unit(sent)
    return any(fu[k] and su[k] and not fu[k] & su[k] and not fu[k] <= msg_nums for k in fu)


def _num_missing(nums: frozenset[str], pool_nums: frozenset[str]) -> float:
    if not nums:
        return 0.0
    return sum(1 for n in nums if n not in pool_nums) / len(nums)


def _date_conflict(a: frozenset[str], b: frozenset[str]) -> float:
    """1 when ``b`` gives a different value for a date part that ``a`` sets (month, day, weekday, time, year)."""
    for part in ("m", "d", "w", "t", "y"):
        pa = {d for d in a if d.startswith(part + ":")}
        pb = {d for d in b if d.startswith(part + ":")}
        if pa and pb and not (pa & pb):
            return 1.0
    return 0.0


def _swapped(ents_a: Sequence[str], ents_b: Sequence[str]) -> float:
    """1 when two names both texts mention appear in opposite order (a role swap, e.g. "A beat B" / "B beat A")."""
    common = [e for e in ents_a if e in ents_b]
    if len(common) < 2:
        return 0.0
    order_b = [ents_b.index(e) for e in common]
    return 1.0 if any(order_b[i] > order_b[i + 1] for i in range(len(order_b) - 1)) else 0.0


def _same_name(a: str, b: str) -> bool:
    """Two names refer to the same one when the words of one are all in the other ("john" / "john smith")."""
    wa, wb = set(a.split()), set(b.split())
    return bool(wa and wb) and (wa <= wb or wb <= wa)


def _names_shared(a: Sequence[str], b: Sequence[str]) -> bool:
    return any(_same_name(x, y) for x in a for y in b)


def _overlap(a: frozenset[str], b: frozenset[str]) -> float:
    """Share of ``a``'s content words found in ``b``."""
    return len(a & b) / len(a) if a else 0.0


# -- relevance ---------------------------------------------------------------------------------------------------
_WHEN = re.compile(r"^\s*(when|what (?:year|date|time|day|month|century)|how long ago)\b", re.IGNORECASE)
_HOW_MANY = re.compile(
    r"\b(how (?:many|much|long|far|old|big|tall|high|often)|what (?:percentage|number|age))\b", re.I
)
_WHO_WHERE = re.compile(
    r"^\s*(who|whom|whose|where|which (?:country|city|team|company|person|state))\b", re.I
)


def answer_type_match(question: str, text: str) -> tuple[float, float]:
    """``(known, match)``: whether the question asks for a date, a quantity or a name/place (``known``), and
    whether ``text`` contains a value of that type (``match``). The encoder cannot see this."""
    nums, ds, ents = _values(text)
    if _WHEN.search(question):
        return 1.0, float(bool(ds) or any(len(n) == 4 for n in nums))
    if _HOW_MANY.search(question):
        return 1.0, float(bool(nums) or bool(tx.numbers(text)))
    if _WHO_WHERE.search(question):
        q_ents = set(_values(question)[2])
        return 1.0, float(bool(set(ents) - q_ents))
    return 0.0, 0.0


#: Neutral sentences from many domains (ours). A question's cosine to them is its baseline similarity to text
#: about something else; e5 cosines sit in a narrow band (about 0.65-0.9) whose position depends on the question.
BACKGROUND = (
    "The river flows north through three countries before reaching the sea.",
    "The recipe needs two cups of flour and a pinch of salt.",
    "He scored the winning goal in the final minute.",
    "The company reported higher profits in the third quarter.",
    "The train to the airport leaves every fifteen minutes.",
    "She painted the portrait while living in Paris.",
    "The castle was built in the twelfth century.",
    "You can pay by card or bank transfer.",
    "The software update fixes several security problems.",
    "Water boils at a lower temperature at high altitude.",
    "The hotel offers free breakfast to all guests.",
    "Tomatoes grow best in warm, sunny weather.",
)


def background_cosine_z(q_vec: np.ndarray, cos: float) -> float:
    """``(cos - mean) / std`` of ``cos`` against the question's cosines to :data:`BACKGROUND` (ours): how far a
    statement stands above text about other things, for this question. Clipped to [-5, 5]."""
    bg = embed(list(BACKGROUND), "passage") @ q_vec
    return float(np.clip((cos - float(bg.mean())) / max(float(bg.std()), 1e-3), -5.0, 5.0))


#: Short neutral answers from many domains (ours): what a request followed by an answer about something else reads
#: like, the baseline of :func:`elliptical_fit`.
BACKGROUND_FRAGMENTS = (
    "A river",
    "The castle",
    "Two cups of flour",
    "A printer",
    "Jazz music",
    "The third quarter",
    "A bank transfer",
    "Tomatoes",
    "A security update",
    "Free breakfast",
    "The winning goal",
    "A train ticket",
)
#: A statement (or the part after its lead-in's colon) of at most this many words is read as elliptical.
ELLIPTICAL_TOKENS = 5


def _elliptical_part(statement: str) -> str | None:
    """The part of ``statement`` that only makes sense as an answer to the request: the whole statement, or what
    follows a lead-in's colon ("Pack these: A hat."), when it has at most :data:`ELLIPTICAL_TOKENS` words."""
    part = statement.rsplit(":", 1)[-1].strip()
    n = len(tx.tokens(part))
    return part if 0 < n <= ELLIPTICAL_TOKENS else None


def elliptical_texts(question: str, statement: str) -> list[str]:
    """The passages :func:`elliptical_fit` encodes: the request followed by the statement's elliptical part, then
    by each background fragment (``[]`` when the statement is not short)."""
    part = _elliptical_part(statement)
    if part is None:
        return []
    q = " ".join(question.split())
    return [f"{q} {part}", *(f"{q} {b}" for b in BACKGROUND_FRAGMENTS)]


def elliptical_fit(question: str, statement: str) -> float:
    """How well a short statement reads as the answer to ``question`` (0 for a statement that is not short).

    "A hat" or "Yes, it is." says nothing alone, and the encoder rates such fragments near the noise floor;
    appended to the request ("What should I pack for a beach trip? A hat") they move its embedding towards or away
    from it. Returned as a z-score of cos(request, request + fragment) against the same with
    :data:`BACKGROUND_FRAGMENTS`, clipped to [-5, 5]."""
    texts = elliptical_texts(question, statement)
    if not texts:
        return 0.0
    q_vec = embed([question], "query")[0]
    vecs = embed(texts, "passage") @ q_vec
    bg = vecs[1:]
    return float(np.clip((vecs[0] - float(bg.mean())) / max(float(bg.std()), 1e-4), -5.0, 5.0))


def relevance_features(question: str, statement: str) -> Features:
    """Features for "is ``statement`` relevant to ``question``" (one sentence or short text)."""
    return {
        **_relevance_core(question, statement),
        # short statements only make sense as answers to the request: read them so (see elliptical_fit)
        "elliptical": float(_elliptical_part(statement) is not None),
        "frag_fit": elliptical_fit(question, statement),
        "polar_reply": float(ans.is_polar_question(question) and ans.is_direct_reply(statement)),
    }


def _relevance_core(question: str, statement: str) -> Features:
    """The encoder and lexical features :func:`relevance_features` shares with the context-statement kind."""
    q_vec = embed([question], "query")[0]
    qp_vec = embed([question], "passage")[0]
    s_vec = embed([statement], "passage")[0]
    qw, sw = _cw(question), _cw(statement)
    _, _, q_ents = _values(question)
    cov = idf_coverage(qw, sw)
    return {
        "idf_cov": cov,
        # on topic but not answering: a yes/no request left open, or a deflection, with the request's words missing
        "polar_open": float(ans.is_polar_question(question) and not ans.gives_polarity(statement))
        * (1.0 - cov),
        "deflect": float(ans.is_deflection(statement)) * (1.0 - cov),
        "cos_z": background_cosine_z(q_vec, float(q_vec @ s_vec)),
        "cos": float(q_vec @ s_vec),
        "cos_pp": float(qp_vec @ s_vec),
        "q_overlap": _overlap(qw, sw),
        "s_overlap": _overlap(sw, qw),
        "fuzzy": fuzz.token_set_ratio(question.lower(), statement.lower()) / 100.0,
        "ent_in": 1.0 - _share_missing(q_ents, statement, fuzzy=True) if q_ents else 0.0,
        "is_question": float(tx.is_question(statement)),
        "type_known": answer_type_match(question, statement)[0],
        "type_match": answer_type_match(question, statement)[1],
        "log_len": math.log1p(len(tx.tokens(statement))),
    }


def _norm_ws(text: str) -> str:
    return " ".join(tx.normalize_quotes(text).split())


#: Sentences ranked above a statement count up to this many: a long run of good sentences must not push down the
#: later ones.
RANK_CAP = 3


def _distinct(sentences: Sequence[str]) -> list[str]:
    """``sentences`` without repeats (whitespace-normalised), in order: a repeated sentence says nothing new, and
    must neither compete with itself nor count as more text."""
    seen: set[str] = set()
    out: list[str] = []
    for s in sentences:
        key = _norm_ws(s)
        if key not in seen:
            seen.add(key)
            out.append(s)
    return out


@dataclass(frozen=True)
class _Passage:
    """A node or context as :func:`context_statement_features` reads it: its distinct sentences in order
    (:func:`_distinct` of :func:`sentences_of`) and the position of each by its whitespace-normalised text."""

    sentences: tuple[str, ...]
    position: dict[str, int]


def distinct_sentence_count(text: str) -> int:
    """How many distinct sentences ``text`` has (repeats counted once, as the context features read a passage)."""
    return len(_passage(text).sentences) if text.strip() else 0


@lru_cache(maxsize=64)
def _passage(text: str) -> _Passage:
    sents = tuple(_distinct(sentences_of(text)))
    return _Passage(sents, {_norm_ws(s): i for i, s in enumerate(sents)})


@lru_cache(maxsize=64)
def _passage_cosines(question: str, text: str, generation: int) -> tuple[np.ndarray, np.ndarray]:
    """Cosines of the question (query) to each distinct sentence of ``text``, and the same sorted (computed once
    per encoder ``generation``)."""
    sents = _passage(text).sentences
    q_vec = embed([question], "query")[0]
    cos = embed(list(sents), "passage") @ q_vec if sents else np.zeros(0, dtype=np.float32)
    cos.setflags(write=False)
    return cos, np.sort(cos)


def _placed(question: str, statement: str, text: str) -> tuple[tuple[str, ...], int, np.ndarray, np.ndarray]:
    """``(sentences, index of the statement, cosines, sorted cosines)`` of ``text`` with the statement in it: a
    statement that is not one of its sentences (as we split it) is read as one more sentence at the end."""
    passage = _passage(text)
    cos, ordered = _passage_cosines(question, text, encoder_generation())
    idx = passage.position.get(_norm_ws(statement))
    if idx is not None:
        return passage.sentences, idx, cos, ordered
    own = float(embed([question], "query")[0] @ embed([statement], "passage")[0])
    extended = np.append(cos, np.float32(own))
    return (*passage.sentences, statement), len(passage.sentences), extended, np.sort(extended)


def context_statement_features(
    question: str, statement: str, node: str | None = None, context: str | None = None
) -> Features:
    """Features for "does ``statement``, a sentence of the retrieved passage ``node``, help answer ``question``".

    Besides encoder and lexical signals of :func:`relevance_features`, the statement is compared with the other
    sentences of its passage (``node`` split as :func:`sentences_of` does; no node = a passage of one sentence) and
    ranked among the sentences of ``context`` (default: the node; the metrics pass the whole retrieval context):
    annotators mark the sentences that answer, not every sentence on the topic, so a sentence that others beat is
    less likely to answer. Repeated sentences count once: a repeat says nothing new and must not compete with
    itself. Features (cosines in [-1, 1], shares in [0, 1]): ``idf_cov`` IDF-weighted share of the question's
    content words in the statement (:mod:`deepeval.models.embedded.lexical`), ``idf_win`` the same over the
    statement and its two neighbours in the node (the answer may name what a neighbour introduced), ``nb_above``
    how far the better neighbour in the node beats it (>= 0; 0 without neighbours), ``rank`` log(1 + distinct
    context sentences that beat it, at most :data:`RANK_CAP`), ``log_sents`` log(1 + distinct sentences in the
    context, clipped to [5, 20]): the more sentences, the smaller the share that answers.

    Every comparison is one-sided: another sentence can lower a statement (by beating it, or by being one more
    sentence), never raise it, so adding a node never makes another node's sentence more relevant. The rank is
    capped so that a context with many good sentences does not push the later ones down without bound.

    Cost is linear in the size of ``node`` and ``context`` over all the statements of one request: their split,
    distinct sentences and cosines to the question are computed once (:func:`_passage`, :func:`_passage_cosines`),
    and each statement is then placed in O(log n).
    """
    base = _relevance_core(question, statement)
    sents, idx, own, _ = _placed(question, statement, node or "")
    if context is not None:
        ranked, r_idx, cos, ordered = _placed(question, statement, context)
    else:
        ranked, r_idx, cos, ordered = sents, idx, own, np.sort(own)
    above = len(ordered) - int(np.searchsorted(ordered, cos[r_idx] + 1e-6, side="right"))
    qw = _cw(question)
    neighbours = [j for j in (idx - 1, idx + 1) if 0 <= j < len(sents)]
    window = frozenset().union(*(_cw(s) for s in sents[max(0, idx - 1) : idx + 2]))
    return {
        **{k: base[k] for k in ("cos", "cos_pp", "fuzzy", "type_known", "type_match", "log_len")},
        "idf_cov": idf_coverage(qw, _cw(statement)),
        "idf_win": idf_coverage(qw, window),
        "nb_above": max(0.0, float(max(own[j] for j in neighbours) - own[idx])) if neighbours else 0.0,
        "rank": math.log1p(min(above, RANK_CAP)),
        # the training passages hold 5-20 sentences (95 % of ClapNQ items): no extrapolation outside that range
        "log_sents": math.log1p(min(max(len(ranked), 5), 20)),
    }


def node_features(question: str, node: str) -> Features:
    """Features for "does the context ``node`` hold something relevant to ``question``"."""
    sents = list(_sentences(node)) or [node]
    q_vec = embed([question], "query")[0]
    s_vecs = embed(sents, "passage")
    centroid = s_vecs.mean(axis=0)  # the node as the centroid of its sentences: no second, long encoding
    node_vec = centroid / (float(np.linalg.norm(centroid)) or 1.0)
    sims = s_vecs @ q_vec
    qw = _cw(question)
    overlaps = [_overlap(qw, _cw(s)) for s in sents]
    _, _, q_ents = _values(question)
    return {
        "cos_max": float(sims.max()),
        "cos_mean": float(sims.mean()),
        "cos_node": float(q_vec @ node_vec),
        "overlap_max": max(overlaps),
        "overlap_node": _overlap(qw, _cw(node)),
        "fuzzy": fuzz.token_set_ratio(question.lower(), node.lower()) / 100.0,
        "ent_in": 1.0 - _share_missing(q_ents, node, fuzzy=True) if q_ents else 0.0,
        "log_sents": math.log1p(len(sents)),
        "type_known": answer_type_match(question, node)[0],
        "type_match": max(answer_type_match(question, s)[1] for s in sents),
    }


# -- claim support ----------------------------------------------------------------------------------------------
def support_features(claim: str, source: str) -> Features:
    """Features for "is ``claim`` supported by ``source``"."""
    sents = list(_sentences(source)) or [source]
    both = embed([claim, *sents], "passage")  # one encoder call
    c_vec, s_vecs = both[0], both[1:]
    sims = s_vecs @ c_vec
    best_i = int(np.argmax(sims))
    best = sents[best_i]
    c_nums, c_dates, c_ents = _values(claim)
    src_nums, src_dates, _ = _values(source)
    b_nums, b_dates, b_ents = _values(best)
    cw = _cw(claim)
    src_w = _cw(source)
    cos_best = float(sims[best_i])
    neg_diff = float((tx.negation_count(claim) % 2) != (tx.negation_count(best) % 2))
    num_conflict = float(bool(c_nums and b_nums and not (c_nums & b_nums)))
    return {
        "cos_best": cos_best,
        "cos_top2": float(np.sort(sims)[-2:].mean()),
        "coverage": _overlap(cw, src_w),
        "coverage_best": _overlap(cw, _cw(best)),
        "fuzzy_best": fuzz.token_set_ratio(claim.lower(), best.lower()) / 100.0,
        "num_missing": _num_missing(c_nums, src_nums),
        "num_conflict": num_conflict * cos_best,
        "date_missing": _share_missing(sorted(c_dates), " ".join(sorted(src_dates))),
        "date_conflict": _date_conflict(c_dates, b_dates) * cos_best,
        "ent_missing": _share_missing(c_ents, source, fuzzy=True),
        "neg_diff": neg_diff * cos_best,
        "swapped": _swapped(c_ents, b_ents) * cos_best,
    }


# -- retention -------------------------------------------------------------------------------------------------
#: Set phrases with a negation word that negate nothing ("No problem, ...").
_FALSE_NEG = re.compile(
    r"\bno (?:problem|worries|need to worry|doubt|wonder)\b|\bnot a problem\b|^\s*no\b\s*[,!.-]", re.I
)
#: A sentence with one of these and no "you"/"your" speaks about the world, not the user ("Cats usually sleep...").
_GENERIC = re.compile(
    r"\b(?:usually|typically|generally|often|most|on average|guidelines?|experts?|studies|was founded|"
    r"is called|per cent|percent|%)\b",
    re.I,
)
_YOUR = re.compile(r"\byour\b", re.I)
_YOU = re.compile(r"\b(?:you|your|yours|yourself|you're|you've|you'll|you'd)\b", re.I)
_DIRECTION = re.compile(
    r"\bfrom\s+(?:my\s+|the\s+|your\s+|an?\s+)?([\w'-]+(?:\s+\d+)?)\s+(?:to|into)\s+(?:my\s+|the\s+|your\s+|an?\s+)?"
    r"([\w'-]+(?:\s+\d+)?)|\bto\s+(?:an?\s+|the\s+|my\s+|your\s+)?([\w'-]+(?:\s+\d+)?)\s+from\s+"
    r"(?:my\s+|the\s+|your\s+|an?\s+)?([\w'-]+(?:\s+\d+)?)|\b([a-z]+s)\s+(?:to|into)\s+([a-z]+s)\b",
    re.I,
)


_OR = re.compile(r"\bor\b", re.I)


def _neg_parity(text: str) -> int:
    """Parity of the negations in ``text`` ("peanut-free" counts); set phrases ("no problem") do not."""
    toks = tx.tokens(_FALSE_NEG.sub(" ", text))
    return sum(1 for t in toks if t in tx.NEGATIONS or t.endswith("n't") or t.endswith("-free")) % 2


_Q_NUMBER = re.compile(
    r"\bhow (?:many|much|old|long|tall|big|far|often)\b|\bwhat (?:size|age|number|year)\b", re.I
)
_Q_DATE = re.compile(r"\bwhen\b|\bwhat (?:time|day|date|month)\b|\bwhich (?:day|date|month)\b", re.I)
_Q_NAME = re.compile(
    r"\bwhere\b|\bwho\b|\bwhich (?:city|country|town|airline|company|school|team)\b|"
    r"\bwhat(?:'s| is) (?:your|his|her|their) \w*\s*name\b|\bcalled\b",
    re.I,
)
_REPLACED = re.compile(
    r"\b(?:not|instead of|rather than|no longer|misspelled it as|moved (?:to \w+ )?from)\s+(?:the\s+|a\s+|an\s+|in\s+|at\s+|on\s+)?"
    r"([$€£]?[\w.,:/'-]+)",
    re.I,
)


def _asks_for_value(question: str, fact: str) -> bool:
    """The question asks for a kind of value (number, date/time, place/name) that ``fact`` states."""
    from deepeval.models.embedded.slots import asks_occupation, occupation_of

    nums, ds, ents = _values(fact)
    return bool(
        (asks_occupation(question) and occupation_of(fact))  # the occupation slot: "What do you do for work?"
        or (_Q_NUMBER.search(question) and (nums or ds))
        or (_Q_DATE.search(question) and ds)
        or (_Q_NAME.search(question) and ents)
    )


def _replaced_values(user_message: str | None, facts: Sequence[str]) -> frozenset[str]:
    """Values the user's message says are no longer true ("4pm, not 2pm", "moved from Bath") and no fact keeps."""
    if not user_message:
        return frozenset()
    kept = " ".join(facts).lower()
    out = set()
    for m in _REPLACED.finditer(tx.normalize_quotes(user_message)):
        v = m.group(1).strip(".,;:").lower()
        if (
            v
            and v not in kept
            and (
                any(c.isdigit() for c in v)
                or v in {e for e in tx.entities(m.group(0))}
                or m.group(1)[:1].isupper()
                or tx.dates(v)
            )
        ):
            out.add(v)
    return frozenset(out)


def _without_denied_values(message: str, facts: Sequence[str]) -> str:
    """``message`` without the phrases in which it denies a value no fact holds ("34, not 43", "rather than
    Leeds"): echoing a correction names the old value only to set it aside, which is neither using it nor a
    negation of a fact. A denied value that a fact still holds is kept (that denial contradicts the fact)."""
    kept = " ".join(facts).lower()
    clean = tx.normalize_quotes(message)

    def drop(m: re.Match[str]) -> str:
        raw = m.group(1)
        v = raw.strip(".,;:").lower()
        informative = any(c.isdigit() for c in v) or raw[:1].isupper() or bool(tx.dates(v))
        if not v or not informative or re.search(rf"(?<![\w$€£]){re.escape(v)}(?!\w)", kept):
            return m.group(0)
        tail = raw[len(raw.rstrip(".,;:")) :]  # keep the sentence's own punctuation
        return tail or (" " if m.group(0)[:1] in ",;" else "")

    out = re.sub(r"[,;]?\s*" + _REPLACED.pattern, drop, clean, flags=re.IGNORECASE)
    return out if out.strip() else message


def _directions(text: str) -> frozenset[tuple[str, str]]:
    """Ordered (source, target) pairs a text states: "from Denver to Boston", "to Boston from Denver",
    "dollars to euros". Stemmed, lower-cased."""
    out = set()
    for m in _DIRECTION.finditer(tx.normalize_quotes(text)):
        g = m.groups()
        a, b = (g[0], g[1]) if g[0] else ((g[3], g[2]) if g[2] else (g[4], g[5]))
        out.add((tx.stem(a.lower()), tx.stem(b.lower())))
    return frozenset(out)


def _relation_swapped(fact: str, sent: str, f_ents: Sequence[str], s_ents: Sequence[str]) -> float:
    """1 when ``sent`` reverses a direction ``fact`` states, or names two of the fact's names in the opposite
    order with the same words between them ("Tom is older than Ana" / "Ana is older than Tom"). Two names in
    another order with other words between ("Ben could shadow Kate") are not a swap."""
    fd, sd = _directions(fact), _directions(sent)
    if any((b, a) in sd for a, b in fd if a != b):
        return 1.0
    if not _swapped(f_ents, s_ents):
        return 0.0
    low_f, low_s = fact.lower(), sent.lower()
    common = [e for e in f_ents if e in s_ents]
    for i, a in enumerate(common):
        for b in common[i + 1 :]:
            fa, fb, sa, sb = low_f.find(a), low_f.find(b), low_s.find(a), low_s.find(b)
            if min(fa, fb, sa, sb) < 0 or (fa < fb) == (sa < sb):
                continue
            between_f = set(tx.tokens(low_f[min(fa, fb) : max(fa, fb)])) - set(tx.tokens(a + " " + b))
            between_s = set(tx.tokens(low_s[min(sa, sb) : max(sa, sb)])) - set(tx.tokens(a + " " + b))
            if between_f & between_s - {"my", "your", "the", "a", "and"}:
                return 1.0
    return 0.0


_NAMED_OPTIONS = re.compile(r"\b([A-Z][\w'-]+)\s*,?\s+or\s+([A-Z][\w'-]+)")


@lru_cache(maxsize=4096)
def _offered_names(sentence: str) -> frozenset[str]:
    """Names a question offers as alternatives ("Narita or Haneda?"): options for a detail the user has not given
    yet, so they state no value and ask for none the facts hold (lower-cased; empty for a statement)."""
    if not tx.is_question(sentence):
        return frozenset()
    return frozenset(n.lower() for m in _NAMED_OPTIONS.finditer(sentence) for n in m.groups())


def _all_echoed(
    vals: tuple[frozenset[str], frozenset[str], Sequence[str]],
    nums: frozenset[str],
    dates: frozenset[str],
    ents: Sequence[str],
) -> bool:
    """Every number, date and name of a fact (``vals`` as :func:`_values` gives them) is in the message's."""
    f_nums, f_dates, f_ents = vals
    return f_nums <= nums and f_dates <= dates and all(_names_shared([e], ents) for e in f_ents)


def slot_conflict(facts: Sequence[str], assistant_message: str) -> float:
    """1 when a statement of the message gives another value for a slot a fact fills, by the extractor's slot
    guard (:func:`deepeval.models.embedded.extraction.same_slot`): the same counted noun with another number ("With
    your 4 kids" to "I have 2 kids"), a name in the same context ("Since you live in London" to "I live in Leeds").
    Questions state nothing; a value the message denies ("Leeds, not London") is no value it states."""
    from deepeval.models.embedded.extraction import same_slot

    message = _without_denied_values(assistant_message, facts)
    return float(
        any(
            same_slot(sent, fact, False)
            for sent in sentences_of(message)
            if not tx.is_question(sent)
            for fact in facts
        )
    )


def prefetch_retention(turns: Sequence[tuple[str, str]]) -> None:
    """Encode, in one encoder call per prefix, what reading a conversation (``(role, content)`` turns) for
    retention will encode: the user turns' candidate facts and their value-masked forms (the extractor compares
    those to find corrections), the assistant turns' sentences, and their question-like sentences as queries. The
    encoder's cost is mostly per call, so a 20-turn conversation costs two calls instead of about three per turn;
    what the extractor and :func:`retention_features` then ask for is cached (a fact a correction rewrote is
    encoded when first needed)."""
    from deepeval.models.embedded.extraction import DeterministicExtractor, mask_values

    extractor = DeterministicExtractor()
    passages: set[str] = set()
    queries: set[str] = set()
    for role, content in turns:
        if role == "user":
            for fact in extractor.fact_updates(content, []).added:
                passages.update((fact, mask_values(fact)))
            continue
        for sent in sentences_of(content):
            passages.add(sent)
            if tx.is_question(sent) or _ASK.search(sent):
                queries.add(sent)
    for kind, texts in (("passage", passages), ("query", queries)):
        if texts:
            embed(sorted(texts), kind)  # type: ignore[arg-type]


def _reask_features(
    questions: Sequence[str], sents: Sequence[str], fact_list: Sequence[str], f_vecs: np.ndarray
) -> Features:
    """The re-ask family of :func:`retention_features`: how close the message's questions come to a fact they do
    not echo (``reask_sim``, ``reask_overlap``, ``reask_qshare``: shared subject words or slot, ``reask_type``: a
    question for the kind of value the fact states) and to a fact they echo (``echo_sim``)."""
    from deepeval.models.embedded.slots import asks_occupation, occupation_of

    q_vecs = embed(questions, "query")
    qsim = q_vecs @ f_vecs.T
    best_reask = 0.0
    best_overlap = 0.0
    best_echo_sim = 0.0
    best_qshare = 0.0
    best_type = 0.0
    # a fact the message already restates outside its questions is known, not asked for again
    stated = [s for s in sents if s not in questions]
    stated_vals = _values(" ".join(stated)) if stated else (frozenset(), frozenset(), ())
    stated_pre = {w[:5] for s in stated for w in _cw(s)}
    acknowledged = []
    for f in fact_list:
        f_nums, f_dates, f_ents = _values(f)
        f_all = set(f_nums) | set(f_dates) | set(f_ents)
        have = set(stated_vals[0]) | set(stated_vals[1]) | set(stated_vals[2])
        pre = {w[:5] for w in _masked_cw(f)} - {"#"}
        acknowledged.append(
            bool(f_all and f_all <= have)
            or bool(not f_all and pre and len(pre & stated_pre) / len(pre) >= 0.5)
        )
    for qi, q in enumerate(questions):
        q_masked = _masked_cw(q)
        q_nums, q_dates, q_ents = _values(q)
        q_cw = _cw(q)
        offered = _offered_names(q)  # choosing among new options clarifies; it asks for no known value
        for fi, f in enumerate(fact_list):
            f_nums, f_dates, f_ents = _values(f)
            echo = bool(
                (f_nums and f_nums & q_nums)
                or (f_dates and f_dates & q_dates)
                or (f_ents and set(f_ents) & set(q_ents))
                or _CONFIRM.search(q)
                or acknowledged[fi]
                or bool(offered and not any(_names_shared([o], f_ents) for o in offered))
            )
            qs = float(qsim[qi, fi])
            ov = _overlap(_cw(tx.normalize_quotes(f)) - {"#"}, q_cw)
            if echo:
                best_echo_sim = max(best_echo_sim, qs)
            else:
                best_reask = max(best_reask, qs)
                typed = _asks_for_value(q, f)
                if typed:
                    best_type = max(best_type, qs)
                best_overlap = max(best_overlap, ov)
                # a question for the date the fact states ("when ...?" / "on May 2") shares its subject even
                # when no word is shared: count the date slot as one shared word ("how many/long" is too
                # loose for this: it asks for new quantities as often as for known ones)
                slot = frozenset({"#date"}) if _Q_DATE.search(q) and _values(f)[1] else frozenset()
                if asks_occupation(q) and occupation_of(f):  # the occupation slot, likewise
                    slot |= {"#job"}
                if q_masked | slot:
                    shared = (q_masked & _masked_cw(f)) | slot
                    best_qshare = max(best_qshare, len(shared) / len(q_masked | slot))
    return {
        "reask_sim": best_reask,
        "reask_overlap": best_overlap,
        "echo_sim": best_echo_sim,
        "reask_qshare": best_qshare,
        "reask_type": best_type,
    }


def retention_features(
    facts: Sequence[str], assistant_message: str, user_message: str | None = None
) -> Features:
    """Features for "does ``assistant_message`` forget, contradict or re-ask the user's ``facts``".

    ``user_message`` (the user turn just before) adds its declaratives to the facts when they are not there yet.
    """
    from deepeval.models.embedded.extraction import DeterministicExtractor

    fact_list = [f for f in facts if f and f.strip()]
    if user_message:
        for f in DeterministicExtractor().fact_updates(user_message, []).added:
            if f not in fact_list:
                fact_list.append(f)
    assistant_message = _without_denied_values(assistant_message, fact_list)
    sents = list(_sentences(assistant_message))
    feats: Features = dict.fromkeys(RETENTION_FEATURES, 0.0)
    if not sents:
        return feats
    from deepeval.models.embedded import possessions
    from deepeval.models.embedded.constraints import is_suggestion
    from deepeval.models.embedded.slots import attributed_occupation, occupation_of

    # an offer in question form ("How about a curry, Bob?") proposes something; it asks for nothing the user said
    questions = [
        s
        for s in sents
        if (tx.is_question(s) or _ASK.search(s)) and not (is_suggestion(s) and not _YOUR.search(s))
    ]
    feats["has_question"] = float(bool(questions))
    feats["confirm_cue"] = float(any(_CONFIRM.search(q) for q in questions))
    feats["forgot_cue"] = float(bool(_FORGOT.search(assistant_message)))
    if not fact_list:
        return feats
    f_vecs = embed(fact_list, "passage")
    s_vecs = embed(sents, "passage")
    sim = s_vecs @ f_vecs.T  # (sentences, facts)
    feats["max_sim"] = float(sim.max())
    feats["coverage"] = float(sim.max(axis=0).mean())
    all_fact_text = " ".join(fact_list)
    fact_nums, fact_dates, fact_ents = _values(all_fact_text)
    msg_nums, msg_dates, _ = _values(assistant_message)
    # re-asking: a question about a fact's subject that does not echo the fact's value
    if questions:
        feats.update(_reask_features(questions, sents, fact_list, f_vecs))
    # contradiction: the sentence closest to a fact states a different value of the same kind
    from deepeval.models.embedded.constraints import constraint_targets, honours, violates

    targets = frozenset().union(*(constraint_targets(f) for f in fact_list))
    num_c = date_c = ent_c = neg_c = swap_c = generic_c = 0.0
    # names offered as alternatives in a question ("Narita or Haneda?") ask about a new detail; they state nothing
    msg_ents = tuple(e for x in sents for e in _values(x)[2] if e not in _offered_names(x))
    jobs = {j for j in (occupation_of(f) for f in fact_list) if j}
    for fi, f in enumerate(fact_list):
        si = int(np.argmax(sim[:, fi]))
        s, w = sents[si], float(sim[si, fi])
        f_nums, f_dates, f_ents = _values(f)
        s_nums, s_dates, s_ents = _values(s)
        s_ents = tuple(e for e in s_ents if e not in _offered_names(s))
        # a fact whose every value the message repeats is echoed, not contradicted ("860 pounds, under your 900")
        f_num_c = bool(f_nums and s_nums and _num_conflict(f, s, msg_nums))
        f_date_c = bool(_date_conflict(f_dates, s_dates) and not (f_dates and f_dates <= msg_dates))
        new_ents = [e for e in s_ents if e not in all_fact_text.lower()]
        f_ent_c = bool(f_ents and new_ents and not _names_shared(f_ents, s_ents))
        f_swap = _relation_swapped(f, s, f_ents, s_ents)
        num_c = max(num_c, w * f_num_c)
        date_c = max(date_c, w * f_date_c)
        ent_c = max(ent_c, w * f_ent_c)
        parity = _neg_parity(s)
        if (
            _neg_parity(f) != parity
            and not tx.is_question(s)
            and not constraint_targets(f)
            and not honours(targets, s)  # "a peanut-free option": the negation keeps a constraint fact
        ):
            # (a constraint fact's polarity is constraint_violation's job: "avoid caffeine" / "without caffeine")
            # the sentence's negation may echo another fact ("no running" from the injury fact) instead
            echoed = any(
                gi != fi and _neg_parity(g) == parity and float(sim[si, gi]) >= w - 0.05
                for gi, g in enumerate(fact_list)
            )
            if not echoed:
                neg_c = max(neg_c, w)
        swap_c = max(swap_c, f_swap * w)
        value_conflict = max(num_c, date_c, ent_c) if (num_c or date_c or ent_c) else 0.0
        if value_conflict and _GENERIC.search(s) and not _YOU.search(s):
            generic_c = max(generic_c, w)
    # an occupation the message takes the user to have that no fact gives ("As a teacher" to a nurse) is a
    # conflicting value of the occupation slot, like another name
    for si, x in enumerate(sents):
        job = attributed_occupation(x)
        if jobs and job and job not in jobs:
            ent_c = max(ent_c, max(float(sim[si, fi]) for fi, f in enumerate(fact_list) if occupation_of(f)))
    # "your cat" to a dog owner is another value of the pet slot; "your car" to someone without one presupposes
    # what a fact denies
    for si, x in enumerate(sents):
        other, denied = possessions.conflicts(fact_list, x)
        if other or denied:
            w = float(sim[si].max())
            ent_c = max(ent_c, w * other)
            neg_c = max(neg_c, w * denied)
    feats["constraint_violation"] = float(any(violates(targets, s) for s in sents))
    feats["num_conflict"] = num_c
    feats["date_conflict"] = date_c
    feats["ent_conflict"] = ent_c
    feats["neg_conflict"] = neg_c
    feats["swapped"] = swap_c
    feats["generic_conflict"] = generic_c
    replaced = _replaced_values(user_message, list(facts))
    low_msg = tx.normalize_quotes(assistant_message).lower()
    msg_numbers = tx.numbers(assistant_message)
    feats["old_value_used"] = float(
        any(
            re.search(rf"(?<![\w$€£]){re.escape(v)}(?!\w)", low_msg)
            or (v.replace(".", "", 1).isdigit() and float(v) in msg_numbers)
            for v in replaced
        )
    )
    # share of the facts' values (numbers, dates, names) the message repeats: kept facts are often echoed
    # ("John" is echoed by "John Smith")
    n_vals = len(fact_nums) + len(fact_dates) + len(set(fact_ents))
    n_echoed = len(fact_nums & msg_nums) + len(fact_dates & msg_dates)
    n_echoed += sum(1 for e in set(fact_ents) if _names_shared([e], msg_ents))
    feats["values_echoed"] = n_echoed / n_vals if n_vals else 0.0
    # a message that repeats every value of the facts and contradicts none is the facts used: its closeness to them
    # ("Parcel addressed to Hanna Berg.") is agreement, not the near-copy with one value changed of a contradiction
    conflict = max(
        num_c, date_c, ent_c, neg_c, swap_c, feats["constraint_violation"], feats["old_value_used"]
    )
    msg_vals = (msg_nums, msg_dates, msg_ents)
    if n_vals and not conflict and _all_echoed((fact_nums, fact_dates, fact_ents), *msg_vals):
        feats["echo_kept"] = feats["max_sim"]
    # numbers in a question offering alternatives ("nonstop, or is one stop fine?") are options for a new detail,
    # not values the message states
    stated_nums = _values(" ".join(x for x in sents if not (tx.is_question(x) and _OR.search(x))))[0]
    feats["msg_num_new"] = _num_missing(stated_nums, fact_nums) if stated_nums and fact_nums else 0.0
    feats["msg_date_new"] = _date_conflict(fact_dates, msg_dates)
    unknown = [e for e in msg_ents if not _names_shared([e], fact_ents)]  # "John Smith" knows "John"
    feats["msg_ent_new"] = (
        _share_missing(unknown, all_fact_text, fuzzy=True) * len(unknown) / len(msg_ents)
        if unknown and fact_ents
        else 0.0
    )
    return feats


RETENTION_FEATURES = (
    "constraint_violation",
    "reask_qshare",
    "has_question",
    "confirm_cue",
    "forgot_cue",
    "max_sim",
    "coverage",
    "reask_sim",
    "reask_overlap",
    "echo_sim",
    "num_conflict",
    "date_conflict",
    "ent_conflict",
    "neg_conflict",
    "swapped",
    "generic_conflict",
    "old_value_used",
    "reask_type",
    "values_echoed",
    "msg_num_new",
    "msg_date_new",
    "msg_ent_new",
    "echo_kept",
)
