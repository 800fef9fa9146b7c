"""Prompts of :class:`MCPUseMetric` (our own wording). Bump ``PROMPT_VERSION`` on any change: it feeds the cache
key. Override with ``evaluation_template=`` an object with the same static methods."""

from __future__ import annotations

from deepeval.metrics.delimit import DATA_NOTICE, declare_labels, quote

PROMPT_VERSION = "mcp_use/2026-1"

declare_labels("request", "agent answer", "available primitives", "primitives used")


def _material(input: str, actual_output: str, available_primitives: str, primitives_used: str) -> str:
    return (
        f"{quote('request', input)}\n\n{quote('agent answer', actual_output)}\n\n"
        f"{quote('available primitives', available_primitives)}\n\n{quote('primitives used', primitives_used)}"
    )


class MCPUseTemplate:
    PROMPT_VERSION = PROMPT_VERSION

    @staticmethod
    def get_primitive_correctness_prompt(
        input: str, actual_output: str, available_primitives: str, primitives_used: str
    ) -> str:
        """How well the MCP primitives chosen fit the request, 0 to 1; reply ``{"score", "reason"}``
        (``MCPPrimitivesScore``)."""
        return f"""Grade an agent's choice of MCP tools, resources and prompts for a request, among those its MCP
servers offered. Judge only which were chosen, not whether they worked: a clearly better one left unused, and
unneeded or unrelated calls, count against it. Scale: 1.0 best choice, about 0.67 reasonable, about 0.33 poor, 0.0
wrong.

Reply with JSON only: {{"score": <number from 0 to 1>, "reason": "<one or two sentences>"}}

{DATA_NOTICE}

{_material(input, actual_output, available_primitives, primitives_used)}

JSON:"""

    @staticmethod
    def get_mcp_argument_correctness_prompt(
        input: str, actual_output: str, available_primitives: str, primitives_used: str
    ) -> str:
        """How right the arguments of the MCP calls are, 0 to 1; reply ``{"score", "reason"}`` (``MCPArgsScore``)."""
        return f"""Grade the arguments an agent passed in its MCP calls: do they fit each primitive's input schema
(required fields present, right names and types, well formed) and carry the values the request calls for? Scale:
1.0 fully correct, about 0.67 mostly correct, about 0.33 mostly incorrect, 0.0 incorrect.

Reply with JSON only: {{"score": <number from 0 to 1>, "reason": "<one or two sentences>"}}

{DATA_NOTICE}

{_material(input, actual_output, available_primitives, primitives_used)}

JSON:"""
