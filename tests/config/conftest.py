"""Every config test runs in an empty temporary cwd with no deepeval/judge variables in the environment."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from deepeval.config.settings import KNOWN_KEYS

_PREFIXES = ("DEEPEVAL_", "OPENAI_", "TYPESAFE_", "LOCAL_MODEL_")


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for key in list(os.environ):
        if key in KNOWN_KEYS or key.startswith(_PREFIXES) or key in {"ENV_DIR_PATH", "USE_LOCAL_MODEL"}:
            monkeypatch.delenv(key)
    work = tmp_path / "cwd"
    work.mkdir()
    monkeypatch.chdir(work)
    return work
