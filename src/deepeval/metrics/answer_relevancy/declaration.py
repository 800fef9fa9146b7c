"""Answer relevancy's declaration (read by :mod:`deepeval.metrics.registry`)."""

from __future__ import annotations

from deepeval.metrics.answer_relevancy.names import (
    ADDRESSES_INPUT,
    ALL_RELEVANT,
    RELEVANT_SHARE,
    REQUIRED_PARAMS,
)
from deepeval.metrics.declaration import JudgeEvalTask, MetricDeclaration

DECLARATIONS = (
    MetricDeclaration(
        name="answer_relevancy",
        public_name="AnswerRelevancyMetric",
        cls="deepeval.metrics.answer_relevancy.metric:AnswerRelevancyMetric",
        conversational=False,
        required_params=REQUIRED_PARAMS,
        question_kinds=(ALL_RELEVANT, ADDRESSES_INPUT, RELEVANT_SHARE),
        embedded_kinds="deepeval.metrics.answer_relevancy.embedded:KINDS",
        takes_eval_mode=True,
        cli_default="single_turn",
        judge_eval=(
            JudgeEvalTask(
                name="answer_relevancy",
                labels=("relevant", "irrelevant"),
                check="deepeval.judge_eval.schema:check_statements",
                runner="deepeval.metrics.answer_relevancy.judge_eval:run_item",
                baseline="word overlap",
            ),
        ),
    ),
)
