"""deepeval 4.3.1's module path ``deepeval.metrics.g_eval.g_eval`` (real code imports GEval from it)."""

from deepeval.metrics.g_eval.metric import GEval
from deepeval.metrics.g_eval.prompts import GEvalTemplate

__all__ = ["GEval", "GEvalTemplate"]
