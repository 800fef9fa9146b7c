"""Moved to :mod:`deepeval.evaluate.backends.ray.cache`; this old import path is the same module."""

import sys

from deepeval.evaluate.backends.ray import cache as _moved

sys.modules[__name__] = _moved
