"""Task completion's declaration (read by :mod:`deepeval.metrics.registry`)."""

from __future__ import annotations

from deepeval.metrics.declaration import MetricDeclaration
from deepeval.metrics.task_completion.names import (
    COMPLETION_LEVEL,
    FULLY_ACCOMPLISHED,
    OUTCOME_ACHIEVES_TASK,
    OUTCOME_IS_THE_ASK,
    REQUIRED_PARAMS,
)

DECLARATIONS = (
    MetricDeclaration(
        name="task_completion",
        public_name="TaskCompletionMetric",
        cls="deepeval.metrics.task_completion.metric:TaskCompletionMetric",
        conversational=False,
        required_params=REQUIRED_PARAMS,
        question_kinds=(FULLY_ACCOMPLISHED, OUTCOME_IS_THE_ASK, COMPLETION_LEVEL, OUTCOME_ACHIEVES_TASK),
        takes_eval_mode=True,
    ),
)
