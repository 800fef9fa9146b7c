"""Token log-probabilities returned by LLM clients that support them (OpenAI-compatible ``logprobs``)."""

from __future__ import annotations

import math
from collections.abc import Sequence
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
        self, prompt: str, top_logprobs: int = 20, max_tokens: int | None = 1
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


#: alternatives below this probability are left out of a weighted score (deepeval 4.3.1's cut-off, 1 %)
MIN_SCORE_PROBABILITY = 0.01


def weighted_score(
    tokens: Sequence[TokenLogprob],
    raw_score: object,
    *,
    low: float | None = None,
    high: float | None = None,
    min_probability: float = MIN_SCORE_PROBABILITY,
) -> float | None:
    """The probability-weighted score of a reply that wrote ``raw_score`` as a number token (G-Eval's smoothing),
    or None when it cannot be computed (the caller keeps the raw score).

    The position is the LAST generated token whose text is ``str(raw_score)`` (a reason may quote the same number
    earlier). Over that position's ``top_logprobs`` alternatives: those below ``min_probability`` and those that
    are not all decimal digits (``" 7"``, ``"7."``, ``"seven"``) are left out; each remaining token counts as the
    integer it spells, its probability added to that integer's. The result is
    ``sum(score * p) / sum(p)``. deepeval 4.3.1 computes the same; **ours:** with ``low``/``high`` given, integers
    outside that range are left out too (a score the scale does not allow never moves the result off the scale).
    None when no token spells ``raw_score`` (a float such as ``7.5`` or ``7.0`` never does), nothing remains, or
    the position holds a value that is no log-probability (NaN, or above 0: a server's garbage once scored 0.0).
    """
    if isinstance(raw_score, bool):
        return None
    text = str(raw_score)
    position = next((t for t in reversed(tokens) if t.token == text), None)
    if position is None:
        return None
    floor = math.log(min_probability)
    if any(math.isnan(v) or v > 1e-6 for v in position.top_logprobs.values()):
        return None
    mass: dict[int, float] = {}
    for token, logprob in position.top_logprobs.items():
        if logprob < floor or not token.isdecimal():
            continue
        value = int(token)
        if (low is not None and value < low) or (high is not None and value > high):
            continue
        mass[value] = mass.get(value, 0.0) + math.exp(logprob)
    total = math.fsum(mass.values())
    if total <= 0.0:
        return None
    return math.fsum(value * p for value, p in mass.items()) / total
