"""Modules moved by the issue-17 refactor keep their old import paths as aliases of the same module object, so
``import``, ``from ... import`` and ``monkeypatch.setattr("old.path.name", ...)`` all keep working."""

from __future__ import annotations

import importlib

import pytest

MOVED = [
    ("deepeval.models.retry", "deepeval.models.http.retry"),
    ("deepeval.models.rate_limit", "deepeval.models.http.rate_limit"),
    ("deepeval.models.tls", "deepeval.models.http.tls"),
    ("deepeval.models.llms.transport", "deepeval.models.http.transport"),
    ("deepeval.models.llms.per_loop", "deepeval.models.http.per_loop"),
    ("deepeval.models.llms.logprobs", "deepeval.models.logprobs"),
    ("deepeval.evaluate.ray_backend", "deepeval.evaluate.backends.ray.backend"),
    ("deepeval.evaluate.backends.ray_block", "deepeval.evaluate.backends.ray.block"),
    ("deepeval.evaluate.backends.ray_cache", "deepeval.evaluate.backends.ray.cache"),
    ("deepeval.evaluate.backends.ray_limits", "deepeval.evaluate.backends.ray.limits"),
    ("deepeval.evaluate.backends.ray_options", "deepeval.evaluate.backends.ray.options"),
    ("deepeval.evaluate.backends.ray_pickle", "deepeval.evaluate.backends.ray.pickle"),
]


@pytest.mark.parametrize(("old", "new"), MOVED)
def test_old_path_is_the_moved_module(old: str, new: str) -> None:
    assert importlib.import_module(old) is importlib.import_module(new)


def test_public_names_still_import_from_old_places() -> None:
    from deepeval.evaluate import RateLimit, RayConfig
    from deepeval.evaluate.ray_backend import RayConfig as OldRayConfig
    from deepeval.models.http.secrets import Secret
    from deepeval.models.llms.openai_compatible import Secret as OldSecret
    from deepeval.models.retry import RetryPolicy

    assert OldRayConfig is RayConfig and RateLimit.__module__ == "deepeval.evaluate.backends.ray.options"
    assert OldSecret is Secret and RetryPolicy.__module__ == "deepeval.models.http.retry"
