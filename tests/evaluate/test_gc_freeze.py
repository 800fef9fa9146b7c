"""Objects older than a run are frozen while it runs (no full GC pass over them mid-run) and released after."""

from __future__ import annotations

import gc
import threading
import weakref
from typing import Any

from deepeval import evaluate
from deepeval._gc import older_objects_frozen
from deepeval.evaluate import CacheConfig, DisplayConfig
from deepeval.metrics import BaseMetric
from deepeval.test_case import LLMTestCase


class _FreezeProbe(BaseMetric):
    """Scores 1.0 and records how many objects were frozen while it measured."""

    def __init__(self) -> None:
        self.threshold = 0.5
        self.seen: list[int] = []

    async def a_measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        return self.measure(test_case)

    def measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        self.seen.append(gc.get_freeze_count())
        self.score, self.success = 1.0, True
        return 1.0

    def is_successful(self) -> bool:
        return True

    @property
    def __name__(self) -> str:  # type: ignore[override]
        return "Probe"


def test_evaluate_freezes_older_objects_during_the_run_only() -> None:
    assert gc.get_freeze_count() == 0
    probe = _FreezeProbe()
    result = evaluate(
        [LLMTestCase(input=f"q{i}", actual_output="a") for i in range(3)],
        [probe],
        display_config=DisplayConfig(show_indicator=False, print_results=False),
        cache_config=CacheConfig(write_cache=False),
    )
    assert [m.score for t in result.test_results for m in t.metrics_data] == [1.0, 1.0, 1.0]
    # the metric object itself is copied per test case; the copies share the list
    assert len(probe.seen) == 3 and min(probe.seen) > 10_000  # at least the imported modules were frozen
    assert gc.get_freeze_count() == 0


def test_overlapping_blocks_unfreeze_when_the_last_one_ends() -> None:
    started, release = threading.Event(), threading.Event()
    counts: list[int] = []

    def other_run() -> None:
        with older_objects_frozen():
            started.set()
            release.wait(5)

    t = threading.Thread(target=other_run)
    with older_objects_frozen():
        t.start()
        started.wait(5)
        counts.append(gc.get_freeze_count())
    counts.append(gc.get_freeze_count())  # the other block still runs
    release.set()
    t.join(5)
    counts.append(gc.get_freeze_count())
    assert counts[0] > 0 and counts[1] > 0 and counts[2] == 0


def test_garbage_made_during_the_block_is_collected_after() -> None:
    class Node:
        other: Any = None

    a, b = Node(), Node()
    a.other, b.other = b, a  # a reference cycle: only the cyclic collector frees it
    ref = weakref.ref(a)
    with older_objects_frozen():
        del a, b
        gc.collect()
        assert ref() is not None  # frozen: the cycle is not looked at during the block
    gc.collect()
    assert ref() is None
