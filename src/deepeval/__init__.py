"""deepeval: LLM evaluation with LLM, hybrid and System One judges, and an embedded offline default judge."""

from __future__ import annotations

# Eager on purpose (``from deepeval import evaluate`` must give the function, and ``deepeval.evaluate`` stays the
# package in sys.modules). The import is light: the runner, rich, jinja2 and sqlite load when a run starts.
from deepeval._login import login
from deepeval._version import __version__  # "4.3.1+oss.0.1.0": deepeval's API 4.3.1, by deepeval-oss 0.1.0
from deepeval.config.settings import apply_log_level, autoload_dotenv
from deepeval.evaluate import a_evaluate, assert_test, evaluate
from deepeval.test_run import log_hyperparameters, on_test_run_end

autoload_dotenv()  # as deepeval 4.3.1: .env, .env.<APP_ENV>, .env.local values into the process environment
apply_log_level()  # LOG_LEVEL (deepeval set-debug --log-level): the level of the 'deepeval' logger

__all__ = [
    "__version__",
    "a_evaluate",
    "assert_test",
    "evaluate",
    "log_hyperparameters",
    "login",
    "on_test_run_end",
]
