from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

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
