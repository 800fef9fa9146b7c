"""Moved to :mod:`deepeval.evaluate.backends.ray.pickle`; this old import path is the same module."""

import sys

from deepeval.evaluate.backends.ray import pickle as _moved

sys.modules[__name__] = _moved
