"""Ctrl-C during ``evaluate()`` raises ``KeyboardInterrupt`` within a second or two, from plain sync code and from
inside a running event loop (where the run is on a worker thread), and the rows finished before it stay in the
result cache. Each case is a real subprocess sent SIGINT once its first rows are cached."""

from __future__ import annotations

import csv
import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

_SCRIPT = textwrap.dedent(
    """
    import asyncio, os, sys, threading
    from deepeval import evaluate
    from deepeval.evaluate import AsyncConfig, a_evaluate, CacheConfig, DisplayConfig, ErrorConfig
    from deepeval.metrics.base_metric import BaseMetric
    from deepeval.test_case import LLMTestCase

    MODE, RUN_ASYNC, CACHE = sys.argv[1], sys.argv[2] != "sync", sys.argv[3]
    RESULTS = sys.argv[4] if len(sys.argv) > 4 else None
    PRINT = os.environ.get("PRINT_RESULTS") == "1"
    SWALLOW = sys.argv[2] == "swallow"  # a badly behaved a_measure that swallows its cancellation

    class Slow(BaseMetric):
        threshold = 0.5
        def _done(self):
            self.score, self.reason, self.success = 1.0, "ok", True
            return 1.0
        def measure(self, tc, *a, **k):
            if tc.input.startswith("slow"):
                threading.Event().wait(120)  # a blocked thread: only abandoning it ends the call
            return self._done()
        async def a_measure(self, tc, *a, **k):
            if tc.input.startswith("slow"):
                for _ in range(1200):
                    try:
                        await asyncio.sleep(0.1)
                    except asyncio.CancelledError:
                        if not SWALLOW:
                            raise
            return self._done()

    cases = [LLMTestCase(input=f"fast{i}", actual_output="a") for i in range(3)]
    cases += [LLMTestCase(input=f"slow{i}", actual_output="a") for i in range(3)]

    KW = dict(async_config=AsyncConfig(run_async=RUN_ASYNC, max_concurrent=2),
              display_config=DisplayConfig(show_indicator=False, print_results=PRINT, results_folder=RESULTS),
              cache_config=CacheConfig(write_cache=True, cache_path=CACHE),
              error_config=ErrorConfig(ignore_errors=True))

    def run():
        return evaluate(cases, [Slow()], **KW)

    async def main():  # evaluate() called from async code, as in Jupyter or a FastAPI handler
        if MODE == "await":  # the async entry point, awaited on asyncio.run's loop
            return await a_evaluate(cases, [Slow()], **KW)
        return run()

    try:
        asyncio.run(main()) if MODE in ("loop", "await") else run()
    except KeyboardInterrupt:
        print("INTERRUPTED", flush=True)
        raise
    except SystemExit as exc:
        print(f"EXIT {exc.code} as {type(exc).__name__}", flush=True)
        raise
    print("FINISHED", flush=True)
    """
)


def _cached_rows(path: Path) -> int:
    if not path.exists():
        return 0
    try:
        with sqlite3.connect(path, timeout=1) as conn:
            return int(conn.execute("SELECT COUNT(*) FROM metric_rows").fetchone()[0])
    except sqlite3.Error:  # the table is not there yet
        return 0


@pytest.mark.parametrize(
    ("mode", "run_async"),
    [("sync", "async"), ("sync", "sync"), ("sync", "swallow"), ("loop", "async"), ("loop", "sync")],
    ids=[
        "sync-code-a_measure",
        "sync-code-measure",
        "sync-code-a_measure-swallowing-cancellation",
        "running-loop-a_measure",
        "running-loop-measure",
    ],
)
def test_ctrl_c_raises_keyboard_interrupt_promptly_and_keeps_finished_rows_cached(
    tmp_path: Path, mode: str, run_async: str
) -> None:
    script = tmp_path / "interrupt_me.py"
    script.write_text(_SCRIPT)
    cache = tmp_path / "cache.sqlite"
    env = {**os.environ, "DEEPEVAL_DISABLE_DOTENV": "1", "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, str(script), mode, run_async, str(cache)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        env=env,
    )
    try:
        deadline = time.monotonic() + 60
        while _cached_rows(cache) < 3 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        assert _cached_rows(cache) == 3, "the three fast rows were never cached"
        time.sleep(0.2)  # the slow rows are now in flight
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
        took = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert "INTERRUPTED" in out and "FINISHED" not in out, (out, err)
    assert "KeyboardInterrupt" in err
    assert proc.returncode != 0
    assert took < 3.0, f"Ctrl-C took {took:.1f} s to end the process"
    assert _cached_rows(cache) == 3


def _interrupt(
    tmp_path: Path,
    args: list[str],
    sig: int,
    env: dict[str, str] | None = None,
    ready: Path | None = None,
) -> tuple[int, str, str]:
    """Start ``args``, wait until the three fast rows are cached (or the file ``ready`` exists), send ``sig``;
    (return code, stdout, stderr)."""
    cache = tmp_path / "cache.sqlite"
    env = {**os.environ, "DEEPEVAL_DISABLE_DOTENV": "1", "PYTHONUNBUFFERED": "1", **(env or {})}
    proc = subprocess.Popen(
        args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path, env=env
    )

    def is_ready() -> bool:
        return ready.exists() if ready is not None else _cached_rows(cache) == 3

    try:
        deadline = time.monotonic() + 60
        while not is_ready() and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        assert is_ready(), "the three fast rows were never finished"
        time.sleep(0.2)  # the slow rows are now in flight
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return proc.returncode, out, err


def _rows_of(doc: dict) -> list[tuple[str, float | None, str | None]]:
    return [(t["input"], m["score"], m["error"]) for t in doc["test_results"] for m in t["metrics_data"]]


INTERRUPTED_ROW = "interrupted: the run was stopped before this row finished"


@pytest.mark.regression
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
@pytest.mark.parametrize(
    "mode", ["sync", "loop", "await"], ids=["sync-code", "running-loop", "await-a_evaluate-in-asyncio.run"]
)
def test_interrupted_run_writes_the_rows_it_finished_marked_interrupted(
    tmp_path: Path, sig: int, mode: str
) -> None:
    """SIGINT or SIGTERM: the run is cancelled, the rows it finished are written to the JSON/HTML export with the
    run marked ``extras.interrupted``; the rows it did not finish are there as errors saying so (no row is dropped).
    SIGINT still ends in KeyboardInterrupt, SIGTERM in exit status 143 (128 + 15). ``await a_evaluate(...)`` under
    asyncio.run too: SIGTERM there killed the process with nothing written, and SIGINT's line read "run stopped by
    cancelled" (outside attack 5, MEDIUM 5)."""
    script = tmp_path / "interrupt_me.py"
    script.write_text(_SCRIPT)
    runs = tmp_path / "runs"
    code, out, err = _interrupt(
        tmp_path, [sys.executable, str(script), mode, "async", str(tmp_path / "cache.sqlite"), str(runs)], sig
    )
    if sig == signal.SIGINT:
        assert "INTERRUPTED" in out and "KeyboardInterrupt" in err and code != 0, (out, err)
    else:
        assert "EXIT 143 as SystemExit" in out and code == 143, (code, out, err)
    assert "FINISHED" not in out
    [export] = sorted(runs.glob("*-*.json"))
    doc = json.loads(export.read_text(encoding="utf-8"))
    name = signal.Signals(sig).name
    assert doc["extras"]["interrupted"] == f"{name}: 3 of 6 rows finished"
    assert _rows_of(doc) == [(f"fast{i}", 1.0, None) for i in range(3)] + [
        (f"slow{i}", None, INTERRUPTED_ROW) for i in range(3)
    ]
    assert len(list(runs.glob("*.html"))) == 1
    assert (
        f"deepeval: run stopped by {name}: 3 of 6 rows finished; written to {export} (deepeval view)" in err
    )


@pytest.mark.regression
def test_interrupted_run_without_a_results_folder_is_kept_for_deepeval_view(tmp_path: Path) -> None:
    """A run that prints its results and has no results folder keeps its finished rows in ``.deepeval/runs/`` when
    interrupted, as a finished run does (they were lost: 'no results folder, so no report was written')."""
    script = tmp_path / "interrupt_me.py"
    script.write_text(_SCRIPT)
    code, out, err = _interrupt(
        tmp_path,
        [sys.executable, str(script), "sync", "async", str(tmp_path / "cache.sqlite")],
        signal.SIGINT,
        env={"PRINT_RESULTS": "1"},
    )
    assert "INTERRUPTED" in out and code != 0, (out, err)
    [kept] = sorted((tmp_path / ".deepeval" / "runs").glob("*-*.json"))
    doc = json.loads(kept.read_text(encoding="utf-8"))
    assert doc["extras"]["interrupted"] == "SIGINT: 3 of 6 rows finished"
    assert _rows_of(doc) == [(f"fast{i}", 1.0, None) for i in range(3)] + [
        (f"slow{i}", None, INTERRUPTED_ROW) for i in range(3)
    ]
    assert f"3 of 6 rows finished; written to {kept.resolve()} (deepeval view)" in err


@pytest.mark.regression
def test_cli_evaluate_sigterm_writes_the_csv_of_the_finished_rows(tmp_path: Path) -> None:
    (tmp_path / "slow_metric.py").write_text(
        textwrap.dedent(
            """
            import asyncio
            from deepeval.metrics.base_metric import BaseMetric
            class Slow(BaseMetric):
                def __init__(self, threshold=0.5):
                    self.threshold = threshold
                def measure(self, tc, *a, **k):
                    raise NotImplementedError
                async def a_measure(self, tc, *a, **k):
                    if tc.input.startswith("slow"):
                        await asyncio.sleep(120)
                    self.score, self.reason, self.success = 1.0, "ok", True
                    return 1.0
            """
        )
    )
    cases = [{"input": f"fast{i}", "actual_output": "a"} for i in range(3)]
    cases += [{"input": f"slow{i}", "actual_output": "a"} for i in range(3)]
    (tmp_path / "cases.jsonl").write_text("".join(json.dumps(c) + "\n" for c in cases))
    args = [
        sys.executable,
        "-c",
        "import sys; from deepeval.cli.main import app; sys.argv[0] = 'deepeval'; app()",
    ]
    args += ["evaluate", "cases.jsonl", "-m", "slow_metric:Slow", "--no-progress", "--csv", "rows.csv"]
    env = {"DEEPEVAL_CACHE_PATH": str(tmp_path / "cache.sqlite"), "PYTHONPATH": os.pathsep.join(sys.path)}
    code, out, err = _interrupt(tmp_path, [*args, "--max-concurrent", "2"], signal.SIGTERM, env)
    assert code == 143, (out, err)
    with open(tmp_path / "rows.csv", encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [(r["test_case"], r["score"], r["error"]) for r in rows] == [
        (f"test_case_{i}", "1.0", "") for i in range(3)
    ] + [(f"test_case_{i}", "", INTERRUPTED_ROW) for i in range(3, 6)]
    assert "rows: 6 (the run was interrupted: 3 of 6 rows finished)" in out


_ITERATOR_SCRIPT = textwrap.dedent(
    """
    import asyncio, sys
    from deepeval.dataset import EvaluationDataset, Golden
    from deepeval.evaluate import AsyncConfig, CacheConfig, DisplayConfig
    from deepeval.metrics.base_metric import BaseMetric
    from deepeval.tracing import observe

    class Slow(BaseMetric):
        threshold = 0.5
        def measure(self, tc, *a, **k):
            raise NotImplementedError
        async def a_measure(self, tc, *a, **k):
            if "slow" in tc.input:
                await asyncio.sleep(120)
            self.score, self.reason, self.success = 1.0, "ok", True
            return 1.0

    @observe(metrics=[Slow()])
    def app(text):
        return "a"

    goldens = [Golden(input=f"fast{i}") for i in range(3)] + [Golden(input=f"slow{i}") for i in range(3)]
    dataset = EvaluationDataset(goldens=goldens)

    def drive():
        for golden in dataset.evals_iterator(
            async_config=AsyncConfig(max_concurrent=2),
            display_config=DisplayConfig(show_indicator=False, print_results=False, results_folder=sys.argv[2]),
            cache_config=CacheConfig(write_cache=True, cache_path=sys.argv[1]),
        ):
            app(golden.input)

    async def in_a_loop():  # the same loop, in code running inside asyncio.run (Jupyter, an async app)
        drive()

    try:
        asyncio.run(in_a_loop()) if sys.argv[3] == "loop" else drive()
    except KeyboardInterrupt:
        print("INTERRUPTED", flush=True)
        raise
    except SystemExit as exc:
        print(f"EXIT {exc.code} as {type(exc).__name__}", flush=True)
        raise
    print("FINISHED", flush=True)
    """
)


@pytest.mark.regression
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("form", ["sync", "loop"], ids=["sync-code", "running-loop"])
def test_interrupted_evals_iterator_writes_the_rows_it_finished(tmp_path: Path, sig: int, form: str) -> None:
    """Ctrl-C or SIGTERM in evals_iterator's measuring phase keeps the finished span rows, as evaluate() does
    (it wrote and printed nothing: issue 42, item 1). Inside asyncio.run the SIGTERM reached the user's code as
    our private ``_Terminated`` (outside attack 7, L3): it is Python's own ``SystemExit(143)``."""
    script = tmp_path / "iterate_me.py"
    script.write_text(_ITERATOR_SCRIPT)
    runs = tmp_path / "runs"
    code, out, err = _interrupt(
        tmp_path, [sys.executable, str(script), str(tmp_path / "cache.sqlite"), str(runs), form], sig
    )
    assert "FINISHED" not in out and code != 0, (code, out, err)
    if sig == signal.SIGINT:
        assert "INTERRUPTED" in out, (code, out, err)
    else:
        assert "EXIT 143 as SystemExit" in out and code == 143, (code, out, err)
    assert "_Terminated" not in out + err
    [export] = sorted(runs.glob("*-*.json"))
    doc = json.loads(export.read_text(encoding="utf-8"))
    name = signal.Signals(sig).name
    assert doc["extras"]["interrupted"] == f"{name}: 3 of 6 rows finished"
    assert doc["extras"]["component_level"] is True
    rows = [(m["score"], m["error"]) for t in doc["test_results"] for m in t["metrics_data"]]
    assert sorted(rows, key=repr) == [(1.0, None)] * 3 + [(None, INTERRUPTED_ROW)] * 3
    assert f"deepeval: run stopped by {name}: 3 of 6 rows finished; written to {export}" in err


_APP_PHASE_SCRIPT = textwrap.dedent(
    """
    import asyncio, sys, threading
    from pathlib import Path
    from deepeval.dataset import EvaluationDataset, Golden
    from deepeval.evaluate import AsyncConfig, CacheConfig, DisplayConfig, ErrorConfig
    from deepeval.metrics.base_metric import BaseMetric
    from deepeval.test_case import LLMTestCase
    from deepeval.tracing import observe, update_current_span

    RESULTS, FORM, RAISE = sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else ""
    SLOW_MEASURE = sys.argv[4] if len(sys.argv) > 4 else ""
    MEASURED = Path("measured.txt")

    class Echo(BaseMetric):
        threshold = 0.5
        def measure(self, tc, *a, **k):
            if tc.input == SLOW_MEASURE:  # a long judge call
                Path("measuring").write_text(tc.input)
                threading.Event().wait(120)
            with MEASURED.open("a") as f:
                f.write(tc.input + "\\n")
            self.score, self.reason, self.success = 1.0, "ok", True
            return 1.0
        async def a_measure(self, tc, *a, **k):
            return self.measure(tc)

    @observe(type="llm", metrics=[Echo()])
    def app(q):
        if q == RAISE:
            raise ValueError(f"app failed on {q}")
        if q.startswith("slow"):
            Path("in_flight").write_text(q)
            threading.Event().wait(120)  # the app's own long LLM call
        update_current_span(test_case=LLMTestCase(input=q, actual_output="ans " + q))
        return "ans " + q

    @observe(type="llm", metrics=[Echo()])
    async def a_app(q):
        if q.startswith("slow"):
            Path("in_flight").write_text(q)
            await asyncio.sleep(120)
        update_current_span(test_case=LLMTestCase(input=q, actual_output="ans " + q))
        return "ans " + q

    goldens = [Golden(input=f"fast{i}") for i in range(3)] + [Golden(input=f"slow{i}") for i in range(3)]
    dataset = EvaluationDataset(goldens=goldens)

    def iterate():  # (held by the for loop alone: Python closes it as the loop is left)
        return dataset.evals_iterator(
            async_config=AsyncConfig(run_async=FORM in ("async", "await"), max_concurrent=1),
            display_config=DisplayConfig(show_indicator=False, print_results=False, results_folder=RESULTS),
            cache_config=CacheConfig(write_cache=False),
            error_config=ErrorConfig(ignore_errors=True),
        )

    def drive():
        for golden in iterate():
            if FORM == "async":
                dataset.evaluate(asyncio.create_task(a_app(golden.input)))
            else:
                app(golden.input)

    async def drive_awaiting():  # the async form with the app awaited in the loop body (not the task pattern)
        for golden in iterate():
            await a_app(golden.input)

    async def main():  # the sync form driven from code that runs inside asyncio.run (Jupyter, an async app)
        drive()

    try:
        if FORM in ("loop", "await"):
            asyncio.run(main() if FORM == "loop" else drive_awaiting())
        else:
            drive()
    except KeyboardInterrupt:
        print("INTERRUPTED", flush=True)
        raise
    except SystemExit as exc:
        print(f"EXIT {exc.code} as {type(exc).__name__}", flush=True)
        raise
    except ValueError as exc:
        print(f"RAISED {exc}", flush=True)
        sys.exit(3)
    print("FINISHED", flush=True)
    """
)


def _component_rows(doc: dict) -> list[tuple[str, str | None, list[tuple[float | None, str | None]]]]:
    """(name, span type, [(score, error)]) of each result of a component-level report."""
    return [
        (t["name"], t["span_type"], [(m["score"], m["error"]) for m in t["metrics_data"]])
        for t in doc["test_results"]
    ]


@pytest.mark.regression
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
# loop: the sync form inside asyncio.run (attack 6, A); await: the async form with the app awaited in the loop body
# under asyncio.run, which said the stop without naming the signal and wrote nothing (attack 7, L2)
@pytest.mark.parametrize("form", ["sync", "async", "loop", "await"])
def test_a_signal_in_evals_iterator_app_phase_writes_every_golden_and_says_so(
    tmp_path: Path, sig: int, form: str
) -> None:
    """Ctrl-C or SIGTERM while the app runs on the goldens (before anything is measured) lost every finished
    golden silently (SIGTERM: the process died with nothing said; outside attack 5, MEDIUM 2). Nothing is measured
    after the signal; the report holds every golden: the app's outputs of the finished ones, their rows
    ``interrupted``, the golden the signal stopped and the ones never reached said so too."""
    script = tmp_path / "app_phase.py"
    script.write_text(_APP_PHASE_SCRIPT)
    runs = tmp_path / "runs"
    code, out, err = _interrupt(
        tmp_path, [sys.executable, str(script), str(runs), form], sig, ready=tmp_path / "in_flight"
    )
    if sig == signal.SIGINT:
        assert "INTERRUPTED" in out and code != 0, (code, out, err)
    else:
        assert "EXIT 143 as SystemExit" in out and code == 143, (code, out, err)
    assert not (tmp_path / "measured.txt").exists()
    [export] = [p for p in runs.glob("*-*.json") if not p.name.startswith("test_run")]
    doc = json.loads(export.read_text(encoding="utf-8"))
    name = signal.Signals(sig).name
    said = "the app finished on 3 of 6 goldens, none measured"
    assert doc["extras"]["interrupted"] == f"{name}: {said}"
    assert f"deepeval: run stopped by {name}: {said}; written to {export} (deepeval view)" in err, err
    before = "interrupted: the run was stopped in the app phase, before this row was measured"
    app_name = "a_app" if form in ("async", "await") else "app"
    rows = _component_rows(doc)
    assert [r for r in rows if r[1] is None] == [(f"test_case_{i}", None, []) for i in range(6)]
    assert [r for r in rows if r[1] == "llm"] == [(app_name, "llm", [(None, before)])] * 3 + [
        (app_name, "llm", [(None, "interrupted: the run was stopped while the app ran on this golden")])
    ]
    assert "never awaited" not in err  # the async form's app tasks that never started are closed
    assert [t["actual_output"] for t in doc["test_results"] if t["span_type"] is None][:3] == [
        f"ans fast{i}" for i in range(3)
    ]


@pytest.mark.regression
def test_an_app_exception_in_evals_iterator_still_measures_the_goldens_before_it(tmp_path: Path) -> None:
    """The app raising on golden k cost goldens 0..k-1 their rows: nothing was measured or written (outside attack
    5, MEDIUM 2; deepeval 4.3.1 measures each golden in the loop). They are measured and published, the failing
    golden's row says the app raised, the goldens never reached say so, and the app's exception goes on."""
    script = tmp_path / "app_phase.py"
    script.write_text(_APP_PHASE_SCRIPT)
    runs = tmp_path / "runs"
    proc = subprocess.run(
        [sys.executable, str(script), str(runs), "sync", "fast2"], capture_output=True, text=True, timeout=60,
        cwd=tmp_path, env={**os.environ, "DEEPEVAL_DISABLE_DOTENV": "1"},
    )  # fmt: skip
    assert proc.returncode == 3 and "RAISED app failed on fast2" in proc.stdout, proc.stdout + proc.stderr
    assert (tmp_path / "measured.txt").read_text().split() == ["fast0", "fast1"]
    [export] = [p for p in runs.glob("*-*.json") if not p.name.startswith("test_run")]
    doc = json.loads(export.read_text(encoding="utf-8"))
    said = "the loop was left at golden 3 of 6 (an exception or break in its body)"
    assert doc["extras"]["interrupted"] == said
    assert (
        f"deepeval: evals_iterator stopped: {said}; measured the goldens the app ran on; written to {export}"
        in (proc.stderr)
    )
    spans = [
        (t["input"], t["metrics_data"][0]["score"], t["success"])
        for t in doc["test_results"]
        if t["span_type"]
    ]
    assert spans == [("fast0", 1.0, True), ("fast1", 1.0, True), ("{'q': 'fast2'}", None, False)]
    statuses = [t["trace_status"] for t in doc["test_results"] if t["span_type"] is None]
    assert statuses == ["passed", "passed", "failed", "skipped", "skipped", "skipped"]


@pytest.mark.regression
def test_sigterm_while_measuring_after_an_app_exception_writes_and_exits_143(tmp_path: Path) -> None:
    """The goldens before an app exception are measured when Python closes the iterator; SIGTERM during that
    measuring writes what was finished and ends the process (143): raised in the generator's close(), the
    SystemExit was only reported as "Exception ignored" and the program went on."""
    script = tmp_path / "app_phase.py"
    script.write_text(_APP_PHASE_SCRIPT)
    runs = tmp_path / "runs"
    code, out, err = _interrupt(
        tmp_path,
        [sys.executable, str(script), str(runs), "sync", "fast2", "fast1"],
        signal.SIGTERM,
        ready=tmp_path / "measuring",
    )
    # ended by SIGTERM's default action once the report is written (a shell shows 143)
    assert code == -signal.SIGTERM and "RAISED" not in out, (code, out, err)
    [export] = [p for p in runs.glob("*-*.json") if not p.name.startswith("test_run")]
    doc = json.loads(export.read_text(encoding="utf-8"))
    assert doc["extras"]["interrupted"] == "SIGTERM: 1 of 2 rows finished"
    spans = [(t["input"], t["metrics_data"][0]["score"]) for t in doc["test_results"] if t["span_type"]]
    assert spans[:2] == [("fast0", 1.0), ("fast1", None)]
    assert f"deepeval: run stopped by SIGTERM: 1 of 2 rows finished; written to {export}" in err


_SAVE_SCRIPT = textwrap.dedent(
    """
    import os, signal, sys
    from types import SimpleNamespace
    from deepeval.evaluate.api import keep_interrupted
    from deepeval.evaluate.configs import DisplayConfig
    from deepeval.evaluate.results import EvaluationResult

    def build(note):
        os.kill(os.getpid(), signal.SIGINT)  # the second Ctrl-C lands while the rows are being written
        os.kill(os.getpid(), signal.SIGTERM)
        return EvaluationResult(test_results=[], extras={"interrupted": note})

    keep_interrupted(build, SimpleNamespace(finished=3, total=6), DisplayConfig(show_indicator=False,
                     print_results=False, results_folder=sys.argv[1]))
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # put back afterwards
    print("SAVED", flush=True)
    """
)


@pytest.mark.regression
def test_a_second_signal_while_the_finished_rows_are_written_loses_nothing(tmp_path: Path) -> None:
    """h-break: a second Ctrl-C 10 ms after the first landed inside the save and lost every finished row; SIGINT and
    SIGTERM are held off while keep_interrupted writes."""
    script = tmp_path / "save.py"
    script.write_text(_SAVE_SCRIPT)
    proc = subprocess.run(
        [sys.executable, str(script), str(tmp_path / "runs")], capture_output=True, text=True, timeout=60,
        env={**os.environ, "DEEPEVAL_DISABLE_DOTENV": "1"}, cwd=tmp_path,
    )  # fmt: skip
    assert proc.returncode == 0 and "SAVED" in proc.stdout, proc.stderr[-2000:]
    assert len(list((tmp_path / "runs").glob("*.json"))) >= 1


_MIXED_SCRIPT = textwrap.dedent(
    """
    import asyncio, os, signal, sys, threading
    from deepeval import evaluate
    from deepeval.evaluate import AsyncConfig, DisplayConfig, ErrorConfig
    from deepeval.metrics.base_metric import BaseMetric
    from deepeval.test_case import LLMTestCase

    MODE, FIRST, SECOND = sys.argv[1], getattr(signal, sys.argv[2]), getattr(signal, sys.argv[3])
    IN_THE_TASK = sys.argv[4] == "task"  # the second signal's exception raised in the metric's own frame

    class Signals(BaseMetric):
        threshold = 0.5
        def measure(self, tc, *a, **k):
            raise NotImplementedError
        async def a_measure(self, tc, *a, **k):
            os.kill(os.getpid(), FIRST)
            try:
                await asyncio.sleep(30)
            except asyncio.CancelledError:  # the second signal lands while the cancelled run unwinds: this
                if IN_THE_TASK:  # measure ignores being cancelled
                    os.kill(os.getpid(), SECOND)
                else:  # while the loop waits
                    threading.Timer(0.05, os.kill, (os.getpid(), SECOND)).start()
                for _ in range(10):  # again for 0.5 s, which the run gives it (SHUTDOWN_GRACE_S)
                    try:
                        await asyncio.sleep(0.05)
                    except asyncio.CancelledError:
                        pass
                raise

    KW = dict(async_config=AsyncConfig(max_concurrent=1), error_config=ErrorConfig(ignore_errors=True),
              display_config=DisplayConfig(show_indicator=False, print_results=False))
    CASES = [LLMTestCase(input="q", actual_output="a")]

    async def main():
        return evaluate(CASES, [Signals()], **KW)  # from a running loop: the run is on a worker thread

    try:
        asyncio.run(main()) if MODE == "loop" else evaluate(CASES, [Signals()], **KW)
    except BaseException as exc:
        print(f"ENDED {type(exc).__name__} {getattr(exc, 'code', '')}".strip(), flush=True)
        raise
    """
)


@pytest.mark.regression
@pytest.mark.parametrize(("first", "second"), [("SIGTERM", "SIGINT"), ("SIGINT", "SIGTERM")])
@pytest.mark.parametrize("mode", ["sync", "loop"], ids=["sync-code", "running-loop"])
@pytest.mark.parametrize("where", ["wait", "task"], ids=["while-waiting", "in-a-task"])
def test_the_first_signal_names_the_stop_and_its_exit_status(
    tmp_path: Path, mode: str, first: str, second: str, where: str
) -> None:
    """A second signal of the other kind while the cancelled run unwinds is a second of the first: SIGTERM then
    Ctrl-C ends in SystemExit(143), Ctrl-C then SIGTERM in KeyboardInterrupt, and the stop line names the first (the
    second one's exception replaced the first's: exit 130 under 'stopped by SIGTERM', or our private _Terminated;
    outside attack 7, L1). Raised inside a task of the run's own loop, it was lost to 'RuntimeError: Event loop
    stopped before Future completed' while the loop closed."""
    script = tmp_path / "mixed.py"
    script.write_text(_MIXED_SCRIPT)
    proc = subprocess.run(
        [sys.executable, str(script), mode, first, second, where], capture_output=True, text=True, timeout=60,
        cwd=tmp_path, env={**os.environ, "DEEPEVAL_DISABLE_DOTENV": "1", "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip
    ended = "ENDED SystemExit 143" if first == "SIGTERM" else "ENDED KeyboardInterrupt"
    assert ended in proc.stdout, (proc.returncode, proc.stdout, proc.stderr)
    # an uncaught KeyboardInterrupt ends Python by SIGINT (a shell shows 130)
    assert proc.returncode == (143 if first == "SIGTERM" else -signal.SIGINT), proc.returncode
    assert f"deepeval: run stopped by {first}: 0 of 1 rows finished" in proc.stderr, proc.stderr
    assert "_Terminated" not in proc.stdout + proc.stderr


# the interrupt script, its HTML report slowed down as a report of thousands of rows is (the JSON is written first)
_SLOW_REPORT = textwrap.dedent(
    """
    import importlib, runpy, sys, time
    report = importlib.import_module("deepeval.evaluate.report")
    WRITE_S = float(sys.argv.pop(1))
    _iter_html = report.iter_html

    def slow_html(result):
        for i, chunk in enumerate(_iter_html(result)):
            if i == 1:
                print("WRITING-HTML", flush=True)
                time.sleep(WRITE_S)
            yield chunk

    report.iter_html = slow_html
    runpy.run_path(sys.argv[0].replace("slow_report.py", "interrupt_me.py"), run_name="__main__")
    """
)


def _start_slow_report(tmp_path: Path, write_s: float) -> tuple[subprocess.Popen[str], Path]:
    """The running-loop interrupt script with an HTML report that takes ``write_s`` seconds to write; started, its
    three fast rows cached, then sent one SIGINT."""
    (tmp_path / "interrupt_me.py").write_text(_SCRIPT)
    script = tmp_path / "slow_report.py"
    script.write_text(_SLOW_REPORT)
    cache, runs = tmp_path / "cache.sqlite", tmp_path / "runs"
    env = {**os.environ, "DEEPEVAL_DISABLE_DOTENV": "1", "PYTHONUNBUFFERED": "1"}
    args = [sys.executable, str(script), str(write_s), "loop", "async", str(cache), str(runs)]
    proc = subprocess.Popen(
        args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path, env=env
    )
    deadline = time.monotonic() + 60
    while _cached_rows(cache) < 3 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    assert _cached_rows(cache) == 3, "the three fast rows were never cached"
    time.sleep(0.2)
    proc.send_signal(signal.SIGINT)
    return proc, runs


@pytest.mark.regression
def test_one_ctrl_c_in_a_running_loop_finishes_writing_every_report(tmp_path: Path) -> None:
    """h-break 2: inside a running event loop a single Ctrl-C gave the worker SHUTDOWN_GRACE_S (1 s) and exited;
    a report that took longer (the HTML of 6,000 rows) was left as a .tmp file. The waiting thread now waits for
    the interrupted run's reports to be written."""
    from deepeval._concurrency import SHUTDOWN_GRACE_S

    proc, runs = _start_slow_report(tmp_path, SHUTDOWN_GRACE_S + 1.5)
    try:
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert "WRITING-HTML" in out and "INTERRUPTED" in out and proc.returncode != 0, (out, err)
    assert sorted(p.suffix for p in runs.iterdir()) == [".html", ".json", ".json"], list(runs.iterdir())
    [html] = runs.glob("*.html")
    assert html.read_text(encoding="utf-8").rstrip().endswith("</html>")
    assert "3 of 6 rows finished; written to" in err
    assert "deepeval: writing the interrupted run's reports (Ctrl-C again to stop" in err


@pytest.mark.regression
def test_a_second_ctrl_c_while_a_report_is_written_removes_its_tmp_file_and_names_it(tmp_path: Path) -> None:
    """A second Ctrl-C while the interrupted run's HTML report is still being written stops waiting for it: the
    process ends with no .tmp file left behind, and stderr names the report that was not written."""
    proc, runs = _start_slow_report(tmp_path, 60.0)
    try:
        deadline = time.monotonic() + 30
        while not list(runs.glob(".*.tmp")) and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        assert list(runs.glob(".*.html.*.tmp")), "the HTML report was never being written"
        time.sleep(0.2)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode != 0 and "KeyboardInterrupt" in err, (out, err)
    assert not list(runs.glob(".*.tmp")), list(runs.iterdir())
    assert not list(runs.glob("*.html"))
    [json_export] = [p for p in runs.glob("*-*.json") if not p.name.startswith("test_run")]
    html = json_export.with_suffix(".html")
    assert f"deepeval: {html} was not written (stopped while it was being written)" in err
    # every report not saved is named, not only the one being written (outside attack M2)
    assert "deepeval: the interrupted run's reports (3 of 6 rows finished) were not all written" in err, err
    assert f"stopped while saving test_run_*.json, run-*.json and run-*.html in {runs}; written: " in err, err
    assert str(json_export) in err.split("; written: ")[-1], err


@pytest.mark.regression
@pytest.mark.parametrize("mode", ["async", "swallow"])
def test_a_second_ctrl_c_right_after_the_first_still_writes_the_finished_rows(
    tmp_path: Path, mode: str
) -> None:
    """Outside attack M1: inside a running loop a second Ctrl-C 0.15 s after the first (while the cancelled run
    unwound, before any report was begun) ended the process with no report and no line naming one. The second
    Ctrl-C in that short unwind is now held (one stderr line says so) and the finished rows are written."""
    script = tmp_path / "interrupt_me.py"
    script.write_text(_SCRIPT)
    cache, runs = tmp_path / "cache.sqlite", tmp_path / "runs"
    env = {**os.environ, "DEEPEVAL_DISABLE_DOTENV": "1", "PYTHONUNBUFFERED": "1"}
    args = [sys.executable, str(script), "loop", mode, str(cache), str(runs)]
    proc = subprocess.Popen(
        args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path, env=env
    )
    try:
        deadline = time.monotonic() + 60
        while _cached_rows(cache) < 3 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        assert _cached_rows(cache) == 3, "the three fast rows were never cached"
        proc.send_signal(signal.SIGINT)
        time.sleep(0.15)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode != 0 and "INTERRUPTED" in out, (out, err)
    assert "3 of 6 rows finished; written to" in err, err
    [export] = [p for p in runs.glob("*-*.json") if not p.name.startswith("test_run")]
    rows = _rows_of(json.loads(export.read_text(encoding="utf-8")))
    assert sum(1 for _, score, _ in rows if score == 1.0) == 3, rows


@pytest.mark.regression
def test_a_cancelled_a_evaluate_task_says_it_was_cancelled_in_a_whole_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An asyncio task of the application cancelled (no signal): the finished rows are written and the stop is said
    as a sentence ("run stopped by cancelled: ..." before; outside attack 5, MEDIUM 5)."""
    import asyncio

    from deepeval.evaluate import AsyncConfig, CacheConfig, DisplayConfig, ErrorConfig, a_evaluate
    from deepeval.metrics.base_metric import BaseMetric
    from deepeval.test_case import LLMTestCase

    class Blocks(BaseMetric):
        threshold = 0.5

        async def a_measure(self, tc: LLMTestCase, *a: object, **k: object) -> float:
            if tc.input.startswith("slow"):
                await asyncio.sleep(120)
            self.score, self.reason, self.success = 1.0, "ok", True
            done.append(tc.input)
            return 1.0

        def measure(self, tc: LLMTestCase, *a: object, **k: object) -> float:
            raise NotImplementedError

    done: list[str] = []
    cases = [LLMTestCase(input=f"fast{i}", actual_output="a") for i in range(3)]
    cases += [LLMTestCase(input=f"slow{i}", actual_output="a") for i in range(2)]
    runs = tmp_path / "runs"

    async def main() -> None:
        task = asyncio.create_task(
            a_evaluate(
                cases,
                [Blocks()],
                async_config=AsyncConfig(max_concurrent=2),
                display_config=DisplayConfig(
                    show_indicator=False, print_results=False, results_folder=str(runs)
                ),
                cache_config=CacheConfig(write_cache=False),
                error_config=ErrorConfig(ignore_errors=True),
            )
        )
        while len(done) < 3:
            await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())
    [export] = [p for p in runs.glob("*-*.json") if not p.name.startswith("test_run")]
    doc = json.loads(export.read_text(encoding="utf-8"))
    assert doc["extras"]["interrupted"] == "task cancelled: 3 of 5 rows finished"
    err = capsys.readouterr().err
    assert (
        "deepeval: run cancelled (its asyncio task was cancelled): 3 of 5 rows finished; written to" in err
    ), err


@pytest.mark.parametrize(
    ("config", "said"),
    [
        ({"file_output_dir": "out", "file_type": "md"}, "the report is in out"),
        ({"results_folder": "runs"}, "the report could not be written (see the error above)"),
        ({}, "no results folder, so no report was written"),
    ],
)
def test_an_interrupted_runs_stop_line_says_where_its_report_went(
    config: dict,
    said: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    """The stop line said "no results folder, so no report was written" when deepeval's own report option
    (file_output_dir) had written it, and when the results folder's export had failed (outside attack 5, L5)."""
    from deepeval.evaluate import DisplayConfig, api
    from deepeval.evaluate.results import EvaluationResult

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DEEPEVAL_RESULTS_FOLDER", raising=False)
    monkeypatch.setattr(api, "_export", lambda *a: None)  # as if the export wrote nothing (or failed)
    monkeypatch.setattr(api, "_keep", lambda *a: None)
    api._write_interrupted(
        EvaluationResult(test_results=[]),
        DisplayConfig(**config),
        "run stopped by SIGINT",
        "0 of 2 rows finished",
    )
    assert capsys.readouterr().err.strip() == f"deepeval: run stopped by SIGINT: 0 of 2 rows finished; {said}"
