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
"""

from __future__ import annotations

import enum
import hashlib
import json
import os
import sqlite3
import sys
import threading
import time
from pathlib import Path
from typing import Any

from deepeval.errors import ConfigurationError
from deepeval.evaluate.results import MetricData

DEFAULT_CACHE_PATH = os.path.join(".deepeval", "cache.sqlite")
_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS metric_rows ("
    " key TEXT PRIMARY KEY, metric TEXT NOT NULL, value TEXT NOT NULL, created REAL NOT NULL)"
)


def default_cache_path() -> Path:
    """Setting ``DEEPEVAL_CACHE_PATH`` if set, else ``.deepeval/cache.sqlite`` under the current directory."""
    from deepeval.config import get_settings

    return Path(get_settings().get("DEEPEVAL_CACHE_PATH") or DEFAULT_CACHE_PATH)


def _json_default(value: Any) -> Any:
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        return dump(mode="json")
    if isinstance(value, enum.Enum):
        return value.value
    name = getattr(value, "get_model_name", None)
    if callable(name):
        return {"judge": type(value).__qualname__, "name": name()}
    if isinstance(value, (set, frozenset)):
        return sorted(map(str, value))
    # Unknown object: its repr may hold a memory address, which makes the key miss (safe, never a false hit).
    return f"{type(value).__module__}.{type(value).__qualname__}:{value!r}"


def canonical_json(value: Any) -> str:
    """Deterministic JSON text: sorted keys, compact separators, UTF-8 kept."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=_json_default)


def _judge_names(metric: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for attr in ("model", "system_one_model"):
        judge = getattr(metric, attr, None)
        getter = getattr(judge, "get_model_name", None)
        if callable(getter):
            try:
                out[attr] = f"{type(judge).__qualname__}:{getter()}"
            except Exception:  # a judge that cannot name itself: keep the class only
                out[attr] = type(judge).__qualname__
    mode = getattr(metric, "eval_mode", None)
    if mode is not None:
        out["eval_mode"] = getattr(mode, "value", mode)
    return out


def cache_key(metric: Any, test_case: Any, repeat_index: int = 0) -> str:
    """sha256 hex digest identifying ``metric`` (its ``cache_config()``) on ``test_case`` for repetition
    ``repeat_index`` under this deepeval version."""
    from deepeval import __version__

    dump = getattr(test_case, "model_dump", None)
    payload = {
        "deepeval": __version__,
        "metric": metric.cache_config(),
        "judges": _judge_names(metric),
        "test_case": {
            "type": type(test_case).__qualname__,
            "fields": dump(mode="json") if callable(dump) else test_case,
        },
        "repeat_index": repeat_index,
    }
    # surrogatepass: a lone surrogate in test-case text (see deepeval.test_case._encodable) still gets a distinct key
    return hashlib.sha256(canonical_json(payload).encode("utf-8", errors="surrogatepass")).hexdigest()


def _redacted(value: Any, secrets: dict[str, str]) -> Any:
    from deepeval.config import redact

    if isinstance(value, str):
        return redact(value, secrets)
    if isinstance(value, dict):
        return {k: _redacted(v, secrets) for k, v in value.items()}
    if isinstance(value, list):
        return [_redacted(v, secrets) for v in value]
    return value


class ResultCache:
    """Thread-safe handle on the cache file.

    Raises:
        ConfigurationError: the file exists but is not a SQLite database, or its folder cannot be created.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self._write_failed = False
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._conn = sqlite3.connect(
                str(self.path), timeout=30.0, isolation_level=None, check_same_thread=False
            )
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=NORMAL")
            self._conn.execute(_SCHEMA)
        except (sqlite3.DatabaseError, OSError) as err:
            raise ConfigurationError(
                f"cannot use the result cache at {self.path}: {err}. Delete the file or pass "
                "CacheConfig(cache_path=...) / set DEEPEVAL_CACHE_PATH to another location."
            ) from None
        from deepeval.config import get_settings

        self._secrets = get_settings().secrets()

    def get(self, key: str) -> MetricData | None:
        """The stored row for ``key`` (with ``cached=True``), or None."""
        with self._lock:
            row = self._conn.execute("SELECT value FROM metric_rows WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        try:
            data = MetricData.from_dict(json.loads(row[0]))
        except (ValueError, TypeError):
            return None  # unreadable row: measure again
        data.cached = True
        return data

    def put(self, key: str, data: MetricData) -> None:
        """Store ``data`` under ``key`` now (error and skipped rows are ignored). A write failure (disk full,
        locked) prints one warning on stderr and turns writing off; it never fails the run."""
        if data.error is not None or data.skipped or self._write_failed:
            return
        value = _redacted(data.to_dict(), self._secrets)
        value.pop("cached", None)
        # ASCII JSON: SQLite stores UTF-8, and a lone surrogate quoted in a reason would not encode; \u escapes
        # read back to the same string
        text = json.dumps(value, ensure_ascii=True)
        try:
            with self._lock:
                self._conn.execute(
                    "INSERT OR REPLACE INTO metric_rows (key, metric, value, created) VALUES (?, ?, ?, ?)",
                    (key, data.name, text, time.time()),
                )
        except sqlite3.Error as err:
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
