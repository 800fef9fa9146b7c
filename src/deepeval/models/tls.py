"""Moved to :mod:`deepeval.models.http.tls`; this old import path is the same module."""

import sys

from deepeval.models.http import tls as _moved

sys.modules[__name__] = _moved
