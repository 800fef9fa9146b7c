"""Configuration objects of :func:`deepeval.evaluate.evaluate` (same names and defaults as deepeval).

All are plain dataclasses (cheap to import). ``validate()`` raises :class:`deepeval.errors.ConfigurationError` with a
message naming the bad field.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import Enum
from typing import Literal

from deepeval.errors import ConfigurationError


class TestRunResultDisplay(str, Enum):
    """Which test cases the console table shows."""

    ALL = "all"
    FAILING = "failing"
    PASSING = "passing"

    __test__ = False  # not a pytest test class


@dataclass
class AsyncConfig:
    """Scheduling.

    ``run_async``: True runs metrics concurrently through ``a_measure``; False calls each metric's sync ``measure``
    one at a time (in a worker thread, so it also works inside a running event loop).
    ``throttle_value``: minimum seconds between two test-case starts (>= 0).
    ``max_concurrent``: at most this many test cases in flight (>= 1), as in deepeval; the metrics of one test case
    run concurrently (its System One questions merged into one request), so up to ``max_concurrent`` x metrics
    measures may be in flight. Judge clients bound their own requests in flight separately.
    ``measure_timeout``: ours; optional per-measure deadline in seconds (None = none). A measure that runs past it
    becomes an error row; there is never a whole-run deadline.

    Raises:
        ConfigurationError: (a ``ValueError``, as deepeval raises) at construction, for ``max_concurrent < 1``, a
            negative or non-finite ``throttle_value`` or a non-positive ``measure_timeout``; ``evaluate()``
            checks again, for values changed after construction.
    """

    run_async: bool = True
    throttle_value: float = 0
    max_concurrent: int = 20
    measure_timeout: float | None = None

    def __post_init__(self) -> None:
        self.validate()

    def validate(self) -> None:
        if (
            not isinstance(self.max_concurrent, int)
            or isinstance(self.max_concurrent, bool)
            or self.max_concurrent < 1
        ):
            raise ConfigurationError(
                f"AsyncConfig.max_concurrent must be an integer >= 1, got {self.max_concurrent!r}"
            )
        if not _finite_non_negative(self.throttle_value):
            raise ConfigurationError(
                f"AsyncConfig.throttle_value must be a number >= 0, got {self.throttle_value!r}"
            )
        if self.measure_timeout is not None and not (
            _finite_non_negative(self.measure_timeout) and self.measure_timeout > 0
        ):
            raise ConfigurationError(
                f"AsyncConfig.measure_timeout must be > 0 or None, got {self.measure_timeout!r}"
            )


@dataclass
class DisplayConfig:
    """Output.

    ``show_indicator``: live progress bar (counts, ETA) on stderr. ``print_results``: console table on stdout.
    ``verbose_mode``: when not None, overrides every metric's ``verbose_mode`` (rows carry ``verbose_logs`` only
    for metrics that ran in verbose mode). ``display_option``: which test cases the table shows
    (``TestRunResultDisplay`` or ``"all" | "failing" | "passing"``). ``results_folder``: write ``<run>.json`` and
    ``<run>.html`` there (default: setting ``DEEPEVAL_RESULTS_FOLDER``; None = no files); ``results_subfolder``:
    a folder under it for this run's files. ``truncate_passing_cases``: the console table cuts the reasons of
    passing rows short (False: every reason in full). ``inspect_after_run``: accepted; deepeval offers its trace
    inspector after runs that recorded traces, and ours records none, so there is nothing to offer.
    ``file_output_dir``: with ``file_type="html"`` or ``"md"``, write the whole report (untruncated) there as
    ``<identifier>_<time>.html`` / ``.md``; with no ``file_type``, one JSON file per test case (ours; deepeval
    refuses a missing ``file_type``). ``show_full_reason`` (ours): every reason and error in full in the table
    (and in the failing-case excerpts under it).

    Raises:
        ConfigurationError: at construction, for a ``file_type`` other than ``"html"``, ``"md"`` or None.
    """

    show_indicator: bool = True
    print_results: bool = True
    verbose_mode: bool | None = None
    display_option: TestRunResultDisplay | str | None = TestRunResultDisplay.ALL
    results_folder: str | None = None
    results_subfolder: str | None = None
    truncate_passing_cases: bool = True
    inspect_after_run: bool = True
    file_type: Literal["html", "md"] | None = None
    file_output_dir: str | None = None
    show_full_reason: bool = False
    # Internal: set by assert_test under the pytest plugin, whose session report replaces the per-call one.
    _session_report: bool = field(default=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.file_type not in (None, "html", "md"):
            raise ConfigurationError(
                f'DisplayConfig.file_type must be "html", "md" or None, got {self.file_type!r}'
            )

    def display(self) -> TestRunResultDisplay:
        if self.display_option is None:
            return TestRunResultDisplay.ALL
        try:
            return TestRunResultDisplay(
                self.display_option.value
                if isinstance(self.display_option, TestRunResultDisplay)
                else str(self.display_option).lower()
            )
        except ValueError:
            raise ConfigurationError(
                f"DisplayConfig.display_option must be one of all, failing, passing; got {self.display_option!r}"
            ) from None


@dataclass
class CacheConfig:
    """Result cache (SQLite, see :mod:`deepeval.evaluate.cache`).

    ``write_cache``: store every finished, error-free metric row as soon as it finishes. ``use_cache``: serve rows
    from the cache instead of measuring. ``cache_path``: the SQLite file (default: setting ``DEEPEVAL_CACHE_PATH``,
    else ``.deepeval/cache.sqlite`` under the current directory).

    A cache file that cannot be used (not this cache, not SQLite, a file named ``.deepeval`` where its folder goes)
    stops the run before anything is measured when the run reads the cache (``use_cache``) or its path was chosen
    (``cache_path``, ``DEEPEVAL_CACHE_PATH``). Deliberately, a run that only writes the default cache goes on
    without it: one stderr line, ``result.extras["cache_error"]`` says why, nothing is written there.
    """

    write_cache: bool = True
    use_cache: bool = False
    cache_path: str | None = None


@dataclass
class ErrorConfig:
    """Errors.

    ``ignore_errors``: False (default) records every error on its row and, after the whole run, raises
    :class:`deepeval.evaluate.EvaluationError` carrying the complete result; True just returns the result.
    ``skip_on_missing_params``: a metric whose required test-case field is missing gives a *skipped* row
    (``skipped=True``, ``success=None``) instead of an error row.
    """

    ignore_errors: bool = False
    skip_on_missing_params: bool = False


def _finite_non_negative(value: object) -> bool:
    return (
        isinstance(value, (int, float))
        and not isinstance(value, bool)
        and math.isfinite(value)
        and value >= 0
    )
