from __future__ import annotations

import os

import pytest

_PREFIXES = ("DEEPEVAL_", "OPENAI_", "TYPESAFE_", "LOCAL_MODEL_")


@pytest.fixture(autouse=True)
def _isolated(tmp_path, monkeypatch):
    """Each test runs in its own folder with no judge keys or deepeval settings: metrics use the embedded judge."""
    for key in list(os.environ):
        if key.startswith(_PREFIXES):
            monkeypatch.delenv(key)
    monkeypatch.setenv("DEEPEVAL_DISABLE_DOTENV", "1")
    monkeypatch.chdir(tmp_path)
