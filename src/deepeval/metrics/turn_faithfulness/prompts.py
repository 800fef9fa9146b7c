"""Prompts of :class:`TurnFaithfulnessMetric` (our own wording): each window is judged with FaithfulnessMetric's prompts; the
final reason adds ``generate_final_reason``. Bump ``PROMPT_VERSION`` on any change: it feeds the cache key."""

from __future__ import annotations

from deepeval.metrics._engine.turn_windows import final_reason_prompt
from deepeval.metrics.faithfulness.prompts import FaithfulnessTemplate

PROMPT_VERSION = "turn_faithfulness/2026-1"


class TurnFaithfulnessTemplate(FaithfulnessTemplate):
    """FaithfulnessTemplate's methods for each window, plus ``generate_final_reason(score, reasons)``."""

    PROMPT_VERSION = PROMPT_VERSION
    generate_final_reason = final_reason_prompt("faithfulness")
