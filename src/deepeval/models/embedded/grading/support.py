"""Claim support against a transcript (memory precision): :func:`support_detail`, :func:`stale_values`."""

from __future__ import annotations

import re
from collections.abc import Sequence

from deepeval.models.embedded.grading.cues import _value_negated, marked_old
from deepeval.models.embedded.grading.grade import Grade
from deepeval.models.embedded.grading.lexicon import (
    _NEGATION,
    _TOKEN,
    FULLY_SUPPORTED,
    MOSTLY_SUPPORTED,
    PARAPHRASE_SIM,
    PARTLY_SUPPORTED,
    RELATED_SIM,
    WEAK_SUPPORT,
)
from deepeval.models.embedded.grading.matching import (
    APPROX,
    EXACT,
    TokenBag,
    _entity_present,
    _match_date,
    _match_number,
    _token_match,
)
from deepeval.models.embedded.grading.similarity import similarity
from deepeval.models.embedded.grading.slots import Slots, extract_slots
from deepeval.models.embedded.text import (
    normalize_formats,
)


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
        st = _match_number(n, ev, evidence, Slots(), claim)
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
    if kw_cov >= FULLY_SUPPORTED and not approx:
        if negated:
            return Grade(2, "the transcript states the opposite polarity", 0.45)
        return Grade(5, "every value and the wording are supported", 0.8)
    sim = similarity(claim, evidence)
    if kw_cov >= MOSTLY_SUPPORTED or sim >= PARAPHRASE_SIM:
        return Grade(
            4, f"supported with minor differences (word coverage {kw_cov:.2f}, similarity {sim:.2f})", 0.55
        )
    if kw_cov >= PARTLY_SUPPORTED or sim >= RELATED_SIM:
        return Grade(3, f"partly supported (word coverage {kw_cov:.2f}, similarity {sim:.2f})", 0.45)
    if kw_cov >= WEAK_SUPPORT:
        return Grade(2, f"weakly supported (word coverage {kw_cov:.2f}, similarity {sim:.2f})", 0.45)
    return Grade(1, f"no support in the transcript (similarity {sim:.2f})", 0.6)
