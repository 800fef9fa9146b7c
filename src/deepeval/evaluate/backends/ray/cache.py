"""The result cache of the Ray backend: one main SQLite file plus per-attempt part files, merged back by the driver.

SQLite must not be written by several hosts at once (its locks do not work on network file systems), so workers
never write the main cache:

* **main** (``CacheConfig.cache_path``, the same file the local backend uses): read by workers when
  ``use_cache`` is on, opened read-only and ``immutable`` (no locks, no WAL), which is safe because nobody writes
  it while blocks run. The driver checkpoints its WAL into the file before the first block starts.
* **parts** (``RayConfig.cache_dir``, default ``<main>.parts/`` next to the main file): each block attempt writes
  the rows it finishes to its own new file ``<run>-b<block>-<random>.sqlite`` (one writer per file, rows committed
  one by one as in the local cache), so a worker killed mid-block keeps every row it finished.
* **merge**: the driver copies every part into the main file and deletes the part, before a run starts (rows of
  an interrupted earlier run) and after it ends. ``use_cache=True`` on the rerun then serves them.

Both folders must be on storage that the driver and every worker see (a shared file system on a multi-node
cluster; any local path on a one-machine cluster).
"""

from __future__ import annotations

import os
import sqlite3
import sys
import uuid
from pathlib import Path
from typing import Any

from deepeval.evaluate.cache import ResultCache, row_from_json
from deepeval.evaluate.results import MetricData

PART_SUFFIX = ".sqlite"


def default_parts_dir(main_path: str | os.PathLike[str]) -> Path:
    """``<main>.parts`` next to the main cache file (absolute)."""
    main = Path(main_path).resolve()
    return main.with_name(main.name + ".parts")


def part_path(parts_dir: str | os.PathLike[str], run_id: str, block_id: int) -> Path:
    """A new, unique part file name for one attempt of ``block_id``."""
    return Path(parts_dir) / f"{run_id}-b{block_id}-{uuid.uuid4().hex[:12]}{PART_SUFFIX}"


class _ImmutableReader:
    """Read-only lookups in the main cache file (no locks, no WAL: the file does not change during the run)."""

    def __init__(self, path: Path) -> None:
        uri = f"{path.resolve().as_uri()}?mode=ro&immutable=1"
        self._conn = sqlite3.connect(uri, uri=True, check_same_thread=False)

    def get(self, key: str, metric: str | None = None) -> MetricData | None:
        try:
            row = self._conn.execute("SELECT value FROM metric_rows WHERE key = ?", (key,)).fetchone()
        except sqlite3.Error:
            return None  # no table yet, or an unreadable file: measure again
        if row is None:
            return None
        try:
            return row_from_json(
                row[0], metric
            )  # the same checks as the local cache: a bad row is measured again
        except ValueError:
            return None

    def close(self) -> None:
        self._conn.close()


class BlockCache:
    """What one block's runner sees as its cache: ``get`` from the main file, ``put`` into this attempt's part.

    Duck-typed like :class:`~deepeval.evaluate.cache.ResultCache` (``get`` / ``put`` / ``close``). A part file
    that cannot be created, or a main file that cannot be read, prints one line on stderr (the worker's log) and
    the block runs without that half of the cache; the run never fails because of the cache.
    """

    def __init__(self, main_path: Path | None, part: Path | None) -> None:
        self.part = part
        self._reader: _ImmutableReader | None = None
        self._writer: ResultCache | None = None
        if main_path is not None and main_path.exists():
            try:
                self._reader = _ImmutableReader(main_path)
            except sqlite3.Error as err:
                print(
                    f"deepeval: cannot read the result cache {main_path} ({err}); measuring", file=sys.stderr
                )
        if part is not None:
            try:
                part.parent.mkdir(parents=True, exist_ok=True)
                self._writer = ResultCache(part)
            except Exception as err:
                print(
                    f"deepeval: cannot write the result cache part {part} ({err}); rows of this block are not "
                    "cached",
                    file=sys.stderr,
                )

    def get(self, key: str, metric: str | None = None) -> MetricData | None:
        return None if self._reader is None else self._reader.get(key, metric)

    def put(self, key: str, data: MetricData) -> None:
        if self._writer is not None:
            self._writer.put(key, data)

    def close(self) -> None:
        if self._reader is not None:
            self._reader.close()
        if self._writer is not None:
            self._writer.close()


def _remove(path: Path) -> None:
    for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm"), Path(f"{path}-journal")):
        try:
            p.unlink()
        except FileNotFoundError:
            pass


def merge_parts(main_path: str | os.PathLike[str], parts_dir: str | os.PathLike[str]) -> dict[str, Any]:
    """Copy the rows of every part file in ``parts_dir`` into the main cache, delete the merged parts, and
    checkpoint the main file's WAL (so immutable readers see every row).

    Returns ``{"parts": files merged, "rows": rows copied, "unreadable": [file names left in place]}``. A part that
    is not a readable cache (e.g. created by a worker killed before its first row) is deleted when it holds no
    table, else left in place and listed.
    """
    folder = Path(parts_dir)
    merged, rows, unreadable = 0, 0, []
    with ResultCache(main_path) as _ensure_schema:
        pass
    conn = sqlite3.connect(str(main_path), timeout=30.0, isolation_level=None)
    try:
        for part in sorted(folder.glob(f"*{PART_SUFFIX}")) if folder.is_dir() else []:
            try:
                conn.execute("ATTACH DATABASE ? AS part", (str(part),))
            except sqlite3.Error:
                unreadable.append(part.name)
                continue
            try:
                has_table = conn.execute(
                    "SELECT 1 FROM part.sqlite_master WHERE type = 'table' AND name = 'metric_rows'"
                ).fetchone()
                if has_table:
                    cur = conn.execute(
                        "INSERT OR REPLACE INTO main.metric_rows (key, metric, value, created) "
                        "SELECT key, metric, value, created FROM part.metric_rows"
                    )
                    rows += max(cur.rowcount, 0)
            except sqlite3.Error:
                unreadable.append(part.name)
                conn.execute("DETACH DATABASE part")
                continue
            conn.execute("DETACH DATABASE part")
            _remove(part)
            merged += 1
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
    return {"parts": merged, "rows": rows, "unreadable": unreadable}
