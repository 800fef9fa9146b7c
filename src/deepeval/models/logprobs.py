"""Token log-probabilities returned by LLM clients that support them (OpenAI-compatible ``logprobs``)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable


@dataclass(frozen=True)
class TokenLogprob:
    """One generated token: its text, natural-log probability, and the ``top_logprobs`` alternatives
    (token -> natural-log probability, most probable first, the generated token included when the server lists
    it)."""

    token: str
    logprob: float
    top_logprobs: dict[str, float] = field(default_factory=dict)

    @property
    def probability(self) -> float:
        """``exp(logprob)`` in [0, 1]."""
        return math.exp(self.logprob)


@dataclass(frozen=True)
class LogprobCompletion:
    """A completion with per-token log-probabilities; token counts are the server's usage (None when absent)."""

    text: str
    tokens: list[TokenLogprob]
    input_tokens: int | None = None
    output_tokens: int | None = None


@runtime_checkable
class SupportsLogprobs(Protocol):
    """An LLM client that can return the next-token distribution (OpenAIModel, LocalModel, GGUFModel)."""

    def get_model_name(self) -> str: ...

    async def a_generate_with_logprobs(
        self, prompt: str, top_logprobs: int = 20, max_tokens: int = 1
    ) -> tuple[LogprobCompletion, float | None]: ...


def parse_logprobs(raw: Any) -> list[TokenLogprob]:
    """Parse an OpenAI ``choices[i].logprobs`` object (``{"content": [...]}``) into tokens; [] when absent.

    Raises:
        ValueError: the object is present but malformed.
    """
    if raw is None:
        return []
    content = raw.get("content") if isinstance(raw, dict) else None
    if content is None:
        return []
    if not isinstance(content, list):
        raise ValueError("logprobs.content is not a list")
    out: list[TokenLogprob] = []
    for item in content:
        if not isinstance(item, dict) or "token" not in item or "logprob" not in item:
            raise ValueError("a logprobs entry lacks token/logprob")
        top = {
            str(t["token"]): float(t["logprob"])
            for t in item.get("top_logprobs") or []
            if isinstance(t, dict) and "token" in t and "logprob" in t
        }
        out.append(TokenLogprob(str(item["token"]), float(item["logprob"]), top))
    return out
