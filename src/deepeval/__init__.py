"""deepeval: LLM evaluation with LLM, hybrid and System One judges, and an embedded offline default judge."""

from __future__ import annotations

import importlib as _importlib

# Eager on purpose (``from deepeval import evaluate`` must give the function, and ``deepeval.evaluate`` stays the
# package in sys.modules). The import is light: the runner, rich, jinja2 and sqlite load when a run starts.
from deepeval._login import login
from deepeval._version import __version__  # "4.3.1+oss.0.1.0": deepeval's API 4.3.1, by deepeval-oss 0.1.0
from deepeval.config.settings import apply_log_level, autoload_dotenv
from deepeval.evaluate import a_evaluate, assert_test, evaluate
from deepeval.evaluate.arena import compare
from deepeval.models.embedded import kind_spec as _kind_spec
from deepeval.test_run import log_hyperparameters, on_test_run_end

autoload_dotenv()  # as deepeval 4.3.1: .env, .env.<APP_ENV>, .env.local values into the process environment
apply_log_level()  # LOG_LEVEL (deepeval set-debug --log-level): the level of the 'deepeval' logger

# The embedded judge (a layer below the metrics) answers a metric's own question kinds; in a process that has not
# imported the metrics yet, it loads them on first need (they then tell it their kinds: metrics/embedded_kinds.py).
_kind_spec.use_metric_layer(lambda: _importlib.import_module("deepeval.metrics"))


def __getattr__(name: str) -> object:
    # deepeval 4.3.1 exports these at the top too; loaded on first use so that `import deepeval` stays light
    if name in ("flush_traces", "a_flush_traces"):
        return getattr(_importlib.import_module("deepeval.tracing"), name)
    raise AttributeError(f"module 'deepeval' has no attribute {name!r}")


__all__ = [
    "__version__",
    "a_evaluate",
    "a_flush_traces",
    "assert_test",
    "compare",
    "evaluate",
    "flush_traces",
    "log_hyperparameters",
    "login",
    "on_test_run_end",
]
