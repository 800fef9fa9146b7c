"""``evaluate(..., backend="ray")``: the same runner, spread over a Ray cluster.

Needs the ``ray`` extra (``pip install -e ".[ray]"`` in the source folder, i.e. ``ray>=2.30``); importing this module does not
import Ray.

How a run goes:

1. The driver (the process calling ``evaluate``) connects to Ray: ``ray.init(address=RayConfig.address)`` unless
   Ray is already initialised (then the existing connection is used); ``address=None`` starts a local cluster, or
   joins the one named by ``RAY_ADDRESS``. A cluster this module started is left running for later runs (Ray
   stops it when the process exits).
2. Metric judges are resolved on the driver (so the judges named in the rows are the ones the local backend
   would pick from the driver's settings) and the metrics are pickled once
   (:mod:`deepeval.evaluate.backends.ray.pickle`; the embedded judge becomes each worker's process-wide singleton).
3. Test cases are cut into blocks of ``block_size`` consecutive cases. At most ``num_workers`` blocks run at once,
   each as a Ray task (``num_cpus_per_block`` CPUs) running :class:`~deepeval.evaluate.runner.Runner` with the
   caller's ``AsyncConfig`` (so up to ``num_workers * max_concurrent`` test cases are in flight cluster-wide).
4. Blocks come back as they finish; rows are placed at their input positions and the progress bar advances by a
   block's rows. A block id is accepted once (a duplicate delivery is dropped), and every input position must be
   filled exactly once.
5. Faults: a worker process or node that dies takes its running block with it; Ray re-runs the block elsewhere, up
   to ``max_retries`` times. A block that still fails (or raises outside the metrics) gives error rows naming the
   block, for every test case x metric of it, so no row is ever missing; ``EvaluationError`` then reports them as
   for the local backend.
6. Cache: see :mod:`deepeval.evaluate.backends.ray.cache` (main file read by workers, per-attempt part files,
   merged by the driver before and after the run): an interrupted run resumes with ``use_cache=True``.
7. Rate limits: ``rate_limits={"gpt-4.1": RateLimit(requests_per_second=20, max_concurrent=32)}`` holds across
   the whole cluster through one limiter actor (:mod:`deepeval.evaluate.backends.ray.limits`).

The result is the same :class:`~deepeval.evaluate.results.EvaluationResult` as the local backend's (same rows for
the same inputs and judges; timings differ), so the console table and the JSON/HTML reports are unchanged.
``extras["ray"]`` adds the run's blocks, failed blocks, workers (pid, node, blocks run, peak RSS in MiB) and, with
rate limits, the judge calls let through and the calls that had to book a second slot after waking up late.

Judges are copied to the workers: counters kept on a judge object (e.g. ``ScriptedLLM.calls``) grow on the
workers' copies, not on the caller's. Metric classes, judges and responders must be importable on the workers
(defined in an installed package, or in ``__main__``, or shipped with ``runtime_env`` via
``RayConfig.init_kwargs``). Settings that a worker reads itself (environment variables, ``.env``) come from the
worker's environment.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deepeval._install import extra_install_command
from deepeval.config.environment import process_env
from deepeval.errors import ConfigurationError, DeepEvalError
from deepeval.evaluate.backends.ray.options import RateLimit
from deepeval.evaluate.configs import AsyncConfig, CacheConfig, DisplayConfig, ErrorConfig
from deepeval.evaluate.results import MetricData, case_status

if TYPE_CHECKING:
    from deepeval.metrics.result import MeasureError

__all__ = ["RateLimit", "RayConfig", "RayNotInstalledError", "RayRunOutput", "run_on_ray"]

_INIT_LOCK = threading.Lock()


class RayNotInstalledError(ConfigurationError):
    """``backend="ray"`` was asked for but the ``ray`` package is not installed."""


@dataclass
class RayConfig:
    """Options of the Ray backend.

    ``address``: the cluster to join (``"auto"``, ``"ray://host:10001"``, ...); None starts a local cluster (or
    joins ``RAY_ADDRESS``), never a cluster another process started with ``ray start`` (give ``"auto"`` for that). Ignored when Ray is already initialised in this process.
    ``num_workers``: blocks running at once (>= 1); None = the cluster's CPU count / ``num_cpus_per_block``.
    ``block_size``: test cases per block (>= 1); None = about four blocks per worker, at most 256 cases each.
    Smaller blocks mean finer progress and less work lost to a crash; larger blocks less overhead.
    ``max_retries``: re-runs of a block whose worker died (>= 0).
    ``num_cpus_per_block``: CPUs a block task reserves (> 0). Ray also sets ``OMP_NUM_THREADS`` of the task to
    this number, which caps the embedded judge's encoder threads: give CPU-bound judges whole cores per block.
    ``cache_dir``: folder for the cache part files, visible to the driver and every worker (default: next to the
    main cache file, ``<cache_path>.parts``).
    ``rate_limits``: judge name (``get_model_name()``) or ``"*"`` (every other judge) -> :class:`RateLimit`,
    enforced across the cluster.
    ``lease_timeout_s``: a concurrency lease not returned within this many seconds (dead worker) is reclaimed.
    ``init_kwargs``: extra keyword arguments for ``ray.init`` (e.g. ``runtime_env``, ``num_cpus``).
    """

    address: str | None = None
    num_workers: int | None = None
    block_size: int | None = None
    max_retries: int = 3
    num_cpus_per_block: float = 1.0
    cache_dir: str | None = None
    rate_limits: Mapping[str, RateLimit] = field(default_factory=dict)
    lease_timeout_s: float = 600.0
    init_kwargs: Mapping[str, Any] = field(default_factory=dict)

    def validate(self) -> None:
        """Raises :class:`~deepeval.errors.ConfigurationError` naming the bad field."""
        for name in ("num_workers", "block_size"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise ConfigurationError(f"RayConfig.{name} must be an integer >= 1 or None, got {value!r}")
        if (
            isinstance(self.max_retries, bool)
            or not isinstance(self.max_retries, int)
            or self.max_retries < 0
        ):
            raise ConfigurationError(
                f"RayConfig.max_retries must be an integer >= 0, got {self.max_retries!r}"
            )
        cpus = self.num_cpus_per_block
        if (
            isinstance(cpus, bool)
            or not isinstance(cpus, (int, float))
            or not math.isfinite(cpus)
            or cpus <= 0
        ):
            raise ConfigurationError(f"RayConfig.num_cpus_per_block must be a number > 0, got {cpus!r}")
        lease = self.lease_timeout_s
        if isinstance(lease, bool) or not isinstance(lease, (int, float)) or not lease > 0:
            raise ConfigurationError(f"RayConfig.lease_timeout_s must be a number > 0, got {lease!r}")
        if not isinstance(self.rate_limits, Mapping):
            raise ConfigurationError("RayConfig.rate_limits must be a mapping of judge name -> RateLimit")
        for judge, limit in self.rate_limits.items():
            if not isinstance(limit, RateLimit):
                raise ConfigurationError(
                    f"RayConfig.rate_limits[{judge!r}] must be a RateLimit, got {type(limit).__name__}"
                )
            limit.validate(str(judge))


@dataclass
class RayRunOutput:
    """What :func:`run_on_ray` gives back to ``a_evaluate`` (the fields of the local runner's output, plus
    ``extras``)."""

    test_results: list[Any]
    cache_hits: int
    system_one_batches: int
    extras: dict[str, Any] = field(default_factory=dict)


def import_ray() -> Any:
    """The ``ray`` module, or :class:`RayNotInstalledError` with the install command."""
    try:
        import ray
    except ImportError as err:
        raise RayNotInstalledError(
            f'backend="ray" needs Ray, which is not installed ({err}); install the ray extra: '
            + extra_install_command("ray")
        ) from None
    if getattr(ray, "__file__", None) is None:  # a folder named ray (Ray's own /tmp/ray): a namespace package
        folder = list(getattr(ray, "__path__", []))[:1]
        raise RayNotInstalledError(
            f'backend="ray" needs Ray, which is not installed (the "ray" found is a folder, {folder}, not the '
            f"package); install the ray extra: {extra_install_command('ray')}"
        )
    return ray


def _connect(ray: Any, config: RayConfig) -> None:
    """``ray.init`` unless Ray is initialised already.

    A local cluster's processes are started with a parent-death signal that Linux ties to the *thread* that
    started them, so a cluster started from a short-lived thread (the driver loop runs in one, and ``evaluate()``
    inside a running event loop runs in another) would be killed when that thread ends. ``ray.init`` therefore
    runs in a daemon thread that stays alive for the life of the process (and the caller's event loop is not
    blocked while the cluster starts)."""
    if ray.is_initialized():
        return
    kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": True}
    kwargs.update(config.init_kwargs)
    kwargs.setdefault("address", init_address(config))
    started = threading.Event()
    failure: list[BaseException] = []

    def keeper() -> None:
        try:
            ray.init(**kwargs)
        except BaseException as err:
            failure.append(err)
        finally:
            started.set()
        threading.Event().wait()  # never returns: the cluster lives as long as this thread

    with _INIT_LOCK:
        if ray.is_initialized():
            return
        threading.Thread(target=keeper, name="deepeval-ray-keeper", daemon=True).start()
        started.wait()
    if failure:
        raise failure[0]


def init_address(config: RayConfig) -> str | None:
    """The ``address`` for ``ray.init``: ``config.address``; for None, ``RAY_ADDRESS`` when set, else ``"local"``.
    ``ray.init(address=None)`` would also join a cluster another process started with ``ray start`` on this
    machine (and then refuse ``num_cpus``), where None is documented to start a local cluster."""
    if config.address is not None or process_env("RAY_ADDRESS"):
        return config.address
    return "local"


def _block_bounds(n: int, block_size: int) -> list[tuple[int, int]]:
    return [(start, min(n, start + block_size)) for start in range(0, n, block_size)]


def plan_blocks(n_cases: int, num_workers: int, block_size: int | None) -> list[tuple[int, int]]:
    """``[(start, stop), ...]`` covering ``range(n_cases)`` in order; the default size aims at four blocks per
    worker, capped at 256 cases."""
    size = block_size or max(1, min(256, math.ceil(n_cases / (num_workers * 4))))
    return _block_bounds(n_cases, size)


def _failed_rows(
    metrics: Sequence[Any], cases: Sequence[Any], error: MeasureError
) -> tuple[list[list[MetricData]], list[bool]]:
    from deepeval.evaluate.rows import build_row, not_applicable_reason
    from deepeval.metrics.flow import result_of

    rows, success = [], []
    for tc in cases:
        row = []
        for metric in metrics:
            skip = not_applicable_reason(metric, tc)
            fresh = metric.fresh_copy()
            result = result_of(fresh, error=None if skip else error, skipped=skip)
            row.append(build_row(fresh, result, None))
        rows.append(row)
        success.append(case_status(row) == "passed")
    return rows, success


def _resolve_on_driver(metrics: Sequence[Any]) -> None:
    for metric in metrics:
        resolve = getattr(metric, "judges", None)
        if callable(resolve):
            try:
                resolve()
            except DeepEvalError:
                pass  # e.g. llm mode without an LLM: each row reports it, as locally


def _error_text(err: BaseException) -> str:
    """One line naming the exception (the metric's own exception for a task that raised), keys redacted."""
    import re

    from deepeval.config import redact

    cause = getattr(err, "cause", None)  # RayTaskError wraps what the task raised
    shown = cause if isinstance(cause, BaseException) else err
    text = " ".join(re.sub(r"\x1b\[[0-9;]*m", "", str(shown)).split())
    if len(text) > 500:
        text = text[:497] + "..."
    return redact(f"{type(shown).__name__}: {text}" if text else type(shown).__name__)


async def run_on_ray(
    test_cases: Sequence[Any],
    metrics: Sequence[Any],
    async_config: AsyncConfig,
    display_config: DisplayConfig,
    cache_config: CacheConfig,
    error_config: ErrorConfig,
    repeat: int,
    cache_path: Path | None,
    on_row: Callable[[MetricData, int], None] | None,
    config: RayConfig | None = None,
) -> RayRunOutput:
    """Run every metric on every test case on Ray; rows in input order (see the module docstring).

    ``cache_path`` is the main cache file (None when the cache is off). ``on_row`` is called once per row, on a
    worker thread of the driver, as blocks finish.

    Raises:
        RayNotInstalledError: ``ray`` is not installed.
        ConfigurationError: a bad :class:`RayConfig` field.
        TypeError: the metrics cannot be pickled for the workers.
    """
    import asyncio

    config = config or RayConfig()
    config.validate()
    ray = import_ray()
    return await asyncio.to_thread(
        _drive,
        ray,
        list(test_cases),
        list(metrics),
        async_config,
        display_config,
        cache_config,
        error_config,
        repeat,
        cache_path,
        on_row,
        config,
    )


def _stop_limiter(ray: Any, limiter: Any) -> dict[str, dict[str, int]]:
    """Kill the run's limiter actor (if any) and return what it granted (empty when it cannot say)."""
    if limiter is None:
        return {}
    try:
        granted: dict[str, dict[str, int]] = ray.get(limiter.stats.remote(), timeout=10)
    except Exception:
        granted = {}
    ray.kill(limiter)
    return granted


def _worker_stats(results: Iterable[Any]) -> dict[str, dict[str, Any]]:
    """Blocks run and peak RSS per worker process (``node:pid``) from the finished blocks' results."""
    workers: dict[str, dict[str, Any]] = {}
    for r in results:
        w = workers.setdefault(f"{r.worker.get('node')}:{r.worker['pid']}", {"blocks": 0, "max_rss_mb": 0.0})
        w["blocks"] += 1
        w["max_rss_mb"] = max(w["max_rss_mb"], r.worker.get("max_rss_mb") or 0.0)
    return workers


def _drive(
    ray: Any,
    cases: list[Any],
    metrics: list[Any],
    async_config: AsyncConfig,
    display_config: DisplayConfig,
    cache_config: CacheConfig,
    error_config: ErrorConfig,
    repeat: int,
    cache_path: Path | None,
    on_row: Callable[[MetricData, int], None] | None,
    config: RayConfig,
) -> RayRunOutput:
    import uuid

    from deepeval.evaluate.backends.ray.block import BlockResult, BlockSpec, run_block
    from deepeval.evaluate.backends.ray.cache import default_parts_dir, merge_parts
    from deepeval.evaluate.backends.ray.limits import LimiterActor
    from deepeval.evaluate.backends.ray.pickle import dumps
    from deepeval.evaluate.rows import test_result

    _resolve_on_driver(metrics)
    payload = dumps(metrics)
    _connect(ray, config)

    run_id = uuid.uuid4().hex[:12]
    main_cache = parts_dir = None
    merged_before: dict[str, Any] = {}
    if cache_path is not None:
        main_cache = Path(cache_path).resolve()
        parts_dir = Path(config.cache_dir).resolve() if config.cache_dir else default_parts_dir(main_cache)
        merged_before = merge_parts(main_cache, parts_dir)  # rows left by an interrupted earlier run

    cpus = float(ray.cluster_resources().get("CPU", 1.0))
    num_workers = config.num_workers or max(1, int(cpus // config.num_cpus_per_block))
    blocks = plan_blocks(len(cases), num_workers, config.block_size)

    limiter = None
    if config.rate_limits:
        actor_cls = ray.remote(num_cpus=0, max_concurrency=10_000)(LimiterActor)
        limiter = actor_cls.remote(dict(config.rate_limits), config.lease_timeout_s)

    task = ray.remote(run_block).options(
        num_cpus=config.num_cpus_per_block, max_retries=config.max_retries, retry_exceptions=False
    )
    payload_ref = ray.put(payload)

    def spec(block_id: int, start: int) -> BlockSpec:
        return BlockSpec(
            block_id=block_id,
            start=start,
            run_id=run_id,
            async_config=async_config,
            display_config=display_config,
            cache_config=cache_config,
            error_config=error_config,
            repeat=repeat,
            main_cache=None if main_cache is None else str(main_cache),
            parts_dir=None if parts_dir is None else str(parts_dir),
            limits=dict(config.rate_limits),
        )

    slots: list[tuple[list[MetricData], bool, list[MetricData]] | None] = [None] * len(cases)
    done: dict[int, BlockResult] = {}
    failed: dict[int, str] = {}
    in_flight: dict[Any, int] = {}
    pending = list(enumerate(blocks))[::-1]

    def accept(
        block_id: int,
        rows: list[list[MetricData]],
        success: list[bool],
        skipped: list[list[MetricData]] | None = None,
    ) -> None:
        start, stop = blocks[block_id]
        if len(rows) != stop - start:
            raise RuntimeError(f"block {block_id} returned {len(rows)} test cases, expected {stop - start}")
        left_out = skipped if skipped is not None else [[] for _ in rows]
        for k, (row, ok, left) in enumerate(zip(rows, success, left_out, strict=True)):
            if slots[start + k] is not None:
                raise RuntimeError(f"test case {start + k} was delivered twice")
            slots[start + k] = (row, ok, left)
            if on_row is not None:
                for m in row:
                    for _ in range(repeat):  # the progress total counts repetitions
                        on_row(m, start + k)

    try:
        while pending or in_flight:
            while pending and len(in_flight) < num_workers:
                block_id, (start, stop) = pending.pop()
                ref = task.remote(spec(block_id, start), payload_ref, cases[start:stop], limiter)
                in_flight[ref] = block_id
            ready, _ = ray.wait(list(in_flight), num_returns=1)
            for ref in ready:
                block_id = in_flight.pop(ref)
                if block_id in done or block_id in failed:
                    continue  # a duplicate delivery of a block already placed
                try:
                    result: BlockResult = ray.get(ref)
                except Exception as err:  # retries exhausted, or the block raised outside the metrics
                    start, stop = blocks[block_id]
                    how = (
                        "raised"
                        if isinstance(err, ray.exceptions.RayTaskError)
                        else f"failed after {config.max_retries} retries"
                    )
                    message = f"RayBlockError: block {block_id} (test cases {start}-{stop - 1}) {how}: {_error_text(err)}"

                    failed[block_id] = message
                    from deepeval.errors import error_kind
                    from deepeval.metrics.result import MeasureError

                    error = MeasureError(error_kind(err), "", message, exception=err)
                    accept(block_id, *_failed_rows(metrics, cases[start:stop], error))
                    continue
                done[block_id] = result
                accept(block_id, result.rows, result.success, result.skipped)
    finally:
        for ref in in_flight:
            ray.cancel(ref, force=True)
        granted = _stop_limiter(ray, limiter)
        merged_after = merge_parts(main_cache, parts_dir) if main_cache is not None and parts_dir else {}

    missing = [i for i, s in enumerate(slots) if s is None]
    if missing:  # cannot happen when every block was accepted; never return a result with holes
        raise RuntimeError(f"Ray backend lost test cases {missing[:10]} (of {len(missing)})")
    test_results = [
        test_result(i, cases[i], slot[0], slot[2]) for i, slot in enumerate(slots) if slot is not None
    ]
    workers = _worker_stats(done.values())
    extras = {
        "backend": "ray",
        "ray": {
            "blocks": len(blocks),
            "block_size": blocks[0][1] - blocks[0][0] if blocks else 0,
            "num_workers": num_workers,
            "failed_blocks": sorted(failed),
            "workers": workers,
            "rate_limited_calls": granted.get("calls", {}),
            "rate_limit_rebooks": granted.get("rebooked", {}),
            "cache_parts_merged": merged_before.get("parts", 0) + merged_after.get("parts", 0),
        },
    }
    return RayRunOutput(
        test_results=test_results,
        cache_hits=sum(r.cache_hits for r in done.values()),
        system_one_batches=sum(r.system_one_batches for r in done.values()),
        extras=extras,
    )
