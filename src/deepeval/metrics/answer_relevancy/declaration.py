"""Answer relevancy's declaration (read by :mod:`deepeval.metrics.registry`)."""

from __future__ import annotations

from deepeval.metrics.declaration import JudgeEvalTask, MetricDeclaration

#: whole-metric System One kinds (system_one mode): noul weight 2, noul weight 1, a 4-level share
ALL_RELEVANT = "answer_relevancy.all_relevant"
ADDRESSES_INPUT = "answer_relevancy.addresses_input"
RELEVANT_SHARE = "answer_relevancy.relevant_share"

#: the test-case fields a measure needs (checked by the metric, listed by the declaration)
REQUIRED_PARAMS = ("input", "actual_output")

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
