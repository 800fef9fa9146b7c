"""Contextual relevancy's declaration (read by :mod:`deepeval.metrics.registry`)."""

from __future__ import annotations

from deepeval.metrics.contextual_relevancy.names import (
    ALL_RELEVANT,
    EVERY_NODE_RELEVANT,
    RELEVANT_SHARE,
    REQUIRED_PARAMS,
)
from deepeval.metrics.declaration import JudgeEvalTask, MetricDeclaration

DECLARATIONS = (
    MetricDeclaration(
        name="contextual_relevancy",
        public_name="ContextualRelevancyMetric",
        cls="deepeval.metrics.contextual_relevancy.metric:ContextualRelevancyMetric",
        conversational=False,
        required_params=REQUIRED_PARAMS,
        question_kinds=(ALL_RELEVANT, EVERY_NODE_RELEVANT, RELEVANT_SHARE),
        embedded_kinds="deepeval.metrics.contextual_relevancy.embedded:KINDS",
        takes_eval_mode=True,
        cli_default="retrieval",
        judge_eval=(
            JudgeEvalTask(
                name="contextual_relevancy",
                labels=("relevant", "irrelevant"),
                check="deepeval.judge_eval.schema:check_context_statements",
                runner="deepeval.metrics.contextual_relevancy.judge_eval:run_item",
                baseline="word overlap",
            ),
        ),
    ),
)
