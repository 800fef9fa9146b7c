"""TurnFaithfulnessMetric: the mean over windows of Faithfulness: the share of the window's assistant claims its retrieval context does not contradict (:mod:`deepeval.metrics._engine.turn_windows`
says how a conversation is cut into windows)."""

from __future__ import annotations

from typing import Any

from deepeval.config.eval_mode import EvalMode
from deepeval.metrics._engine.params import has_words
from deepeval.metrics._engine.turn_windows import TurnWindowMetric, Window
from deepeval.metrics.faithfulness.metric import FaithfulnessMetric
from deepeval.metrics.faithfulness.schema import FaithfulnessScoreReason
from deepeval.metrics.turn_faithfulness.prompts import TurnFaithfulnessTemplate
from deepeval.metrics.turn_faithfulness.questions import TurnFaithfulnessQuestions
from deepeval.models.base_model import DeepEvalBaseLLM, DeepEvalBaseSystemOneModel
from deepeval.models.extraction import Extractor
from deepeval.test_case import LLMTestCase


class TurnFaithfulnessMetric(TurnWindowMetric):
    """The mean over windows of Faithfulness: the share of the window's assistant claims its retrieval context does not contradict. Score in [0, 1]; higher is better; a conversation without retrieval context
    scores 1. ``window_size``: how many user-assistant interactions a window holds (4.3.1's default 10)."""

    single_turn = FaithfulnessMetric
    needs_expected_outcome = False
    default_template = TurnFaithfulnessTemplate
    default_question_set = TurnFaithfulnessQuestions
    reason_schema = FaithfulnessScoreReason

    def __init__(
        self,
        threshold: float | None = 0.5,
        model: str | DeepEvalBaseLLM | None = None,
        system_one_model: str | DeepEvalBaseSystemOneModel | None = None,
        eval_mode: str | EvalMode | None = None,
        include_reason: bool = True,
        async_mode: bool = True,
        strict_mode: bool = False,
        verbose_mode: bool = False,
        truths_extraction_limit: int | None = None,
        penalize_ambiguous_claims: bool = False,
        window_size: int = 10,
        flaky: bool = False,
        evaluation_template: Any = None,
        *,
        question_set: Any = None,
        extractor: Extractor | None = None,
    ) -> None:
        self.truths_extraction_limit = truths_extraction_limit
        self.penalize_ambiguous_claims = penalize_ambiguous_claims
        super().__init__(
            threshold=threshold,
            model=model,
            system_one_model=system_one_model,
            eval_mode=eval_mode,
            include_reason=include_reason,
            async_mode=async_mode,
            strict_mode=strict_mode,
            verbose_mode=verbose_mode,
            window_size=window_size,
            flaky=flaky,
            evaluation_template=evaluation_template,
            question_set=question_set,
            extractor=extractor,
        )

    @property
    def __name__(self) -> str:
        return "Turn Faithfulness"

    def window_case(self, window: Window, test_case: Any) -> LLMTestCase:
        return LLMTestCase(
            input=window.user,
            actual_output=window.assistant if has_words(window.assistant) else "-",
            retrieval_context=window.retrieval_context,
        )

    def single_turn_options(self) -> dict[str, Any]:
        return {
            "truths_extraction_limit": self.truths_extraction_limit,
            "penalize_ambiguous_claims": self.penalize_ambiguous_claims,
        }
