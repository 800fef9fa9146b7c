"""Moved to :mod:`deepeval.evaluate.backends.ray.block`; this old import path is the same module."""

import sys

from deepeval.evaluate.backends.ray import block as _moved

sys.modules[__name__] = _moved
