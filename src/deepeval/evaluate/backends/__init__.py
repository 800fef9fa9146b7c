"""Pieces of the Ray backend (:mod:`deepeval.evaluate.ray_backend`): payload pickling, the per-block worker, the
cluster-wide judge rate limiter and the block cache. None of these modules imports ``ray`` at import time."""
