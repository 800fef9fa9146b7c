"""Contextual relevancy's declaration (read by :mod:`deepeval.metrics.registry`)."""

from __future__ import annotations

from deepeval.metrics.declaration import JudgeEvalTask, MetricDeclaration

#: whole-metric System One kinds (system_one mode): noul weight 2, noul weight 1, a 4-level share
ALL_RELEVANT = "contextual_relevancy.all_relevant"
EVERY_NODE_RELEVANT = "contextual_relevancy.every_node_relevant"
RELEVANT_SHARE = "contextual_relevancy.relevant_share"

#: the test-case fields a measure needs (checked by the metric, listed by the declaration)
REQUIRED_PARAMS = ("input", "actual_output", "retrieval_context")

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
