"""Prompts of :class:`TurnContextualRecallMetric` (our own wording): each window is judged with ContextualRecallMetric's prompts; the
final reason adds ``generate_final_reason``. Bump ``PROMPT_VERSION`` on any change: it feeds the cache key."""

from __future__ import annotations

from deepeval.metrics._engine.turn_windows import final_reason_prompt
from deepeval.metrics.contextual_recall.prompts import ContextualRecallTemplate

PROMPT_VERSION = "turn_contextual_recall/2026-1"


class TurnContextualRecallTemplate(ContextualRecallTemplate):
    """ContextualRecallTemplate's methods for each window, plus ``generate_final_reason(score, reasons)``."""

    PROMPT_VERSION = PROMPT_VERSION
    generate_final_reason = final_reason_prompt("contextual recall")
