"""Moved to :mod:`deepeval.evaluate.backends.ray.options`; this old import path is the same module."""

import sys

from deepeval.evaluate.backends.ray import options as _moved

sys.modules[__name__] = _moved
