"""deepeval 4.3.1's module path ``deepeval.metrics.g_eval.utils`` (for ``Rubric``)."""

from deepeval.metrics.g_eval.rubric import Rubric

__all__ = ["Rubric"]
