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

    assertions = importlib.import_module("deepeval.evaluate.assertions")
    assert (a_evaluate, assert_test, evaluate) == (api.a_evaluate, assertions.assert_test, api.evaluate)
    assert set(deepeval.__all__) == {
        "__version__",
        "a_evaluate",
        "assert_test",
        "compare",  # arena metrics (ArenaGEval), as deepeval 4.3.1's deepeval.compare
        "evaluate",
        "flush_traces",  # as deepeval 4.3.1's top level (loaded on first use)
        "a_flush_traces",
        "log_hyperparameters",
        "login",
        "on_test_run_end",  # as deepeval 4.3.1's top level
    }


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


def test_log_hyperparameters_records_the_function_dict_in_both_spellings(monkeypatch) -> None:
    import pytest

    from deepeval.evaluate import session
    from deepeval.test_run import log_hyperparameters

    monkeypatch.setattr(session, "_hyperparameters", None)

    @deepeval.log_hyperparameters
    def plain() -> dict:
        return {"model": "gpt-4.1", "top_k": 3, "dropped": None}

    assert session.hyperparameters() == {"model": "gpt-4.1", "top_k": "3"}
    assert plain() == {"model": "gpt-4.1", "top_k": 3, "dropped": None}  # the function still works

    @log_hyperparameters(model="m", prompt_template="T")
    def older() -> dict:
        return {"temperature": 0.5}

    assert session.hyperparameters() == {"temperature": "0.5", "model": "m", "prompt_template": "T"}
    with pytest.raises(TypeError, match="must return a dict"):
        log_hyperparameters(lambda: ["not", "a", "dict"])


def test_login_is_a_warned_no_op_that_never_shows_the_key(monkeypatch) -> None:
    import warnings

    import pytest

    from deepeval import _login

    monkeypatch.setattr(_login, "_warned", False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        deepeval.login("sk-confident-secret-1234")
        deepeval.login("sk-confident-secret-1234")
    assert len(caught) == 1 and "Confident AI" in str(caught[0].message)
    assert "secret" not in str(caught[0].message)
    for bad in ("", None, 3):
        with pytest.raises(ValueError, match="non-empty API key"):
            deepeval.login(bad)  # type: ignore[arg-type]


def test_deepeval_import_paths_for_result_types_and_run_ids() -> None:
    from deepeval.evaluate.results import EvaluationResult as Ours
    from deepeval.evaluate.types import EvaluationResult, MetricData, TestResult
    from deepeval.test_run import MetricData as RunMetricData
    from deepeval.test_run import TestRunResultDisplay

    assert EvaluationResult is Ours and MetricData is RunMetricData and TestResult.__name__ == "TestResult"
    assert TestRunResultDisplay("failing").value == "failing"
    run = Ours(test_results=[], run_id="abc")
    assert (run.test_run_id, run.confident_link) == ("abc", None)
    assert Ours(test_results=[]).test_run_id is None


def test_test_run_result_display_imports_from_deepeval_s_module_path() -> None:
    # deepeval 4.3.1 user code: `from deepeval.test_run.test_run import TestRunResultDisplay`
    from deepeval.evaluate import DisplayConfig
    from deepeval.test_run.test_run import TestRun, TestRunResultDisplay, global_test_run_manager

    assert [m.value for m in TestRunResultDisplay] == ["all", "failing", "passing"]  # as deepeval 4.3.1
    assert (
        DisplayConfig(display_option=TestRunResultDisplay.FAILING).display() is TestRunResultDisplay.FAILING
    )
    import deepeval.test_run as package

    assert (TestRun, global_test_run_manager) == (package.TestRun, package.global_test_run_manager)


def test_mllm_image_imports_from_deepeval_test_case() -> None:
    from deepeval.test_case import MLLMImage

    assert MLLMImage.__module__.startswith("deepeval.test_case")
