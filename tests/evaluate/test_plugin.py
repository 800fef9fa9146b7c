from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from deepeval import assert_test
from deepeval.test_case import LLMTestCase

from ._fakes import ScoreMetric

DEEPEVAL = Path(sys.executable).parent / "deepeval"


def test_assert_test_passes_silently():
    assert_test(LLMTestCase(input="q", actual_output="a"), [ScoreMetric(0.9, name="Good")])


class _ErrorWithoutRaising(ScoreMetric):
    """Records an error on itself and returns, as a user metric may (nothing raised)."""

    def _finish(self, tc: Any, score: float) -> float:
        super()._finish(tc, score)
        self.error = "judge returned garbage"
        return score


class JudgeDown(Exception):
    pass


class _RaisingJudge(ScoreMetric):
    def _finish(self, tc: Any, score: float) -> float:
        raise JudgeDown("judge returned garbage")


def test_assert_test_names_each_failed_metric_with_score_threshold_and_reason():
    tc = LLMTestCase(input="q", actual_output="a", name="checkout flow")
    metrics = [
        ScoreMetric(0.9, name="Good"),
        ScoreMetric(0.25, name="Relevancy", threshold=0.6),
        _ErrorWithoutRaising(0.5, name="Broken"),
        ScoreMetric(0.0, name="Flaky", flaky=True),
    ]
    with pytest.raises(AssertionError) as info:
        assert_test(tc, metrics)
    msg = str(info.value)
    assert msg.splitlines() == [
        "Metrics failed on test case 'checkout flow':",
        "  - Relevancy (score: 0.2500, threshold: 0.6, strict: False) reason: Relevancy scored 0.25",
        "  - Broken (score: 0.5000, threshold: 0.5, strict: False) error (user_code): judge returned garbage",
    ]


@pytest.mark.parametrize("run_async", [True, False])
def test_assert_test_lets_a_judge_exception_through_unchanged(run_async: bool):
    # deepeval 4.3.1: assert_test raises the exception the metric's judge raised (RuntimeError("judge is down")
    # from a custom DeepEvalBaseLLM there), not an AssertionError, with run_async True and False
    metrics = [ScoreMetric(0.9, name="Good"), _RaisingJudge(0.5, name="Broken")]
    with pytest.raises(JudgeDown, match="judge returned garbage"):
        assert_test(LLMTestCase(input="q", actual_output="a"), metrics, run_async=run_async)


def test_assert_test_on_a_flaky_test_case_warns_instead_of_failing():
    tc = LLMTestCase(input="q", actual_output="a", name="sometimes", flaky=True)
    with pytest.warns(
        UserWarning, match=r"(?s)Flaky test case 'sometimes' failed.*Relevancy \(score: 0.2500"
    ):
        assert_test(tc, [ScoreMetric(0.25, name="Relevancy")])


def test_assert_test_ignore_errors_from_environment(monkeypatch):
    monkeypatch.setenv("DEEPEVAL_IGNORE_ERRORS", "1")
    assert_test(
        LLMTestCase(input="q", actual_output="a"), [ScoreMetric(0.5, fail_on=lambda tc: "judge down")]
    )


TEST_FILE = textwrap.dedent(
    """
    import pytest
    from deepeval import assert_test
    from deepeval.metrics.base_metric import BaseMetric
    from deepeval.test_case import LLMTestCase

    class LengthMetric(BaseMetric):
        def __init__(self, threshold=0.5):
            self.threshold = threshold

        @property
        def __name__(self):
            return "Length"

        async def a_measure(self, tc, *a, **k):
            return self.measure(tc)

        def measure(self, tc, *a, **k):
            self.score = min(1.0, len(tc.actual_output) / 10)
            self.reason = f"{len(tc.actual_output)} characters"
            self.success = self.score >= self.threshold
            self.evaluation_model = "length-judge"
            return self.score

    @pytest.mark.parametrize("output", ["a long enough answer", "tiny"])
    def test_answers(output):
        assert_test(LLMTestCase(input="q", actual_output=output), [LengthMetric()])

    def test_plain():
        assert 1 + 1 == 2
    """
)


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DEEPEVAL_DISABLE_DOTENV": "1", "COLUMNS": "160"}
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def test_deepeval_test_run_exit_code_and_table(tmp_path):
    (tmp_path / "test_llm.py").write_text(TEST_FILE)
    proc = _run([str(DEEPEVAL), "test", "run", "test_llm.py", "-p", "no:cacheprovider"], tmp_path)
    out = proc.stdout
    assert proc.returncode == 1, out + proc.stderr  # pytest: some tests failed
    assert "2 passed" in out and "1 failed" in out
    assert "Metrics failed on test case 'test_llm.py::test_answers[tiny]'" in out
    assert "Length (score: 0.4000, threshold: 0.5, strict: False) reason: 4 characters" in out
    assert "PytestAssertRewriteWarning" not in out
    assert "deepeval results" in out
    table = out.split("deepeval results", 1)[1]
    assert "test_llm.py::test_answers[a long enough answer]" in table
    assert "test_llm.py::test_answers[tiny]" in table
    assert "1.000" in table and "0.400" in table
    assert "length-judge" in table
    assert "1/2 test cases passed" in table


REPEATED_APP = textwrap.dedent(
    """
    from deepeval import assert_test
    from deepeval.metrics.base_metric import BaseMetric
    from deepeval.test_case import LLMTestCase

    class WordCount(BaseMetric):
        def __init__(self, threshold=0.5):
            self.threshold = threshold

        def measure(self, tc, *a, **k):
            self.score = min(1.0, len(tc.actual_output.split()) / 10)
            self.success = self.score >= self.threshold
            return self.score

        async def a_measure(self, tc, *a, **k):
            return self.measure(tc)

        def is_successful(self):
            return self.success

        @property
        def __name__(self):
            return "WordCount"

    def app(q):
        with open("calls.txt", "a") as f:
            f.write(q + "\\n")
        return "one two three four five six"

    def test_app():
        assert_test(LLMTestCase(input="q", actual_output=app("q")), [WordCount()])
    """
)


def test_deepeval_test_run_repeat_reruns_the_whole_test(tmp_path):
    # deepeval 4.3.1 `deepeval test run test_rep.py -r 3`: test_rep.py::test_app[1-3], [2-3], [3-3] PASSED,
    # "3 passed", and the app ran 3 times (calls.txt has 3 lines)
    (tmp_path / "test_rep.py").write_text(REPEATED_APP)
    proc = _run([str(DEEPEVAL), "test", "run", "test_rep.py", "-r", "3", "-p", "no:cacheprovider"], tmp_path)
    out = proc.stdout
    assert proc.returncode == 0, out + proc.stderr
    assert "3 passed" in out
    assert (tmp_path / "calls.txt").read_text().splitlines() == ["q", "q", "q"]
    table = out.split("deepeval results", 1)[1]
    for k in (1, 2, 3):
        assert f"test_rep.py::test_app[{k}-3]" in table
    assert "3/3 test cases passed" in table and "k=" not in table  # each run is its own row, measured once


def test_plain_pytest_without_assert_test_prints_nothing_extra(tmp_path):
    (tmp_path / "test_plain.py").write_text("def test_ok():\n    assert True\n")
    proc = _run([sys.executable, "-m", "pytest", "test_plain.py", "-q", "-p", "no:cacheprovider"], tmp_path)
    assert proc.returncode == 0
    assert "deepeval" not in proc.stdout.lower() and "deepeval" not in proc.stderr.lower()


def test_deepeval_test_run_bad_path_and_missing_xdist(tmp_path):
    proc = _run([str(DEEPEVAL), "test", "run", "nope.py"], tmp_path)
    assert proc.returncode == 4 and "nope.py does not exist" in proc.stderr
    # a node id whose file part is missing keeps the clear error, naming the file only
    proc = _run([str(DEEPEVAL), "test", "run", "nope.py::test_a"], tmp_path)
    assert proc.returncode == 4 and "nope.py does not exist" in proc.stderr
    (tmp_path / "test_x.py").write_text("def test_ok():\n    pass\n")
    try:
        import xdist  # noqa: F401
    except ImportError:
        proc = _run([str(DEEPEVAL), "test", "run", "test_x.py", "-n", "2"], tmp_path)
        assert proc.returncode == 4 and "pytest-xdist" in proc.stderr


def _reports(folder: Path) -> list[dict]:
    import json

    return [json.loads(p.read_text()) for p in sorted(folder.glob("*-*.json"))]


@pytest.mark.parametrize("workers", [None, 2])
def test_deepeval_test_run_writes_one_session_report(tmp_path, workers):
    """One report per session, with every assert_test result: none per assert_test call, none per xdist worker."""
    if workers is not None:
        pytest.importorskip("xdist")
    (tmp_path / "test_llm.py").write_text(TEST_FILE)
    args = [str(DEEPEVAL), "test", "run", "test_llm.py", "-p", "no:cacheprovider"]
    if workers is not None:
        args += ["-n", str(workers)]
    env_folder = tmp_path / "results"
    proc = subprocess.run(
        args,
        cwd=tmp_path,
        env={
            **os.environ,
            "DEEPEVAL_DISABLE_DOTENV": "1",
            "COLUMNS": "160",
            "DEEPEVAL_RESULTS_FOLDER": str(env_folder),
        },
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "2 passed" in proc.stdout and "1 failed" in proc.stdout
    table = proc.stdout.split("deepeval results", 1)[1]
    assert "1/2 test cases passed" in table
    reports = _reports(env_folder)
    assert len(reports) == 1, sorted(p.name for p in env_folder.iterdir())
    rows = {r["name"]: r["metrics_data"][0]["score"] for r in reports[0]["test_results"]}
    assert rows == {
        "test_llm.py::test_answers[a long enough answer]": 1.0,
        "test_llm.py::test_answers[tiny]": 0.4,
    }


def test_test_run_accepts_deepeval_options_identifier_display_and_pytest_ones(tmp_path):
    """-id names the run in its export, -d failing keeps only failing rows in the table, --mark/--durations go to
    pytest, and -o (a Confident AI baseline) is accepted with one notice."""
    (tmp_path / "test_llm.py").write_text(TEST_FILE)
    folder = tmp_path / "results"
    args = [str(DEEPEVAL), "test", "run", "test_llm.py", "-p", "no:cacheprovider", "-id", "nightly"]
    args += ["-d", "failing", "--mark", "not slow", "--durations", "2", "-o", "-W", "-X", "--color", "no"]
    proc = subprocess.run(
        args,
        cwd=tmp_path,
        env={
            **os.environ,
            "DEEPEVAL_DISABLE_DOTENV": "1",
            "COLUMNS": "160",
            "DEEPEVAL_RESULTS_FOLDER": str(folder),
        },
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "2 passed" in proc.stdout and "1 failed" in proc.stdout
    assert "slowest 2 durations" in proc.stdout
    assert proc.stderr.count("--official") == 1
    table = proc.stdout.split("deepeval results", 1)[1].split("slowest 2 durations", 1)[0]
    assert "test_answers[tiny]" in table and "test_answers[a long enough answer]" not in table
    (report,) = _reports(folder)
    assert report["identifier"] == "nightly"
    assert len(report["test_results"]) == 2  # -d only filters the table


HYPER_FILE = textwrap.dedent(
    """
    import deepeval
    from deepeval import assert_test
    from deepeval.test_case import LLMTestCase
    from test_llm import LengthMetric

    deepeval.login("not-a-" + "real-key")  # split: pytest's warning summary quotes this source line

    @deepeval.log_hyperparameters(model="gpt-x", prompt_template="Answer: {q}")
    def hyperparameters():
        return {"temperature": 0.2, "unused": None}

    def test_one():
        assert_test(LLMTestCase(input="q", actual_output="a long enough answer"), [LengthMetric()])
    """
)


BAD_INPUT_TESTS = textwrap.dedent(
    """
    import json
    from deepeval import assert_test
    from deepeval.metrics.base_metric import BaseConversationalMetric, BaseMetric
    from deepeval.test_case import ConversationalTestCase, LLMTestCase

    class Fixed(BaseMetric):
        threshold = 0.5
        async def a_measure(self, tc, *a, **k):
            return self.measure(tc)
        def measure(self, tc, *a, **k):
            self.score, self.reason, self.success = 0.9, "fixed", True
            return 0.9

    class Turns(BaseConversationalMetric):
        threshold = 0.5
        async def a_measure(self, tc, *a, **k):
            return self.measure(tc)
        def measure(self, tc, *a, **k):
            self.score, self.reason, self.success = 1.0, f"{len(tc.turns)} turns", True
            return 1.0

    def test_surrogate_name():
        assert_test(LLMTestCase(input="q", actual_output="a", name=json.loads('"egg\\\\udcff"')), [Fixed()])

    def test_circular_metadata():
        meta = {"k": 1}
        meta["self"] = meta
        assert_test(LLMTestCase(input="q", actual_output="a", metadata=meta), [Fixed()])

    def test_turn_appended_as_str():
        tc = ConversationalTestCase(turns=[{"role": "user", "content": "hi"}])
        tc.turns.append("not a turn")
        assert_test(tc, [Turns()])
    """
)


@pytest.mark.parametrize("workers", [None, 2])
def test_log_hyperparameters_in_a_test_file_reach_the_run_export(tmp_path, workers):
    (tmp_path / "test_llm.py").write_text(TEST_FILE)
    (tmp_path / "test_hyper.py").write_text(HYPER_FILE)
    folder = tmp_path / "results"
    args = [str(DEEPEVAL), "test", "run", ".", "-p", "no:cacheprovider"]
    if workers is not None:
        args += ["-n", str(workers)]
    proc = subprocess.run(
        args,
        cwd=tmp_path,
        env={
            **os.environ,
            "DEEPEVAL_DISABLE_DOTENV": "1",
            "COLUMNS": "160",
            "DEEPEVAL_RESULTS_FOLDER": str(folder),
        },
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr  # test_answers[tiny] fails
    (report,) = _reports(folder)
    assert report["hyperparameters"] == {
        "temperature": "0.2",
        "model": "gpt-x",
        "prompt_template": "Answer: {q}",
    }
    names = {r["name"] for r in report["test_results"]}
    assert names == {
        "test_hyper.py::test_one",
        "test_llm.py::test_answers[a long enough answer]",
        "test_llm.py::test_answers[tiny]",
    }
    assert "not-a-real-key" not in proc.stdout + proc.stderr


def test_pytest_xdist_is_a_normal_dependency():
    from importlib.metadata import requires

    reqs = [r for r in requires("deepeval-oss") or [] if r.startswith("pytest-xdist")]
    assert reqs and all("extra ==" not in r for r in reqs[:1]), reqs


def test_deepeval_test_run_survives_bad_input_on_a_strict_stdout(tmp_path):
    import json

    (tmp_path / "test_bad.py").write_text(BAD_INPUT_TESTS)
    out_dir = tmp_path / "out"
    env_args = [str(DEEPEVAL), "test", "run", "test_bad.py", "-p", "no:cacheprovider"]
    env = {
        **os.environ,
        "DEEPEVAL_DISABLE_DOTENV": "1",
        "COLUMNS": "160",
        "PYTHONIOENCODING": "utf-8",  # strict: a lone surrogate written raw would raise
        "DEEPEVAL_RESULTS_FOLDER": str(out_dir),
    }
    proc = subprocess.run(env_args, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    out = proc.stdout
    assert proc.returncode == 1, out + proc.stderr
    assert "2 passed" in out and "1 failed" in out and "INTERNALERROR" not in out
    assert "invalid test case" in out and "ConversationalTestCase.turns[1]" in out
    table = out.split("deepeval results", 1)[1]
    assert "egg\ufffd" in table and "2/3 test cases passed" in table
    (report,) = [json.loads(p.read_text(encoding="utf-8")) for p in out_dir.glob("*-*.json")]
    metadata = [t.get("metadata") for t in report["test_results"]]
    assert any(isinstance(m, str) and m.startswith("<not exported: metadata is a circular") for m in metadata)


RAG_FILE = textwrap.dedent(
    """
    import pytest
    from deepeval import assert_test
    from deepeval.metrics.base_metric import BaseMetric
    from deepeval.test_case import LLMTestCase

    class LengthMetric(BaseMetric):
        def __init__(self, threshold=0.5):
            self.threshold = threshold

        @property
        def __name__(self):
            return "Length"

        async def a_measure(self, tc, *a, **k):
            return self.measure(tc)

        def measure(self, tc, *a, **k):
            self.score = min(1.0, len(tc.actual_output) / 10)
            self.reason = f"{len(tc.actual_output)} characters"
            return self.score

    @pytest.mark.parametrize("product", ["shoes"])
    def test_rag(product):
        assert_test(LLMTestCase(input=f"policy for {product}?", actual_output="tiny"), [LengthMetric()])
    """
)


def test_assert_test_failure_is_a_few_lines_named_by_node_id_without_our_frames(tmp_path):
    (tmp_path / "test_file.py").write_text(RAG_FILE)
    proc = _run([sys.executable, "-m", "pytest", "test_file.py", "-p", "no:cacheprovider"], tmp_path)
    out = proc.stdout
    assert proc.returncode == 1, out + proc.stderr
    failure = out.split("= FAILURES =", 1)[1].split("deepeval results", 1)[0]
    lines = [line for line in failure.splitlines()[1:] if line.strip() and not line.startswith("====")]
    assert len(lines) <= 10, failure
    assert "Metrics failed on test case 'test_file.py::test_rag[shoes]':" in failure
    assert "Length (score: 0.4000, threshold: 0.5, strict: False) reason: 4 characters" in failure
    assert "deepeval/evaluate" not in failure and "api.py" not in failure and "site-packages" not in failure
    # the session table names the row the same way
    table = out.split("deepeval results", 1)[1]
    assert "│ test_file.py::test_rag[shoes] " in table and "FAIL test_file.py::test_rag[shoes]" in table


HOOKED_FILE = textwrap.dedent(
    """
    from pathlib import Path

    import deepeval
    from deepeval import assert_test
    from deepeval.metrics import BaseMetric
    from deepeval.test_case import LLMTestCase

    class AlwaysMetric(BaseMetric):
        def __init__(self):
            self.threshold = 0.5

        def measure(self, tc):
            self.score, self.success = 1.0, True
            return self.score

        def is_successful(self):
            return self.success

        @property
        def __name__(self):
            return "Always"

    @deepeval.on_test_run_end
    def finished():
        marker = Path("hook_calls.txt")
        marker.write_text(marker.read_text() + "x" if marker.exists() else "x")

    def test_one():
        assert_test(LLMTestCase(input="q", actual_output="a"), [AlwaysMetric()])
    """
)


def test_on_test_run_end_hook_runs_once_after_deepeval_test_run(tmp_path):
    (tmp_path / "test_hooked.py").write_text(HOOKED_FILE)
    proc = _run([str(DEEPEVAL), "test", "run", "test_hooked.py", "-p", "no:cacheprovider"], tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (tmp_path / "hook_calls.txt").read_text() == "x"
    # a plain pytest run does not call it (deepeval calls it from its test run command only)
    (tmp_path / "hook_calls.txt").unlink()
    proc = _run([sys.executable, "-m", "pytest", "test_hooked.py", "-q", "-p", "no:cacheprovider"], tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert not (tmp_path / "hook_calls.txt").exists()


def test_a_raising_on_test_run_end_hook_fails_the_run_with_its_error(tmp_path):
    (tmp_path / "test_hooked.py").write_text(
        HOOKED_FILE.replace('marker = Path("hook_calls.txt")', 'raise RuntimeError("hook broke")')
    )
    proc = _run([str(DEEPEVAL), "test", "run", "test_hooked.py", "-p", "no:cacheprovider"], tmp_path)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "on_test_run_end hook raised RuntimeError: hook broke" in proc.stderr


def test_an_interrupted_test_run_says_so_in_the_table_and_both_reports(tmp_path):
    # the second test stands in for Ctrl-C: pytest stops the session with exit status 2 (interrupted)
    (tmp_path / "test_stop.py").write_text(
        HOOKED_FILE + "\n\ndef test_two():\n    raise KeyboardInterrupt\n\n\ndef test_three():\n    pass\n"
    )
    folder = tmp_path / "results"
    env = {
        **os.environ,
        "DEEPEVAL_DISABLE_DOTENV": "1",
        "COLUMNS": "160",
        "DEEPEVAL_RESULTS_FOLDER": str(folder),
    }
    proc = subprocess.run(
        [str(DEEPEVAL), "test", "run", "test_stop.py", "-p", "no:cacheprovider", "-p", "no:randomly"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "deepeval: interrupted: the run was stopped after 1 test result(s)" in proc.stdout
    (report,) = _reports(folder)
    assert report["extras"]["interrupted"].startswith("the run was stopped after 1 test result(s)")
    assert [r["name"] for r in report["test_results"]] == ["test_stop.py::test_one"]
    (html,) = folder.glob("*.html")
    assert 'id="interrupted"' in html.read_text()


_TERM_FILE = textwrap.dedent(
    """
    import asyncio, time
    from pathlib import Path

    import pytest
    from deepeval import assert_test
    from deepeval.metrics import BaseMetric
    from deepeval.test_case import LLMTestCase

    WHERE = Path("where.txt").read_text()

    class Blocks(BaseMetric):
        threshold = 0.5
        def measure(self, tc, *a, **k):
            raise NotImplementedError
        async def a_measure(self, tc, *a, **k):
            if tc.input == "q2":
                Path("in_flight").write_text("x")
                await asyncio.sleep(120)
            self.score, self.reason, self.success = 1.0, "ok", True
            return 1.0

    @pytest.mark.parametrize("i", range(5))
    def test_app(i):
        if i == 2 and WHERE == "body":  # the test's own code, outside any measuring
            Path("in_flight").write_text("x")
            time.sleep(120)
        assert_test(LLMTestCase(input=f"q{i}", actual_output="a"), [Blocks()])
    """
)


_LATE_CONFTEST = textwrap.dedent(
    """
    import time
    from pathlib import Path

    import pytest

    @pytest.hookimpl(trylast=True)
    def pytest_unconfigure(config):
        Path("second_now").write_text("x")
        time.sleep(1.5)
    """
)


_SUMMARY_CONFTEST = textwrap.dedent(
    """
    import time
    from pathlib import Path

    from deepeval.evaluate import latest

    def keep_latest(run):  # our summary calls it between writing the report and printing the table
        Path("second_now").write_text("x")
        time.sleep(30)

    latest.keep_latest = keep_latest
    """
)


@pytest.mark.regression
@pytest.mark.parametrize(
    ("where", "twice"),
    [
        ("assert_test", ""),
        ("body", ""),
        ("assert_test", "TERM"),
        ("assert_test", "INT"),
        ("assert_test", "TERM INT"),
        ("assert_test", "INT late TERM"),
        ("assert_test", "INT late INT"),
        ("assert_test", "INT summary INT"),
    ],
    ids=[
        "while-measuring",
        "in-the-test-body",
        "twice-while-measuring",
        "ctrl-c-then-sigterm",
        "sigterm-then-ctrl-c",
        "ctrl-c-then-sigterm-after-the-stop-line",
        "ctrl-c-then-ctrl-c-after-the-stop-line",
        "ctrl-c-then-ctrl-c-in-our-summary",
    ],
)
@pytest.mark.parametrize("runner", ["deepeval-test-run", "pytest"])
def test_sigterm_ends_the_test_session_as_ctrl_c_does_and_exits_143(tmp_path, where, twice, runner):
    """SIGTERM (what CI, docker and k8s send) during `deepeval test run` or plain pytest ends the session: the tests
    that ended are reported and written, the stop is said, exit status 143. It was one test's `SystemExit: 143`
    failure and pytest ran all the others (outside attack 5, MEDIUM 6). The first signal names the stop and the exit
    status: a Ctrl-C after the SIGTERM made it 130 under a 'stopped by SIGTERM' line (outside attack 7, L1), a
    SIGTERM after a Ctrl-C leaves pytest's own 2 for an interrupted session, also once the session's handler is
    gone (pytest's cleanup after unconfigure: it took SIGTERM's default, 143; outside attack 8, M3). A second Ctrl-C
    is ignored, or cuts our summary short with one line (it was exit 130 and a 90-line traceback; attack 8, L3)."""
    import signal
    import time

    (tmp_path / "test_term.py").write_text(_TERM_FILE)
    (tmp_path / "where.txt").write_text(where)
    if twice.startswith("INT "):  # where the second signal lands, made long enough to land it in
        (tmp_path / "conftest.py").write_text(_SUMMARY_CONFTEST if "summary" in twice else _LATE_CONFTEST)
    folder = tmp_path / "results"
    env = {
        **os.environ,
        "DEEPEVAL_DISABLE_DOTENV": "1",
        "COLUMNS": "160",
        "DEEPEVAL_RESULTS_FOLDER": str(folder),
    }
    head = (
        [str(DEEPEVAL), "test", "run"] if runner == "deepeval-test-run" else [sys.executable, "-m", "pytest"]
    )
    proc = subprocess.Popen(
        [*head, "test_term.py", "-p", "no:cacheprovider", "-p", "no:randomly"],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while not (tmp_path / "in_flight").exists() and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        assert (tmp_path / "in_flight").exists(), "test_app[2] never started"
        time.sleep(0.1)
        sent = time.monotonic()
        # twice: a SIGTERM (or a Ctrl-C first) then a SIGTERM while the session ends: exit 1 and a 1,100-line
        # traceback (outside attacks 6 B, 7 M3); or a SIGTERM then a Ctrl-C (attack 7, L1)
        proc.send_signal(signal.SIGINT if twice.startswith("INT") else signal.SIGTERM)
        if twice.startswith("INT "):  # after our unconfigure hook (stop line, report) or in our summary
            now = tmp_path / "second_now"
            while not now.exists() and time.monotonic() < deadline and proc.poll() is None:
                time.sleep(0.02)
            assert now.exists(), "the session never reached the place of the second signal"
            proc.send_signal(signal.SIGTERM if twice.endswith("TERM") else signal.SIGINT)
        elif twice:
            time.sleep(0.08)
            proc.send_signal(signal.SIGINT if twice == "TERM INT" else signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
        took = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert "Traceback" not in out + err, out + err
    if twice.startswith("INT "):
        assert proc.returncode == 2, (
            proc.returncode,
            out + err,
        )  # the first signal's: pytest's "interrupted"
        assert "deepeval: interrupted: the run was stopped after 2 test result(s)" in out, out
        (report,) = _reports(folder)
        if "summary" in twice:  # cut short after the report was written, before the table
            assert (
                "; a second Ctrl-C cut this summary short (the table was not printed; deepeval results written to "
                in out
            ), out
            assert " deepeval results =" not in out, out  # our section (the table) never began
        else:
            assert "tests not yet run have no row" in out, out
        return
    if twice in ("TERM", "INT"):  # the second one is ignored, or ends the process at once: never exit 1
        ends = (2,) if twice == "INT" else (143, -signal.SIGTERM)  # pytest's "interrupted" is 2
        assert proc.returncode in ends, (proc.returncode, out + err)
        return
    assert proc.returncode == 143, out + err
    assert took < 5.0
    assert "deepeval: interrupted: the run was stopped by SIGTERM after 2 test result(s)" in out, out
    assert "Exit: deepeval: stopped by SIGTERM" in out
    [last] = [line for line in out.splitlines() if " in " in line and line.startswith("=")][-1:]
    assert " 2 passed in " in last and "failed" not in last, last  # pytest's count: no test failed
    assert "SystemExit" not in out + err
    (report,) = _reports(folder)
    assert report["extras"]["interrupted"].startswith("the run was stopped by SIGTERM after 2 test result(s)")
    assert [r["name"] for r in report["test_results"]] == [f"test_term.py::test_app[{i}]" for i in range(2)]
