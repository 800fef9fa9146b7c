"""Prices of hosted judge models, in USD per token.

Source: OpenAI's model pages and pricing page (developers.openai.com/api/docs/models, openai.com/api/pricing), read
2026-06; standard tier, uncached input, prompts under 272K tokens. Older models are the list prices published when
they were current (2025). Prices change: override with ``OPENAI_COST_PER_INPUT_TOKEN`` /
``OPENAI_COST_PER_OUTPUT_TOKEN`` or the clients' ``cost_per_input_token`` / ``cost_per_output_token`` arguments.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from deepeval.models.usage import known_cost

_PER_MILLION = 1e-6


@dataclass(frozen=True)
class Price:
    """USD per input token and per output token."""

    input: float
    output: float

    def cost(self, input_tokens: int, output_tokens: int) -> float:
        """``input_tokens * input + output_tokens * output`` in USD."""
        return input_tokens * self.input + output_tokens * self.output

    def reply_cost(self, input_tokens: int | None, output_tokens: int | None) -> float | None:
        """The cost of one reply from the token counts the server reported; None (unknown) when either count is
        missing or was refused as unbelievable, unless that side is free (Ollama omits a cached prompt's count):
        half a count would understate the cost as if it were known. A cost past every float (an absurd price
        override) is unknown too (:func:`deepeval.models.usage.known_cost`)."""
        if (input_tokens is None and self.input) or (output_tokens is None and self.output):
            return None
        return known_cost(self.cost(input_tokens or 0, output_tokens or 0))


def _m(input_per_million: float, output_per_million: float) -> Price:
    return Price(input_per_million * _PER_MILLION, output_per_million * _PER_MILLION)


#: model id -> price. Dated snapshots (``gpt-4o-2024-08-06``) resolve to their base id.
OPENAI_PRICES: dict[str, Price] = {
    "gpt-5.5": _m(5.00, 30.00),
    "gpt-5.4": _m(2.50, 15.00),
    "gpt-5.4-mini": _m(0.75, 4.50),
    "gpt-5.4-nano": _m(0.20, 1.25),
    "gpt-5": _m(1.25, 10.00),
    "gpt-5-mini": _m(0.25, 2.00),
    "gpt-5-nano": _m(0.05, 0.40),
    "gpt-4.1": _m(2.00, 8.00),
    "gpt-4.1-mini": _m(0.40, 1.60),
    "gpt-4.1-nano": _m(0.10, 0.40),
    "gpt-4o": _m(2.50, 10.00),
    "gpt-4o-mini": _m(0.15, 0.60),
    "o3": _m(2.00, 8.00),
    "o4-mini": _m(1.10, 4.40),
}

#: Anthropic (USD per token, deepeval 4.3.1's model table; list prices). Dated ids resolve to their base id.
ANTHROPIC_PRICES: dict[str, Price] = {
    "claude-3-opus": _m(15.00, 75.00),
    "claude-3-sonnet": _m(3.00, 15.00),
    "claude-3-haiku": _m(0.25, 1.25),
    "claude-3-5-sonnet": _m(3.00, 15.00),
    "claude-3-5-haiku": _m(0.80, 4.00),
    "claude-3-7-sonnet": _m(3.00, 15.00),
    "claude-opus-4": _m(15.00, 75.00),
    "claude-opus-4-1": _m(15.00, 75.00),
    "claude-sonnet-4": _m(3.00, 15.00),
    "claude-sonnet-4-5": _m(3.00, 15.00),
    "claude-haiku-4-5": _m(1.00, 5.00),
    "claude-opus-4-5": _m(5.00, 25.00),
    "claude-opus-4-6": _m(5.00, 25.00),
    "claude-sonnet-4-6": _m(3.00, 15.00),
    "claude-opus-4-7": _m(5.00, 25.00),
    "claude-opus-4-8": _m(5.00, 25.00),
    "claude-opus-5": _m(5.00, 25.00),
    "claude-opus-5-5": _m(4.00, 20.00),
    "claude-sonnet-5": _m(2.00, 10.00),
}

#: Gemini (USD per token, deepeval 4.3.1's model table).
GEMINI_PRICES: dict[str, Price] = {
    "gemini-1.5-pro": _m(1.25, 5.00),
    "gemini-1.5-flash": _m(0.075, 0.30),
    "gemini-1.5-flash-8b": _m(0.0375, 0.15),
    "gemini-2.0-flash": _m(0.15, 0.60),
    "gemini-2.0-flash-lite": _m(0.075, 0.30),
    "gemini-2.5-pro": _m(1.25, 10.00),
    "gemini-2.5-flash": _m(0.30, 2.50),
    "gemini-2.5-flash-lite": _m(0.10, 0.40),
    "gemini-3-pro": _m(2.00, 12.00),
    "gemini-3-pro-preview": _m(2.00, 12.00),
    "gemini-3.1-pro-preview": _m(2.00, 12.00),
    "gemini-3-flash-preview": _m(0.50, 3.00),
    "gemini-3.1-flash-lite": _m(0.25, 1.50),
    "gemini-3.5-flash": _m(1.50, 9.00),
    "gemini-3.5-flash-lite": _m(0.30, 2.50),
    "gemini-3.6-flash": _m(0.75, 3.75),
    "gemini-3.7-flash": _m(0.75, 3.75),
    "gemini-3.8-flash": _m(0.75, 3.75),
}

#: DeepSeek, xAI Grok and Moonshot Kimi (USD per token, deepeval 4.3.1's model tables).
DEEPSEEK_PRICES: dict[str, Price] = {
    "deepseek-chat": _m(0.028, 0.42),
    "deepseek-v3.2": _m(0.028, 0.42),
    "deepseek-v3.1": _m(0.14, 0.28),
    "deepseek-v3": _m(0.14, 0.28),
    "deepseek-reasoner": _m(0.14, 2.19),
    "deepseek-r1": _m(0.14, 2.19),
}
GROK_PRICES: dict[str, Price] = {
    "grok-4": _m(3.00, 15.00),
    "grok-4-fast": _m(0.20, 0.50),
    "grok-4-heavy": _m(3.00, 15.00),
    "grok-4.1": _m(3.00, 15.00),
    "grok-beta": _m(5.00, 15.00),
    "grok-2": _m(2.00, 10.00),
    "grok-2-mini": _m(0.50, 2.00),
    "grok-code-fast-1": _m(0.20, 1.50),
}
KIMI_PRICES: dict[str, Price] = {
    "kimi-k2": _m(0.58, 2.29),
    "kimi-k2-instruct": _m(0.58, 2.29),
    "moonshot-v1-8k": _m(0.15, 2.50),
    "moonshot-v1-32k": _m(0.15, 2.50),
    "moonshot-v1-128k": _m(0.15, 2.50),
}

_SNAPSHOT = re.compile(r"-(\d{4}-\d{2}-\d{2}|\d{8}|\d{4}|latest)$")


def lookup_price(model: str, table: dict[str, Price] | None = None) -> Price | None:
    """The price of ``model`` or ``None`` when unknown (never a guess).

    Matching: exact id, then the id without a date suffix (``-2024-08-06`` or ``-0125``). Provider prefixes such as
    ``openai/`` are ignored.
    """
    prices = OPENAI_PRICES if table is None else table
    name = model.strip().lower().rsplit("/", 1)[-1]
    if name in prices:
        return prices[name]
    base = _SNAPSHOT.sub("", name)
    return prices.get(base)


def resolve_price(
    model: str,
    *,
    input_override: float | None,
    output_override: float | None,
    table: dict[str, Price] | None = None,
) -> Price | None:
    """Price from overrides, falling back per side to the table.

    With both overrides given the table is not consulted; with one given, the other side comes from the table (0
    when the model is unknown there). With neither, the table price or ``None`` for an unknown model.

    Raises:
        ValueError: a negative override.
    """
    for value in (input_override, output_override):
        if value is not None and value < 0:
            raise ValueError(f"token prices must be >= 0 USD per token, got {value}")
    listed = lookup_price(model, table)
    if input_override is None and output_override is None:
        return listed
    return Price(
        input=input_override if input_override is not None else (listed.input if listed else 0.0),
        output=output_override if output_override is not None else (listed.output if listed else 0.0),
    )
