"""deepeval 4.3.1's module path ``deepeval.metrics.jev_eval.jev_eval``."""

from deepeval.metrics.jev_eval.metric import JevEval

__all__ = ["JevEval"]
