from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _isolated(tmp_path, monkeypatch):
    """Each test runs in its own folder (so the default cache lands there) with no dotenv files or result
    folders from the developer's environment."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DEEPEVAL_DISABLE_DOTENV", "1")
    for key in (
        "DEEPEVAL_RESULTS_FOLDER",
        "DEEPEVAL_CACHE_PATH",
        "DEEPEVAL_USE_CACHE",
        "DEEPEVAL_IGNORE_ERRORS",
        "DEEPEVAL_SKIP_ON_MISSING_PARAMS",
        "DEEPEVAL_VERBOSE_MODE",
        "DEEPEVAL_REPEAT",
        "DEEPEVAL_EVAL_MODE",
    ):
        monkeypatch.delenv(key, raising=False)
