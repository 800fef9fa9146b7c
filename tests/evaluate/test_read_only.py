"""``DEEPEVAL_FILE_SYSTEM=READ_ONLY``: nothing written on our own initiative (no ``.deepeval/`` cache or kept run),
while the files the user asks for (``results_folder``) are still written. deepeval 4.3.1, same script: no
``.deepeval/`` at all, the results folder's ``test_run_*.json`` written."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from deepeval import evaluate
from deepeval.evaluate import CacheConfig, DisplayConfig
from deepeval.metrics import BaseMetric
from deepeval.test_case import LLMTestCase


class Length(BaseMetric):
    def __init__(self, threshold: float = 0.5) -> None:
        self.threshold = threshold

    def measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        self.score = min(1.0, len(test_case.actual_output or "") / 10)
        self.success = self.score >= self.threshold
        return self.score

    async def a_measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        return self.measure(test_case)

    def is_successful(self) -> bool:
        return bool(self.success)

    @property
    def __name__(self) -> str:  # type: ignore[override]
        return "Length"


@pytest.mark.parametrize("read_only", [True, False])
def test_read_only_writes_no_cache_and_keeps_no_run(
    read_only: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DEEPEVAL_CACHE_PATH", raising=False)
    monkeypatch.delenv("DEEPEVAL_RESULTS_FOLDER", raising=False)
    if read_only:
        monkeypatch.setenv("DEEPEVAL_FILE_SYSTEM", "READ_ONLY")
    else:
        monkeypatch.delenv("DEEPEVAL_FILE_SYSTEM", raising=False)
    case = LLMTestCase(input="q", actual_output="a long enough answer")
    for _ in range(2):  # the second run would read the cache if there were one
        result = evaluate(
            [case],
            [Length()],
            display_config=DisplayConfig(results_folder="out", show_indicator=False),
            cache_config=CacheConfig(write_cache=True, use_cache=True),
        )
        assert result.test_results[0].metrics_data[0].score == 1.0
    assert (tmp_path / ".deepeval").exists() is not read_only
    assert result.test_results[0].metrics_data[0].cached is not read_only
    assert len(list((tmp_path / "out").glob("test_run_*.json"))) == 2  # asked for: written either way
