"""Evaluate() freezes pre-run objects for the run (src/deepeval/_gc.py) and must leave the process's
garbage-collector state as it found it."""

from __future__ import annotations

import gc

from _support.markers import REGRESSION
from deepeval import evaluate
from deepeval.evaluate import DisplayConfig
from deepeval.metrics import AnswerRelevancyMetric
from deepeval.test_case import LLMTestCase

pytestmark = REGRESSION


def test_evaluate_keeps_the_callers_own_gc_freeze() -> None:
    """Regression: evaluate() called gc.unfreeze() at the end of a run even when the caller had frozen objects
    before it (gc.freeze() after preloading, as in pre-fork servers): freeze count 30000+ before, 0 after."""
    gc.freeze()
    try:
        before = gc.get_freeze_count()
        assert before > 0
        result = evaluate(
            [
                LLMTestCase(
                    input="What is the capital of France?", actual_output="Paris is the capital of France."
                )
            ],
            [AnswerRelevancyMetric(threshold=0.5)],
            display_config=DisplayConfig(show_indicator=False, print_results=False),
        )
        after = gc.get_freeze_count()
    finally:
        gc.unfreeze()
    assert result.test_results[0].metrics_data[0].error is None
    # fixed: the caller's freeze is kept (it was reset to 0); a few frozen objects may be freed during the run
    assert after > before * 0.9, f"freeze count {before} before evaluate(), {after} after"


def test_evaluate_leaves_nothing_frozen() -> None:
    """Held up: no freeze before, none after (also after a run whose metric raises)."""
    assert gc.get_freeze_count() == 0
    evaluate(
        [
            LLMTestCase(
                input="What is the capital of France?", actual_output="Paris is the capital of France."
            )
        ],
        [AnswerRelevancyMetric(threshold=0.5)],
        display_config=DisplayConfig(show_indicator=False, print_results=False),
    )
    assert gc.get_freeze_count() == 0
