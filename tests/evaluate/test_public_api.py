"""The top-level names the README uses: ``from deepeval import evaluate, a_evaluate, assert_test``."""

from __future__ import annotations

import asyncio
import importlib
import subprocess
import sys

import deepeval
from deepeval.evaluate import CacheConfig, DisplayConfig
from deepeval.test_case import LLMTestCase

from ._fakes import ScoreMetric

api = importlib.import_module("deepeval.evaluate.api")  # attribute deepeval.evaluate is the function


def test_top_level_exports_are_the_api_functions() -> None:
    from deepeval import a_evaluate, assert_test, evaluate

    assert (a_evaluate, assert_test, evaluate) == (api.a_evaluate, api.assert_test, api.evaluate)
    assert set(deepeval.__all__) == {"__version__", "a_evaluate", "assert_test", "evaluate"}


def test_a_evaluate_from_the_top_level_runs_on_the_callers_loop() -> None:
    from deepeval import a_evaluate

    async def main() -> float | None:
        result = await a_evaluate(
            [LLMTestCase(input="q", actual_output="a")],
            [ScoreMetric(0.75)],
            display_config=DisplayConfig(show_indicator=False, print_results=False),
            cache_config=CacheConfig(write_cache=False),
        )
        return result.test_results[0].metrics_data[0].score

    assert asyncio.run(main()) == 0.75


def test_import_deepeval_stays_light() -> None:
    code = (
        "import sys, deepeval; from deepeval import a_evaluate; "
        "heavy = ['rich', 'jinja2', 'sqlite3', 'httpx', 'openai', 'numpy', 'deepeval.evaluate.runner', "
        "'deepeval.metrics']; print(','.join(m for m in heavy if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.strip() == ""
