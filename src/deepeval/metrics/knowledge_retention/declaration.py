"""Knowledge retention's declaration (read by :mod:`deepeval.metrics.registry`)."""

from __future__ import annotations

from deepeval.metrics.declaration import JudgeEvalTask, MetricDeclaration
from deepeval.metrics.knowledge_retention.names import (
    NO_FORGETTING,
    NO_REASKING,
    REQUIRED_PARAMS,
    RETENTION_LEVEL,
)

DECLARATIONS = (
    MetricDeclaration(
        name="knowledge_retention",
        public_name="KnowledgeRetentionMetric",
        cls="deepeval.metrics.knowledge_retention.metric:KnowledgeRetentionMetric",
        conversational=True,
        required_params=REQUIRED_PARAMS,
        question_kinds=(NO_FORGETTING, NO_REASKING, RETENTION_LEVEL),
        embedded_kinds="deepeval.metrics.knowledge_retention.embedded:KINDS",
        takes_eval_mode=True,
        cli_default="conversation",
        judge_eval=(
            JudgeEvalTask(
                name="knowledge_retention",
                labels=("forgets", "keeps"),
                check="deepeval.judge_eval.schema:check_retention",
                runner="deepeval.metrics.knowledge_retention.judge_eval:run_item",
                baseline="always keeps",
            ),
        ),
    ),
)
