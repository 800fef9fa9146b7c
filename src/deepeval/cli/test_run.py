"""``deepeval test run FILE|DIR|FILE::TEST``: run pytest with the deepeval plugin and print the results table.

Options reach ``assert_test`` and the pytest plugin as settings keys, handed off by
:class:`deepeval.config.test_run_options.TestRunOptions`: ``-c`` DEEPEVAL_USE_CACHE, ``-i`` DEEPEVAL_IGNORE_ERRORS, ``-s`` DEEPEVAL_SKIP_ON_MISSING_PARAMS (deepeval's
meaning, not pytest's ``-s``), ``-v`` DEEPEVAL_VERBOSE_MODE (metric verbose logs, not pytest verbosity), ``-r K``
runs every test K times (the plugin's ``--deepeval-repeat K``: the app code runs again each time, as deepeval's
``-r``), ``--backend`` DEEPEVAL_BACKEND, ``--ray-address`` DEEPEVAL_RAY_ADDRESS, ``--full-reason``
DEEPEVAL_SHOW_FULL_REASON (read by the plugin's table), ``-id NAME`` DEEPEVAL_TEST_RUN_IDENTIFIER (the run's identifier in the table's export), ``-d all|failing|passing``
DEEPEVAL_TEST_RUN_DISPLAY (which rows the results table shows). ``-x``/``-X``, ``-n N`` (pytest-xdist),
``-m MARK``, ``--durations N``, ``--pdb``, ``--color`` and ``-W`` (no warnings summary) go to pytest as pytest
options. ``-o/--official`` (a Confident AI baseline) is accepted and says once that it does nothing here. Any other
argument is passed to pytest unchanged (e.g. ``-k name``, ``--tb=short``). The exit code is pytest's.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import typer

from deepeval._install import extra_install_command
from deepeval.cli._echo import echo
from deepeval.cli.app import app
from deepeval.config.environment import process_env, restored_env
from deepeval.config.test_run_options import TestRunOptions
from deepeval.evaluate.configs import TestRunResultDisplay

test_app = typer.Typer(help="Run test files that use assert_test (pytest + the deepeval results table).")
app.add_typer(test_app, name="test")

#: pytest's exit code for usage errors
USAGE_ERROR = 4


@test_app.command(
    "run",
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
)
def run(
    ctx: typer.Context,
    path: str = typer.Argument(
        ...,
        help="Test file or folder, or a pytest node id (test_x.py::test_name, test_x.py::TestC::test_m[p]).",
    ),
    num_processes: int | None = typer.Option(
        None, "-n", "--num-processes", help="Parallel workers (pytest-xdist)."
    ),
    use_cache: bool = typer.Option(
        False, "-c", "--use-cache", help="Serve metric rows from the result cache."
    ),
    ignore_errors: bool = typer.Option(
        False, "-i", "--ignore-errors", help="Metric errors do not fail the test."
    ),
    skip_on_missing_params: bool = typer.Option(
        False, "-s", "--skip-on-missing-params", help="Skip metrics whose test-case fields are missing."
    ),
    verbose: bool = typer.Option(False, "-v", "--verbose", help="Turn on every metric's verbose mode."),
    repeat: int = typer.Option(1, "-r", "--repeat", min=1, help="Run each test K times (test_x[1-K]...)."),
    exit_on_first_failure: bool = typer.Option(
        False, "--exit-on-first-failure", "-x/-X", help="Stop at the first failure (-X: run on, the default)."
    ),
    backend: str = typer.Option(
        "local", "--backend", help="local | ray: where assert_test measures (ray extra)."
    ),
    ray_address: str | None = typer.Option(None, "--ray-address", help="Ray cluster for --backend ray."),
    identifier: str | None = typer.Option(
        None, "-id", "--identifier", help="Name this test run (the identifier of its exported results)."
    ),
    display: TestRunResultDisplay = typer.Option(
        TestRunResultDisplay.ALL,
        "-d",
        "--display",
        case_sensitive=False,
        help="Which test cases the table shows.",
    ),
    mark: str | None = typer.Option(
        None, "-m", "--mark", help="Run only tests matching this pytest mark expression."
    ),
    durations: int | None = typer.Option(
        None, "--durations", help="Show the N slowest tests (pytest --durations)."
    ),
    pdb: bool = typer.Option(False, "--pdb/--no-pdb", help="Start the debugger on failures (pytest --pdb)."),
    color: str | None = typer.Option(None, "--color", help="yes | no | auto (pytest --color)."),
    show_warnings: bool = typer.Option(
        True, "--show-warnings/--hide-warnings", "-w/-W", help="Show pytest's warnings summary (-W hides it)."
    ),
    official: bool = typer.Option(
        False,
        "-o",
        "--official",
        help="Accepted for compatibility: Confident AI baselines do not exist here.",
    ),
    full_reason: bool = typer.Option(
        False, "--full-reason", help="Print every reason and error in full in the results table."
    ),
) -> None:
    """Run pytest on PATH with the deepeval plugin; exit with pytest's exit code."""
    import pytest

    # a pytest node id names a file before its first "::"; only that file part has to exist
    file_part = path.split("::", 1)[0]
    if not Path(file_part).exists():
        echo(
            f"deepeval test run: {file_part} does not exist (give a test file or folder, or a node id FILE::TEST)",
            err=True,
        )
        raise typer.Exit(USAGE_ERROR)
    if backend not in ("local", "ray"):
        echo(f"deepeval test run: --backend must be local or ray, got {backend!r}", err=True)
        raise typer.Exit(USAGE_ERROR)
    ray_spec = importlib.util.find_spec("ray") if backend == "ray" else None
    if backend == "ray" and (
        ray_spec is None or ray_spec.origin in (None, "namespace")
    ):  # a bare folder named ray
        echo(
            f"deepeval test run: --backend ray needs Ray; install it with {extra_install_command('ray')}",
            err=True,
        )
        raise typer.Exit(USAGE_ERROR)
    # deepeval is imported before pytest starts, so pytest cannot rewrite its asserts: say nothing about it
    args = [
        path,
        "-W",
        "ignore:Module already imported so cannot be rewritten:pytest.PytestAssertRewriteWarning",
    ]
    if num_processes is not None:
        if num_processes < 1:
            echo("deepeval test run: -n must be >= 1", err=True)
            raise typer.Exit(USAGE_ERROR)
        if importlib.util.find_spec("xdist") is None:
            echo(
                "deepeval test run: -n needs pytest-xdist, which is not installed. Install it with "
                "`pip install pytest-xdist`, or run without -n.",
                err=True,
            )
            raise typer.Exit(USAGE_ERROR)
        args += ["-n", str(num_processes)]
    if exit_on_first_failure:
        args.append("-x")
    args += _pytest_options(mark, durations, pdb, color, show_warnings)
    if official:
        echo(
            "deepeval test run: --official marks a Confident AI baseline; this implementation keeps results "
            "local, so it has no effect.",
            err=True,
        )
    args += list(ctx.args)
    TestRunOptions(
        use_cache=use_cache,
        ignore_errors=ignore_errors,
        skip_on_missing_params=skip_on_missing_params,
        verbose_mode=verbose,
        show_full_reason=full_reason,
        repeat=None,  # -r K runs each test K times (below); DEEPEVAL_REPEAT stays the user's
        display=display.value,
        identifier=identifier,
        backend=backend,
        ray_address=ray_address,
    ).hand_off()
    if repeat > 1:
        args += ["--deepeval-repeat", str(repeat)]
    if process_env("PYTEST_DISABLE_PLUGIN_AUTOLOAD"):
        args += ["-p", "deepeval.plugins.pytest_plugin"]
    from deepeval.plugins.pytest_plugin import QuietAsyncioScope

    with restored_env("PYTEST_ADDOPTS"):  # QuietAsyncioScope passes its value to xdist workers through it
        code = int(pytest.main(args, plugins=[QuietAsyncioScope()]))
    from deepeval.test_run.hooks import invoke_test_run_end_hook

    try:  # @deepeval.on_test_run_end, registered when a test file was imported
        invoke_test_run_end_hook()
    except Exception as err:
        echo(f"deepeval: the on_test_run_end hook raised {type(err).__name__}: {err}", err=True)
        code = code or 1
    raise typer.Exit(code)


def _pytest_options(
    mark: str | None, durations: int | None, pdb: bool, color: str | None, show_warnings: bool
) -> list[str]:
    """deepeval's ``test run`` options that are pytest options under another spelling."""
    args: list[str] = []
    if mark:
        args += ["-m", mark]
    if durations is not None:
        args.append(f"--durations={durations}")
    if pdb:
        args.append("--pdb")
    if color:
        args.append(f"--color={color}")
    if not show_warnings:
        args.append("--disable-warnings")
    return args
