"""``deepeval.test_run.TestRun`` / ``global_test_run_manager`` over our run state, and ``TestResult`` as a plain
dataclass (``vars()``, ``dataclasses.asdict``), as deepeval's."""

from __future__ import annotations

import dataclasses
import io
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from deepeval import evaluate
from deepeval.evaluate.configs import DisplayConfig, ErrorConfig
from deepeval.test_case import ConversationalTestCase, LLMTestCase, Turn
from deepeval.test_run import TestRun, global_test_run_manager

from ._fakes import ConvMetric, ScoreMetric

DEEPEVAL = Path(sys.executable).parent / "deepeval"


def _run_three() -> object:
    cases = [
        LLMTestCase(input="good", actual_output="a"),
        LLMTestCase(input="bad", actual_output="a"),
        LLMTestCase(input="broken", actual_output="a"),
    ]
    metric = ScoreMetric(
        lambda tc, n: 0.9 if tc.input == "good" else 0.1,
        fail_on=lambda tc: "judge down" if tc.input == "broken" else None,
        cost=0.25,
    )
    return evaluate(
        cases,
        [metric],
        identifier="nightly",
        hyperparameters={"model": "m-1"},
        display_config=DisplayConfig(print_results=False),
        error_config=ErrorConfig(ignore_errors=True),
    )


def test_latest_test_run_data_is_the_last_evaluate_run() -> None:
    result = _run_three()
    run = global_test_run_manager.get_latest_test_run_data()
    assert isinstance(run, TestRun)
    assert (run.test_passed, run.test_failed) == (1, 2)  # the errored test case counts as failed
    assert [r.input for r in run.test_cases] == ["good", "bad", "broken"]
    assert run.test_cases[0] is result.test_results[0]  # type: ignore[attr-defined]
    assert run.identifier == "nightly" and run.hyperparameters == {"model": "m-1"}
    assert run.evaluation_cost == 0.5  # the errored row has no cost
    assert global_test_run_manager.get_latest_test_run_link() is None


def test_test_run_saves_and_loads_with_camel_case_keys() -> None:
    _run_three()
    run = global_test_run_manager.get_latest_test_run_data()
    assert run is not None
    buf = io.StringIO()
    run.save(buf)
    assert '"testPassed": 1' in buf.getvalue() and '"testCases": [' in buf.getvalue()
    buf.seek(0)
    back = TestRun.load(buf)
    assert [r.to_dict() for r in back.test_cases] == [r.to_dict() for r in run.test_cases]
    assert (back.test_passed, back.test_failed, back.identifier) == (1, 2, "nightly")


def test_manager_creates_sets_and_clears_its_current_run() -> None:
    global_test_run_manager.reset()
    run = global_test_run_manager.get_test_run(identifier="x")
    assert run.identifier == "x" and run.test_cases == [] and global_test_run_manager.get_test_run() is run
    result = _run_three()
    conv = evaluate(
        [ConversationalTestCase(turns=[Turn(role="user", content="hi")])],
        [ConvMetric(0.5)],
        display_config=DisplayConfig(print_results=False),
    ).test_results[0]
    for r in [*result.test_results, conv]:  # type: ignore[attr-defined]
        run.add_test_case(r)
    run.calculate_test_passes_and_fails()
    assert conv.status == "failed"  # no assistant turn: score 0
    assert (len(run.test_cases), len(run.conversational_test_cases)) == (3, 1)
    assert (run.test_passed, run.test_failed) == (1, 3)
    global_test_run_manager.clear_test_run()
    assert global_test_run_manager.test_run is None


def test_test_result_is_a_plain_dataclass() -> None:
    (row, *_) = _run_three().test_results  # type: ignore[attr-defined]
    fields = vars(row)
    assert fields["input"] == "good" and fields["success"] is True and fields["name"] == "test_case_0"
    assert dataclasses.asdict(row)["metrics_data"][0]["score"] == 0.9
    assert vars(row.metrics_data[0])["score"] == 0.9
    assert row.to_dict()["status"] == "passed"  # our row form is unchanged


SESSION_FILE = textwrap.dedent(
    """
    import pytest
    from deepeval import assert_test
    from deepeval.metrics.base_metric import BaseMetric
    from deepeval.test_case import LLMTestCase
    from deepeval.test_run import global_test_run_manager

    class Half(BaseMetric):
        threshold = 0.5
        __name__ = "Half"

        def measure(self, tc, *a, **k):
            self.score = 1.0 if tc.input == "ok" else 0.0
            self.success = self.score >= self.threshold
            return self.score

        def is_successful(self):
            return bool(self.success)

    @pytest.mark.parametrize("text", ["ok", "no"])
    def test_case(text):
        assert_test(LLMTestCase(input=text, actual_output="a"), [Half()])

    def test_zz_reads_the_session_run():
        run = global_test_run_manager.get_test_run()
        assert [r.input for r in run.test_cases] == ["ok", "no"]
        assert run.identifier == "session-7"
    """
)


def test_a_deepeval_test_run_session_fills_the_current_run(tmp_path: Path) -> None:
    (tmp_path / "test_session.py").write_text(SESSION_FILE)
    env = {**os.environ, "DEEPEVAL_DISABLE_DOTENV": "1"}
    proc = subprocess.run(
        [str(DEEPEVAL), "test", "run", "test_session.py", "-id", "session-7", "-p", "no:cacheprovider"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    # test_case[no] fails its metric; test_zz (which reads the run) passes
    assert "1 failed, 2 passed" in proc.stdout, proc.stdout + proc.stderr
    assert "FAILED test_session.py::test_case[no]" in proc.stdout
    assert "FAILED test_session.py::test_zz" not in proc.stdout
