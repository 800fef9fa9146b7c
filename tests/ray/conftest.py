"""One local Ray cluster (2 CPUs, no dashboard) for the whole test session; skipped without the ray extra."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No dotenv files or result folders from the developer's environment; the default cache goes to tmp."""
    monkeypatch.setenv("DEEPEVAL_DISABLE_DOTENV", "1")
    monkeypatch.setenv("DEEPEVAL_CACHE_PATH", str(tmp_path / "cache.sqlite"))
    for key in (
        "DEEPEVAL_RESULTS_FOLDER",
        "DEEPEVAL_USE_CACHE",
        "DEEPEVAL_EVAL_MODE",
        "OPENAI_API_KEY",
        "TYPESAFE_API_KEY",
        "USE_LOCAL_MODEL",
    ):
        monkeypatch.delenv(key, raising=False)


@pytest.fixture(scope="session")
def ray_cluster() -> Iterator[Any]:
    ray = pytest.importorskip("ray", reason='needs the ray extra: pip install -e ".[ray]"')
    import ray_fakes

    from ray import cloudpickle

    cloudpickle.register_pickle_by_value(ray_fakes)  # workers do not import the tests folder
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        yield ray
    finally:
        ray.shutdown()
