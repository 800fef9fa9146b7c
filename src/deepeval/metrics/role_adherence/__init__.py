"""Role adherence: does the assistant stay in the role the test case's ``chatbot_role`` describes?

Exports are imported on first use, so reading the metric's ``declaration`` (the metric registry) stays light.
"""

from deepeval._lazy import lazy_exports

__all__ = [
    "PROMPT_VERSION",
    "QUESTION_SET_VERSION",
    "RoleAdherenceMetric",
    "RoleAdherenceQuestions",
    "RoleAdherenceTemplate",
]
__getattr__ = lazy_exports(
    __name__,
    {
        "RoleAdherenceMetric": "deepeval.metrics.role_adherence.metric",
        "PROMPT_VERSION": "deepeval.metrics.role_adherence.prompts",
        "RoleAdherenceTemplate": "deepeval.metrics.role_adherence.prompts",
        "QUESTION_SET_VERSION": "deepeval.metrics.role_adherence.questions",
        "RoleAdherenceQuestions": "deepeval.metrics.role_adherence.questions",
    },
)
