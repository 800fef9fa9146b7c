"""``deepeval evaluate FILE``: run metrics over test cases stored in a JSONL, JSON or CSV file.

Metrics are named by the metric registry (``answer_relevancy``, ``contextual_relevancy``, ``knowledge_retention``,
``memory_recall``, ``memory_precision``, and any a plugin declares) or given as an import path
``package.module:ClassName`` (constructed with ``threshold=`` when ``--threshold`` is given, else with no
arguments). Without ``--metric``: every declared metric whose ``cli_default`` fits the file (answer relevancy for
single-turn cases, contextual relevancy when some case has a retrieval context, knowledge retention for
conversations). Exit code: 0 when no test case failed or errored (a
skipped test case is reported as skipped, not as passed), 1 when some failed or errored, 2 for bad input (nothing
is run). ``--csv FILE`` writes one row per test case x metric (the columns of ``EvaluationResult.to_pandas()``).
Stopped by SIGINT or SIGTERM, the run still writes what it finished (``--results-folder`` report and ``--csv``, the
unfinished rows as ``interrupted`` errors) before it ends (exit 130 after Ctrl-C, 143 after SIGTERM).
"""

from __future__ import annotations

import importlib
from typing import Any

import typer

from deepeval.cli._echo import echo
from deepeval.cli.app import app
from deepeval.metrics import registry
from deepeval.metrics.declaration import MetricDeclaration, MetricLoadError


def _metric_class(spec: str) -> Any:
    """The class ``--metric`` names: a registry name, else an import path ``package.module:ClassName``; or a
    metric object at ``package.module:name`` (a metric its user defines, such as ``correctness = GEval(...)``)."""
    from deepeval.metrics.base_metric import BaseMetric

    if ":" not in spec:
        raise typer.BadParameter(
            f"unknown metric {spec!r}; use one of {', '.join(registry.names())} or an import path module:Class"
        )
    module_name, _, cls_name = spec.partition(":")
    if not module_name or not cls_name:
        raise typer.BadParameter(f"metric import path {spec!r} must look like package.module:ClassName")
    try:
        cls = getattr(importlib.import_module(module_name), cls_name)
    except (ImportError, AttributeError) as err:
        raise typer.BadParameter(f"cannot import metric {spec!r}: {err}") from None
    if isinstance(cls, BaseMetric):
        return cls
    if not (isinstance(cls, type) and issubclass(cls, BaseMetric)):
        raise typer.BadParameter(
            f"{spec!r} is a {type(cls).__name__}, not a deepeval metric class (a BaseMetric subclass) or object"
        )
    return cls


def _metric(spec: str, threshold: float | None, eval_mode: str | None) -> Any:
    from deepeval.errors import DeepEvalError

    kwargs: dict[str, Any] = {}
    if threshold is not None:
        kwargs["threshold"] = threshold
    declared = registry.find(spec)
    if declared is not None:
        if eval_mode is not None and declared.takes_eval_mode:
            kwargs["eval_mode"] = eval_mode
        elif eval_mode is not None:
            echo(
                f"deepeval evaluate: --eval-mode does not apply to {declared.name} (it has no eval mode)",
                err=True,
            )
        cls = registry.load(declared)  # MetricLoadError: exit 2 with its message
    else:
        cls = _metric_class(spec)
        if not isinstance(
            cls, type
        ):  # a metric object the user defined: used as given (threshold set when asked)
            if threshold is not None:
                cls.threshold = threshold
            if eval_mode is not None and hasattr(cls, "eval_mode"):
                cls.eval_mode = eval_mode
            return cls
    try:
        return cls(**kwargs)
    except DeepEvalError:  # ours (a bad --eval-mode...): its own message
        raise
    except Exception as err:  # any constructor failure is bad --metric input, not a crash
        raise typer.BadParameter(
            f"cannot construct metric {spec!r}: {type(err).__name__}: {err}{_build_hint(declared, err)}"
        ) from None


_IN_YOUR_CODE = "build it in your code and pass it as --metric your_module:metric_object"


def _build_hint(declared: MetricDeclaration | None, err: Exception) -> str:
    """What to do when ``--metric NAME`` cannot construct a metric with no arguments, from its declaration: a
    metric its user defines, or one whose constructor needs arguments (its ``example_args`` show them)."""
    if declared is not None and declared.user_defined:
        return f"; {declared.name} is a metric you define ({declared.public_name}(name=..., ...)): {_IN_YOUR_CODE}"
    if declared is not None and declared.example_args:
        example = ", ".join(f"{k}={_shown(v)}" for k, v in declared.example_args.items())
        return (
            f"; {declared.name} needs constructor arguments, for example {declared.public_name}({example}): "
            f"{_IN_YOUR_CODE}"
        )
    if isinstance(err, TypeError) and "required" in str(err):
        return f"; a metric whose constructor needs arguments is built in your code: {_IN_YOUR_CODE}"
    return ""


def _shown(value: Any) -> str:
    return value.__name__ if isinstance(value, type) else repr(value)


def _default_metrics(cases: list[Any]) -> list[str]:
    """The declared metrics whose ``cli_default`` fits some test case of the file."""
    from deepeval.test_case import ConversationalTestCase, LLMTestCase

    fits = {
        "single_turn": any(isinstance(c, LLMTestCase) for c in cases),
        "retrieval": any(isinstance(c, LLMTestCase) and c.retrieval_context for c in cases),
        "conversation": any(isinstance(c, ConversationalTestCase) for c in cases),
    }
    chosen = []
    for d in registry.declarations():
        if d.cli_default is None or not fits[d.cli_default]:
            continue
        try:
            registry.load(d)
        except (
            MetricLoadError
        ) as err:  # not asked for by name: one broken plugin does not stop the default run
            echo(f"deepeval evaluate: left out of the default metrics: {err}", err=True)
            continue
        chosen.append(d.name)
    return chosen


_IGNORE_HINT = "the table above has every row; pass -i (--ignore-errors) to treat errored rows as failures."


def _echo_files(result: Any) -> None:
    if "json_path" in result.extras:
        echo(f"results: {result.extras['json_path']} and {result.extras['html_path']}")
    if "export_error" in result.extras:
        echo(f"deepeval evaluate: {result.extras['export_error']}", err=True)


def _write_csv(result: Any, path: str) -> None:
    """Write the per-row CSV; a path that cannot be written is reported (exit 2), the table is already printed."""
    try:
        written = result.to_csv(path)
    except OSError as err:
        echo(f"deepeval evaluate: cannot write --csv {path}: {err}", err=True)
        raise typer.Exit(2) from None
    interrupted = result.extras.get("interrupted")
    note = f" (the run was interrupted: {interrupted.split(': ', 1)[-1]})" if interrupted else ""
    echo(f"rows: {written}{note}")


def _csv_of_interrupted_run(before: Any, csv_path: str | None) -> None:
    """After SIGINT / SIGTERM: write the CSV of the rows the run finished (evaluate() keeps that partial result,
    marked ``extras["interrupted"]``, as the latest result). Never raises: the interruption goes on."""
    from deepeval.evaluate import session

    latest = session.latest()
    if csv_path and latest is not before and latest is not None and latest.extras.get("interrupted"):
        try:
            _write_csv(latest, csv_path)
        except typer.Exit:
            pass


@app.command("evaluate")
def evaluate_file(
    path: str = typer.Argument(..., help="Test cases: .jsonl, .json or .csv"),
    metric: list[str] = typer.Option(
        None, "--metric", "-m", help="Metric name or module:Class (repeatable)."
    ),
    threshold: float | None = typer.Option(None, "--threshold", "-t", help="Threshold for every metric."),
    eval_mode: str | None = typer.Option(
        None, "--eval-mode", help="llm | hybrid | system_one (the metrics that take an eval mode)."
    ),
    max_concurrent: int = typer.Option(20, "--max-concurrent", help="Measures in flight."),
    use_cache: bool = typer.Option(False, "-c", "--use-cache", help="Serve rows from the result cache."),
    ignore_errors: bool = typer.Option(False, "-i", "--ignore-errors", help="Do not stop on metric errors."),
    skip_on_missing_params: bool = typer.Option(
        False,
        "-s",
        "--skip-on-missing-params",
        help="Skip (not error) a metric whose required test-case fields are missing.",
    ),
    repeat: int = typer.Option(1, "-r", "--repeat", min=1, help="Measure each metric K times."),
    display: str = typer.Option("all", "--display", help="Table rows: all | failing | passing."),
    results_folder: str | None = typer.Option(None, "--results-folder", help="Write JSON and HTML here."),
    no_progress: bool = typer.Option(False, "--no-progress", help="Hide the progress bar."),
    backend: str = typer.Option("local", "--backend", help="local | ray (needs the ray extra)."),
    ray_address: str | None = typer.Option(
        None, "--ray-address", help="Ray cluster to join (default: local)."
    ),
    ray_workers: int | None = typer.Option(None, "--ray-workers", min=1, help="Ray blocks running at once."),
    block_size: int | None = typer.Option(None, "--block-size", min=1, help="Test cases per Ray block."),
    csv_path: str | None = typer.Option(
        None, "--csv", help="Also write one row per test case x metric to this CSV file."
    ),
    full_reason: bool = typer.Option(False, "--full-reason", help="Print every reason and error in full."),
    skip_invalid: bool = typer.Option(
        False,
        "--skip-invalid",
        help="Skip test cases that are not valid (each is named on stderr) and evaluate the rest.",
    ),
) -> None:
    """Evaluate the test cases in PATH and print the results table."""
    from deepeval._safe_path import check_writable_file
    from deepeval.errors import DeepEvalError
    from deepeval.evaluate import (
        AsyncConfig,
        CacheConfig,
        DisplayConfig,
        ErrorConfig,
        EvaluationError,
        RayConfig,
        evaluate,
    )
    from deepeval.evaluate.api import check_metrics_fit, check_some_metric_decides
    from deepeval.evaluate.loading import load_test_cases

    try:
        invalid: list[str] | None = [] if skip_invalid else None
        cases = load_test_cases(path, invalid=invalid)
        for message in invalid or []:
            echo(f"deepeval evaluate: skipped {message}", err=True)
        if invalid:
            echo(
                f"deepeval evaluate: {len(invalid)} invalid test case(s) skipped, {len(cases)} evaluated",
                err=True,
            )
        specs = list(metric or []) or _default_metrics(cases)
        metrics = [_metric(s, threshold, eval_mode) for s in specs]
        check_metrics_fit(cases, metrics)  # evaluate()'s own checks, here so that they exit 2 with one line
        check_some_metric_decides(metrics)
        for option, given in (("--csv", csv_path), ("--results-folder", results_folder)):
            if given is not None and not given.strip():  # an empty path wrote nothing and said nothing
                raise ValueError(f"{option} needs a path (it was empty)")
        if csv_path:  # before any judge call: a path that cannot take the CSV would waste the run's work
            check_writable_file(csv_path, "--csv")
    except (DeepEvalError, ValueError, OSError) as err:
        echo(f"deepeval evaluate: {err}", err=True)
        raise typer.Exit(2) from None
    from deepeval.evaluate import session

    before = session.latest()
    try:
        result = evaluate(
            cases,
            metrics,
            async_config=AsyncConfig(max_concurrent=max_concurrent),
            display_config=DisplayConfig(
                show_indicator=not no_progress,
                print_results=True,
                display_option=display,
                results_folder=results_folder,
                show_full_reason=full_reason,
            ),
            cache_config=CacheConfig(write_cache=True, use_cache=use_cache),
            error_config=ErrorConfig(
                ignore_errors=ignore_errors, skip_on_missing_params=skip_on_missing_params
            ),
            repeat=repeat,
            backend=backend,
            ray_config=(
                RayConfig(address=ray_address, num_workers=ray_workers, block_size=block_size)
                if backend == "ray"
                else None
            ),
        )
    except (KeyboardInterrupt, SystemExit):  # SIGINT / SIGTERM: the rows it finished still go to --csv
        _csv_of_interrupted_run(before, csv_path)
        raise
    except EvaluationError as err:
        _echo_files(err.result)
        if csv_path:
            _write_csv(err.result, csv_path)
        echo(f"deepeval evaluate: {err.summary()}; {_IGNORE_HINT}", err=True)
        raise typer.Exit(1) from None
    except DeepEvalError as err:
        echo(f"deepeval evaluate: {err}", err=True)
        raise typer.Exit(2) from None
    _echo_files(result)
    if csv_path:
        _write_csv(result, csv_path)
    raise typer.Exit(1 if any(t.status in ("failed", "error") for t in result.test_results) else 0)
