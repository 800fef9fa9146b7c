"""Prices of hosted judge models, in USD per token.

Source: OpenAI's model pages and pricing page (developers.openai.com/api/docs/models, openai.com/api/pricing), read
2026-06; standard tier, uncached input, prompts under 272K tokens. Older models are the list prices published when
they were current (2025). Prices change: override with ``OPENAI_COST_PER_INPUT_TOKEN`` /
``OPENAI_COST_PER_OUTPUT_TOKEN`` or the clients' ``cost_per_input_token`` / ``cost_per_output_token`` arguments.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_PER_MILLION = 1e-6


@dataclass(frozen=True)
class Price:
    """USD per input token and per output token."""

    input: float
    output: float

    def cost(self, input_tokens: int, output_tokens: int) -> float:
        """``input_tokens * input + output_tokens * output`` in USD."""
        return input_tokens * self.input + output_tokens * self.output


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

_SNAPSHOT = re.compile(r"-(\d{4}-\d{2}-\d{2}|\d{4})$")


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
