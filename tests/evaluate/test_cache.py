from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from deepeval import evaluate
from deepeval.errors import ConfigurationError
from deepeval.evaluate import CacheConfig, DisplayConfig, ErrorConfig
from deepeval.evaluate.cache import ResultCache, cache_key
from deepeval.evaluate.results import MetricData
from deepeval.test_case import LLMTestCase

from ._fakes import ScoreMetric

QUIET = DisplayConfig(show_indicator=False, print_results=False)


def cases(n: int) -> list[LLMTestCase]:
    return [LLMTestCase(input=f"q{i}", actual_output=f"a{i}") for i in range(n)]


def test_identical_request_hits_and_serves_the_same_row(tmp_path):
    path = str(tmp_path / "c.sqlite")
    m = ScoreMetric(lambda tc, n: 0.25 + n, name="M", cost=0.01)  # a second real measure would score 1.25
    first = evaluate(cases(3), [m], display_config=QUIET, cache_config=CacheConfig(cache_path=path))
    assert len(m.log.calls) == 3 and first.cache_hits == 0
    second = evaluate(
        cases(3), [m], display_config=QUIET, cache_config=CacheConfig(use_cache=True, cache_path=path)
    )
    assert len(m.log.calls) == 3 and second.cache_hits == 3
    rows = [t.metrics_data[0] for t in second.test_results]
    assert [r.score for r in rows] == [0.25] * 3 and all(r.cached for r in rows)
    assert rows[0].reason == "M scored 0.25" and rows[0].evaluation_cost == 0.01
    # without use_cache the cache is not read
    evaluate(cases(3), [m], display_config=QUIET, cache_config=CacheConfig(cache_path=path))
    assert len(m.log.calls) == 6


@pytest.mark.parametrize(
    "change",
    [{"eval_mode": "hybrid"}, {"prompt_version": "v2"}, {"judge": "gpt-other"}, {"threshold": 0.9}],
)
def test_config_change_misses(tmp_path, change):
    path = str(tmp_path / "c.sqlite")
    base = {"eval_mode": "llm", "prompt_version": "v1", "judge": "gpt-a", "threshold": 0.5}
    evaluate(
        cases(2), [ScoreMetric(0.5, **base)], display_config=QUIET, cache_config=CacheConfig(cache_path=path)
    )
    same = ScoreMetric(0.5, **base)
    evaluate(
        cases(2), [same], display_config=QUIET, cache_config=CacheConfig(use_cache=True, cache_path=path)
    )
    assert len(same.log.calls) == 0
    changed = ScoreMetric(0.5, **{**base, **change})
    result = evaluate(
        cases(2), [changed], display_config=QUIET, cache_config=CacheConfig(use_cache=True, cache_path=path)
    )
    assert len(changed.log.calls) == 2 and result.cache_hits == 0


def test_key_depends_on_test_case_and_repetition():
    m = ScoreMetric(0.5)
    a, b = cases(2)
    assert cache_key(m, a) == cache_key(ScoreMetric(0.5), LLMTestCase(input="q0", actual_output="a0"))
    assert len({cache_key(m, a), cache_key(m, b), cache_key(m, a, 1)}) == 3


def test_errors_are_not_cached_and_secrets_never_stored(tmp_path, monkeypatch):
    secret = "sk-live-VERYSECRET-987654"
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    path = tmp_path / "c.sqlite"

    class Leaky(ScoreMetric):
        def _finish(self, tc, score):
            super()._finish(tc, score)
            self.reason = f"used key {secret}"
            return score

    m = Leaky(0.5, fail_on=lambda tc: "boom" if tc.input == "q1" else None)
    evaluate(
        cases(2),
        [m],
        display_config=QUIET,
        cache_config=CacheConfig(cache_path=str(path)),
        error_config=ErrorConfig(ignore_errors=True),
    )
    with sqlite3.connect(path) as conn:
        values = [r[0] for r in conn.execute("SELECT value FROM metric_rows")]
    assert len(values) == 1 and "used key ***" in values[0]
    for f in tmp_path.iterdir():
        assert secret.encode() not in f.read_bytes()


def test_default_path_and_setting(tmp_path, monkeypatch):
    evaluate(cases(1), [ScoreMetric(0.5)], display_config=QUIET)
    assert (tmp_path / ".deepeval" / "cache.sqlite").is_file()
    monkeypatch.setenv("DEEPEVAL_CACHE_PATH", str(tmp_path / "elsewhere" / "x.sqlite"))
    evaluate(cases(1), [ScoreMetric(0.5)], display_config=QUIET)
    assert ResultCache(tmp_path / "elsewhere" / "x.sqlite").count() == 1


def test_no_cache_file_when_caching_is_off(tmp_path):
    evaluate(cases(1), [ScoreMetric(0.5)], display_config=QUIET, cache_config=CacheConfig(write_cache=False))
    assert not (tmp_path / ".deepeval").exists()


def test_corrupt_cache_file_is_a_clear_error(tmp_path):
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(ConfigurationError, match="cannot use the result cache"):
        evaluate(
            cases(1), [ScoreMetric(0.5)], display_config=QUIET, cache_config=CacheConfig(cache_path=str(bad))
        )


def test_unknown_row_fields_are_ignored(tmp_path):
    c = ResultCache(tmp_path / "c.sqlite")
    c.put("k", MetricData(name="x", score=0.5, success=True))
    c._conn.execute("UPDATE metric_rows SET value = json_set(value, '$.future_field', 1)")
    row = c.get("k")
    assert row is not None and row.score == 0.5 and row.cached is True
    c.close()


RESUME_METRIC = textwrap.dedent(
    """
    import asyncio
    from deepeval.metrics.base_metric import BaseMetric

    CALLS = []

    class SlowMetric(BaseMetric):
        threshold = 0.5

        async def a_measure(self, tc, *a, **k):
            CALLS.append(tc.input)
            await asyncio.sleep(0.1)
            self.score = int(tc.input[1:]) / 100
            self.reason = "slow"
            self.success = self.score >= self.threshold
            return self.score

        def measure(self, tc, *a, **k):
            raise NotImplementedError
    """
)

RESUME_SCRIPT = textwrap.dedent(
    """
    import sys
    sys.path.insert(0, sys.argv[2])
    from resume_metric import SlowMetric
    from deepeval import evaluate
    from deepeval.evaluate import AsyncConfig, CacheConfig, DisplayConfig
    from deepeval.test_case import LLMTestCase

    cases = [LLMTestCase(input=f"q{i}", actual_output="a") for i in range(60)]
    evaluate(cases, [SlowMetric()], async_config=AsyncConfig(max_concurrent=2),
             display_config=DisplayConfig(show_indicator=False, print_results=False),
             cache_config=CacheConfig(cache_path=sys.argv[1]))
    """
)


def test_killed_run_resumes_with_only_unfinished_work(tmp_path):
    (tmp_path / "resume_metric.py").write_text(RESUME_METRIC)
    (tmp_path / "run.py").write_text(RESUME_SCRIPT)
    db = tmp_path / "resume.sqlite"
    proc = subprocess.Popen(
        [sys.executable, str(tmp_path / "run.py"), str(db), str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 30
        done = 0
        while time.monotonic() < deadline and proc.poll() is None:
            if db.exists():
                try:
                    with sqlite3.connect(db, timeout=1) as conn:
                        done = conn.execute("SELECT COUNT(*) FROM metric_rows").fetchone()[0]
                except sqlite3.OperationalError:
                    done = 0
            if done >= 10:
                break
            time.sleep(0.02)
        assert proc.poll() is None, (
            f"the run finished or crashed before it could be killed: {proc.stderr.read()!r}"
        )
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=10)
    with sqlite3.connect(db) as conn:
        finished = conn.execute("SELECT COUNT(*) FROM metric_rows").fetchone()[0]
    assert 10 <= finished < 60

    sys.path.insert(0, str(tmp_path))
    try:
        import resume_metric  # type: ignore[import-not-found]

        result = evaluate(
            [LLMTestCase(input=f"q{i}", actual_output="a") for i in range(60)],
            [resume_metric.SlowMetric()],
            display_config=QUIET,
            cache_config=CacheConfig(use_cache=True, cache_path=str(db)),
        )
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("resume_metric", None)
    assert len(resume_metric.CALLS) == 60 - finished  # only unfinished work redone
    assert result.cache_hits == finished
    assert [t.metrics_data[0].score for t in result.test_results] == [i / 100 for i in range(60)]
    assert ResultCache(Path(db)).count() == 60


def _store_then_spoil(tmp_path: Path, value: str) -> tuple[str, list[LLMTestCase]]:
    db = str(tmp_path / "spoiled.sqlite")
    tcs = cases(2)
    evaluate(tcs, [ScoreMetric(0.5)], display_config=QUIET, cache_config=CacheConfig(cache_path=db))
    with sqlite3.connect(db) as conn:
        assert conn.execute("UPDATE metric_rows SET value = ?", (value,)).rowcount == 2
    return db, tcs


@pytest.mark.parametrize(
    "value",
    [
        '{"name": "Score", "score": 7.5, "success": true, "threshold": 0.5}',
        '{"name": "Score", "score": "0.5", "success": true}',
        '{"name": "Score", "score": NaN, "success": true}',
        '{"name": "Score", "score": 0.9, "success": "yes"}',
        '{"name": "Score", "score": 0.9, "retries": -1}',
        '{"name": "Score", "score": 1' + "0" * 400 + ', "success": true}',  # an int no float can hold
        '{"name": "Score", "score": 0.9, "threshold": 1' + "0" * 400 + "}",
        '{"name": "Score", "score": 0.9, "error": "boom"}',
        "[0.5, true]",
        '"0.5"',
        "not json",
        '{"name": "Other metric", "score": 0.9, "success": true}',
    ],
)
def test_bad_cache_row_is_measured_again_replaced_and_reported_once(tmp_path: Path, value: str) -> None:
    db, tcs = _store_then_spoil(tmp_path, value)
    metric = ScoreMetric(0.5)
    config = CacheConfig(cache_path=db, use_cache=True)
    with pytest.warns(RuntimeWarning, match="is not a valid result") as caught:
        result = evaluate(tcs, [metric], display_config=QUIET, cache_config=config)
    assert len([w for w in caught if "valid result" in str(w.message)]) == 1  # two bad rows, one warning
    assert db in str(caught[0].message)
    rows = result.metric_rows()
    assert [(r.score, r.cached, r.error) for r in rows] == [(0.5, False, None), (0.5, False, None)]
    assert len(metric.log.calls) == 2 and result.cache_hits == 0
    again = evaluate(tcs, [ScoreMetric(0.5)], display_config=QUIET, cache_config=config)
    assert [(r.score, r.cached) for r in again.metric_rows()] == [(0.5, True), (0.5, True)]  # replaced


def test_score_outside_zero_one_is_not_cached(tmp_path: Path) -> None:
    db = str(tmp_path / "c.sqlite")
    first = evaluate(
        cases(1), [ScoreMetric(7.5)], display_config=QUIET, cache_config=CacheConfig(cache_path=db)
    )
    assert first.metric_rows()[0].score == 7.5  # the measured row itself is kept as the metric gave it
    assert ResultCache(db).count() == 0


def _other_database(path: Path) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT)")
        conn.execute("INSERT INTO users (email) VALUES ('a@example.com')")


def _other_columns(path: Path) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE metric_rows (id INTEGER PRIMARY KEY, payload BLOB)")


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (_other_database, "another SQLite database (tables: users)"),
        (_other_columns, "metric_rows table has other columns (id, payload)"),
        (lambda p: p.write_bytes(b"PK\x03\x04 a zip file, not sqlite" * 50), "not a database"),
    ],
)
def test_foreign_cache_file_fails_once_up_front_naming_the_path(
    tmp_path: Path, make: Any, words: str
) -> None:
    path = tmp_path / "shared.db"
    make(path)
    before = path.read_bytes()
    metric = ScoreMetric(0.5)
    for config in (CacheConfig(cache_path=str(path)), CacheConfig(cache_path=str(path), use_cache=True)):
        with pytest.raises(ConfigurationError) as info:
            evaluate(cases(3), [metric], display_config=QUIET, cache_config=config)
        assert (
            str(path) in str(info.value)
            and words in str(info.value)
            and "nothing was measured" in str(info.value)
        )
    assert metric.log.calls == []
    assert path.read_bytes() == before  # nothing was written into it


def test_cache_file_analysed_by_sqlite_is_still_ours(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    evaluate(cases(2), [ScoreMetric(0.5)], display_config=QUIET, cache_config=CacheConfig(cache_path=str(db)))
    with sqlite3.connect(db) as conn:
        conn.execute("ANALYZE")  # adds sqlite_stat1, SQLite's own table
    again = evaluate(
        cases(2),
        [ScoreMetric(0.5)],
        display_config=QUIET,
        cache_config=CacheConfig(cache_path=str(db), use_cache=True),
    )
    assert again.cache_hits == 2


def test_tilde_in_cache_path_and_setting_is_the_home_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    evaluate(
        cases(1), [ScoreMetric(0.5)], display_config=QUIET, cache_config=CacheConfig(cache_path="~/c.sqlite")
    )
    monkeypatch.setenv("DEEPEVAL_CACHE_PATH", "~/nested/d.sqlite")
    evaluate(cases(1), [ScoreMetric(0.5)], display_config=QUIET)
    assert (
        ResultCache(home / "c.sqlite").count() == 1 and ResultCache(home / "nested" / "d.sqlite").count() == 1
    )
    assert not (tmp_path / "~").exists()  # the test runs in tmp_path: no literal "~" folder


@pytest.mark.regression
@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda d: d.joinpath(".deepeval").write_text("a stray file"), ".deepeval is a file, not a folder"),
        (
            lambda d: (
                (d / ".deepeval").mkdir() or (d / ".deepeval" / "cache.sqlite").write_bytes(b"garbage" * 99)
            ),
            "file is not a database",
        ),
    ],
)
def test_unusable_default_cache_only_warns_when_the_run_only_writes_it(
    tmp_path: Path, make: Any, words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Deliberate (CacheConfig docs): the default cache file is a side benefit of writing; one that cannot be used
    is one stderr line and the run goes on uncached. Reading it (use_cache=True) or a path chosen by the user
    (cache_path, DEEPEVAL_CACHE_PATH) stays an error before anything is measured."""
    make(tmp_path)
    before = sorted((p.name, p.read_bytes() if p.is_file() else b"") for p in tmp_path.rglob("*"))
    result = evaluate(cases(2), [ScoreMetric(0.5)], display_config=QUIET)
    [message] = [line for line in capsys.readouterr().err.splitlines() if "result cache" in line]
    assert words in message and "this run is measured without it" in message
    assert [m.score for m in result.metric_rows()] == [0.5, 0.5] and "deepeval: " + result.extras[
        "cache_error"
    ] == message
    assert sorted((p.name, p.read_bytes() if p.is_file() else b"") for p in tmp_path.rglob("*")) == before
    with pytest.raises(ConfigurationError, match="cannot use the result cache"):
        evaluate(cases(1), [ScoreMetric(0.5)], display_config=QUIET, cache_config=CacheConfig(use_cache=True))


@pytest.mark.regression
def test_cli_evaluate_runs_beside_a_stray_deepeval_file(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from deepeval.cli.main import app

    (tmp_path / ".deepeval").write_text("a stray file")
    (tmp_path / "cases.jsonl").write_text('{"input": "What is 2+2?", "actual_output": "4"}\n')
    result = CliRunner().invoke(app, ["evaluate", "cases.jsonl", "-m", "answer_relevancy", "--no-progress"])
    assert result.exit_code in (0, 1), result.output  # measured: passed or failed, not a usage error
    assert "result cache" in result.output and ".deepeval is a file, not a folder" in result.output
    assert (tmp_path / ".deepeval").read_text() == "a stray file"
