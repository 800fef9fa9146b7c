"""``deepeval judge-eval``: how far to trust a judge on your own labelled items.

:func:`load_items` reads a labelled set (``docs/judge_eval.md``), :func:`a_run` judges every labelled unit with the
configured judge, :func:`summarize` computes agreement, AUROC, Brier, ECE, the confusion table, a per-tag breakdown,
a trivial baseline and latency; :mod:`deepeval.judge_eval.report` renders them.
"""

from deepeval.judge_eval.report import render_text, summarize, to_html, to_json
from deepeval.judge_eval.runners import Run, Unit, a_run
from deepeval.judge_eval.schema import JudgeSetError
from deepeval.judge_eval.tasks import load_items, names

__all__ = [
    "JudgeSetError",
    "Run",
    "Unit",
    "a_run",
    "load_items",
    "names",
    "render_text",
    "summarize",
    "to_html",
    "to_json",
]
