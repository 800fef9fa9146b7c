"""Scripted-judge helpers for the metric tests (Python-level fakes; no network)."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from deepeval.models.base_model import DeepEvalBaseLLM
from deepeval.testing.scripted import ScriptedLLM


def schema_name(schema: Any) -> str | None:
    return None if schema is None else schema.__name__


def quoted_in(prompt: str, candidates: Mapping[str, Any]) -> Any:
    """The value of the (longest) key that occurs in ``prompt``."""
    hits = [k for k in candidates if k in prompt]
    if not hits:
        raise AssertionError(f"none of {list(candidates)} in prompt:\n{prompt[:500]}")
    return candidates[max(hits, key=len)]


_BLOCK = re.compile(r"<<<BEGIN ([A-Z0-9_]+) #([0-9a-f]+)>>>\n(.*?)\n<<<END \1 #\2>>>", re.DOTALL)


def block(prompt: str, label: str) -> str:
    """The content of the (last) delimited block ``label`` in ``prompt``."""
    found = [m.group(3) for m in _BLOCK.finditer(prompt) if m.group(1) == label]
    if not found:
        raise AssertionError(f"no {label} block in prompt:\n{prompt[:500]}")
    return found[-1]


def router(
    *,
    statements: Mapping[str, Sequence[str]] | Sequence[str] | None = None,
    verdicts: Sequence[str] | Callable[[str], Sequence[str]] | None = None,
    facts: Mapping[str, Any] | None = None,
    turn_verdicts: Mapping[str, str] | None = None,
    reason: str = "scripted reason",
) -> Callable[[str, Any], Any]:
    """A responder answering each of our schemas.

    statements: text -> statements (or one list for every text). verdicts: verdict strings for the statement list
    (or a function of the prompt; for a split-and-judge call it gets the JSON array of the node's statements).
    facts: user message -> facts (or a full ``Knowledge`` reply ``{"data": {...}, "supersedes": [...]}``); a list
    of facts is answered as ``{"data": {"fact 1": ..., "fact 2": ...}}``, so each fact reaches the metric as
    ``"fact <n>: <fact>"``. turn_verdicts: assistant message -> verdict.
    """

    def respond(prompt: str, schema: Any) -> Any:
        name = schema_name(schema)
        if name == "Statements":
            assert statements is not None
            sts = statements if not isinstance(statements, Mapping) else quoted_in(prompt, statements)
            return {"statements": list(sts)}
        if name == "StatementsPerText":
            assert statements is not None
            texts = json.loads(block(prompt, "TEXTS"))
            return {
                "texts": [
                    {
                        "index": i,
                        "statements": list(
                            statements if not isinstance(statements, Mapping) else statements[t]
                        ),
                    }
                    for i, t in enumerate(texts)
                ]
            }
        if name == "ContextualRelevancyVerdicts" and "<<<BEGIN DOCUMENT" in prompt:
            assert statements is not None
            sts = statements if not isinstance(statements, Mapping) else quoted_in(prompt, statements)
            if not sts:
                return {"verdicts": []}
            assert verdicts is not None
            vs = verdicts(json.dumps(list(sts))) if callable(verdicts) else verdicts
            return {
                "verdicts": [
                    {"statement": st, "verdict": v, "reason": f"r{i}"}
                    for i, (st, v) in enumerate(zip(sts, vs, strict=True))
                ]
            }
        if name in ("Verdicts", "ContextualRelevancyVerdicts"):
            assert verdicts is not None
            vs = verdicts(prompt) if callable(verdicts) else verdicts
            given = json.loads(block(prompt, "STATEMENTS")) if "<<<BEGIN STATEMENTS" in prompt else []
            return {
                "verdicts": [
                    {"verdict": v, "reason": f"r{i}", **({"statement": given[i]} if i < len(given) else {})}
                    for i, v in enumerate(vs)
                ]
            }
        if name == "Knowledge":
            assert facts is not None
            marker = "The user's newest message:"
            tail = prompt[prompt.rindex(marker) :]
            found = quoted_in(tail, facts)
            if isinstance(found, Mapping):
                return dict(found)
            return {"data": {f"fact {n}": f for n, f in enumerate(found, start=1)}}
        if name == "KnowledgeRetentionVerdict":
            assert turn_verdicts is not None
            marker = "The assistant's message to check:"
            return {"verdict": quoted_in(prompt[prompt.rindex(marker) :], turn_verdicts), "reason": "why"}
        if name is not None and name.endswith("ScoreReason"):
            return {"reason": reason}
        raise AssertionError(f"unexpected schema {name}")

    return respond


def calls_by_schema(llm: ScriptedLLM) -> dict[str, int]:
    out: dict[str, int] = {}
    for c in llm.calls:
        key = schema_name(c.schema) or "text"
        out[key] = out.get(key, 0) + 1
    return out


class SlowLLM(DeepEvalBaseLLM):
    """An async LLM that sleeps per call and records the peak number of calls in flight."""

    def __init__(self, responder: Callable[[str, Any], Any], delay: float = 0.02) -> None:
        self._responder = responder
        self._delay = delay
        self.in_flight = 0
        self.peak = 0
        self.calls = 0
        super().__init__(model="slow-llm")

    def load_model(self, *args: Any, **kwargs: Any) -> Any:
        return None

    def get_model_name(self) -> str:
        return "slow-llm"

    def generate(self, prompt: str, schema: Any = None) -> Any:
        import json

        self.calls += 1
        reply = self._responder(prompt, schema)
        return json.dumps(reply) if isinstance(reply, dict) else reply

    async def a_generate(self, prompt: str, schema: Any = None) -> Any:
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)
        try:
            await asyncio.sleep(self._delay)
            return self.generate(prompt, schema)
        finally:
            self.in_flight -= 1


class FakeExtractor:
    """An Extractor stand-in (the deterministic extractor of the embedded judge is someone else's module)."""

    def __init__(
        self,
        statements: Mapping[str, Sequence[str]] | None = None,
        facts: Mapping[str, Sequence[str]] | None = None,
    ) -> None:
        self._statements = statements or {}
        self._facts = facts or {}
        self.calls = 0

    def get_model_name(self) -> str:
        return "fake-extractor"

    async def statements(self, text: str) -> list[str]:
        self.calls += 1
        return list(self._statements.get(text, []))

    async def facts(self, user_message: str, previous: Sequence[tuple[str, str]]) -> list[str]:
        self.calls += 1
        return list(self._facts.get(user_message, []))

    async def claims(self, text: str) -> list[str]:
        return []
