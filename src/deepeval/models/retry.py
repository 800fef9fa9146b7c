"""Moved to :mod:`deepeval.models.http.retry`; this old import path is the same module."""

import sys

from deepeval.models.http import retry as _moved

sys.modules[__name__] = _moved
