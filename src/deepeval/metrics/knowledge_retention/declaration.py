"""Knowledge retention's declaration (read by :mod:`deepeval.metrics.registry`)."""

from __future__ import annotations

from deepeval.metrics.declaration import JudgeEvalTask, MetricDeclaration

#: whole-metric System One kinds (system_one mode): noul weight 2, noul weight 1, a 4-level retention level
#: (forgets most / several / one minor / none)
NO_FORGETTING = "knowledge_retention.no_forgetting"
NO_REASKING = "knowledge_retention.no_reasking"
RETENTION_LEVEL = "knowledge_retention.retention_level"

DECLARATIONS = (
    MetricDeclaration(
        name="knowledge_retention",
        public_name="KnowledgeRetentionMetric",
        cls="deepeval.metrics.knowledge_retention.metric:KnowledgeRetentionMetric",
        conversational=True,
        required_params=("turns",),
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
