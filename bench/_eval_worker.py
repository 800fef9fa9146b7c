"""Runs one benchmark job through whichever ``deepeval`` this interpreter imports (ours or 4.3.1): the same
script, the same public API (``evaluate``, the three metrics, the test-case classes, the config dataclasses).

Usage: ``python _eval_worker.py JOB.json RESULT.json``. The job holds ``phases`` (each: ``cases`` of kind ``rag`` or
``conv``, ``metrics`` names, ``max_concurrent``), ``mode`` and ``include_reason``. For every phase the result
has the monotonic start/end of ``evaluate()`` (Linux's monotonic clock is shared by processes, so the parent can
match them with its server timeline), per-metric scores and errors; plus import time and peak RSS.
Only the standard library and ``deepeval`` are imported, so the file runs in either virtual environment.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import resource
import sys
import time
import traceback
from typing import Any


def _cpu_s() -> float:
    """User + system CPU seconds of this process (all threads) so far."""
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return ru.ru_utime + ru.ru_stime


def _current_rss_mib() -> float:
    """Resident set size now (Linux ``/proc/self/statm``), MiB; 0.0 where unavailable."""
    try:
        with open("/proc/self/statm", encoding="ascii") as fh:
            pages = int(fh.read().split()[1])
        return pages * resource.getpagesize() / 2**20
    except (OSError, ValueError, IndexError):
        return 0.0


def _kwargs_for(cls: Any, wanted: dict[str, Any]) -> dict[str, Any]:
    """The subset of ``wanted`` that ``cls`` accepts (the two implementations' config classes differ a little)."""
    if dataclasses.is_dataclass(cls):
        names = {f.name for f in dataclasses.fields(cls)}
    else:
        names = set(inspect.signature(cls).parameters)
    return {k: v for k, v in wanted.items() if k in names}


def _build_case(kind: str, r: dict[str, Any]) -> Any:
    from deepeval.test_case import ConversationalTestCase, LLMTestCase, Turn

    if kind == "mixed":
        kind = r["kind"]
    if kind == "rag":
        return LLMTestCase(
            input=r["input"],
            actual_output=r["actual_output"],
            retrieval_context=r["retrieval_context"],
            name=r["name"],
        )
    return ConversationalTestCase(
        turns=[Turn(role=t["role"], content=t["content"]) for t in r["turns"]], name=r["name"]
    )


def _build_cases(kind: str, rows: list[dict[str, Any]]) -> list[Any]:
    return [_build_case(kind, r) for r in rows]


def _build_metric(name: str, mode: str | None, include_reason: bool) -> Any:
    """``mode=None`` leaves the eval mode to the implementation's default resolution."""
    import deepeval.metrics as m

    cls = getattr(m, f"{name}Metric")
    if mode is None:
        return cls(threshold=0.5, include_reason=include_reason)
    return cls(threshold=0.5, eval_mode=mode, include_reason=include_reason)


_CLIENT_CALLS: list[tuple[float, float, str]] = []


def _stamp_client_posts() -> None:
    """Ours only: record when each judge request left our client and when its reply was back (monotonic), by
    wrapping the clients' one-POST methods; deepeval 4.3.1 has none of them and is left alone."""
    import importlib

    for module, cls, kind in (
        ("deepeval.models.llms.openai_compatible", "OpenAICompatibleLLM", "llm"),
        ("deepeval.models.system_one.typesafe", "TypeSafeModel", "s1"),
    ):
        try:
            klass = getattr(importlib.import_module(module), cls)
        except (ImportError, AttributeError):
            continue
        post = getattr(klass, "_post", None)
        if post is None or getattr(post, "_bench_stamped", False):
            continue

        def stamped(self: Any, *args: Any, _post: Any = post, _kind: str = kind, **kwargs: Any) -> Any:
            async def run() -> Any:
                t0 = time.monotonic()
                try:
                    return await _post(self, *args, **kwargs)
                finally:
                    _CLIENT_CALLS.append((t0, time.monotonic(), _kind))

            return run()

        stamped._bench_stamped = True  # type: ignore[attr-defined]
        klass._post = stamped


def _run_phase(phase: dict[str, Any], mode: str | None, include_reason: bool) -> dict[str, Any]:
    from deepeval import evaluate
    from deepeval.evaluate import AsyncConfig, CacheConfig, DisplayConfig, ErrorConfig

    cases = _build_cases(phase["kind"], phase["cases"])
    metrics = [_build_metric(n, mode, include_reason) for n in phase["metrics"]]
    async_config = AsyncConfig(
        **_kwargs_for(AsyncConfig, {"run_async": True, "max_concurrent": phase["max_concurrent"]})
    )
    display_config = DisplayConfig(
        **_kwargs_for(
            DisplayConfig,
            {
                "show_indicator": False,
                "print_results": False,
                "inspect_after_run": False,
                "verbose_mode": False,
            },
        )
    )
    cache_config = CacheConfig(**_kwargs_for(CacheConfig, {"write_cache": False, "use_cache": False}))
    error_config = ErrorConfig(**_kwargs_for(ErrorConfig, {"ignore_errors": True}))
    rss_before = _current_rss_mib()
    profiler = None
    if phase.get("profile"):
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
    _stamp_client_posts()
    _CLIENT_CALLS.clear()
    cpu0 = _cpu_s()
    t0 = time.monotonic()
    result = evaluate(
        cases,
        metrics,
        async_config=async_config,
        display_config=display_config,
        cache_config=cache_config,
        error_config=error_config,
    )
    t1 = time.monotonic()
    cpu = _cpu_s() - cpu0
    profile_text = None
    if profiler is not None:
        import io
        import pstats

        profiler.disable()
        buf = io.StringIO()
        stats = pstats.Stats(profiler, stream=buf)
        stats.sort_stats("tottime").print_stats(25)
        stats.sort_stats("cumulative").print_stats(40)
        profile_text = buf.getvalue()
    per_metric: dict[str, dict[str, Any]] = {}
    n_results = 0
    for tr in result.test_results:
        for md in tr.metrics_data or []:
            n_results += 1
            slot = per_metric.setdefault(
                md.name,
                {"scores": [], "errors": [], "n_errors": 0, "models": set(), "skipped": 0, "named": []},
            )
            slot["named"].append(
                [getattr(tr, "name", None), md.score, str(md.error)[:200] if md.error else None]
            )
            if getattr(md, "skipped", False):
                slot["skipped"] += 1
            elif md.error:
                slot["n_errors"] += 1
                if len(slot["errors"]) < 20:
                    slot["errors"].append(str(md.error)[:300])
            elif md.score is not None:
                slot["scores"].append(float(md.score))
            if getattr(md, "evaluation_model", None):
                slot["models"].add(str(md.evaluation_model))
    for slot in per_metric.values():
        slot["models"] = sorted(slot["models"])
    return {
        "start": t0,
        "end": t1,
        "rss_before_mib": rss_before,
        "rss_after_mib": _current_rss_mib(),
        "wall_s": t1 - t0,
        "cpu_s": cpu,
        "n_test_results": len(result.test_results),
        "n_metric_results": n_results,
        "metrics": per_metric,
        "profile": profile_text,
        "client_calls": list(_CLIENT_CALLS),
    }


def main() -> int:
    job_path, out_path = sys.argv[1], sys.argv[2]
    job = json.loads(open(job_path, encoding="utf-8").read())
    out: dict[str, Any] = {"phases": [], "error": None}
    t0 = time.monotonic()
    try:
        import deepeval
        import deepeval.metrics

        out["deepeval_version"] = getattr(deepeval, "__version__", "?")
        out["deepeval_file"] = deepeval.__file__
        out["import_s"] = time.monotonic() - t0
        for phase in job["phases"]:
            out["phases"].append(_run_phase(phase, job["mode"], job.get("include_reason", True)))
    except BaseException as exc:  # report, do not hide: the parent prints it
        out["error"] = f"{type(exc).__name__}: {exc}"[:2000]
        out["traceback"] = traceback.format_exc()[-4000:]
    out["peak_rss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    with open(out_path, "w", encoding="utf-8") as fh:
        json.dump(out, fh)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
