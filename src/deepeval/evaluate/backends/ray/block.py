"""One block of test cases on one Ray worker: the local async runner, unchanged, on a slice of the input.

:func:`run_block` is what the Ray task executes. It unpickles the metrics (judges included; the embedded judge
becomes the worker process's singleton), installs the cluster-wide rate limits on the judges, runs
:class:`~deepeval.evaluate.runner.Runner` over the block with the caller's configs, and returns the rows. Row
indices inside the block are local; the driver maps them back to input positions.
"""

from __future__ import annotations

import os
import resource
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from deepeval.evaluate.configs import AsyncConfig, CacheConfig, DisplayConfig, ErrorConfig
from deepeval.evaluate.results import MetricData


@dataclass
class BlockSpec:
    """Everything a block needs besides its test cases and the pickled metrics."""

    block_id: int
    start: int
    run_id: str
    async_config: AsyncConfig
    display_config: DisplayConfig
    cache_config: CacheConfig
    error_config: ErrorConfig
    repeat: int
    main_cache: str | None = None  # read when cache_config.use_cache
    parts_dir: str | None = (
        None  # this attempt's rows go to a new part file here when cache_config.write_cache
    )
    limits: dict[str, Any] = field(default_factory=dict)  # judge name or "*" -> RateLimit


@dataclass
class BlockResult:
    """Rows of one block: ``rows[k]`` are the metric rows of test case ``start + k`` (metric order),
    ``success[k]`` its verdict and ``skipped[k]`` its left-out rows (``TestResult.skipped_metrics``). ``worker``
    identifies the process (``pid``, ``node``, peak ``max_rss_mb``)."""

    block_id: int
    start: int
    rows: list[list[MetricData]]
    success: list[bool]
    cache_hits: int
    system_one_batches: int
    worker: dict[str, Any]
    skipped: list[list[MetricData]] | None = None


def _peak_rss_mb() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux, bytes on macOS
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def _node_id() -> str | None:
    try:
        import ray

        return str(ray.get_runtime_context().get_node_id())
    except Exception:  # outside Ray (unit tests)
        return None


def _resolve_judges(metrics: list[Any]) -> None:
    # Our metrics resolve their judges lazily; resolve now so the limiter can see them. Errors (e.g. no LLM in
    # llm mode) are left for the measure to report on its row, as the local runner does.
    for metric in metrics:
        resolve = getattr(metric, "judges", None)
        if callable(resolve):
            try:
                resolve()
            except Exception:
                pass


def run_block(
    spec: BlockSpec, metrics_payload: bytes, test_cases: list[Any], limiter: Any = None
) -> BlockResult:
    """Run the metrics over ``test_cases`` (the block) and return its rows (see :class:`BlockResult`)."""
    from deepeval._concurrency import run_sync
    from deepeval.evaluate.backends.ray.cache import BlockCache, part_path
    from deepeval.evaluate.backends.ray.limits import install_limits, judges_of, remove_limits
    from deepeval.evaluate.backends.ray.pickle import loads
    from deepeval.evaluate.cache import ResultCache
    from deepeval.evaluate.runner import Runner

    metrics = loads(metrics_payload)
    cache: BlockCache | None = None
    cc = spec.cache_config
    if cc.use_cache or cc.write_cache:
        main = Path(spec.main_cache) if (cc.use_cache and spec.main_cache) else None
        part = (
            part_path(spec.parts_dir, spec.run_id, spec.block_id)
            if (cc.write_cache and spec.parts_dir)
            else None
        )
        cache = BlockCache(main, part)
    patched: list[Any] = []
    try:
        if limiter is not None and spec.limits:
            _resolve_judges(metrics)
            patched = install_limits(judges_of(metrics), spec.limits, limiter)
        runner = Runner(
            test_cases,
            metrics,
            spec.async_config,
            spec.display_config,
            spec.cache_config,
            spec.error_config,
            spec.repeat,
            cast(ResultCache, cache),
        )
        out = run_sync(runner.run())
    finally:
        remove_limits(patched)
        if cache is not None:
            cache.close()
    return BlockResult(
        block_id=spec.block_id,
        start=spec.start,
        rows=[t.metrics_data for t in out.test_results],
        success=[t.success for t in out.test_results],
        skipped=[t.skipped_metrics or [] for t in out.test_results],
        cache_hits=out.cache_hits,
        system_one_batches=out.system_one_batches,
        worker={"pid": os.getpid(), "node": _node_id(), "max_rss_mb": round(_peak_rss_mb(), 1)},
    )
