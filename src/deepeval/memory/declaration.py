"""The memory metrics' declarations (read by :mod:`deepeval.metrics.registry`). Both measure the memory a test
case's ``metadata`` names, or its turns (recall needs ``metadata["memory_manifest"]``); their judge is the memory judge (an LLM, else the
embedded grader), so they ask no whole-metric System One kinds of their own."""

from __future__ import annotations

from deepeval.metrics.declaration import JudgeEvalTask, MetricDeclaration

DECLARATIONS = (
    MetricDeclaration(
        name="memory_recall",
        public_name="MemoryRecallMetric",
        cls="deepeval.memory.metrics:MemoryRecallMetric",
        conversational=True,
        required_params=("metadata",),
        judge_eval=(
            JudgeEvalTask(
                name="memory_grade",
                labels=("grade >= 3", "grade < 3"),
                check="deepeval.judge_eval.schema:check_grade",
                runner="deepeval.memory.judge_eval:grade_item",
                baseline="word overlap",
                judge="memory",
            ),
        ),
    ),
    MetricDeclaration(
        name="memory_precision",
        public_name="MemoryPrecisionMetric",
        cls="deepeval.memory.metrics:MemoryPrecisionMetric",
        conversational=True,
        required_params=("turns",),
        judge_eval=(
            JudgeEvalTask(
                name="claim_support",
                labels=("supported", "unsupported", "contradicted"),
                check="deepeval.judge_eval.schema:check_claims",
                runner="deepeval.memory.judge_eval:claim_support_item",
                baseline="word overlap",
                judge="memory",
            ),
        ),
    ),
)
