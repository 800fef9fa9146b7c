"""JevEval: a metric built from typed questions answered by a System One judge.

``from deepeval.metrics.jev_eval import JevEval, Noul, Score, Choice, QuestionOutcome`` as in deepeval 4.3.1;
exports are imported on first use.
"""

from deepeval._lazy import lazy_exports

__all__ = ["Choice", "JevEval", "Noul", "QuestionOutcome", "Score"]
__getattr__ = lazy_exports(
    __name__,
    {
        "JevEval": "deepeval.metrics.jev_eval.metric",
        "Noul": "deepeval.metrics.jev_eval.questions",
        "Score": "deepeval.metrics.jev_eval.questions",
        "Choice": "deepeval.metrics.jev_eval.questions",
        "QuestionOutcome": "deepeval.metrics.jev_eval.questions",
    },
)
