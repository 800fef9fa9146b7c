"""Where deepeval may write: the one rule for every file we write.

Every writer of ours goes through here: reports and exports (:mod:`deepeval._files`, which every report, CSV,
dataset and wiki writer uses), the dotenv files of the ``set-*`` commands, ``results_subfolder`` and
``save_as(file_name=...)``.

* **No symbolic link where we write.** A link at the path of a file we would write is refused with
  :class:`UnsafePathError`: we never write *through* a link (a link planted in a folder we write into, such as a
  ``page.md`` in a ``--save-wiki`` folder, would send our text to whatever file it points at) and never *replace*
  one (a user's ``.env.local`` linked to a shared file would silently become a private copy). Remove the link or
  give the real path. Folders above the path may be links: a results folder on another disk is normal.
* **A name joined under a folder stays inside it** (:func:`inside`): ``results_subfolder``, ``save_as``'s
  ``file_name`` and wiki page files are relative paths without ``..`` components, and where part of the path
  already exists, no link below the folder leads out of it. This is a deliberate difference from deepeval 4.3.1,
  which joins ``results_subfolder="/tmp/x"`` or ``"../../x"`` as given and writes wherever that points.
* **Checked before the work**: :func:`check_writable_file` tells a command, before it judges anything, that an
  output file cannot be written, so an unwritable ``--json`` or ``--html`` costs no run.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from deepeval.base_errors import DeepEvalError


class UnsafePathError(DeepEvalError, OSError):
    """A path we were asked to write is a symbolic link, or a name meant to stay inside a folder leaves it.

    An ``OSError`` (every writer documents ``OSError`` for a path it cannot write) and a
    :class:`~deepeval.errors.DeepEvalError`."""

    def __init__(self, message: str, path: str | os.PathLike[str] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.path = None if path is None else os.fspath(path)

    def __str__(self) -> str:
        return self.message


def refuse_link(path: str | os.PathLike[str], what: str = "the output file") -> Path:
    """``path`` as a :class:`~pathlib.Path` when nothing at it is a symbolic link or anything but a regular file.

    Raises:
        UnsafePathError: ``path`` itself is a symbolic link (to anything, existing or not), or a FIFO, device or
            socket (a rename over it would replace ``/dev/null`` with a file, or a pipe someone reads).

    The path is normalised first (``new/../f.csv`` is ``f.csv``): checked as given, a folder still to be created
    hid what the rename would replace.
    """
    p = Path(os.path.normpath(os.fspath(path)))
    try:
        mode = os.lstat(p).st_mode
    except OSError:
        mode = None
    if mode is not None and not (stat.S_ISREG(mode) or stat.S_ISDIR(mode) or stat.S_ISLNK(mode)):
        raise UnsafePathError(
            f"{what} {os.fspath(p)} is not a regular file (a FIFO, device or socket); deepeval writes only regular "
            "files: give a file path",
            p,
        )
    if os.path.islink(p):
        try:
            target = os.readlink(p)
        except OSError:  # pragma: no cover - a link that vanished between the two calls
            target = "?"
        raise UnsafePathError(
            f"{what} {os.fspath(p)} is a symbolic link (to {target}); deepeval never writes through a link or "
            "replaces one: remove the link or give the real path",
            p,
        )
    return p


def inside(folder: str | os.PathLike[str], name: str | os.PathLike[str], what: str) -> Path:
    """``folder / name``, where ``name`` (a relative path, possibly of several parts) stays inside ``folder``.

    Raises:
        UnsafePathError: ``name`` is empty, absolute (or has a drive), has a ``..`` component, or an existing part
            of the path is a link below ``folder`` that leads out of it. ``what`` names the option in the message.
    """
    raw = os.fspath(name)
    if not raw or not raw.strip():
        raise UnsafePathError(f"{what} is empty; give a name inside {os.fspath(folder)}", raw)
    parts = Path(raw.replace("\\", "/")).parts
    if Path(raw).is_absolute() or Path(raw).drive or raw.startswith(("/", "\\")):
        raise UnsafePathError(
            f"{what} {raw!r} is an absolute path; it must be a name inside {os.fspath(folder)} (deepeval keeps "
            "this inside its folder; give the folder itself instead)",
            raw,
        )
    if ".." in parts:
        raise UnsafePathError(
            f"{what} {raw!r} has a '..' component; it must stay inside {os.fspath(folder)}", raw
        )
    base = Path(folder)
    path = base / raw
    real_base, real_path = os.path.realpath(base), os.path.realpath(path)
    if os.path.commonpath([real_base, real_path]) != real_base:
        raise UnsafePathError(
            f"{what} {raw!r} leads out of {os.fspath(folder)} (to {real_path}) through a symbolic link; "
            "it must stay inside the folder",
            path,
        )
    return path


def check_writable_file(path: str | os.PathLike[str], what: str) -> None:
    """Raise, before any work, when ``path`` could never be written as an output file: it is a directory, a
    symbolic link, an existing file we may not write, or its folder cannot be created or written. Missing parent
    folders are created (as the writer would); no file is left behind.

    Raises:
        UnsafePathError: a symbolic link (see the module docstring).
        OSError: any other reason, with ``what`` (the option) and the path in the message.
    """
    p = refuse_link(path, what)
    if p.is_dir():
        raise IsADirectoryError(f"{what} {os.fspath(p)} is a directory; give a file path")
    if p.exists() and not p.is_file():  # a FIFO would block the writer, /dev/full fails it after the work
        raise OSError(
            f"{what} {os.fspath(p)} is not a regular file (a FIFO, device or socket is never written)"
        )
    if p.exists() and not os.access(p, os.W_OK):
        raise PermissionError(f"{what} {os.fspath(p)} is not writable")
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        if not p.exists():
            probe = p.parent / f".{p.name}.probe-{os.getpid()}"
            os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            os.unlink(probe)
    except OSError as err:
        raise OSError(
            f"{what} {os.fspath(p)} cannot be written ({type(err).__name__}: {err.strerror or err})"
        ) from None
