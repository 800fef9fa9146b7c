"""Prompt alignment's declaration (read by :mod:`deepeval.metrics.registry`)."""

from __future__ import annotations

from deepeval.metrics.declaration import MetricDeclaration
from deepeval.metrics.prompt_alignment.names import INSTRUCTION_FOLLOWED, REQUIRED_PARAMS

DECLARATIONS = (
    MetricDeclaration(
        name="prompt_alignment",
        public_name="PromptAlignmentMetric",
        cls="deepeval.metrics.prompt_alignment.metric:PromptAlignmentMetric",
        conversational=False,
        required_params=REQUIRED_PARAMS,
        example_args={"prompt_instructions": ["Give the opening hour."]},
        question_kinds=(INSTRUCTION_FOLLOWED,),
        takes_eval_mode=True,
    ),
)
