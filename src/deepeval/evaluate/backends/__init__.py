"""Evaluation backends other than the local runner: :mod:`deepeval.evaluate.backends.ray`."""
