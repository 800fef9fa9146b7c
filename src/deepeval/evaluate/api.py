"""Public entry points: :func:`evaluate`, :func:`a_evaluate` and :func:`assert_test`.

Heavy modules (the runner, rich, jinja2, sqlite) are imported inside the functions so that ``import deepeval``
stays cheap.
"""

from __future__ import annotations

import asyncio
import datetime as _dt
import os
import time
import uuid
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from deepeval._files import user_path
from deepeval._gc import older_objects_frozen
from deepeval._safe_text import terminal
from deepeval.errors import ConfigurationError
from deepeval.evaluate import session
from deepeval.evaluate.configs import AsyncConfig, CacheConfig, DisplayConfig, ErrorConfig
from deepeval.evaluate.results import EvaluationResult, evaluation_error, failing_rows

if TYPE_CHECKING:
    from deepeval.evaluate.backends.ray.backend import RayConfig
    from deepeval.evaluate.cache import ResultCache
    from deepeval.evaluate.runner import Runner
    from deepeval.metrics.base_metric import BaseMetric
    from deepeval.test_case import ConversationalTestCase, LLMTestCase


def metric_list(metrics: Any, where: str, *, hint: str = "") -> list[Any]:
    """``metrics`` (one metric, or an iterable of them) as a list, every item a ``BaseMetric``; ``where`` names the
    argument in the ``TypeError`` (``hint`` is added to an item's).

    Raises:
        TypeError: not a metric or an iterable of them, or an item that is not a ``BaseMetric``.
    """
    from deepeval.metrics.base_metric import BaseMetric

    if isinstance(metrics, BaseMetric):
        return [metrics]
    if isinstance(metrics, (str, bytes)) or not isinstance(metrics, Iterable):
        raise TypeError(
            f"{where} must be a list of metrics (BaseMetric subclasses), got {type(metrics).__name__}"
        )
    items = list(metrics)
    for j, m in enumerate(items):
        if not isinstance(m, BaseMetric):
            raise TypeError(
                f"{where}[{j}] is a {type(m).__name__}; metrics must subclass deepeval.metrics.BaseMetric{hint}"
            )
    return items


def _check_inputs(test_cases: Any, metrics: Any, repeat: Any) -> tuple[list[Any], list[Any]]:
    from deepeval.test_case import ConversationalTestCase, LLMTestCase

    if isinstance(test_cases, (LLMTestCase, ConversationalTestCase)):
        test_cases = [test_cases]
    if isinstance(test_cases, (str, bytes)) or not isinstance(test_cases, Iterable):
        raise TypeError(
            f"test_cases must be a list of LLMTestCase / ConversationalTestCase, got {type(test_cases).__name__}"
        )
    mets = metric_list(metrics, "metrics")
    cases = list(test_cases)
    if not cases:
        raise ValueError("evaluate() needs at least one test case; test_cases is empty")
    if not mets:
        raise ValueError("evaluate() needs at least one metric; metrics is empty")
    for i, tc in enumerate(cases):
        if not isinstance(tc, (LLMTestCase, ConversationalTestCase)):
            raise TypeError(
                f"test_cases[{i}] is a {type(tc).__name__}; expected LLMTestCase or ConversationalTestCase"
            )
    if not isinstance(repeat, int) or isinstance(repeat, bool) or repeat < 1:
        raise ConfigurationError(f"repeat must be an integer >= 1, got {repeat!r}")
    check_metrics_fit(cases, mets)
    check_some_metric_decides(mets)
    return cases, mets


def check_metrics_fit(cases: list[Any], mets: list[Any]) -> None:
    """Every metric fits some test case and every kind of test case (single-turn, conversational) has a metric that
    fits it; deepeval 4.3.1's message, then why.

    deepeval 4.3.1 refuses every pair that does not fit, so any mix of ``LLMTestCase`` and ``ConversationalTestCase``
    fails there. Ours (deliberate): a mix runs when each test case has a metric of its kind, the other pairs are
    skipped rows with the reason; what is refused is a metric that would measure nothing and a test case that no
    metric would measure (which would otherwise pass without a score).

    Raises:
        ValueError: ``Metric <name> is not a valid metric for LLMTestCase.`` (or ``ConversationalTestCase``).
    """
    from deepeval.evaluate.rows import metric_name
    from deepeval.metrics.base_metric import BaseConversationalMetric
    from deepeval.test_case import ConversationalTestCase

    kinds = {isinstance(tc, ConversationalTestCase) for tc in cases}
    fitting = {isinstance(m, BaseConversationalMetric) for m in mets}
    names = {False: "LLMTestCase", True: "ConversationalTestCase"}
    for m in mets:
        conversational = isinstance(m, BaseConversationalMetric)
        if conversational not in kinds:
            other = names[not conversational]
            raise ValueError(
                f"Metric {metric_name(m)} is not a valid metric for {other}. (every test case here is a {other}; "
                f"it is a {'conversational' if conversational else 'single-turn'} metric and would measure none)"
            )
    for kind in sorted(kinds - fitting):
        raise ValueError(
            f"Metric {metric_name(mets[0])} is not a valid metric for {names[kind]}. (no metric here fits a "
            f"{names[kind]}, so those test cases would be measured by nothing; add a "
            f"{'conversational' if kind else 'single-turn'} metric or leave them out)"
        )


def check_some_metric_decides(mets: list[Any]) -> None:
    """deepeval 4.3.1's rule for ``evaluate()`` and ``assert_test``: at least one metric that is not flaky has a
    threshold, else no test case could pass or fail (a score-only metric, ``threshold=None``, may run beside it).

    Raises:
        ValueError: deepeval 4.3.1's message.
    """
    if not any(getattr(m, "threshold", None) is not None and not getattr(m, "flaky", False) for m in mets):
        raise ValueError(
            "You must provide at least one non-flaky metric with a 'threshold', otherwise test cases can never "
            "pass or fail."
        )


async def a_evaluate(
    test_cases: list[LLMTestCase] | list[ConversationalTestCase] | list[Any],
    metrics: list[BaseMetric],
    async_config: AsyncConfig | None = None,
    display_config: DisplayConfig | None = None,
    cache_config: CacheConfig | None = None,
    error_config: ErrorConfig | None = None,
    repeat: int = 1,
    identifier: str | None = None,
    backend: str = "local",
    ray_config: RayConfig | None = None,
    hyperparameters: dict[str, Any] | None = None,
    metric_collection: str | None = None,
) -> EvaluationResult:
    """Async :func:`evaluate` (same arguments, result and errors); awaits on the caller's event loop. SIGINT and
    SIGTERM stop it as they stop :func:`evaluate` (``_concurrency.signals_cancel_this_task``): the rows it finished
    are written, then ``KeyboardInterrupt`` / ``SystemExit(143)``."""
    from deepeval._concurrency import signals_cancel_this_task

    error_config = error_config or ErrorConfig()
    with signals_cancel_this_task():
        result, first_exception = await _a_run(
            test_cases,
            metrics,
            async_config,
            display_config,
            cache_config,
            error_config,
            repeat,
            identifier,
            backend,
            ray_config,
            hyperparameters,
            metric_collection,
        )
    raise_for_errors(result, error_config, first_exception)
    return result


async def _a_run(
    test_cases: Any,
    metrics: Any,
    async_config: AsyncConfig | None,
    display_config: DisplayConfig | None,
    cache_config: CacheConfig | None,
    error_config: ErrorConfig,
    repeat: int,
    identifier: str | None,
    backend: str,
    ray_config: RayConfig | None,
    hyperparameters: dict[str, Any] | None,
    metric_collection: str | None,
) -> tuple[EvaluationResult, BaseException | None]:
    """:func:`a_evaluate` without raising for errored rows: the published result and the first exception a
    measure raised (None when no measure raised)."""
    async_config = async_config or AsyncConfig()
    display_config = display_config or DisplayConfig()
    cache_config = cache_config or CacheConfig()
    async_config.validate()
    display_config.display()  # validates display_option before anything is measured
    cases, mets = _check_inputs(test_cases, metrics, repeat)
    hyper = process_hyperparameters(hyperparameters)
    if metric_collection is not None:
        _warn_once(
            "metric_collection",
            f"evaluate(metric_collection={metric_collection!r}) runs a metric collection on Confident AI, which "
            "this deepeval does not connect to; it is ignored and only the metrics passed here run",
        )
    if backend not in ("local", "ray"):
        raise ConfigurationError(f'backend must be "local" or "ray", got {backend!r}')
    if ray_config is not None and backend != "ray":
        raise ConfigurationError('ray_config is set but backend is "local"; pass backend="ray" to run on Ray')
    _check_output_folders(display_config)

    started = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
    t0 = time.perf_counter()

    def save_interrupted(partial: Any) -> None:
        _save_interrupted(
            partial, started, time.perf_counter() - t0, identifier, hyper, repeat, display_config
        )

    if backend == "ray":
        # the same rows, computed by blocks on a Ray cluster (deepeval.evaluate.backends.ray.backend)
        out: Any = await _run_on_ray(
            cases, mets, async_config, display_config, cache_config, error_config, repeat, ray_config
        )
    else:
        out = await run_locally(
            cases,
            mets,
            async_config,
            display_config,
            cache_config,
            error_config,
            repeat,
            on_interrupt=save_interrupted,
        )
    result = _result(
        out, started, time.perf_counter() - t0, identifier, hyper, repeat, dict(getattr(out, "extras", {}))
    )
    publish(result, display_config)
    return result, getattr(out, "first_exception", None)


async def run_locally(
    cases: list[Any],
    mets: list[Any],
    async_config: AsyncConfig,
    display_config: DisplayConfig,
    cache_config: CacheConfig,
    error_config: ErrorConfig,
    repeat: int,
    case_metrics: list[list[Any]] | None = None,
    on_interrupt: Callable[[Any], None] | None = None,
) -> Any:
    """The local backend: a :class:`~deepeval.evaluate.runner.Runner` over the cases (with their own metric lists
    when ``case_metrics`` is given), the result cache opened and closed around it (:func:`open_cache`), the
    progress bar shown. Cancelled (SIGINT, SIGTERM, a cancelled task): ``on_interrupt`` gets what was finished
    (:meth:`~deepeval.evaluate.runner.Runner.interrupted_output`) before the cancellation goes on."""
    from deepeval.evaluate.display import Progress
    from deepeval.evaluate.runner import Runner

    cache, cache_error = open_cache(cache_config)
    rows: int | list[int] = len(mets) * repeat
    if case_metrics is not None:
        rows = [len(m) * repeat for m in case_metrics]
    runner: Runner | None = None
    try:
        with Progress(len(cases), rows, display_config.show_indicator) as progress:
            runner = Runner(
                cases,
                mets,
                async_config,
                display_config,
                cache_config,
                error_config,
                repeat,
                cache,
                progress.advance,
                case_metrics=case_metrics,
            )
            with older_objects_frozen():  # no full GC pass over pre-run objects mid-run: see deepeval._gc
                out = await runner.run()
    except asyncio.CancelledError:  # SIGINT, SIGTERM or a cancelled task: keep what was finished, then stop
        if runner is not None and on_interrupt is not None:
            on_interrupt(runner.interrupted_output())
        raise
    finally:
        if cache is not None:
            cache.close()
    if cache_error is not None:
        out.extras["cache_error"] = cache_error
    return out


async def _run_on_ray(
    cases: list[Any],
    mets: list[Any],
    async_config: AsyncConfig,
    display_config: DisplayConfig,
    cache_config: CacheConfig,
    error_config: ErrorConfig,
    repeat: int,
    ray_config: RayConfig | None,
) -> Any:
    from deepeval.evaluate.backends.ray.backend import run_on_ray
    from deepeval.evaluate.display import Progress

    cache, cache_error = open_cache(cache_config)  # opened here: an unusable file fails before any block
    try:
        with Progress(len(cases), len(mets) * repeat, display_config.show_indicator) as progress:
            out: Any = await run_on_ray(
                cases,
                mets,
                async_config,
                display_config,
                cache_config,
                error_config,
                repeat,
                None if cache is None else cache.path,
                progress.advance,
                ray_config,
            )
            if cache_error is not None:
                out.extras["cache_error"] = cache_error
            return out
    finally:
        if cache is not None:
            cache.close()


def publish(result: EvaluationResult, display_config: DisplayConfig) -> None:
    """What every run does with its result: keep it as the latest run, warn about fields replaced in the exports,
    write the export files and print the table."""
    from deepeval.evaluate.display import print_results

    session.set_latest(result)
    _warn_not_exported(result)
    _export(result, display_config)
    _keep(result, display_config)
    if display_config.print_results:
        print_results(
            result,
            display_config.display(),
            truncate_passing_cases=display_config.truncate_passing_cases,
            full_reason=display_config.show_full_reason,
        )


def _keep(result: EvaluationResult, display_config: DisplayConfig) -> None:
    """Keep a run whose results are shown or exported in ``.deepeval/runs/`` for ``deepeval view`` (best effort)."""
    if display_config.print_results or "json_path" in result.extras:
        from deepeval.evaluate.latest import keep_latest

        keep_latest(result)


def raise_for_errors(
    result: EvaluationResult, error_config: ErrorConfig, first_exception: BaseException | None = None
) -> None:
    """Raise :func:`evaluation_error` when rows errored and ``ignore_errors`` is off, chained to the first exception
    a measure raised (when one did)."""
    if result.errors and not error_config.ignore_errors:
        raise evaluation_error(result) from first_exception


def _result(
    out: Any,
    started: str,
    duration_s: float,
    identifier: str | None,
    hyper: dict[str, str] | None,
    repeat: int,
    extras: dict[str, Any],
) -> EvaluationResult:
    """The run's :class:`EvaluationResult` from a backend's output (finished or interrupted), with a new run id."""
    return EvaluationResult(
        test_results=out.test_results,
        run_id=uuid.uuid4().hex,
        identifier=identifier,
        hyperparameters=hyper,
        started_at=started,
        duration_s=duration_s,
        repeat=repeat,
        cache_hits=out.cache_hits,
        system_one_batches=out.system_one_batches,
        extras=extras,
    )


def _save_interrupted(
    out: Any,
    started: str,
    duration_s: float,
    identifier: str | None,
    hyper: dict[str, str] | None,
    repeat: int,
    display_config: DisplayConfig,
) -> None:
    """The result of an interrupted ``evaluate()`` (every row; the unfinished ones errors saying so;
    ``extras["interrupted"]`` says what stopped it and how much was done), kept by :func:`keep_interrupted`."""
    keep_interrupted(
        lambda note: _result(out, started, duration_s, identifier, hyper, repeat, {"interrupted": note}),
        out,
        display_config,
    )


def keep_interrupted(
    build: Callable[[str], EvaluationResult],
    out: Any,
    display_config: DisplayConfig,
    done: str | None = None,
) -> None:
    """An interrupted run's result (``evaluate()`` or ``evals_iterator``; ``build(note)`` makes it from the note
    ``"SIGTERM: 3 of 6 rows finished"``) becomes the latest result and is exported like a finished one; one stderr
    line says where. ``done`` says how much was done when that is not ``out``'s rows (``evals_iterator`` stopped
    in its app phase). Never raises: the interruption itself must go on."""
    import sys

    from deepeval._concurrency import stop_reason, writing_interrupted_results
    from deepeval._files import pending_save

    held = _hold_signals()  # a second Ctrl-C during the short save lost every row (h-break)
    try:
        # a thread waiting for this run on a worker thread waits for these files too (h-break 2: one Ctrl-C left
        # the HTML report of 6,000 rows as a .tmp file)
        with writing_interrupted_results():
            reason = stop_reason()
            said = done or f"{out.finished} of {out.total} rows finished"
            result = build(f"{reason or 'task cancelled'}: {said}")
            with pending_save(lambda: _unwritten_reports(display_config, said)):
                _write_interrupted(result, display_config, stopped_by(reason), said)
    except Exception as err:  # pragma: no cover - a bug here must not mask the interruption
        print(f"deepeval: the interrupted run's rows could not be written ({err})", file=sys.stderr)
    finally:
        _release_signals(held)


def stopped_by(reason: str | None) -> str:
    """How the stop of a run is said: ``"run stopped by SIGTERM"``, or, with no signal (an asyncio task of the
    application cancelled it), ``"run cancelled (its asyncio task was cancelled)"``."""
    return f"run stopped by {reason}" if reason else "run cancelled (its asyncio task was cancelled)"


def _unwritten_reports(display_config: DisplayConfig, done: str) -> str:
    """What an interrupted run's save had not written when the process ended (outside attack M2: only the report
    being written was named, not the ones after it); :func:`deepeval._files.pending_save` adds the files written."""
    kinds = "test_run_*.json, run-*.json and run-*.html"
    if display_config.file_output_dir:
        kinds += f", and the report in {display_config.file_output_dir}"
    folder = _results_folder(display_config) or "(no results folder)"
    return f"the interrupted run's reports ({done}) were not all written: stopped while saving {kinds} in {folder}"


def _write_interrupted(
    result: EvaluationResult, display_config: DisplayConfig, stopped: str, done: str
) -> None:
    """Export an interrupted run's result and keep it for ``deepeval view``; one stderr line says where."""
    import sys

    session.set_latest(result)
    _export(result, display_config)
    _keep(result, display_config)
    where = result.extras.get("json_path") or result.extras.get("latest_path")
    if where:
        written = f"written to {where} (deepeval view)"
    elif display_config.file_output_dir:  # deepeval's own report option (file_type md / html)
        written = f"the report is in {display_config.file_output_dir}"
    elif _has_results_folder(display_config):  # the export was tried and failed (its error was printed above)
        written = "the report could not be written (see the error above)"
    else:
        written = "no results folder, so no report was written"
    print(f"deepeval: {stopped}: {done}; {written}", file=sys.stderr)


def _hold_signals() -> dict[int, Any]:
    """Ignore SIGINT and SIGTERM (main thread only; signals can be set nowhere else) while an interrupted run's
    finished rows are written; returns the handlers to put back."""
    import signal
    import threading

    held: dict[int, Any] = {}
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM):
            try:
                held[sig] = signal.signal(sig, signal.SIG_IGN)
            except (ValueError, OSError):  # pragma: no cover - an embedding interpreter without signals
                pass
    return held


def _release_signals(held: dict[int, Any]) -> None:
    import signal

    for sig, handler in held.items():
        if handler is None:  # set outside Python (seen while asyncio.run unwinds): Python's own default
            handler = signal.default_int_handler if sig == signal.SIGINT else signal.SIG_DFL
        signal.signal(sig, handler)


def open_cache(cache_config: CacheConfig) -> tuple[ResultCache | None, str | None]:
    """The run's result cache (None when caching is off) and, when the default cache could not be opened for a run
    that only writes it, why (also printed as one stderr line; the run goes on uncached).

    Raises:
        ConfigurationError: the cache cannot be used and the run reads it (``use_cache``) or its path was chosen
            (``cache_path``, ``DEEPEVAL_CACHE_PATH``): checked before anything is measured.
    """
    import sys

    from deepeval.config import get_settings
    from deepeval.config.settings import read_only
    from deepeval.evaluate.cache import CacheUnusableError, ResultCache, default_cache_path

    if not (cache_config.use_cache or cache_config.write_cache) or read_only():
        return None, None  # DEEPEVAL_FILE_SYSTEM=READ_ONLY: no cache file, as deepeval 4.3.1
    chosen = bool(cache_config.cache_path or get_settings().get("DEEPEVAL_CACHE_PATH"))
    try:
        return ResultCache(cache_config.cache_path or default_cache_path()), None
    except CacheUnusableError as err:
        if cache_config.use_cache or chosen:
            raise
        message = (
            f"the result cache at {err.path} cannot be used ({err.problem}); this run is measured without it and "
            "writes nothing there (move that file away, or set DEEPEVAL_CACHE_PATH)"
        )
        print(f"deepeval: {message}", file=sys.stderr)
        return None, message


_WARNED: set[str] = set()


def _warn_once(key: str, message: str) -> None:
    """A ``UserWarning`` the first time ``key`` comes up in this process (an option that does nothing here)."""
    import warnings

    if key not in _WARNED:
        _WARNED.add(key)
        warnings.warn(message, UserWarning, stacklevel=4)


def process_hyperparameters(hyperparameters: Any) -> dict[str, str] | None:
    """``evaluate(hyperparameters=...)`` as deepeval keeps it: string keys, values as strings, None values dropped.

    Raises:
        TypeError: not a dict, a key that is not a string, or a value that is not a str, int or float.
    """
    if hyperparameters is None:
        return None
    if not isinstance(hyperparameters, dict):
        raise TypeError(f"Hyperparameters must be a dictionary or None, got {type(hyperparameters).__name__}")
    out: dict[str, str] = {}
    for key, value in hyperparameters.items():
        if not isinstance(key, str):
            raise TypeError(f"Hyperparameter key {key!r} must be a string")
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            raise TypeError(
                f"Hyperparameter value for key {key!r} must be a string, integer or float, got {type(value).__name__}"
            )
        out[key] = str(value)
    return out


def _has_results_folder(display_config: DisplayConfig) -> bool:
    try:
        return _results_folder(display_config) is not None
    except ConfigurationError:
        return False


def _results_folder(display_config: DisplayConfig) -> str | None:
    """The folder of the run's JSON and HTML files: ``results_folder`` (or ``DEEPEVAL_RESULTS_FOLDER``), with
    ``results_subfolder`` inside it.

    Raises:
        ConfigurationError: ``results_subfolder`` is absolute, has a ``..`` component or leads out of the results
            folder through a link (deliberate: it stays inside, see :mod:`deepeval._safe_path`).
    """
    from deepeval._safe_path import UnsafePathError, inside
    from deepeval.config import get_settings

    folder = display_config.results_folder
    if folder is None and not display_config._session_report:
        folder = get_settings().get("DEEPEVAL_RESULTS_FOLDER")
    if folder and display_config.results_subfolder:
        try:
            return str(
                inside(user_path(folder), display_config.results_subfolder, "DisplayConfig.results_subfolder")
            )
        except UnsafePathError as err:
            raise ConfigurationError(f"{err} (nothing was measured)") from None
    return str(folder) if folder else None


def _check_output_folders(display_config: DisplayConfig) -> None:
    """Refuse, before anything is measured, an export folder that can never be created or written.

    The folder itself, or the nearest ancestor that exists, must be a directory we may write to.

    Raises:
        ConfigurationError: naming the option and the path (an existing file, or a folder without write access).
    """
    for option, folder in (
        ("results_folder", _results_folder(display_config)),
        ("file_output_dir", display_config.file_output_dir),
    ):
        if not folder:
            continue
        path = os.path.abspath(user_path(folder))
        probe = path
        while not os.path.exists(probe):
            parent = os.path.dirname(probe)
            if parent == probe:
                break
            probe = parent
        if os.path.exists(probe) and not os.path.isdir(probe):
            where = "" if probe == path else f" ({probe} is a file)"
            raise ConfigurationError(
                f"DisplayConfig.{option} {folder!r} cannot be a results folder: it exists and is not a "
                f"directory{where}; pick another folder (nothing was measured)"
            )
        if os.path.isdir(probe) and not os.access(probe, os.W_OK | os.X_OK):
            raise ConfigurationError(
                f"DisplayConfig.{option} {folder!r} is not writable (no write access to {probe}); pick another "
                "folder (nothing was measured)"
            )


def _warn_not_exported(result: EvaluationResult) -> None:
    """One warning for the whole run when some test-case fields (metadata that holds itself, nests too deep or
    holds a huge int) are replaced by placeholders in the result and its exports; the rows were measured."""
    import warnings

    found = [(t.name, p) for t in result.test_results for p in t.not_exported()]
    if not found:
        return
    result.extras["not_exported"] = [f"{name}: {p}" for name, p in found]
    name, first = found[0]
    more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
    warnings.warn(
        f"{len(found)} test-case field(s) cannot be written to a report and are replaced by a placeholder in the "
        f"result and its exports; first: test case {name!r}: {first}{more}. Their metric rows were measured.",
        RuntimeWarning,
        stacklevel=3,
    )


def _export(result: EvaluationResult, display_config: DisplayConfig) -> None:
    """Write the export files; any failure (disk full, folder removed mid-run, unserialisable metadata) is warned
    about and recorded in ``result.extras["export_error"]``, never raised, so the measured result is not lost."""
    import warnings

    from deepeval.evaluate.report import export_report_file, export_run, export_test_cases
    from deepeval.evaluate.test_run_file import write_test_run_file

    folder = _results_folder(display_config)
    try:
        if folder:
            # deepeval's documented file first (test_run_<time>.json), then ours (whole result, HTML report)
            result.extras["test_run_path"] = str(write_test_run_file(result, folder))
            json_path, html_path = export_run(result, folder)
            result.extras["json_path"], result.extras["html_path"] = str(json_path), str(html_path)
        if display_config.file_output_dir and display_config.file_type:  # the report writers expand "~"
            path = export_report_file(result, display_config.file_output_dir, display_config.file_type)
            result.extras["report_path"] = str(path)
        elif display_config.file_output_dir:
            export_test_cases(result, display_config.file_output_dir)
    except Exception as err:  # never lose a measured run to its export (disk full, odd metadata, a bug here)
        message = (
            f"could not write the result files ({type(err).__name__}: {err}); the result is still returned"
        )
        result.extras["export_error"] = message
        warnings.warn(message, RuntimeWarning, stacklevel=2)


def evaluate(
    test_cases: list[LLMTestCase] | list[ConversationalTestCase] | list[Any],
    metrics: list[BaseMetric],
    async_config: AsyncConfig | None = None,
    display_config: DisplayConfig | None = None,
    cache_config: CacheConfig | None = None,
    error_config: ErrorConfig | None = None,
    repeat: int = 1,
    identifier: str | None = None,
    backend: str = "local",
    ray_config: RayConfig | None = None,
    hyperparameters: dict[str, Any] | None = None,
    metric_collection: str | None = None,
) -> EvaluationResult:
    """Run every metric on every test case and return the results in input order.

    Args:
        test_cases: ``LLMTestCase`` and/or ``ConversationalTestCase`` objects (a single one is accepted too).
            Single-turn metrics run on ``LLMTestCase``; conversational metrics (``BaseConversationalMetric``) on
            ``ConversationalTestCase``. A pair that does not match is **skipped** (a row with ``skipped=True`` and
            the reason), so mixed datasets work and no row is missing.
        metrics: metric objects; each is copied per test case with ``fresh_copy()``, the originals are untouched.
        async_config: concurrency (``max_concurrent`` measures in flight, ``throttle_value`` seconds between
            starts, optional per-measure ``measure_timeout``). Defaults: ``AsyncConfig()``.
        display_config: progress bar, console table, JSON/HTML export (``results_folder`` or
            ``DEEPEVAL_RESULTS_FOLDER``). Defaults: ``DisplayConfig()``.
        cache_config: SQLite result cache (``write_cache`` on by default, ``use_cache`` off).
        error_config: ``ignore_errors`` / ``skip_on_missing_params`` (see :class:`ErrorConfig`).
        repeat: run each metric ``repeat`` times per test case; each row then carries :class:`RepeatStats`
            (scores, mean, population std, pass rate) and its score is the mean.
        identifier: a label stored in the result, shown in the report title and used in export file names.
        backend: ``"local"`` (this process) or ``"ray"``: the same runner on a Ray cluster, in blocks of test
            cases, with worker-crash retries, a shared cache and cluster-wide judge rate limits; same rows
            (needs the ``ray`` extra; see :mod:`deepeval.evaluate.backends.ray.backend`).
        hyperparameters: ``{name: str | int | float | None}`` describing the run (model, prompt version, top-k...);
            kept as deepeval keeps them (values as strings, None values dropped) in ``result.hyperparameters``,
            the JSON export and the HTML report header.
        metric_collection: deepeval's Confident AI metric collection; accepted, warned about once, ignored.
        ray_config: :class:`~deepeval.evaluate.backends.ray.backend.RayConfig` for ``backend="ray"`` (cluster address,
            workers, block size, retries, cache folder, rate limits). Default: ``RayConfig()``.

    Returns:
        :class:`EvaluationResult` with one :class:`TestResult` per test case and one :class:`MetricData` per metric.

    Raises:
        TypeError / ValueError: bad or empty ``test_cases`` / ``metrics``; bad ``hyperparameters`` (TypeError).
        ConfigurationError: an invalid config value, ``repeat`` or ``backend``, an unusable cache file, or a
            ``results_folder`` / ``file_output_dir`` that is an existing file or not writable (checked before
            anything is measured; a later export failure only warns and sets ``result.extras["export_error"]``);
            ``RayNotInstalledError`` (a ConfigurationError) for ``backend="ray"`` without Ray installed.
        EvaluationError: after the whole run, when some rows errored and ``ignore_errors`` is False; its
            ``.result`` holds every row.
        KeyboardInterrupt / SystemExit(143): SIGINT / SIGTERM during the run (from sync code). The run is cancelled
            and what it finished is kept first: a result with every row (the unfinished ones errors saying
            ``interrupted: ...``) and ``extras["interrupted"]`` (``"SIGTERM: 3 of 6 rows finished"``), exported
            to ``results_folder`` like a finished run and available as the latest result
            (``deepeval.test_run.global_test_run_manager.get_latest_test_run_data()``); one stderr line says
            where. SIGTERM is handled only when the application has no handler of its own.

    Works from sync code (own event loop) and inside a running loop (Jupyter, FastAPI, pytest-asyncio: the run
    goes to a worker thread; no ``nest_asyncio``). In async code prefer ``await a_evaluate(...)``.
    """
    from deepeval._concurrency import run_sync

    return run_sync(
        a_evaluate(
            test_cases,
            metrics,
            async_config=async_config,
            display_config=display_config,
            cache_config=cache_config,
            error_config=error_config,
            repeat=repeat,
            identifier=identifier,
            backend=backend,
            ray_config=ray_config,
            hyperparameters=hyperparameters,
            metric_collection=metric_collection,
        )
    )


def assert_test_case(
    test_case: LLMTestCase | ConversationalTestCase | None,
    metrics: list[BaseMetric] | None,
    run_async: bool = True,
) -> None:
    """``assert_test(test_case, metrics)`` (:func:`deepeval.evaluate.assertions.assert_test`, ``deepeval.assert_test``):
    measure ``test_case`` with ``metrics`` and raise ``AssertionError`` if any non-flaky metric fails or errors.

    The message has one line per failed metric: name, score, threshold, and reason or error (with its kind:
    ``error (user_code): ...``, see :class:`~deepeval.errors.ErrorKind`). Under pytest (our
    plugin) the result is also recorded for the end-of-session table. ``deepeval test run`` options arrive through
    settings (process environment > ``.env.local`` > ``.env``): ``DEEPEVAL_USE_CACHE`` (-c), ``DEEPEVAL_IGNORE_ERRORS`` (-i: errors do not fail the
    assertion), ``DEEPEVAL_SKIP_ON_MISSING_PARAMS`` (-s), ``DEEPEVAL_VERBOSE_MODE`` (-v); ours: ``DEEPEVAL_REPEAT=K``
    measures each metric K times inside the call (``deepeval test run -r K`` instead runs the whole test K times).
    The cache is used only when ``DEEPEVAL_USE_CACHE`` is set (then also written).

    A test case marked ``flaky=True`` warns (``UserWarning``, same text) instead of raising, as in deepeval.

    Raises:
        AssertionError: some metric failed, or errored without raising (unless ignore-errors is on).
        Exception: the exception a metric's measure raised (a judge's error, ``MissingTestCaseParamsError``...),
            unchanged, as deepeval lets it through (unless ignore-errors is on); the other metrics were measured
            and the result recorded first.
        TypeError / ValueError: bad arguments, as in :func:`evaluate`.
    """
    __tracebackhide__ = True  # pytest: the failure points at the test, not at this function
    from deepeval.config.test_run_options import TestRunOptions

    if test_case is None or metrics is None:
        raise ValueError(
            "You must provide either ('golden' [+ 'metrics']) from inside a `deepeval test run` test, or a "
            "'test_case' with expectations, 'metrics', or 'classifiers'."
        )
    _check_assert_metrics(test_case, metrics)
    from deepeval.evaluate import session

    options = TestRunOptions.read()  # process environment > .env.local > .env, like every other key
    use_cache = options.use_cache
    repeat = options.repeat_count()
    ray_config = None
    if options.backend == "ray":
        from deepeval.evaluate.backends.ray.backend import RayConfig

        ray_config = RayConfig(address=options.ray_address)
    from deepeval._concurrency import run_sync

    result, first_exception = run_sync(
        _a_run(
            [test_case],
            list(metrics),
            AsyncConfig(run_async=run_async),
            DisplayConfig(
                show_indicator=False,
                print_results=False,
                verbose_mode=True if options.verbose_mode else None,
                # Under the pytest plugin the session writes one DEEPEVAL_RESULTS_FOLDER report holding this result;
                # a second file per assert_test call would only duplicate it.
                _session_report=session.collecting(),
            ),
            CacheConfig(write_cache=use_cache, use_cache=use_cache),
            ErrorConfig(
                ignore_errors=True,
                skip_on_missing_params=options.skip_on_missing_params,
            ),
            repeat,
            None,
            options.backend,
            ray_config,
            None,
            None,
        )
    )
    test_result = result.test_results[0]
    node = pytest_node_id()
    if node is not None and test_case.name is None:
        test_result.name = node  # named like pytest names the test (and like the session table)
    session.record(test_result)
    raise_for_results(
        [test_result], first_exception, options.ignore_errors, getattr(test_case, "flaky", False)
    )


def raise_for_results(
    results: list[Any], first_exception: BaseException | None, ignore_errors: bool, flaky: bool
) -> None:
    """What ``assert_test`` does with its results: the exception a measure raised (unless errors are ignored), a
    skip (every row skipped, under pytest), a ``UserWarning`` for a flaky test case, else ``AssertionError`` naming
    every failing row."""
    __tracebackhide__ = True
    rows = [m for r in results for m in r.metrics_data]
    if first_exception is not None and not ignore_errors:
        if any(m.error is not None and not m.flaky for m in rows):
            # as deepeval: the exception a judge (or metric) raised reaches the test unchanged
            raise first_exception
    if all(r.status == "skipped" for r in results):
        reason = next((m.reason for m in rows if m.reason), "every metric was skipped")
        if pytest_node_id() is not None:  # under pytest: a skipped test, not a passed one
            import pytest

            pytest.skip(f"deepeval: {reason}")
        return
    failures = []
    for m in failing_rows(rows, ignore_errors=ignore_errors):
        score = "none" if m.score is None else f"{m.score:.4f}"
        threshold = "none" if m.threshold is None else f"{m.threshold:g}"
        detail = f"reason: {m.reason}"
        if m.error is not None:  # the kind (``MetricData.error_kind``) after the word, when the row has one
            detail = f"error ({m.error_kind}): {m.error}" if m.error_kind else f"error: {m.error}"
        # pytest prints this message on the terminal: escape sequences in a reason or error are shown inert
        failures.append(
            terminal(
                f"  - {m.name} (score: {score}, threshold: {threshold}, strict: {m.strict_mode}) {detail}"
            )
        )
    name = results[0].name
    if failures and flaky:
        # deepeval: a flaky test case's failure is reported, not raised, so it does not fail the run
        import warnings

        warnings.warn(
            f"Flaky test case {name!r} failed (not raised):\n" + "\n".join(failures),
            UserWarning,
            stacklevel=3,
        )
    elif failures:
        # the name's repr shows control characters as escapes
        raise AssertionError(f"Metrics failed on test case {name!r}:\n" + "\n".join(failures))


def _check_assert_metrics(test_case: Any, metrics: Any) -> None:
    """deepeval 4.3.1's check of ``assert_test(test_case, metrics)``: every metric fits the test case's kind.

    Raises:
        ValueError: deepeval 4.3.1's message.
    """
    from deepeval.metrics.base_metric import BaseConversationalMetric
    from deepeval.test_case import ConversationalTestCase, LLMTestCase

    if isinstance(metrics, (str, bytes)) or not isinstance(metrics, Iterable):
        return  # metric_list names the bad argument
    items = list(metrics)
    if isinstance(test_case, LLMTestCase) and any(isinstance(m, BaseConversationalMetric) for m in items):
        raise ValueError("All 'metrics' for an 'LLMTestCase' must be instances of 'BaseMetric' only.")
    if isinstance(test_case, ConversationalTestCase) and not all(
        isinstance(m, BaseConversationalMetric) for m in items
    ):
        raise ValueError(
            "All 'metrics' for an 'ConversationalTestCase' must be instances of 'BaseConversationalMetric' only."
        )


def pytest_node_id() -> str | None:
    """The running pytest test's node id (``test_file.py::test_rag[shoes]``), from ``PYTEST_CURRENT_TEST``."""
    from deepeval.config.environment import process_env

    current = process_env("PYTEST_CURRENT_TEST") or ""
    if not current:
        return None
    node = current.rsplit(" (", 1)[0]
    return node or None
