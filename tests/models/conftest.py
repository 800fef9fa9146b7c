"""Fixtures for judge-client tests: a clean environment (no real keys, no .env files) and a fast retry policy."""

from __future__ import annotations

import pytest

from deepeval.config.settings import KNOWN_KEYS
from deepeval.models.http.retry import RetryPolicy


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for key in KNOWN_KEYS:
        monkeypatch.delenv(key, raising=False)
    for key in (
        "LOCAL_MODEL_COST_PER_INPUT_TOKEN",
        "LOCAL_MODEL_COST_PER_OUTPUT_TOKEN",
        "TYPESAFE_COST_PER_INPUT_TOKEN",
    ):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("DEEPEVAL_DISABLE_DOTENV", "1")


@pytest.fixture
def fast_policy() -> RetryPolicy:
    """4 retries, 2 s per attempt, backoff ceilings of 10 ms (tests stay fast)."""
    return RetryPolicy(max_retries=4, timeout=2.0, base_delay=0.005, max_delay=0.01)
