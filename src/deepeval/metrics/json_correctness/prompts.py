"""The reason prompt of :class:`JsonCorrectnessMetric` (our own wording). Bump ``PROMPT_VERSION`` on any change: it
feeds the cache key. Override with ``evaluation_template=`` a class with the same ``generate_reason``."""

from __future__ import annotations

from deepeval.metrics.delimit import DATA_NOTICE, quote

PROMPT_VERSION = "json_correctness-p/2026-1"


class JsonCorrectnessTemplate:
    """``generate_reason(actual_output, expected_schema, is_valid_json)`` (deepeval 4.3.1's keywords)."""

    PROMPT_VERSION = PROMPT_VERSION

    @staticmethod
    def generate_reason(actual_output: str, expected_schema: str, is_valid_json: bool) -> str:
        verdict = "does validate" if is_valid_json else "does NOT validate"
        return f"""An LLM was asked to produce JSON that follows a schema. Code has already checked it: the output \
{verdict} against the schema. Explain that result briefly and factually: when it fails, name the fields or values \
that break the schema (compare the output with the schema) and say what would fix them.

{DATA_NOTICE}

The output (TEXT block):
{quote("text", actual_output)}

The expected JSON schema (DATA block):
{quote("data", expected_schema)}

Reply with JSON only: {{"reason": "<one or two sentences>"}}"""
