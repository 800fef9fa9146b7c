"""Prompts of :class:`TurnContextualPrecisionMetric` (our own wording): each window is judged with ContextualPrecisionMetric's prompts; the
final reason adds ``generate_final_reason``. Bump ``PROMPT_VERSION`` on any change: it feeds the cache key."""

from __future__ import annotations

from deepeval.metrics._engine.turn_windows import final_reason_prompt
from deepeval.metrics.contextual_precision.prompts import ContextualPrecisionTemplate

PROMPT_VERSION = "turn_contextual_precision/2026-1"


class TurnContextualPrecisionTemplate(ContextualPrecisionTemplate):
    """ContextualPrecisionTemplate's methods for each window, plus ``generate_final_reason(score, reasons)``."""

    PROMPT_VERSION = PROMPT_VERSION
    generate_final_reason = final_reason_prompt("contextual precision")
