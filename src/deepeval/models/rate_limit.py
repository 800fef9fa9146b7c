"""Moved to :mod:`deepeval.models.http.rate_limit`; this old import path is the same module."""

import sys

from deepeval.models.http import rate_limit as _moved

sys.modules[__name__] = _moved
