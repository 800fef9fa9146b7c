"""deepeval 4.3.1's module path ``deepeval.metrics.arena_g_eval.arena_g_eval``."""

from deepeval.metrics.arena_g_eval.metric import ArenaGEval, ArenaGEvalTemplate

__all__ = ["ArenaGEval", "ArenaGEvalTemplate"]
