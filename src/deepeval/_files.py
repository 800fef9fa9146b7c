"""Report files written whole or not at all, whatever text they hold.

Text under evaluation may hold lone surrogates (``json.loads('"\\udcff"')``, ``bytes.decode(errors=
"surrogateescape")``), which strict UTF-8 cannot encode. They are written as the six characters ``\\udcff``
(``errors="backslashreplace"``): valid UTF-8, and inside a JSON string the same escape that ``json.loads`` reads
back to the original character, so a JSON report round-trips losslessly.

Where a file may be written at all (never through or over a symbolic link) is :mod:`deepeval._safe_path`, which
:func:`write_chunks_atomic` applies to every file it writes.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import stat
import sys
import threading
import uuid
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from deepeval._safe_path import refuse_link

# the files being written now: temporary file -> the file it becomes. A write still here when the process ends (a
# worker thread stopped mid-report by Ctrl-C) is abandoned at exit: its temporary file removed and its path named
_WRITING: dict[Path, Path] = {}
_WRITING_LOCK = threading.Lock()
_COMPLETED: list[Path] = []  # files written whole, in order (completed_writes)


def user_path(path: str | os.PathLike[str]) -> Path:
    """``path`` as a :class:`~pathlib.Path` with a leading ``~`` / ``~user`` expanded to that home folder, as a
    shell would (every path option and setting goes through here: ``results_folder``, ``file_output_dir``,
    ``DEEPEVAL_RESULTS_FOLDER``, ``cache_path``, ``DEEPEVAL_CACHE_PATH``); never a literal ``./~`` folder."""
    return Path(os.path.expanduser(os.fspath(path)))


def write_text_atomic(path: str | Path, text: str) -> Path:
    """Write ``text`` to ``path`` as UTF-8 (lone surrogates backslash-escaped) via a temporary file in the same
    folder and a rename, so a failure never leaves a truncated or 0-byte file. Parent folders are created.

    Raises:
        UnsafePathError: ``path`` is a symbolic link (see :mod:`deepeval._safe_path`; nothing is written).
        OSError: the folder cannot be created or written (nothing is left behind).
    """
    return write_chunks_atomic(path, (text,))


def write_chunks_atomic(path: str | Path, chunks: Iterable[str]) -> Path:
    """:func:`write_text_atomic` for text produced piece by piece (a report of 10,000 test cases is never held
    whole): each chunk is encoded and written as it comes. An exception from ``chunks`` removes the temporary file
    and propagates.

    Raises:
        UnsafePathError: ``path`` is a symbolic link (see :mod:`deepeval._safe_path`; nothing is written).
        OSError: the folder cannot be created or written (nothing is left behind).
    """
    p = refuse_link(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.parent / f".{p.name}.{uuid.uuid4().hex[:12]}.tmp"
    # os.open with 0o666 lets the umask decide the mode, as a plain open() would (mkstemp would force 0600)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    with _WRITING_LOCK:
        _WRITING[tmp] = p
    try:
        with contextlib.suppress(
            FileNotFoundError
        ):  # a file replaced keeps its mode (a 0600 report stays private)
            os.chmod(fd, stat.S_IMODE(os.stat(p).st_mode))
        with os.fdopen(fd, "wb", buffering=1 << 16) as f:
            for chunk in chunks:
                # per chunk is the same as whole: a lone surrogate is one code point, never split across chunks
                f.write(chunk.encode("utf-8", errors="backslashreplace"))
        with _WRITING_LOCK:
            if _WRITING.pop(tmp, None) is None:
                raise InterruptedError(f"{p} was abandoned at exit before it was written")
            os.replace(tmp, p)
            _COMPLETED.append(p)
    except BaseException:
        with _WRITING_LOCK:
            _WRITING.pop(tmp, None)
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return p


def completed_writes() -> int:
    """How many :func:`write_chunks_atomic` files this process has written whole (a report saved)."""
    return len(_COMPLETED)


def abandon_unfinished_writes() -> list[Path]:
    """Give up every :func:`write_chunks_atomic` still in progress (another thread is writing it as the process
    ends): remove its temporary file, so it never completes, and return the paths that were not written."""
    with _WRITING_LOCK:
        unfinished = list(_WRITING.items())
        _WRITING.clear()
    for tmp, _ in unfinished:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
    return [path for _, path in unfinished]


#: saves still under way (an interrupted run's reports): what each is, and how many files were written before it
_PENDING_SAVES: dict[int, tuple[Callable[[], str], int]] = {}


@contextlib.contextmanager
def pending_save(describe: Callable[[], str]) -> Iterator[None]:
    """Marks a save of several reports; if the process ends inside it (a second Ctrl-C stopped the wait), stderr
    gets ``describe()`` and the files it had written at exit, so the reports not yet begun are named too, not only
    the one being written."""
    key = id(describe)
    _PENDING_SAVES[key] = (describe, completed_writes())
    try:
        yield
    finally:
        _PENDING_SAVES.pop(key, None)


@atexit.register
def _abandon_at_exit() -> None:
    """At exit, no ``.tmp`` file of a report a thread was still writing is left behind; stderr names each report
    that was not written (a second Ctrl-C stopped the wait for an interrupted run's reports), and each save still
    under way says what it had not written."""
    for path in abandon_unfinished_writes():
        print(f"deepeval: {path} was not written (stopped while it was being written)", file=sys.stderr)
    for describe, before in list(_PENDING_SAVES.values()):
        written = ", ".join(str(p) for p in _COMPLETED[before:]) or "none"
        with contextlib.suppress(Exception):
            print(f"deepeval: {describe()}; written: {written}", file=sys.stderr)


#: the largest run export compare / view read (a 10,000-case run export is tens of megabytes)
MAX_EXPORT_BYTES = 2_000_000_000


def read_user_text(path: str | Path, max_bytes: int, errors: str = "strict") -> str:
    """A text file the user named, read as UTF-8, refusing what is not a regular file before opening it (opening a
    FIFO blocks until a writer comes; ``/dev/zero`` never ends) and a file over ``max_bytes``.

    Raises:
        OSError: unreadable, not a regular file, or larger than ``max_bytes`` (its ``strerror`` says which).
        UnicodeDecodeError: not UTF-8 (with ``errors="strict"``).
    """
    import errno

    info = os.stat(path)
    if not stat.S_ISREG(info.st_mode):
        raise OSError(errno.EINVAL, "not a regular file (a FIFO, device or socket is never read)", str(path))
    with open(path, "rb") as f:
        data = f.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise OSError(errno.EFBIG, f"larger than {max_bytes:,} bytes", str(path))
    return data.decode("utf-8", errors=errors)
