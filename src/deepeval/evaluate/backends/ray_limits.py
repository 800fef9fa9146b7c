"""Moved to :mod:`deepeval.evaluate.backends.ray.limits`; this old import path is the same module."""

import sys

from deepeval.evaluate.backends.ray import limits as _moved

sys.modules[__name__] = _moved
