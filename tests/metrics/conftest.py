from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _isolated_settings(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """No judge configured from the environment or dotenv files: tests pass their judges explicitly."""
    for key in (
        "DEEPEVAL_EVAL_MODE",
        "OPENAI_API_KEY",
        "TYPESAFE_API_KEY",
        "USE_LOCAL_MODEL",
        "LOCAL_MODEL_BASE_URL",
    ):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("DEEPEVAL_DISABLE_DOTENV", "1")
    monkeypatch.setenv("ENV_DIR_PATH", str(tmp_path))
