"""ArenaGEval: which contestant best meets the criteria (``from deepeval.metrics import ArenaGEval`` and
``from deepeval.metrics.arena_g_eval import ArenaGEval`` as in deepeval 4.3.1); imported on first use."""

from deepeval._lazy import lazy_exports

__all__ = ["ArenaGEval", "ArenaGEvalTemplate"]
__getattr__ = lazy_exports(
    __name__,
    {
        "ArenaGEval": "deepeval.metrics.arena_g_eval.metric",
        "ArenaGEvalTemplate": "deepeval.metrics.arena_g_eval.prompts",
    },
)
