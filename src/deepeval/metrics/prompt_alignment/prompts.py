"""Prompts of :class:`PromptAlignmentMetric` (our own wording). Bump ``PROMPT_VERSION`` on any change: it feeds the
cache key. Override by passing ``evaluation_template=`` a class with the same methods; like deepeval 4.3.1, each
method is called by keyword with the arguments it names (``generate_verdicts(prompt_instructions, input,
actual_output)``; a ``generate_reason(unalignment_reasons, input, actual_output, score)`` written for deepeval gets
the reasons of the instructions not followed)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from deepeval.metrics.delimit import DATA_NOTICE, declare_labels, quote, quote_list

PROMPT_VERSION = "prompt_alignment/2026-1"

declare_labels("instruction", "instructions", "judged instructions")


class PromptAlignmentTemplate:
    """Prompt builders: ``generate_verdicts``, ``generate_reason``."""

    PROMPT_VERSION = PROMPT_VERSION

    @staticmethod
    def generate_verdicts(prompt_instructions: Sequence[str], input: str, actual_output: str) -> str:
        """One verdict per instruction; reply ``{"verdicts": [{"reason", "verdict": "yes|no"}]}`` (``Verdicts``)."""
        return f"""An LLM application's prompt gave the model some instructions. Decide, for each instruction,
whether the model's answer to the request below follows it completely.

"yes": the answer obeys the instruction in full (or the instruction does not apply to this request). "no": the
answer breaks it, or follows it only in part. For every instruction, in order, write a short reason, then the
verdict.

Reply with JSON only, one entry per instruction in the same order:
{{"verdicts": [{{"reason": "...", "verdict": "yes"}}, {{"reason": "...", "verdict": "no"}}]}}

{DATA_NOTICE}

The instructions, as a JSON array ({len(prompt_instructions)} items):
{quote_list("instructions", prompt_instructions)}

The request:
{quote("request", input)}

The answer:
{quote("answer", actual_output)}

Reply with exactly {len(prompt_instructions)} entries."""

    @staticmethod
    def generate_reason(score: float, judged: Sequence[Mapping[str, Any]]) -> str:
        """A short explanation of the score; reply ``{"reason": "..."}`` (``PromptAlignmentScoreReason``)."""
        return f"""Explain a prompt alignment score in two or three sentences.

The score is the share of the prompt's instructions that the answer follows completely. You get each instruction
with its verdict ("yes" followed, "no" not) and the judge's reason. Name the instructions the answer breaks and how,
or say that it follows all of them.

Reply with JSON only, in this form (single quotes inside the text): {{"reason": "The score is <score> because ..."}}

{DATA_NOTICE}

{quote("judged instructions", json.dumps(list(judged), ensure_ascii=False, indent=1))}

The score is {score:.2f}."""
