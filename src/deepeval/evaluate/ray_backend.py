"""Moved to :mod:`deepeval.evaluate.backends.ray.backend`; this old import path is the same module."""

import sys

from deepeval.evaluate.backends.ray import backend as _moved

sys.modules[__name__] = _moved
