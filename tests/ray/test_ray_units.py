"""Ray backend pieces without a cluster: config validation, the GCRA limiter, the judge hook, payload pickling,
cache part merging, block planning, and the error without Ray."""

from __future__ import annotations

import asyncio
import contextvars
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from deepeval import evaluate
from deepeval.errors import ConfigurationError
from deepeval.evaluate import CacheConfig, DisplayConfig, RateLimit, RayConfig
from deepeval.evaluate.backends.ray.backend import RayNotInstalledError, plan_blocks
from deepeval.evaluate.backends.ray.cache import BlockCache, merge_parts, part_path
from deepeval.evaluate.backends.ray.limits import LimiterState, install_limits, judges_of, remove_limits
from deepeval.evaluate.results import MetricData
from deepeval.metrics import AnswerRelevancyMetric
from deepeval.test_case import LLMTestCase
from deepeval.testing.scripted import ScriptedLLM


# -- config -----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("config", "field"),
    [
        (RayConfig(num_workers=0), "num_workers"),
        (RayConfig(block_size=-1), "block_size"),
        (RayConfig(block_size=True), "block_size"),  # type: ignore[arg-type]
        (RayConfig(max_retries=-1), "max_retries"),
        (RayConfig(num_cpus_per_block=0), "num_cpus_per_block"),
        (RayConfig(lease_timeout_s=0), "lease_timeout_s"),
        (RayConfig(rate_limits={"j": RateLimit()}), "sets neither"),
        (RayConfig(rate_limits={"j": RateLimit(requests_per_second=0)}), "requests_per_second"),
        (RayConfig(rate_limits={"j": RateLimit(max_concurrent=0)}), "max_concurrent"),
        (RayConfig(rate_limits={"j": RateLimit(requests_per_second=1, burst=0)}), "burst"),
        (RayConfig(rate_limits={"j": 5}), "must be a RateLimit"),  # type: ignore[dict-item]
    ],
)
def test_bad_config_names_the_field(config: RayConfig, field: str) -> None:
    with pytest.raises(ConfigurationError, match=field):
        config.validate()


def test_unknown_backend_is_a_configuration_error() -> None:
    with pytest.raises(ConfigurationError, match='backend must be "local" or "ray", got \'spark\''):
        evaluate(
            [LLMTestCase(input="a", actual_output="b")],
            [AnswerRelevancyMetric(eval_mode="llm")],
            backend="spark",
            display_config=DisplayConfig(show_indicator=False, print_results=False),
        )


def test_a_folder_named_ray_is_not_ray(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A `ray` folder beside the script (Ray's own temp dir is /tmp/ray) imports as a namespace package: the Ray
    backend then failed with a cloudpickle traceback instead of its install hint (outside attack 5, L18)."""
    import types

    from deepeval.evaluate.backends.ray.backend import import_ray

    folder = types.ModuleType("ray")
    folder.__path__ = [str(tmp_path / "ray")]  # what `import ray` gives for a bare folder: no __file__
    monkeypatch.setitem(sys.modules, "ray", folder)
    with pytest.raises(RayNotInstalledError, match=r'is a folder.*pip install "ray>=2\.30"'):
        import_ray()


def test_without_ray_installed_the_error_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError
    llm = ScriptedLLM(lambda p, s: {"statements": []})
    with pytest.raises(RayNotInstalledError, match=r'pip install "ray>=2\.30"'):
        evaluate(
            [LLMTestCase(input="a", actual_output="b")],
            [AnswerRelevancyMetric(model=llm, eval_mode="llm")],
            backend="ray",
            display_config=DisplayConfig(show_indicator=False, print_results=False),
            cache_config=CacheConfig(write_cache=False),
        )
    assert llm.call_count == 0


def test_plan_blocks_covers_every_case_once_in_order() -> None:
    assert plan_blocks(10, 2, 4) == [(0, 4), (4, 8), (8, 10)]
    assert plan_blocks(1, 8, None) == [(0, 1)]
    auto = plan_blocks(1000, 2, None)  # about 4 blocks per worker
    assert len(auto) == 8 and auto[0] == (0, 125) and auto[-1] == (875, 1000)
    big = plan_blocks(100_000, 2, None)  # capped at 256 cases per block
    assert big[0] == (0, 256) and sum(b - a for a, b in big) == 100_000
    assert all(big[k][1] == big[k + 1][0] for k in range(len(big) - 1))


# -- limiter -------------------------------------------------------------------------------------------------------
class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_gcra_spaces_calls_at_the_rate() -> None:
    clock = FakeClock()
    state = LimiterState({"j": RateLimit(requests_per_second=4)}, clock=clock)
    delays = [state.reserve("j") for _ in range(5)]  # all asked at the same instant
    assert delays == pytest.approx([0.0, 0.25, 0.5, 0.75, 1.0])
    clock.now += 10.0  # idle: no credit is banked beyond the burst
    assert state.reserve("j") == 0.0 and state.reserve("j") == pytest.approx(0.25)
    assert state.granted == {"j": 7}
    assert state.reserve("j", rebook=True) == pytest.approx(0.5) and state.rebooked == {"j": 1}
    assert state.granted == {"j": 7}


def test_gcra_burst_then_rate() -> None:
    clock = FakeClock()
    state = LimiterState({"j": RateLimit(requests_per_second=10, burst=3)}, clock=clock)
    delays = [state.reserve("j") for _ in range(6)]
    assert delays == pytest.approx([0.0, 0.0, 0.0, 0.1, 0.2, 0.3])
    # in any window of T seconds at most burst + rps * T calls start
    starts = sorted(clock.now + d for d in delays)
    assert sum(1 for s in starts if s < clock.now + 0.25) <= 3 + 10 * 0.25


def test_concurrency_leases_and_reclaim_of_dead_workers() -> None:
    clock = FakeClock()
    state = LimiterState({"j": RateLimit(max_concurrent=2)}, lease_timeout_s=30, clock=clock)
    assert state.try_lease("j", "a") and state.try_lease("j", "b")
    assert not state.try_lease("j", "c") and state.in_flight("j") == 2
    state.release("j", "a")
    assert state.try_lease("j", "c") and not state.try_lease("j", "d")
    clock.now += 31  # "b" and "c" were never returned: their worker died
    assert state.try_lease("j", "d") and state.in_flight("j") == 1
    assert state.reserve("j") == 0.0  # no rate set: never waits


class _Ref:
    def __init__(self, value: Any) -> None:
        self.value = value

    def __await__(self) -> Any:
        async def done() -> Any:
            return self.value

        return done().__await__()


class _Method:
    def __init__(self, log: list[tuple[str, tuple[Any, ...]]], name: str, value: Any) -> None:
        self.log, self.name, self.value = log, name, value

    def remote(self, *args: Any) -> _Ref:
        self.log.append((self.name, args))
        return _Ref(self.value)


class FakeActor:
    """Stands in for the limiter actor handle: ``actor.method.remote(...)`` returns an awaitable."""

    def __init__(self, delay: float = 0.0) -> None:
        self.log: list[tuple[str, tuple[Any, ...]]] = []
        self.reserve = _Method(self.log, "reserve", delay)
        self.acquire = _Method(self.log, "acquire", delay)
        self.release = _Method(self.log, "release", None)


def test_hook_asks_the_limiter_before_each_call_and_is_removed_after() -> None:
    llm = ScriptedLLM(lambda p, s: '{"statements": []}', name="gpt-x")
    other = ScriptedLLM(lambda p, s: "x", name="other")
    metrics = [
        AnswerRelevancyMetric(model=llm, eval_mode="llm"),
        AnswerRelevancyMetric(model=other, eval_mode="llm"),
    ]
    assert [j.get_model_name() for j in judges_of(metrics)] == ["gpt-x", "other"]
    actor = FakeActor()
    patched = install_limits(judges_of(metrics), {"gpt-x": RateLimit(max_concurrent=1)}, actor)
    assert patched == [llm]
    assert install_limits([llm], {"gpt-x": RateLimit(max_concurrent=1)}, actor) == []  # never twice
    assert asyncio.run(llm.a_generate("p")) == '{"statements": []}'
    assert asyncio.run(other.a_generate("p")) == "x"  # no limit for this judge
    names = [n for n, _ in actor.log]
    assert names == ["acquire", "release"] and actor.log[0][1][0] == "gpt-x"
    assert actor.log[0][1][1] == actor.log[1][1][1]  # the lease taken is the one returned
    assert type(llm).__name__ == "ScriptedLLM" and llm.get_model_name() == "gpt-x"  # identity unchanged
    remove_limits(patched)
    assert "a_generate" not in llm.__dict__
    asyncio.run(llm.a_generate("p"))
    assert len(actor.log) == 2 and llm.call_count == 2


def test_hook_with_star_limit_and_rate_delay() -> None:
    llm = ScriptedLLM(lambda p, s: "ok", name="any-judge")
    actor = FakeActor(delay=0.05)
    patched = install_limits([llm], {"*": RateLimit(requests_per_second=20)}, actor)

    async def two() -> float:
        loop = asyncio.get_running_loop()
        t0 = loop.time()
        await llm.a_generate("a")
        await llm.a_generate("b")
        return loop.time() - t0

    assert asyncio.run(two()) >= 0.1  # each call waited the delay the limiter returned
    assert [n for n, _ in actor.log] == ["reserve", "reserve"] and actor.log[0][1] == ("*",)
    remove_limits(patched)


# -- pickling ------------------------------------------------------------------------------------------------------
def test_payload_rebuilds_locks_contextvars_and_http_client_pools() -> None:
    pytest.importorskip("ray", reason='needs the ray extra (its cloudpickle): pip install -e ".[ray]"')
    from deepeval.evaluate.backends.ray.pickle import dumps, loads
    from deepeval.models.llms.openai_model import OpenAIModel

    judge = OpenAIModel(model="gpt-4.1", api_key="sk-test-key-1", base_url="http://127.0.0.1:9/v1")

    async def open_client() -> None:
        judge._async_clients.get()

    asyncio.run(open_client())
    var: contextvars.ContextVar[int] = contextvars.ContextVar("v", default=7)
    obj = {
        "metric": AnswerRelevancyMetric(model=judge, eval_mode="llm"),
        "lock": threading.RLock(),
        "var": var,
    }
    obj["metric"].judges()
    copy = loads(dumps(obj))
    j2 = copy["metric"].judges().llm
    assert type(j2) is OpenAIModel and j2 is not judge and j2.get_model_name() == "gpt-4.1"
    assert j2._api_key.get() == "sk-test-key-1" and j2.base_url == "http://127.0.0.1:9/v1"
    assert j2._async_clients._clients == {}  # no client of the driver's event loop travels
    assert copy["metric"].model_argument is j2  # shared references stay shared
    assert copy["var"].name == "v" and copy["var"].get() == 7
    assert copy["lock"].acquire(blocking=False)


def test_metric_class_from_main_with_name_property_travels_by_value(tmp_path: Path) -> None:
    pytest.importorskip("ray", reason='needs the ray extra (its cloudpickle): pip install -e ".[ray]"')
    script = tmp_path / "user_script.py"
    script.write_text(
        "import pickle, subprocess, sys\n"
        "from deepeval.metrics.base_metric import BaseMetric\n"
        "from deepeval.evaluate.backends.ray.pickle import dumps\n"
        "class MyMetric(BaseMetric):\n"
        "    def __init__(self): self.threshold = 0.5\n"
        "    @property\n"
        "    def __name__(self): return 'Mine'\n"
        "    def measure(self, tc, *a, **k): self.score = 0.25; return 0.25\n"
        "    async def a_measure(self, tc, *a, **k): return self.measure(tc)\n"
        "data = dumps(MyMetric())\n"
        "code = 'import pickle, sys; m = pickle.loads(sys.stdin.buffer.read()); print(m.__name__, m.measure(None))'\n"
        "out = subprocess.run([sys.executable, '-c', code], input=data, capture_output=True, check=True)\n"
        "print(out.stdout.decode().strip())\n"
    )
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr[-800:]
    assert out.stdout.strip() == "Mine 0.25"


def test_unpicklable_metric_gives_a_clear_type_error() -> None:
    pytest.importorskip("ray", reason='needs the ray extra (its cloudpickle): pip install -e ".[ray]"')
    from deepeval.evaluate.backends.ray.pickle import dumps

    metric = AnswerRelevancyMetric(model=ScriptedLLM(lambda p, s: "x"), eval_mode="llm")
    metric.pending = (n for n in range(3))  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match="cannot send the metrics to Ray workers: cannot pickle 'generator'"):
        dumps([metric])


# -- cache parts ---------------------------------------------------------------------------------------------------
def _row(name: str, score: float) -> MetricData:
    return MetricData(name=name, threshold=0.5, success=score >= 0.5, score=score, reason="r")


def test_block_cache_reads_main_writes_part_and_merge_moves_rows(tmp_path: Path) -> None:
    main = tmp_path / "cache.sqlite"
    parts = tmp_path / "parts"
    seeded = merge_parts(main, parts)  # creates the main file; nothing to merge yet
    assert seeded == {"parts": 0, "rows": 0, "unreadable": []}
    a = BlockCache(main, part_path(parts, "run1", 0))
    a.put("k1", _row("M", 0.9))
    a.put("k-error", MetricData(name="M", error="boom"))  # error rows are never cached
    a.close()
    b = BlockCache(None, part_path(parts, "run1", 1))
    b.put("k2", _row("M", 0.1))  # left open: a worker killed mid-block (its rows sit in the WAL)
    assert len(list(parts.glob("*.sqlite"))) == 2
    out = merge_parts(main, parts)
    assert out["parts"] == 2 and out["rows"] == 2 and out["unreadable"] == []
    assert not list(parts.iterdir())
    reader = BlockCache(main, None)
    hit = reader.get("k2")
    assert hit is not None and hit.cached and hit.score == 0.1 and reader.get("k-error") is None
    reader.close()
    with sqlite3.connect(main) as conn:
        assert conn.execute("SELECT COUNT(*) FROM metric_rows").fetchone()[0] == 2


def test_default_parts_folder_sits_next_to_the_main_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from deepeval.evaluate.backends.ray.cache import default_parts_dir

    monkeypatch.chdir(tmp_path)
    assert default_parts_dir(".deepeval/cache.sqlite") == tmp_path / ".deepeval" / "cache.sqlite.parts"
    p = part_path(tmp_path, "run9", 3)
    assert p.parent == tmp_path and p.name.startswith("run9-b3-") and p.suffix == ".sqlite"
    assert part_path(tmp_path, "run9", 3) != p  # every attempt gets its own file


def test_merge_leaves_a_corrupt_part_in_place(tmp_path: Path) -> None:
    main = tmp_path / "cache.sqlite"
    parts = tmp_path / "parts"
    parts.mkdir()
    (parts / "bad.sqlite").write_bytes(b"not a database at all" * 100)
    out = merge_parts(main, parts)
    assert out == {"parts": 0, "rows": 0, "unreadable": ["bad.sqlite"]}
    assert (parts / "bad.sqlite").exists()


def test_unwritable_part_folder_only_turns_caching_off(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    cache = BlockCache(None, blocker / "sub" / "p.sqlite")  # cannot mkdir under a file
    cache.put("k", _row("M", 1.0))
    assert cache.get("k") is None
    cache.close()
    assert "rows of this block are not cached" in capsys.readouterr().err


def test_ray_config_without_ray_backend_is_an_error() -> None:
    with pytest.raises(ConfigurationError, match='ray_config is set but backend is "local"'):
        evaluate(
            [LLMTestCase(input="a", actual_output="b")],
            [AnswerRelevancyMetric(eval_mode="llm")],
            ray_config=RayConfig(),
            display_config=DisplayConfig(show_indicator=False, print_results=False),
        )


def test_limit_matches_model_name_then_name_attribute_then_star() -> None:
    class Versioned(ScriptedLLM):
        def get_model_name(self) -> str:
            return "jev-latest (jev-2026-10-01)"

    judge = Versioned(lambda p, s: "x", name="jev-latest")
    actor = FakeActor()
    limits = {"jev-latest": RateLimit(requests_per_second=5), "*": RateLimit(max_concurrent=1)}
    assert install_limits([judge], limits, actor) == [judge]
    asyncio.run(judge.a_generate("p"))
    assert actor.log == [("reserve", ("jev-latest",))]
    remove_limits([judge])
    other = ScriptedLLM(lambda p, s: "x", name="other")
    install_limits([other], limits, actor)
    asyncio.run(other.a_generate("p"))
    assert [n for n, _ in actor.log[1:]] == ["acquire", "release"] and actor.log[1][1][0] == "*"
    remove_limits([other])


def test_a_call_woken_late_after_a_stall_books_a_new_slot(monkeypatch: pytest.MonkeyPatch) -> None:
    from deepeval.evaluate.backends.ray import limits as ray_limits

    real_sleep = asyncio.sleep
    stalls = [0.05]  # the first wake-up comes 50 ms late (event loop busy); later ones on time

    async def stalling_sleep(delay: float) -> None:
        await real_sleep(delay + (stalls.pop() if stalls else 0.0))

    monkeypatch.setattr(ray_limits.asyncio, "sleep", stalling_sleep)
    assert ray_limits.late_tolerance(RateLimit(requests_per_second=100)) == pytest.approx(0.005)
    assert ray_limits.late_tolerance(RateLimit(requests_per_second=2)) == pytest.approx(0.25)
    assert ray_limits.late_tolerance(RateLimit(max_concurrent=2)) is None
    llm = ScriptedLLM(lambda p, s: "ok", name="j")
    actor = FakeActor(delay=0.01)
    install_limits([llm], {"j": RateLimit(requests_per_second=100)}, actor)
    asyncio.run(llm.a_generate("p"))
    assert actor.log == [("reserve", ("j",)), ("reserve", ("j", True))]  # late for its slot: booked again
    assert llm.call_count == 1
    remove_limits([llm])


def test_no_address_starts_a_local_cluster_never_one_another_process_started(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from deepeval.evaluate.backends.ray.backend import init_address

    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    assert init_address(RayConfig()) == "local"
    assert init_address(RayConfig(address="auto")) == "auto"
    monkeypatch.setenv("RAY_ADDRESS", "127.0.0.1:6379")
    assert init_address(RayConfig()) is None  # ray.init reads RAY_ADDRESS itself
