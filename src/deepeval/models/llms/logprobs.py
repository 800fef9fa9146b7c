"""Moved to :mod:`deepeval.models.logprobs` (shared by LLM clients and the log-probability System One model); this
old import path is the same module."""

import sys

from deepeval.models import logprobs as _moved

sys.modules[__name__] = _moved
