"""Moved to :mod:`deepeval.models.http.transport`; this old import path is the same module."""

import sys

from deepeval.models.http import transport as _moved

sys.modules[__name__] = _moved
