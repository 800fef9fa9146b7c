"""Answer relevancy's declaration (read by :mod:`deepeval.metrics.registry`)."""

from __future__ import annotations

from deepeval.metrics.answer_relevancy.pipeline import PIPELINE
from deepeval.metrics.declaration import JudgeEvalTask
from deepeval.metrics.pipeline import declare

DECLARATIONS = (
    declare(
        PIPELINE,
        public_name="AnswerRelevancyMetric",
        cls="deepeval.metrics.answer_relevancy.metric:AnswerRelevancyMetric",
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
