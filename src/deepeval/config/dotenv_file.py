"""Writing and removing keys in a dotenv file (the ``--save dotenv[:path]`` target of the settings commands).

Files we create get mode 0600 (owner read/write only); an existing file that receives a secret is chmod-ed to 0600
before the secret is written. Writes go through python-dotenv's ``set_key``/``unset_key`` (which rewrite the file via
a temporary file in the same folder and keep the other lines as they were). A dotenv file that is a symbolic link is
refused, as every file we write (:mod:`deepeval._safe_path`): rewriting it would replace the link with a copy, and
writing through it would put keys wherever it points; give the real path (``--save dotenv:PATH``).
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterable, Mapping
from pathlib import Path

from dotenv import set_key, unset_key

from deepeval._files import user_path
from deepeval.base_errors import ConfigurationError
from deepeval.config.dotenv_read import dotenv_text
from deepeval.config.settings import env_dir, is_secret_key

#: The default file of ``--save``: local, git-ignored overrides.
DEFAULT_DOTENV = ".env.local"

_KEY_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_PRIVATE = stat.S_IRUSR | stat.S_IWUSR  # 0o600


def parse_save_target(value: str | None, *, default: bool = True) -> Path | None:
    """Parse a ``--save`` value into the dotenv file to write.

    ``dotenv`` means ``.env.local`` in ``ENV_DIR_PATH`` (else the current directory); ``dotenv:PATH`` means ``PATH``
    (relative paths are relative to the current directory). ``None`` gives the default file when ``default`` is
    true, else ``None`` (nothing is persisted).

    Raises:
        ConfigurationError: any other value, or ``dotenv:`` with an empty path or a path that is a directory.
    """
    if value is None:
        return env_dir() / DEFAULT_DOTENV if default else None
    raw = value.strip()
    kind, sep, rest = raw.partition(":")
    if kind.strip().lower() != "dotenv":
        raise ConfigurationError(
            f"unsupported --save value {value!r}: use 'dotenv' (writes {DEFAULT_DOTENV}) or 'dotenv:PATH'"
        )
    if not sep:
        return env_dir() / DEFAULT_DOTENV
    path_text = rest.strip()
    if not path_text:
        raise ConfigurationError(
            f"--save {value!r} names no file: use 'dotenv:PATH', e.g. 'dotenv:.env.local'"
        )
    path = user_path(path_text)
    if path.is_dir():
        raise ConfigurationError(
            f"--save {value!r} names a directory; give a file path such as {path / '.env'}"
        )
    return path


def _not_a_link(path: Path) -> None:
    from deepeval._safe_path import UnsafePathError, refuse_link

    try:
        refuse_link(path, "the dotenv file")
    except UnsafePathError as err:
        raise ConfigurationError(str(err)) from None


def _check_key(key: str) -> None:
    if not _KEY_RE.match(key):
        raise ConfigurationError(f"invalid dotenv key {key!r}: use letters, digits and underscores")


def _check_value(key: str, value: str) -> None:
    if not isinstance(value, str):
        raise ConfigurationError(f"{key} must be a string, got {type(value).__name__}")
    if any(ch in value for ch in "\n\r\x00"):
        raise ConfigurationError(f"{key} must be a single line (no newline or NUL characters)")
    if "${" in value:
        # python-dotenv expands ${NAME} even inside single quotes, so the value would not read back as written.
        raise ConfigurationError(
            f"{key} must not contain '${{': dotenv files expand it as a variable reference"
        )


def _ensure_file(path: Path, *, private: bool) -> bool:
    """Create ``path`` with mode 0600 if missing (returns True then); chmod it to 0600 when ``private``."""
    if not path.parent.is_dir():
        raise ConfigurationError(f"cannot write {path}: folder {path.parent} does not exist")
    created = False
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, _PRIVATE)
    except FileExistsError:
        if not path.is_file():
            raise ConfigurationError(f"cannot write {path}: not a regular file") from None
    else:
        os.close(fd)
        created = True
    if created or private:
        os.chmod(path, _PRIVATE)
    return created


def set_keys(path: str | os.PathLike[str], values: Mapping[str, str]) -> Path:
    """Write each ``key=value`` into the dotenv file ``path`` (replacing an existing line for that key).

    The file is created with mode 0600 if missing. When any key is a secret (see
    :func:`deepeval.config.settings.is_secret_key`) the file is made 0600 before anything is written. Values are
    single-quoted so that any character but a newline survives a round trip.

    Returns:
        The path written.

    Raises:
        ConfigurationError: a key that is not a valid name, a multi-line value or one containing ``${`` (dotenv
            would expand it), a missing parent folder, a path that is a symbolic link or not a regular file. Nothing
            is written when validation fails.
    """
    target = Path(path)
    for key, value in values.items():
        _check_key(key)
        _check_value(key, value)
    if not values:
        return target
    _not_a_link(target)
    if target.is_file():
        dotenv_text(target)  # a file that is not UTF-8 is named now, before python-dotenv would fail on it
    private = any(is_secret_key(k) for k in values)
    _ensure_file(target, private=private)
    for key, value in values.items():
        set_key(target, key, value, quote_mode="always")
    if private:
        os.chmod(target, _PRIVATE)
    return target


def unset_keys(path: str | os.PathLike[str], keys: Iterable[str]) -> list[str]:
    """Remove ``keys`` from the dotenv file ``path``.

    Returns:
        The keys that were present and removed (a missing file removes nothing).

    Raises:
        ConfigurationError: a key that is not a valid name, or a path that is a symbolic link or not a regular
            file.
    """
    target = Path(path)
    keys = list(keys)
    for key in keys:
        _check_key(key)
    _not_a_link(target)
    if not target.exists():
        return []
    if not target.is_file():
        raise ConfigurationError(f"cannot edit {target}: not a regular file")
    from deepeval.config.dotenv_read import read_dotenv

    present = set(read_dotenv(target))
    removed: list[str] = []
    for key in keys:
        if key in present:
            unset_key(target, key)
            removed.append(key)
    return removed
