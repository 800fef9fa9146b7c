"""Moved to :mod:`deepeval.models.http.per_loop`; this old import path is the same module."""

import sys

from deepeval.models.http import per_loop as _moved

sys.modules[__name__] = _moved
