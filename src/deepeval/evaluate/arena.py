"""``compare(test_cases, metric)``: run an arena metric (``ArenaGEval``) over ``ArenaTestCase``s and count the
winners, as deepeval 4.3.1's ``deepeval.compare`` returns them (``{contestant name: wins}``).

Each arena test case is measured by its own copy of the metric, at most ``AsyncConfig.max_concurrent`` at a time
(``run_async=False``: one after another). Errors follow ``ErrorConfig``: by default the first error is raised after
every round has finished; ``ignore_errors=True`` leaves the round out of the counts; ``skip_on_missing_params=True``
leaves out a round whose contestant lacks a named field. Nothing is sent anywhere but the metric's judge.
"""

from __future__ import annotations

import asyncio
import copy
from collections import Counter
from collections.abc import Sequence
from typing import Any

from deepeval._concurrency import run_sync
from deepeval.errors import MissingTestCaseParamsError
from deepeval.evaluate.configs import AsyncConfig, DisplayConfig, ErrorConfig


async def a_compare(
    test_cases: Sequence[Any],
    metric: Any,
    name: str = "compare()",
    async_config: AsyncConfig | None = None,
    display_config: DisplayConfig | None = None,
    error_config: ErrorConfig | None = None,
) -> dict[str, int]:
    """Async :func:`compare`."""
    async_config = async_config or AsyncConfig()
    error_config = error_config or ErrorConfig()
    verbose = None if display_config is None else display_config.verbose_mode
    gate = asyncio.Semaphore(async_config.max_concurrent if async_config.run_async else 1)

    async def one(test_case: Any) -> str | None:
        async with gate:
            copied = copy.copy(metric)
            if verbose is not None:
                copied.verbose_mode = verbose
            try:
                if async_config.run_async:
                    return str(await copied.a_measure(test_case))
                return str(await asyncio.to_thread(copied.measure, test_case))
            except MissingTestCaseParamsError:
                if error_config.skip_on_missing_params:
                    return None
                raise

    results = await asyncio.gather(*(one(tc) for tc in test_cases), return_exceptions=True)
    counts: Counter[str] = Counter()
    for res in results:
        if isinstance(res, BaseException):
            if error_config.ignore_errors and isinstance(res, Exception):
                continue
            raise res
        if res:
            counts[res] += 1
    return dict(counts)


def compare(
    test_cases: Sequence[Any],
    metric: Any,
    name: str = "compare()",
    async_config: AsyncConfig | None = None,
    display_config: DisplayConfig | None = None,
    error_config: ErrorConfig | None = None,
) -> dict[str, int]:
    """``{contestant name: number of rounds won}`` over ``test_cases`` (see the module docstring)."""
    return run_sync(a_compare(test_cases, metric, name, async_config, display_config, error_config))
