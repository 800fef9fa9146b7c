"""System One questions of :class:`PromptAlignmentMetric` (our own wording). Bump ``QUESTION_SET_VERSION`` on any
change: it feeds the cache key. Override with ``question_set=`` an object with the same static methods.

Hybrid and system_one ask the same question, once per prompt instruction, over the state ``{"input",
"actual_output"}`` (hybrid adds the data note); each question quotes its own instruction. ``kind`` and ``data`` stay
on each question for local judges and never go over the wire."""

from __future__ import annotations

from collections.abc import Sequence

from deepeval.metrics._engine.system_one import WeightedQuestion
from deepeval.metrics.delimit import declare_labels, quote
from deepeval.metrics.prompt_alignment import names
from deepeval.models.system_one.schema import NoulQuestion

QUESTION_SET_VERSION = "prompt_alignment-q/2026-1"

declare_labels("instruction")


class PromptAlignmentQuestions:
    """``instruction_followed`` (hybrid decisions) and ``whole_metric`` (system_one mode: one per instruction)."""

    VERSION = QUESTION_SET_VERSION

    @staticmethod
    def instruction_followed(instruction: str) -> NoulQuestion:
        """Yes = ``actual_output`` follows ``instruction`` completely when answering ``input``."""
        return NoulQuestion(
            instructions=(
                "Does `actual_output` completely follow this instruction of the application's prompt when answering "
                "`input`?\n" + quote("instruction", instruction)
            ),
            kind=names.INSTRUCTION_FOLLOWED,
            data={"instruction": instruction},
        )

    @staticmethod
    def whole_metric(instructions: Sequence[str]) -> list[WeightedQuestion]:
        """One yes/no question per instruction (weight 1 each), as deepeval 4.3.1 asks."""
        return [
            WeightedQuestion(
                f"instruction_{n}",
                1.0,
                PromptAlignmentQuestions.instruction_followed(text),
                f"the output follows instruction {n + 1}",
            )
            for n, text in enumerate(instructions)
        ]
