"""The LLM-backed :class:`~deepeval.models.extraction.Extractor`: statements, user facts and claims via prompts.

Each metric passes its own prompt functions; the defaults here are our generic wording. Every call goes through
:func:`deepeval.models.structured.a_generate_structured` (parse, repair, validate, re-ask once, then a clear
``StructuredOutputError``). Items are stripped and empty ones dropped; a text with no letter or digit is never sent.

``statements_per_text`` splits several texts (e.g. every retrieval-context node of a test case) in ONE call; its
reply carries one entry per text, by index, and a reply that misses, repeats or invents an index is re-asked once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, Field

from deepeval.metrics._engine.params import has_words
from deepeval.metrics.delimit import DATA_NOTICE, quote, quote_list
from deepeval.models.base_model import DeepEvalBaseLLM, judge_name
from deepeval.models.structured import a_generate_structured

EXTRACTION_PROMPT_VERSION = "engine-extract-3"


class StatementList(BaseModel):
    """``{"statements": [str, ...]}``"""

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


class FactList(BaseModel):
    """``{"facts": [str, ...], "supersedes": [str, ...]}``: facts a user turn states, and the earlier facts it
    corrects or replaces (worded as first stated)."""

    facts: list[str]
    supersedes: list[str] = Field(default_factory=list)


class ClaimList(BaseModel):
    """``{"claims": [str, ...]}``"""

    claims: list[str]


@dataclass(frozen=True)
class FactChanges:
    """What one user turn changes in the known facts: facts it adds, earlier facts it supersedes."""

    added: list[str]
    superseded: list[str]


def statements_prompt(text: str) -> str:
    return f"""Split a piece of text into statements.

{DATA_NOTICE}

{quote("text", text)}

Rewrite the text above as a list of short, self-contained statements, in the order they appear. Each statement
carries one piece of information and can be understood without the others (replace pronouns with what they refer
to). Keep the meaning; add nothing. Text that only greets or fills adds no statement.

Reply with JSON only: {{"statements": ["...", "..."]}}"""


def statements_batch_prompt(texts: Sequence[str]) -> str:
    n = len(texts)
    return f"""Split each of several texts into statements.

{DATA_NOTICE}

The texts, as a JSON array ({n} items, index 0 first):
{quote_list("texts", texts)}

Rewrite every text as a list of short, self-contained statements, in the order they appear. Each statement carries
one piece of information and can be understood without the others (replace pronouns with what they refer to). Keep
the meaning; add nothing; never mix texts. Text that only greets or fills adds no statement.

Reply with JSON only, exactly {n} entries, one per text in index order (an empty list for a text with no statement):
{{"texts": [{{"index": 0, "statements": ["...", "..."]}}, {{"index": 1, "statements": []}}]}}"""


def _history(previous: Sequence[tuple[str, str]]) -> str:
    return "\n".join(f"{role}: {content}" for role, content in previous)


def facts_prompt(user_message: str, previous: Sequence[tuple[str, str]]) -> str:
    earlier = quote("earlier conversation", _history(previous)) if previous else "(this is the first message)"
    return f"""Extract what a user tells an assistant about themselves or their situation.

{DATA_NOTICE}

Earlier turns, only to resolve references such as "it" or "that one":
{earlier}

The user's new message:
{quote("user message", user_message)}

List every fact the new message states: names, numbers, dates, preferences, plans, constraints, decisions. Write
each as one standalone sentence about "the user" (for example "The user's flight leaves on 3 May."). Questions,
greetings and requests state no facts. Do not list facts that appear only in earlier turns.
When the new message corrects or changes something the user said earlier, put the new fact in "facts" and the
earlier fact it replaces, written the same way, in "supersedes".

Reply with JSON only: {{"facts": ["...", "..."], "supersedes": []}} (empty lists when there are none)"""


def claims_prompt(text: str) -> str:
    return f"""Break a memory note into atomic claims.

{DATA_NOTICE}

{quote("note", text)}

List every factual claim the note makes, one fact per claim, each a standalone sentence that names its subject.
Skip headings, formatting and statements with no factual content.

Reply with JSON only: {{"claims": ["...", "..."]}}"""


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
        out = await a_generate_structured(self.model, self._statements(text), StatementList)
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
        out = await a_generate_structured(self.model, self._facts(user_message, previous), FactList)
        return _clean(out.facts)

    async def fact_updates(self, user_message: str, previous: Sequence[tuple[str, str]]) -> FactChanges:
        """Facts stated in ``user_message`` and the earlier facts it supersedes (one call)."""
        if not has_words(user_message):
            return FactChanges([], [])
        out = await a_generate_structured(self.model, self._facts(user_message, previous), FactList)
        return FactChanges(_clean(out.facts), _clean(out.supersedes))

    async def claims(self, text: str) -> list[str]:
        if not has_words(text):
            return []
        out = await a_generate_structured(self.model, self._claims(text), ClaimList)
        return _clean(out.claims)
