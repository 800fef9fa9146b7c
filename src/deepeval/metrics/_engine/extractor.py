"""The LLM-backed :class:`~deepeval.models.extraction.Extractor`: statements, user facts and claims via prompts.

Each metric passes its own prompt functions; the defaults here are our generic wording. Every call goes through
:func:`deepeval.models.structured.a_generate_structured` (parse, repair, validate, re-ask once, then a clear
``StructuredOutputError``). Items are stripped and empty ones dropped; a text with no letter or digit is never sent.

``statements_per_text`` splits several texts (e.g. every retrieval-context node of a test case) in ONE call; its
reply carries one entry per text, by index, and a reply that misses, repeats or invents an index is re-asked once.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from deepeval.metrics._engine.params import has_words
from deepeval.metrics.delimit import DATA_NOTICE, quote, quote_list
from deepeval.models.base_model import DeepEvalBaseLLM, judge_name
from deepeval.models.structured import a_generate_structured

EXTRACTION_PROMPT_VERSION = "engine-extract-3"


class Statements(BaseModel):
    """``{"statements": [str, ...]}`` (deepeval 4.3.1's name; AnswerRelevancy's ``schema.Statements``)."""

    statements: list[str]


class TextStatements(BaseModel):
    """``{"index": int, "statements": [str, ...]}``: the statements of the text at ``index`` (0-based)."""

    index: int
    statements: list[str]


class StatementsPerText(BaseModel):
    """``{"texts": [TextStatements, ...]}``: one entry per text of a batch."""

    texts: list[TextStatements]


def one_entry_per_text(expected: int) -> Callable[[Any], None]:
    """A ``check=`` for :class:`StatementsPerText`: exactly one entry for each index ``0 .. expected - 1``.

    Raises (from the returned check):
        ValueError: an entry is missing, repeated or out of range (triggers the re-ask).
    """

    def check(reply: Any) -> None:
        got = sorted(entry.index for entry in reply.texts)
        if got != list(range(expected)):
            raise ValueError(
                f"expected exactly {expected} entries, one per text with indices 0 to {expected - 1}, "
                f"got indices {got}"
            )

    return check


def _as_text(value: Any) -> str | None:
    """A scalar fact value as text (numbers and booleans as written in JSON); None for null or blank."""
    if value is None:
        return None
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text.strip() or None


def _topic_words(text: str) -> set[str]:
    head = text.partition(":")[0] if ":" in text else text
    return {w for w in re.findall(r"[a-z0-9]+", head.casefold().replace("_", " ")) if w}


def same_topic(a: str, b: str) -> bool:
    """Whether two fact topics (or ``"topic: value"`` facts, read by their topic) name the same thing: the words of
    one are all among the other's, which has at most twice as many ("budget" and "monthly budget"; "data_size" and
    "data size"; not "pac code" and "number moves across with a pac code")."""
    wa, wb = _topic_words(a), _topic_words(b)
    small, big = sorted((wa, wb), key=len)
    return bool(small) and small <= big and 2 * len(small) >= len(big)


class Knowledge(BaseModel):
    """``{"data": {topic: value or [values]}, "supersedes": [str, ...]}``: what one user turn states (deepeval
    4.3.1's ``Knowledge`` with its ``data`` field), and ours: the earlier facts it corrects or replaces, each named by
    its topic or written as first stated.

    Values are read leniently (ours): a number or boolean becomes its JSON text, a null or blank value is dropped;
    deepeval rejects anything but strings and lists of strings. A nested object is refused, as deepeval does (so the
    double-wrapped ``Knowledge(data={"data": {...}})`` is a validation error there and here). Each entry is one fact
    ``"topic: value"`` (:meth:`facts`). ``data`` must be present (``null`` or ``{}`` for no fact; deepeval defaults it
    to None), so that a judge replying ``{}`` to everything fails instead of passing as "nothing stated"; other
    fields are refused, as deepeval does."""

    model_config = ConfigDict(extra="forbid")

    data: dict[str, str | list[str]] | None
    supersedes: list[str] = Field(default_factory=list)

    @field_validator("data", mode="before")
    @classmethod
    def _values(cls, v: Any) -> Any:
        if not isinstance(v, dict):
            return v
        out: dict[str, str | list[str]] = {}
        for key, value in v.items():
            if isinstance(value, dict) or (
                isinstance(value, list) and any(isinstance(x, dict) for x in value)
            ):
                # as deepeval 4.3.1: an object is not a fact value; this also refuses the double-wrapped
                # ``Knowledge(data={"data": {...}})`` instead of keeping its inner object as JSON text
                raise ValueError(
                    f"data[{str(key)!r}] is an object; a fact value is a string or a list of strings"
                )
            if isinstance(value, list):
                items = [t for t in (_as_text(x) for x in value) if t]
                if items:
                    out[str(key)] = items
            else:
                text = _as_text(value)
                if text:
                    out[str(key)] = text
        return out

    @field_validator("supersedes", mode="before")
    @classmethod
    def _names(cls, v: Any) -> Any:
        if v is None:
            return []
        if isinstance(v, str):
            return [v]
        if isinstance(v, list):
            return [t for t in (_as_text(x) for x in v) if t]
        return v

    def restated(self) -> list[str]:
        """The ``supersedes`` entries that name a topic this reply gives a new value for (by
        :func:`same_topic`). A correction replaces an earlier value with a new one: an entry naming no topic of
        ``data`` is ignored (a small model listed topics it did not restate, which deleted true facts)."""
        topics = list((self.data or {}).keys())
        return [s for s in self.supersedes if any(same_topic(s, t) for t in topics)]

    def facts(self) -> list[str]:
        """One fact per ``data`` entry, in order: ``"topic: value"`` (a list value joined with ``", "``)."""
        out: list[str] = []
        for key, value in (self.data or {}).items():
            text = ", ".join(value) if isinstance(value, list) else value
            topic = key.strip()
            out.append(f"{topic}: {text}" if topic else text)
        return out


class ClaimList(BaseModel):
    """``{"claims": [str, ...]}``"""

    claims: list[str]


@dataclass(frozen=True)
class FactChanges:
    """What one user turn changes in the known facts: facts it adds, earlier facts it supersedes, and the judge's
    reply they were read from (None for a deterministic extractor)."""

    added: list[str]
    superseded: list[str]
    knowledge: Knowledge | None = None


#: How our prompts are laid out: the constant instructions first and the material last, so that a server's prompt
#: cache (llama.cpp, vLLM, OpenAI) reuses the instructions from one call to the next.
STATEMENT_RULES = """A statement is one sentence of the text, or one item of a list. Every sentence counts, greetings,
thanks, sign-offs, filler and boilerplate included. Copy each sentence as written, in order; split it only when it
joins two separate points, and replace a pronoun with what it refers to only when the statement would be unclear
alone. Add nothing."""


def statements_prompt(text: str) -> str:
    return f"""Split a text into its statements.

{STATEMENT_RULES}

Reply with JSON only, in this form: {{"statements": ["first statement", "second statement"]}}

{DATA_NOTICE}

{quote("text", text)}"""


def statements_batch_prompt(texts: Sequence[str]) -> str:
    n = len(texts)
    return f"""Split each of several texts into its statements.

{STATEMENT_RULES} Never mix texts.

Reply with JSON only, one entry per text in index order (an empty list for a text with no statement), in this form:
{{"texts": [{{"index": 0, "statements": ["...", "..."]}}, {{"index": 1, "statements": []}}]}}

{DATA_NOTICE}

The texts, as a JSON array ({n} items, index 0 first):
{quote_list("texts", texts)}

Reply with exactly {n} entries."""


def facts_prompt(user_message: str, previous: Sequence[tuple[str, str]]) -> str:
    """The fact-extraction prompt of one user message. Of the earlier turns only the assistant's message just before
    it is shown (what a short answer such as "yes" or "the second one" replies to): shown the whole history, a 1.5B
    model re-listed facts of earlier turns and marked them superseded (bench/RESULTS.md), and the history made every
    prompt grow with the conversation."""
    before = previous[-1][1] if previous and previous[-1][0] == "assistant" else None
    asked = quote("assistant message", before) if before is not None else "(none)"
    return f"""Extract the facts a user states about themselves or their situation in their newest message to an assistant.

List the facts the newest message itself states: names, numbers, dates, places, quantities, preferences, plans,
constraints (a budget, an allergy, a "no") and decisions. Key each fact by a short topic and give its value as the
user stated it; use a list for several values of one topic. Take nothing from the assistant's message: it is shown
only so that a short answer ("yes", "Friday", "the second one") can be understood.
A message that only asks a question, thanks, agrees, or refers back to something said before ("as I told you")
states no fact: reply {{"data": {{}}, "supersedes": []}}.
When the message changes something the user said before ("actually", "instead", "not X but Y"), also put the topic
of the new value in "supersedes".

Reply with JSON only, in this form: {{"data": {{"<topic>": "<value>"}}, "supersedes": []}}

{DATA_NOTICE}

The assistant's message before it:
{asked}

The user's newest message:
{quote("user message", user_message)}"""


def claims_prompt(text: str) -> str:
    return f"""Break a memory note into atomic claims.

{DATA_NOTICE}

{quote("note", text)}

List every factual claim the note makes, one fact per claim, each a standalone sentence that names its subject.
Skip headings, formatting and statements with no factual content.

Reply with JSON only: {{"claims": ["...", "..."]}}"""


def sentence_statements(text: str) -> list[str]:
    """A text's statements without a judge call, as hybrid mode splits them: its sentences (and list items) by the
    embedded judge's deterministic splitter (``pysbd``), those with a letter or digit; ``[]`` for a text without
    words. The embedded judge's relevance models were fitted on such single sentences, and a small LLM asked to split
    merges sentences (bench/RESULTS.md, real-model section), so hybrid mode does not spend an LLM call on it."""
    from deepeval.models.embedded.extraction import DeterministicExtractor

    return DeterministicExtractor().statements_sync(text) if has_words(text) else []


def _clean(items: list[str]) -> list[str]:
    return [s.strip() for s in items if isinstance(s, str) and s.strip()]


class LLMExtractor:
    """Extraction by an LLM judge; implements :class:`deepeval.models.extraction.Extractor`.

    Args:
        model: the LLM.
        statements_prompt / facts_prompt / claims_prompt: prompt builders (default: this module's).

    Raises (from every method):
        StructuredOutputError: the reply stayed invalid after one re-ask.
        JudgeError: the call failed.
    """

    def __init__(
        self,
        model: DeepEvalBaseLLM,
        *,
        statements_prompt: Callable[[str], str] = statements_prompt,
        statements_batch_prompt: Callable[[Sequence[str]], str] = statements_batch_prompt,
        facts_prompt: Callable[[str, Sequence[tuple[str, str]]], str] = facts_prompt,
        claims_prompt: Callable[[str], str] = claims_prompt,
    ) -> None:
        self.model = model
        self._statements = statements_prompt
        self._statements_batch = statements_batch_prompt
        self._facts = facts_prompt
        self._claims = claims_prompt

    def get_model_name(self) -> str:
        return judge_name(self.model)

    async def statements(self, text: str) -> list[str]:
        if not has_words(text):
            return []
        out = await a_generate_structured(self.model, self._statements(text), Statements)
        return _clean(out.statements)

    async def statements_per_text(self, texts: Sequence[str]) -> list[list[str]]:
        """The statements of every text, in ONE call (none when every text is blank); blank texts (no letter or
        digit, see :func:`~deepeval.metrics._engine.params.has_words`) are not sent and get ``[]``. Returns one list per text, in the order of ``texts``."""
        out: list[list[str]] = [[] for _ in texts]
        sent = [i for i, t in enumerate(texts) if has_words(t)]
        if not sent:
            return out
        reply = await a_generate_structured(
            self.model,
            self._statements_batch([texts[i] for i in sent]),
            StatementsPerText,
            check=one_entry_per_text(len(sent)),
        )
        for entry in reply.texts:
            out[sent[entry.index]] = _clean(entry.statements)
        return out

    async def facts(self, user_message: str, previous: Sequence[tuple[str, str]]) -> list[str]:
        if not has_words(user_message):
            return []
        return (await self.fact_updates(user_message, previous)).added

    async def fact_updates(self, user_message: str, previous: Sequence[tuple[str, str]]) -> FactChanges:
        """Facts stated in ``user_message`` and the earlier facts it supersedes (one call)."""
        if not has_words(user_message):
            return FactChanges([], [])
        out = await a_generate_structured(self.model, self._facts(user_message, previous), Knowledge)
        return FactChanges(_clean(out.facts()), _clean(out.restated()), out)

    async def claims(self, text: str) -> list[str]:
        if not has_words(text):
            return []
        out = await a_generate_structured(self.model, self._claims(text), ClaimList)
        return _clean(out.claims)
