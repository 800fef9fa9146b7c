"""Deterministic extraction: what stands in for the LLM's extraction step when no LLM is configured.

:class:`DeterministicExtractor` implements :class:`deepeval.models.extraction.Extractor`:

- ``statements(text)``: sentences (markdown bullets and headings stripped), split by ``pysbd``; a list of bare
  items is one statement with its lead-in (:mod:`deepeval.models.embedded.lists`).
- ``facts(user_message, previous)``: declaratives about the user or the world that carry information (first person,
  numbers, dates, names); questions, greetings and bare requests state no facts. A sentence joined by ``and``/``but``
  with a new first-person clause becomes two facts. A correction (``"actually ..."``, ``"no, it's ..."``,
  ``"I meant ..."``) is returned as a self-contained fact: a bare ``"No, it's Tuesday"`` borrows the wording of the
  earlier fact it corrects (the value of the same type is swapped in).
- ``fact_updates(user_message, previous)`` and ``known_facts(turns)``: the facts known after each user turn, where a
  correction or a restatement of the same slot with a different value supersedes the earlier fact.
- ``claims(text)``: atomic claims of a wiki-style markdown page: bullets and sentences, split at clause-joining
  conjunctions; a short bullet under a heading is prefixed with the heading (``"Pets: Rex, a beagle"``).

Everything is rule-based; the only model used is the bundled encoder, to match a correction with the fact it
corrects. All methods are deterministic for a given input.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from deepeval._concurrency import to_daemon_thread
from deepeval.models.embedded import text as tx
from deepeval.models.embedded.lists import split_with_lists
from deepeval.models.embedded.names import EXTRACTOR_NAME

NAME = EXTRACTOR_NAME

_CORRECTION = re.compile(
    r"^\s*(?:(?:oh|oops|wait|sorry|no|nope|actually|correction|scratch that|my bad|my mistake|to be clear)"
    r"\b[\s,:;!.-]*|i meant\b\s*(?:to say\s*)?[\s,:]*)+",
    re.IGNORECASE,
)
_LEADING_PREP = re.compile(r"^\s*(from|to|in|at|on|for|with|by|via|near|until|after|before)\b", re.IGNORECASE)
_CORRECTION_CUE = re.compile(
    r"\b(actually|correction|i meant|i mean|not\s+\S+\s*,?\s*but|sorry|scratch that|i was wrong|rather|changed|"
    r"instead|no longer|anymore|moved|update)\b",
    re.IGNORECASE,
)
_NOT_X = re.compile(r"[,;]?\s*\(?\bnot\s+(?:the\s+|a\s+|an\s+)?([\w$€£.,:/'-]+(?:\s+[A-Z][\w'-]+)?)\)?\s*$")
# a fact whose subject is a pronoun borrows its subject from the fact it corrects ("She is 11" -> "My daughter ...")
_PRONOUN_START = re.compile(
    r"^(?:it|that|this|it's|that's|its|thats|he|she|they|he's|she's|they're|his|her|their)\b", re.IGNORECASE
)
_FIRST_PERSON = frozenset(
    {"i", "i'm", "i've", "i'd", "i'll", "my", "me", "mine", "we", "we're", "our", "us", "ours"}
)
_CLAUSE_SPLIT = re.compile(
    r"\s*;\s*|,?\s+(?:and|but|while|although)\s+(?=(?:i|i'm|i've|my|we|we're|our|he|she|they|his|her|their|it)\b)",
    re.IGNORECASE,
)
_CLAIM_SPLIT = re.compile(
    r"\s*;\s*|,\s+(?:and|but)\s+|\s+(?:and|but)\s+(?=(?:i|he|she|they|we|it|his|her|their|my|our|the user|"
    r"[A-Z][a-z]+\s+(?:is|was|has|had|lives|works|likes|loves|owns|prefers|wants|plans))\b)",
)
_REQUEST_START = frozenset(
    "please can could would will tell give show help list write explain find book suggest recommend make".split()
)


@dataclass(frozen=True)
class FactUpdate:
    """Result of one user turn: facts it adds and earlier facts it supersedes (exact strings)."""

    added: list[str] = field(default_factory=list)
    superseded: list[str] = field(default_factory=list)


def _has_information(sentence: str) -> bool:
    toks = tx.tokens(sentence)
    if any(t in _FIRST_PERSON for t in toks):
        return True
    return bool(tx.numbers(sentence) or tx.dates(sentence) or tx.entities(sentence))


def _values(text: str) -> dict[str, set[str]]:
    """Typed values of a fact: numbers, dates (by sub-type) and names."""
    out: dict[str, set[str]] = {"num": {f"{n:g}" for n in tx.numbers(text)}}
    for d in tx.dates(text):
        out.setdefault(d.split(":", 1)[0], set()).add(d)
    out["ent"] = set(tx.entities(text))
    if out["num"] and any(k in out for k in ("d", "y", "t")):
        date_nums = {d.split(":")[1].lstrip("0") or "0" for k in ("d", "y") for d in out.get(k, set())}
        out["num"] -= date_nums
    return {k: v for k, v in out.items() if v}


def mask_values(text: str) -> str:
    """``text`` with numbers and capitalised names replaced by ``#`` (for comparing what a fact is about)."""
    masked = re.sub(r"[$€£]?\d[\d,.:/]*(?:st|nd|rd|th|am|pm|k|%)?", "#", tx.normalize_quotes(text))
    return re.sub(r"(?<!^)(?<![.!?]\s)\b[A-Z][a-z]+\b", "#", masked)


def _slot_similarity(a: str, b: str) -> float:
    """How much two facts are about the same thing, ignoring their values: cosine of value-masked texts blended
    with content-word overlap."""
    from deepeval.models.embedded.encoder import embed

    ma, mb = mask_values(a), mask_values(b)
    vecs = embed([ma, mb], "passage")
    cos = float(vecs[0] @ vecs[1])
    wa, wb = set(tx.content_words(ma)) - {"#"}, set(tx.content_words(mb)) - {"#"}
    jac = len(wa & wb) / len(wa | wb) if wa | wb else 0.0
    return 0.6 * cos + 0.4 * jac


def _value_text(fact: str) -> str:
    """The value a short correction gives: its first number, else its last name, else the text itself."""
    m = re.search(r"[$€£]?\d[\d,.:]*(?:st|nd|rd|th|am|pm|k|%)?", fact)
    if m:
        return m.group(0).rstrip(".,")
    names = re.findall(r"\b[A-Z][a-z][\w'-]*", fact)
    names = [
        n for n in names if n.lower() not in {"i", "i'm", "it", "it's", "that", "that's", "no", "actually"}
    ]
    return names[-1] if names else fact.rstrip(".")


def _is_bare(fact: str) -> bool:
    """A fact that only makes sense with an earlier one: ``"It's Tuesday."``, ``"3."``."""
    return bool(_PRONOUN_START.match(fact)) or not [
        w for w in tx.content_words(mask_values(fact)) if w != "#"
    ]


def _conflicts(new: dict[str, set[str]], old: dict[str, set[str]]) -> bool:
    return any(k in old and new[k] and not (new[k] & old[k]) for k in new)


_ORIGIN = frozenset({"grew", "grow", "born", "raised", "originally", "come", "came", "hometown"})
_PREPS = frozenset("from to in at on for with by via near until after before into".split())


def _value_spans(text: str, kind: str) -> list[tuple[int, int]]:
    """Character spans of the values of ``kind`` (``"ent"`` names or ``"num"`` numbers) in ``text``, in order."""
    if kind == "ent":
        spans = []
        for name in tx.entities(text):
            m = re.search(rf"\b{re.escape(name)}\b", text, flags=re.IGNORECASE)
            if m:
                spans.append((m.start(), m.end()))
        return sorted(spans)
    if kind == "num":
        return [
            (m.start(), m.end()) for m in re.finditer(r"[$€£]?\d[\d,.:]*(?:st|nd|rd|th|am|pm|k|%)?", text)
        ]
    return []


def _value_context(text: str, span: tuple[int, int], prev_end: int) -> tuple[frozenset[str], str]:
    """Content words between the previous value (or the clause start) and the value at ``span``, and the
    preposition right before the value ('' when none): what the value is the value of (``"grew up in" York``)."""
    before = text[prev_end : span[0]]
    before = re.split(r"[,;]|\b(?:and|but|while|although)\b", before, flags=re.IGNORECASE)[-1]
    toks = tx.tokens(before)
    prep = (
        toks[-1]
        if toks and toks[-1] in _PREPS
        else (toks[-2] if len(toks) > 1 and toks[-2] in _PREPS else "")
    )
    words = frozenset(tx.stem(t) for t in toks if t not in tx.STOPWORDS or t in {"up", "from"})
    return words, prep


def _slot_match(new_fact: str, old: str, kind: str) -> tuple[float, str | None]:
    """Which value of ``old`` (of ``kind``) the value stated in ``new_fact`` replaces: ``(score, value text)``.

    Score = shared context words (``"grew up in"``) + 1 for the same preposition before the value + 1 when a bare
    ``"from X"`` meets an origin verb (``grew up``, ``born``, ``raised``). Ties keep the last value. ``(0, None)``
    when ``old`` has no value of ``kind``."""
    new_spans = _value_spans(new_fact, kind)
    if not new_spans:
        return 0.0, None
    new_words, new_prep = _value_context(new_fact, new_spans[0], 0)
    new_words = new_words - {tx.stem(t) for t in _FIRST_PERSON}
    best: tuple[float, str | None] = (0.0, None)
    prev_end = 0
    for span in _value_spans(old, kind):
        words, prep = _value_context(old, span, prev_end)
        prev_end = span[1]
        score = float(len((new_words - {"from"}) & words))
        if new_prep and new_prep == prep:
            score += 1.0
        if new_prep == "from" and (words & _ORIGIN or "from" in words):
            score += 1.0
        if score >= best[0]:
            best = (score, old[span[0] : span[1]])
    return best


def _multi_valued(old: str, values: dict[str, set[str]]) -> str | None:
    """The value kind (``ent``/``num``) for which ``old`` holds more values than the new fact gives: a compound
    fact (``"I live in Leeds but grew up in York"``) whose other values a correction of one must keep."""
    ov = _values(old)
    for kind in ("ent", "num"):
        if kind in values and len(ov.get(kind, ())) > len(values[kind]):
            return kind
    return None


def _respelled_word(old_name: str, new_name: str) -> str:
    """The part of ``old_name`` a one-word ``new_name`` replaces: the word it respells when it is close in spelling
    to one ("John" for "Jon" in "Jon Smith", the surname kept), else the whole name."""
    words = old_name.split()
    if len(words) < 2 or len(new_name.split()) != 1:
        return old_name
    from rapidfuzz import fuzz

    best = max(words, key=lambda w: fuzz.ratio(w.lower(), new_name.lower()))
    return best if fuzz.ratio(best.lower(), new_name.lower()) >= 75 else old_name


#: A number said in comparison ("that's over my 1,200", "6:30 is after 6", "one night too many"): a judgement about a
#: value, not a new value of a slot.
_COMPARISON = re.compile(
    r"\b(?:over|more than|less than|fewer than|under|above|below|after|before|past|beyond|exceeds?)\s+"
    r"(?:my\s+|the\s+|your\s+|what\s+i\s+said\s*)?[$€£]?\d|\btoo\s+(?:many|few|much|little|long|short|early|late)\b|"
    r"\b(?:one|an?|\d+)\s+(?:\w+\s+)?(?:extra|more|less|fewer)\b",
    re.IGNORECASE,
)
_COUNTED = re.compile(r"(?<![\w.,])[$€£]?(\d[\d,.]*)\s*(?:-\s*)?([a-z][a-z'-]+)", re.IGNORECASE)


#: irregular plurals a count may use ("12 people" / "a 4-person room")
_IRREGULAR = {"people": "person", "children": "child", "men": "man", "women": "woman", "feet": "foot"}


def counted_values(text: str) -> dict[str, set[str]]:
    """Numbers by the noun they count: ``"20 kids and 3 nights"`` -> ``{"kid": {"20"}, "night": {"3"}}`` (stemmed
    nouns, irregular plurals and the head of a hyphenated count folded: ``"12 people"`` and ``"a 4-person room"``
    both count ``person``; a number not followed by a content word counts nothing)."""
    out: dict[str, set[str]] = {}
    for m in _COUNTED.finditer(tx.normalize_quotes(text)):
        noun = m.group(2).lower().split("-")[0]  # "8-year-old" counts years, "a 4-person room" persons
        if not noun or noun in tx.STOPWORDS or noun in {"am", "pm", "st", "nd", "rd", "th", "k", "m"}:
            continue
        for n in tx.numbers(m.group(1)):
            out.setdefault(_IRREGULAR.get(noun) or tx.stem(noun), set()).add(f"{n:g}")
    return out


def same_slot(fact: str, old: str, correction: bool) -> bool:
    """Whether ``fact`` gives a new value for a slot ``old`` fills, so that it may replace ``old`` (the slot guard
    of a correction). A short reply must not rewrite an unrelated number of an earlier fact: a number counts for a
    slot only with the noun it counts ("24 kids" for "20 kids", not for "a budget of 350"); a name only after a
    correction cue or in the same context ("moved to Leeds" / "live in York"); a compared number ("over my 1,200",
    "one night too many") replaces nothing. Dates and times (month, day, weekday, time, year) keep their own slots."""
    if _COMPARISON.search(tx.normalize_quotes(fact)):
        return False
    new, ov = _values(fact), _values(old)
    clashing = [k for k in new if k in ov and not new[k] & ov[k]]
    for kind in clashing:
        if kind == "num":
            nc, oc = counted_values(fact), counted_values(old)
            # a bare number after a correction cue ("I meant 3.", "Sorry, it is $800.") takes the old fact's slot
            if not (any(k in oc and not nc[k] & oc[k] for k in nc) or (correction and not nc)):
                return False
        elif kind == "ent":
            names = [n for n in new["ent"] if n.upper() not in fact]  # "it's HIM" is emphasis, not a name
            need = 1.0 if _is_bare(fact) else 2.0  # a bare "From Manchester." leans on its preposition alone
            if not names or not (correction or _slot_match(fact, old, "ent")[0] >= need):
                return False
    return bool(clashing)


_ORDINAL = re.compile(r"^(\d{1,2})(?:st|nd|rd|th)$", re.IGNORECASE)


def _names_value(old: str, value: str) -> bool:
    """``old`` holds ``value`` (the "not X" of a correction): the same typed value, the same text, or the day of
    its date for a bare ordinal ("not the 26th" names "26 June")."""
    nv = _values(value) or {"tok": {value.lower()}}
    ov = _values(old)
    if any(nv[k] & ov.get(k, set()) for k in nv) or value.lower() in old.lower():
        return True
    day = _ORDINAL.match(value.strip())
    return day is not None and f"d:{int(day.group(1))}" in ov.get("d", set())


def _restated(values: dict[str, set[str]], earlier: Sequence[str]) -> bool:
    """Every value of a fact is already in the earlier facts ("38,400 and 6,200", "FS-40917, same as before"): a
    restatement, not a correction."""
    if not values:
        return False
    known: dict[str, set[str]] = {}
    for old in earlier:
        for k, v in _values(old).items():
            known.setdefault(k, set()).update(v)
    return all(v <= known.get(k, set()) for k, v in values.items())


class DeterministicExtractor:
    """Rule-based :class:`~deepeval.models.extraction.Extractor` (see module docstring). Stateless, thread-safe."""

    def get_model_name(self) -> str:
        return NAME

    # -- Extractor protocol ------------------------------------------------------------------------------------
    # The async methods run the CPU-bound rules in a worker thread: a very long text (a 300 KB output takes
    # seconds to segment) must not hold the event loop, which enforces measure_timeout and handles Ctrl-C.
    async def statements(self, text: str) -> list[str]:
        """Sentences of ``text``; ``[]`` for blank text."""
        return await to_daemon_thread(self.statements_sync, text)

    async def facts(self, user_message: str, previous: Sequence[tuple[str, str]]) -> list[str]:
        """Facts stated in ``user_message`` (corrections rewritten to be self-contained); ``[]`` for questions,
        greetings and requests that carry no information. ``previous``: earlier ``(role, content)`` turns."""
        return (await to_daemon_thread(self.fact_updates, user_message, previous)).added

    async def claims(self, text: str) -> list[str]:
        """Atomic claims of a markdown memory page."""
        return await to_daemon_thread(self.claims_sync, text)

    # -- sync API ----------------------------------------------------------------------------------------------
    def statements_sync(self, text: str) -> list[str]:
        """Sync :meth:`statements`. A list of bare items is one statement (:mod:`.lists`)."""
        return [s for s in split_with_lists(text, tx.split_sentences) if any(c.isalnum() for c in s)]

    def fact_updates(self, user_message: str, previous: Sequence[tuple[str, str]]) -> FactUpdate:
        """Facts added by ``user_message`` and earlier facts (from the user turns in ``previous``) it supersedes."""
        earlier = self.known_facts(previous)
        return self._update(user_message, earlier)

    def known_facts(self, turns: Iterable[tuple[str, str]], known: Sequence[str] = ()) -> list[str]:
        """Facts the user has stated over ``turns`` (``(role, content)``), oldest first, after corrections;
        ``known`` are the facts of the turns before them (so a conversation is read once, not once per turn)."""
        facts: list[str] = list(known)
        for role, content in turns:
            if role != "user":
                continue
            upd = self._update(content, facts)
            facts = [f for f in facts if f not in upd.superseded] + [f for f in upd.added if f not in facts]
        return facts

    def claims_sync(self, text: str) -> list[str]:
        """Sync :meth:`claims`."""
        claims: list[str] = []
        heading = ""
        for raw in tx.normalize_quotes(text).splitlines():
            line = raw.strip()
            if not line or set(line) <= set("-=*_|#>` "):
                continue
            if line.startswith("#"):
                heading = line.lstrip("#").strip().rstrip(":")
                continue
            is_bullet = bool(re.match(r"^(?:[-*+•]|\d+[.)])\s+", line))
            for sentence in tx.split_sentences(line):
                parts = [p.strip(" ,.;") for p in _CLAIM_SPLIT.split(sentence)]
                merged: list[str] = []
                for p in parts:
                    if merged and len(tx.tokens(p)) < 3:
                        merged[-1] = f"{merged[-1]} and {p}"
                    elif p:
                        merged.append(p)
                for p in merged:
                    if not any(c.isalnum() for c in p):
                        continue
                    if heading and is_bullet and len(tx.tokens(p)) < 5 and heading.lower() not in p.lower():
                        p = f"{heading}: {p}"
                    claims.append(p)
        return claims

    # -- internals ---------------------------------------------------------------------------------------------
    def _candidate_facts(self, message: str) -> list[tuple[str, bool]]:
        """(fact, is_correction) pairs for each informative clause of ``message``."""
        out: list[tuple[str, bool]] = []
        for sentence in tx.split_sentences(message):
            if tx.is_instruction_to_evaluator(sentence):
                continue  # an instruction to the evaluator is no fact about the user
            correction = bool(_CORRECTION.match(sentence)) or bool(_CORRECTION_CUE.search(sentence))
            body = _CORRECTION.sub("", sentence).strip()
            if not body or tx.is_greeting(body):
                continue
            if tx.is_question(body):
                # keep a leading declarative clause: "I have two kids, what should we do?"
                head = re.split(
                    r"[,;:-]\s+|\s+(?:so|but|and)\s+(?=(?:what|how|can|could|should|which|where)\b)",
                    body,
                    maxsplit=1,
                )[0]
                if head == body or not any(t in _FIRST_PERSON for t in tx.tokens(head)):
                    continue
                body = head
            toks = tx.tokens(body)
            if toks and toks[0] in _REQUEST_START and not (tx.numbers(body) or tx.dates(body)):
                if not any(t in {"my", "our"} for t in toks):
                    continue
            for clause in _CLAUSE_SPLIT.split(body):
                clause = clause.strip(" ,.;!")
                min_tokens = 1 if correction else 2
                if (
                    len(tx.tokens(clause)) >= min_tokens
                    and _has_information(clause)
                    and not tx.is_greeting(clause)
                ):
                    out.append((clause[0].upper() + clause[1:] + ".", correction))
        return out

    def _update(self, message: str, earlier: list[str]) -> FactUpdate:
        added: list[str] = []
        superseded: list[str] = []
        for fact, correction in self._candidate_facts(message):
            fact, not_value = self._strip_not(fact)
            values = _values(fact)
            old = self._superseded_fact(fact, values, not_value, correction, earlier)
            if old is not None and not (not_value and _names_value(old, not_value)):
                if _restated(values, earlier):
                    old = None
                elif not same_slot(fact, old, correction):
                    # the pick fails the slot guard: the earlier fact that counts the same thing, if any
                    old = next((o for o in reversed(earlier) if same_slot(fact, o, correction)), None)
            if old is not None:
                superseded.append(old)
                if not_value and len(tx.tokens(fact)) <= 3:
                    new_val = _value_text(fact)
                    swapped = re.sub(re.escape(not_value), new_val, old, count=1, flags=re.IGNORECASE)
                    fact = swapped if swapped != old else self._rewrite(old, values, fact)
                elif _is_bare(fact) or _multi_valued(old, values):
                    # a bare value, or one value of a compound fact: rewrite the old fact, keeping its other values
                    fact = self._rewrite(old, values, fact)
            if fact not in added:
                added.append(fact)
        return FactUpdate(added=added, superseded=superseded)

    @staticmethod
    def _strip_not(fact: str) -> tuple[str, str | None]:
        m = _NOT_X.search(fact.rstrip("."))
        if m and len(tx.tokens(fact[: m.start()])) >= 1:
            return fact[: m.start()].rstrip(" ,;") + ".", m.group(1).strip(" .,")
        return fact, None

    @staticmethod
    def _superseded_fact(
        fact: str, values: dict[str, set[str]], not_value: str | None, correction: bool, earlier: list[str]
    ) -> str | None:
        if not earlier:
            return None
        if not_value:
            for old in reversed(earlier):
                if _names_value(old, not_value):
                    return old
        if not values:
            return None
        best, best_sim = None, 0.0
        for old in earlier:
            ov = _values(old)
            if not _conflicts(values, ov):
                continue
            sim = _slot_similarity(fact, old)
            # prefer the fact whose value sits in the same slot ("from X" vs "grew up in York" over "live in Leeds")
            sim += 0.25 * max(
                (_slot_match(fact, old, k)[0] for k in ("ent", "num") if k in values), default=0.0
            )
            if sim > best_sim:
                best, best_sim = old, sim
        if best is None:
            return None
        pronoun = _is_bare(fact)
        prep = _LEADING_PREP.match(fact)
        if pronoun and prep and not correction:
            # "From Manchester." answers a new slot unless the old fact has a value after the same preposition
            same_prep = re.search(rf"\b(?i:{prep.group(1)})\s+(?:the\s+)?[A-Z0-9$€£]", best)
            origin = prep.group(1).lower() == "from" and _ORIGIN & set(tx.tokens(best))
            if not (same_prep or origin):
                return None
        threshold = 0.35 if (correction or pronoun) else 0.72
        if pronoun and correction:
            threshold = 0.0
        return best if best_sim >= threshold else None

    @staticmethod
    def _rewrite(old: str, values: dict[str, set[str]], new_fact: str = "") -> str:
        """The old fact with its value of the same type replaced by the new value (best effort). When ``old`` holds
        several values of that type, the one in the slot ``new_fact`` speaks about is replaced (:func:`_slot_match`),
        else the last one."""
        new_text = old
        ov = _values(old)
        for kind, new_vals in values.items():
            if kind == "num" and "num" not in ov and "d" in ov and len(new_vals) == 1:
                day = int(float(next(iter(new_vals))))
                if 1 <= day <= 31:  # "the 27th" for a date's day
                    old_day = sorted(ov["d"])[0].split(":")[1]
                    new_text = re.sub(rf"\b{old_day}(st|nd|rd|th)?\b", rf"{day}\1", new_text, count=1)
                continue
            if kind not in ov or not new_vals:
                continue
            new_val = sorted(new_vals)[0]
            if kind == "ent":
                old_val = _slot_match(new_fact, old, "ent")[1] if new_fact else None
                old_val = old_val or tx.entities(old)[-1]
                spans = _value_spans(new_fact, "ent") if new_fact else []
                shown = new_fact[spans[0][0] : spans[0][1]] if spans else new_val.title()
                old_val = _respelled_word(old_val, shown)
                new_text = re.sub(rf"\b{re.escape(old_val)}\b", shown, new_text, count=1, flags=re.IGNORECASE)
            elif kind == "w":
                names = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split()
                repl = names[int(new_val.split(":")[1])]
                new_text = re.sub(r"\b(?:" + "|".join(names) + r")\b", repl, new_text, flags=re.IGNORECASE)
            elif kind == "num":
                picked = _slot_match(new_fact, old, "num")[1] if new_fact and len(ov[kind]) > 1 else None
                picked_vals = {f"{n:g}" for n in tx.numbers(picked)} & ov[kind] if picked else set()
                nc, oc = counted_values(new_fact), counted_values(old)
                counted = {v for k in nc if k in oc for v in oc[k]} & ov[kind]
                picked_vals = counted or picked_vals  # "24 kids" replaces the number of kids
                old_num = sorted(picked_vals)[0] if picked_vals else sorted(ov[kind])[0]
                new_text = re.sub(rf"(?<![\d.]){re.escape(old_num)}(?!\d|\.\d)", new_val, new_text, count=1)
            else:
                return old if new_text == old else new_text
        return new_text
