"""Result cache: one SQLite file (stdlib ``sqlite3``, WAL journal) of finished metric rows.

Key: sha256 of a canonical JSON (sorted keys, no whitespace) of ``{"deepeval": __version__, "metric":
metric.cache_config(), "judges": judge names and eval mode found on the metric, "test_case": the test case's JSON
dump, "repeat_index": r}``. ``cache_config()`` of our metrics holds the eval mode, the judge names and digests of
the content (:mod:`deepeval._digest`: the prompt text and questions actually built for a fixed probe, the embedded
judge's data file and rule code when it can decide the result), so changing any of them misses; version constants
are labels only. Value: the :class:`~deepeval.evaluate.results.MetricData` fields as JSON,
every string passed through :func:`deepeval.config.redact`; nothing else (no clients, no keys) is stored.

Rows are written one by one as each metric finishes (autocommit), so a run that is killed keeps everything it
finished and a rerun with ``use_cache=True`` redoes only the rest. Error and skipped rows are never stored.

Rows are checked when read (:func:`row_from_json`): one with the right key but content this cache would never have
written (a score outside [0, 1], NaN, a string, a list, wrong field types, another metric's row) is measured again
and replaced, with one warning per run. A file at the path that is not this cache (another SQLite database, other
columns, not SQLite at all, a file where its folder should be) is refused once, before anything is measured, naming
the path; nothing is written into it. Deliberate: a run that only *writes* the cache at the *default* path (no
``use_cache``, no ``cache_path``, no ``DEEPEVAL_CACHE_PATH``) goes on without it after one stderr line (see
:func:`deepeval.evaluate.api.open_cache`), so a stray ``./.deepeval`` file does not stop every run in that folder.
``~`` in the path is the home folder.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import sys
import threading
import time
import warnings
from pathlib import Path
from typing import Any

from deepeval import _json
from deepeval._digest import canonical_json as canonical_json  # its home is deepeval._digest
from deepeval._files import user_path
from deepeval.errors import ConfigurationError
from deepeval.evaluate.results import MetricData, is_finite_number, metric_row_problem
from deepeval.test_case.encodable import encodable

DEFAULT_CACHE_PATH = os.path.join(".deepeval", "cache.sqlite")
_TABLE = "metric_rows"
_COLUMNS = ("key", "metric", "value", "created")
_SCHEMA = (
    f"CREATE TABLE IF NOT EXISTS {_TABLE} ("
    " key TEXT PRIMARY KEY, metric TEXT NOT NULL, value TEXT NOT NULL, created REAL NOT NULL)"
)


def default_cache_path() -> Path:
    """Setting ``DEEPEVAL_CACHE_PATH`` if set, else ``.deepeval/cache.sqlite`` under the current directory
    (``~`` expanded)."""
    from deepeval.config import get_settings

    return user_path(get_settings().get("DEEPEVAL_CACHE_PATH") or DEFAULT_CACHE_PATH)


def _row_problem(data: Any) -> str | None:
    """Why a stored value is not a row this cache could have written (None when it is one): the field types of
    every metric row read back (:func:`~deepeval.evaluate.results.metric_row_problem`), plus the cache's own rules:
    a score in [0, 1], never an errored or skipped row."""
    problem = metric_row_problem(data)
    if problem is not None:
        return problem
    score: Any = data.get("score")
    if not is_finite_number(score) or not 0.0 <= score <= 1.0:
        return f"score {score!r} is not a number in [0, 1]"
    if data.get("error") is not None or data.get("skipped"):
        return "an errored or skipped row (never stored)"
    return None


def row_from_json(text: Any, metric: str | None = None) -> MetricData:
    """The :class:`MetricData` stored as ``text`` (with ``cached=True``), checked field by field: a row with the
    right key and wrong content (a score out of [0, 1], NaN, a string or a list, another metric's row when
    ``metric`` names the one asked for) is never served.

    Raises:
        ValueError: the text is not a row this cache writes; the message says why.
    """
    try:
        data = _json.loads(text)
    except (TypeError, ValueError) as err:
        raise ValueError(f"not JSON ({err})") from None
    problem = _row_problem(data)
    if problem is None and metric is not None and data["name"] != metric:
        problem = f"it is a row of metric {data['name']!r}, not {metric!r}"
    if problem is not None:
        raise ValueError(problem)
    row = MetricData.from_dict(data)
    row.cached = True
    return row


def _check_schema(conn: sqlite3.Connection) -> str | None:
    """Why the SQLite file is not a result cache (None when it is one, or empty)."""
    tables = sorted(
        r[0]
        for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        if not r[0].startswith("sqlite_")  # SQLite's own (sqlite_sequence, sqlite_stat1 after ANALYZE)
    )
    if not tables:
        return None
    if tables != [_TABLE]:
        return f"it is another SQLite database (tables: {', '.join(tables[:5])})"
    columns = tuple(r[1] for r in conn.execute(f"PRAGMA table_info({_TABLE})"))
    if columns != _COLUMNS:
        return f"its {_TABLE} table has other columns ({', '.join(columns)})"
    return None


def cache_key(metric: Any, test_case: Any, repeat_index: int = 0) -> str:
    """sha256 hex digest identifying ``metric`` (its ``cache_config()``) on ``test_case`` for repetition
    ``repeat_index`` under this deepeval version."""
    from deepeval._version import __version__
    from deepeval.models.resolve import judge_names_of

    dump = getattr(test_case, "model_dump", None)
    payload = {
        "deepeval": __version__,
        "metric": metric.cache_config(),
        "judges": judge_names_of(metric),
        "test_case": {
            "type": type(test_case).__qualname__,
            "fields": dump(mode="json") if callable(dump) else test_case,
        },
        "repeat_index": repeat_index,
    }
    if getattr(metric, "requires_trace", False):  # a trace metric's result depends on the run's trace too
        payload["trace"] = _trace_text(getattr(test_case, "_trace_dict", None))
    # surrogatepass: a lone surrogate in test-case text (see deepeval.test_case.encodable) still gets a distinct key
    return hashlib.sha256(canonical_json(payload).encode("utf-8", errors="surrogatepass")).hexdigest()


def _trace_text(trace: Any) -> str:
    """The trace as canonical JSON text (its ``repr`` when it cannot be: a span dict that contains itself)."""
    try:
        return canonical_json(trace)
    except (TypeError, ValueError, RecursionError):
        return repr(trace)


def _redacted(value: Any, secrets: dict[str, str]) -> Any:
    from deepeval.config import redact

    if isinstance(value, str):
        return redact(value, secrets)
    if isinstance(value, dict):
        return {k: _redacted(v, secrets) for k, v in value.items()}
    if isinstance(value, list):
        return [_redacted(v, secrets) for v in value]
    return value


class CacheUnusableError(ConfigurationError):
    """The file at the cache path is not this cache, or the cache cannot be created there; ``path`` and ``problem``
    (the reason alone) are kept for callers that go on without the cache."""

    def __init__(self, path: Path, problem: str) -> None:
        super().__init__(
            f"cannot use the result cache at {path}: {problem}. Delete the file or pass "
            "CacheConfig(cache_path=...) / set DEEPEVAL_CACHE_PATH to another location (nothing was measured)."
        )
        self.path = path
        self.problem = problem


class ResultCache:
    """Thread-safe handle on the cache file.

    Raises:
        CacheUnusableError: the file exists but is not a SQLite database, or its folder cannot be created (a
            :class:`~deepeval.errors.ConfigurationError`).
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = user_path(path)
        self._lock = threading.Lock()
        self._write_failed = False
        self.bad_rows = 0
        problem = None
        try:
            folder = self.path.parent
            if folder.exists() and not folder.is_dir():
                raise CacheUnusableError(self.path, f"{folder} is a file, not a folder")
            folder.mkdir(parents=True, exist_ok=True)
            self._conn = sqlite3.connect(
                str(self.path), timeout=30.0, isolation_level=None, check_same_thread=False
            )
            problem = _check_schema(self._conn)  # before anything is written into someone else's database
            if problem is None:
                self._conn.execute("PRAGMA journal_mode=WAL")
                self._conn.execute("PRAGMA synchronous=NORMAL")
                self._conn.execute(_SCHEMA)
        except (sqlite3.DatabaseError, OSError) as err:
            problem = str(err)
        if problem is not None:
            if hasattr(self, "_conn"):
                self._conn.close()
            raise CacheUnusableError(self.path, problem)
        from deepeval.config import get_settings

        self._secrets = get_settings().secrets()

    def get(self, key: str, metric: str | None = None) -> MetricData | None:
        """The stored row for ``key`` (with ``cached=True``), or None. A row whose content is not a valid result
        of ``metric`` (:func:`row_from_json`) is not served: None (so it is measured again and replaced), and the first one of
        this handle is reported in one warning."""
        with self._lock:
            row = self._conn.execute("SELECT value FROM metric_rows WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        try:
            return row_from_json(row[0], metric)
        except ValueError as err:
            self.bad_rows += 1
            if self.bad_rows == 1:
                warnings.warn(
                    f"result cache {self.path}: a stored row is not a valid result ({err}); it is measured again "
                    "and replaced (later bad rows of this run are handled the same way, not reported)",
                    RuntimeWarning,
                    stacklevel=2,
                )
            return None

    def put(self, key: str, data: MetricData) -> None:
        """Store ``data`` under ``key`` now (error and skipped rows, and rows :func:`row_from_json` would refuse,
        are ignored). A write failure (disk full,
        locked) prints one warning on stderr and turns writing off; it never fails the run."""
        if data.error is not None or data.skipped or self._write_failed:
            return
        value = _redacted(data.to_dict(), self._secrets)
        value.pop("cached", None)
        if (
            _row_problem(value) is not None
        ):  # e.g. a custom metric's score outside [0, 1]: never served, so not kept
            return
        # ASCII JSON: SQLite stores UTF-8, and a lone surrogate quoted in a reason would not encode; \u escapes
        # read back to the same string
        text = json.dumps(value, ensure_ascii=True)
        try:
            with self._lock:
                self._conn.execute(
                    "INSERT OR REPLACE INTO metric_rows (key, metric, value, created) VALUES (?, ?, ?, ?)",
                    # the metric column is informational: a lone surrogate in a metric name is shown as U+FFFD
                    (key, encodable(data.name), text, time.time()),
                )
        except (sqlite3.Error, UnicodeError) as err:
            self._write_failed = True
            print(
                f"deepeval: result cache write to {self.path} failed ({err}); caching is off for this run",
                file=sys.stderr,
            )

    def count(self) -> int:
        with self._lock:
            return int(self._conn.execute("SELECT COUNT(*) FROM metric_rows").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self) -> ResultCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
