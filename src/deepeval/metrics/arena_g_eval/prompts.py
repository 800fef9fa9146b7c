"""Prompts of :class:`ArenaGEval` (our own wording). Bump ``PROMPT_VERSION`` on any change. Methods are called with
the keywords they name, as deepeval 4.3.1 calls them: ``generate_evaluation_steps(criteria, parameters, multimodal)``
and ``generate_arena_winner(evaluation_steps, test_case_contents, parameters, multimodal)``. The contestants appear
under masked names (so a name cannot sway the judge), their material between data markers."""

from __future__ import annotations

from deepeval.metrics.delimit import DATA_NOTICE
from deepeval.metrics.g_eval.prompts import GEvalTemplate

PROMPT_VERSION = "arena_g_eval/2026-1"


class ArenaGEvalTemplate:
    """``generate_evaluation_steps`` (GEval's) and ``generate_arena_winner``."""

    PROMPT_VERSION = PROMPT_VERSION

    generate_evaluation_steps = staticmethod(GEvalTemplate.generate_evaluation_steps)

    @staticmethod
    def generate_arena_winner(evaluation_steps: str, test_case_contents: str, parameters: str) -> str:
        """Pick the contestant that best follows the steps; reply ``{"winner": "<name>", "reason": "..."}``."""
        return f"""Several contestants answered the same test case of an AI application. Following the evaluation \
steps, choose the one whose {parameters} are best.

Evaluation steps:
{evaluation_steps}

{DATA_NOTICE}

{test_case_contents}

Reply with JSON only: {{"winner": "<the contestant's name exactly as written above>", "reason": "<one or two \
sentences that compare the contestants by name>"}}"""
