"""deepeval: LLM evaluation with LLM, hybrid and System One judges, and an embedded offline default judge."""

from __future__ import annotations

import importlib as _importlib

# Eager on purpose (``from deepeval import evaluate`` must give the function, and ``deepeval.evaluate`` stays the
# package in sys.modules). The import is light: the runner, rich, jinja2 and sqlite load when a run starts.
from deepeval._login import login
from deepeval._version import __version__  # "4.3.1+oss.0.1.0": deepeval's API 4.3.1, by deepeval-oss 0.1.0
from deepeval.evaluate import a_evaluate, assert_test, evaluate
from deepeval.models.embedded import kind_spec as _kind_spec
from deepeval.test_run import log_hyperparameters, on_test_run_end

# The embedded judge (a layer below the metrics) answers a metric's own question kinds; in a process that has not
# imported the metrics yet, it loads them on first need (they then tell it their kinds: metrics/embedded_kinds.py).
_kind_spec.use_metric_layer(lambda: _importlib.import_module("deepeval.metrics"))

__all__ = [
    "__version__",
    "a_evaluate",
    "assert_test",
    "evaluate",
    "log_hyperparameters",
    "login",
    "on_test_run_end",
]
