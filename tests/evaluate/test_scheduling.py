"""evaluate/scheduling.py on its own: the worker pool bounds groups in flight, keeps input order per worker, and
hands an item that raises to on_error without stopping the others."""

from __future__ import annotations

import asyncio

from deepeval.evaluate.scheduling import WorkItem, bind, run_pool


def _groups(n: int, per_group: int, log: dict[str, int], started: list[int], fail: int | None = None):
    async def work(i: int) -> None:
        started.append(i)
        log["now"] += 1
        log["peak"] = max(log["peak"], log["now"])
        await asyncio.sleep(0.01)
        log["now"] -= 1
        if i == fail:
            raise RuntimeError(f"item {i} broke")

    for g in range(n):
        yield [WorkItem(bind(work, g * per_group + k), [g * per_group + k]) for k in range(per_group)]


def _run(n: int, per_group: int, *, max_concurrent: int, run_async: bool = True, fail: int | None = None):
    log = {"now": 0, "peak": 0}
    started: list[int] = []
    errors: list[tuple[list[int], str]] = []
    asyncio.run(
        run_pool(
            _groups(n, per_group, log, started, fail),
            max_concurrent=max_concurrent,
            run_async=run_async,
            throttle_value=0.0,
            on_error=lambda item, err: errors.append((item.jobs, str(err))),
        )
    )
    return log["peak"], started, errors


def test_at_most_max_concurrent_groups_run_at_once() -> None:
    peak, started, errors = _run(6, 2, max_concurrent=2)
    assert peak == 4  # 2 groups x 2 items
    assert sorted(started) == list(range(12)) and errors == []


def test_sync_mode_runs_one_item_at_a_time_in_order() -> None:
    peak, started, _ = _run(3, 2, max_concurrent=8, run_async=False)
    assert peak == 1
    assert started == [0, 1, 2, 3, 4, 5]


def test_an_item_that_raises_goes_to_on_error_and_the_rest_run() -> None:
    _, started, errors = _run(4, 2, max_concurrent=2, fail=3)
    assert sorted(started) == list(range(8))
    assert errors == [([3], "item 3 broke")]
