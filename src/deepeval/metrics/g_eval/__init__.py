"""GEval: a metric defined by the user's criteria or evaluation steps, with an optional rubric.

``from deepeval.metrics.g_eval import GEval, GEvalTemplate, Rubric`` as in deepeval 4.3.1. Exports are imported on
first use, so reading the metric's ``declaration`` (the metric registry) stays light.
"""

from deepeval._lazy import lazy_exports

__all__ = ["PROMPT_VERSION", "QUESTION_SET_VERSION", "GEval", "GEvalQuestions", "GEvalTemplate", "Rubric"]
__getattr__ = lazy_exports(
    __name__,
    {
        "GEval": "deepeval.metrics.g_eval.metric",
        "Rubric": "deepeval.metrics.g_eval.rubric",
        "GEvalTemplate": "deepeval.metrics.g_eval.prompts",
        "PROMPT_VERSION": "deepeval.metrics.g_eval.prompts",
        "GEvalQuestions": "deepeval.metrics.g_eval.questions",
        "QUESTION_SET_VERSION": "deepeval.metrics.g_eval.questions",
    },
)
