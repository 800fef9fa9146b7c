"""Reading a dotenv file: python-dotenv's format and values, in time linear in the file's size.

``dotenv_values`` (python-dotenv 1.x) rebuilds its whole interpolation environment for every line, so a file of
20,000 lines took 16 s to read and 40,000 lines 90 s; settings are read several times per metric. This reader
gives the same values (``tests/config/test_dotenv_read.py`` compares them on a corpus of odd files) in one pass:

* the grammar of ``dotenv.parser``: optional ``export``, bare or single-quoted keys, ``=`` with optional spaces,
  single-quoted values (``\\\\`` and ``\\'`` escapes), double-quoted values (``\\\\ \\' \\" \\a \\b \\f \\n \\r \\t \\v``), both
  of which may span lines, unquoted values up to the line end less a `` #`` comment and trailing spaces, comment
  lines, a key without ``=`` (no value: left out), a leading byte-order mark; a line that breaks the grammar is
  skipped from where it broke to its end, as python-dotenv does;
* ``${NAME}`` and ``${NAME:-default}`` expanded in every value, from the process environment overridden by the
  keys above it in the same file (``dotenv_values``' ``interpolate=True, override=True``).

A file that is not valid UTF-8 is a :class:`~deepeval.errors.ConfigurationError` naming the file, the line and the
byte, not a ``UnicodeDecodeError`` traceback.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping
from pathlib import Path

from deepeval.base_errors import ConfigurationError

_MULTILINE_WS = re.compile(r"\s*")
_WS = re.compile(r"[^\S\r\n]*")
_EXPORT = re.compile(r"(?:export[^\S\r\n]+)?")
_SINGLE_KEY = re.compile(r"'([^']+)'")
_BARE_KEY = re.compile(r"([^=\#\s]+)")
_EQUALS = re.compile(r"=[^\S\r\n]*")
_SINGLE_VALUE = re.compile(r"'((?:\\.|[^'\\])*)'", re.DOTALL)
_DOUBLE_VALUE = re.compile(r'"((?:\\.|[^"\\])*)"', re.DOTALL)
_BARE_VALUE = re.compile(r"[^\r\n]*")
_INLINE_COMMENT = re.compile(r"\s+#.*")
_COMMENT = re.compile(r"(?:[^\S\r\n]*#[^\r\n]*)?")
_END_OF_LINE = re.compile(r"[^\S\r\n]*(?:\r\n|\n|\r|$)")
_REST_OF_LINE = re.compile(r"[^\r\n]*(?:\r|\n|\r\n)?")
_DOUBLE_ESCAPES = re.compile(r"\\[\\'\"abfnrtv]")
_SINGLE_ESCAPES = re.compile(r"\\[\\']")
_ESCAPED = {"\\": "\\", "'": "'", '"': '"', "a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_ESCAPED["v"] = "\v"
_VARIABLE = re.compile(r"\$\{([^}:]*)(?::-([^}]*))?\}")


class _Broken(Exception):
    """The grammar does not match at ``pos`` (the rest of that line is skipped)."""

    def __init__(self, pos: int) -> None:
        super().__init__(pos)
        self.pos = pos


def _match(regex: re.Pattern[str], text: str, pos: int) -> re.Match[str]:
    m = regex.match(text, pos)
    if m is None:
        raise _Broken(pos)
    return m


def _unescape(regex: re.Pattern[str], value: str) -> str:
    return regex.sub(lambda m: _ESCAPED[m.group(0)[1]], value)


def _value(text: str, pos: int) -> tuple[str, int]:
    char = text[pos : pos + 1]
    if char == "'":
        m = _match(_SINGLE_VALUE, text, pos)
        return _unescape(_SINGLE_ESCAPES, m.group(1)), m.end()
    if char == '"':
        m = _match(_DOUBLE_VALUE, text, pos)
        return _unescape(_DOUBLE_ESCAPES, m.group(1)), m.end()
    if char in ("", "\n", "\r"):
        return "", pos
    m = _match(_BARE_VALUE, text, pos)
    return _INLINE_COMMENT.sub("", m.group(0)).rstrip(), m.end()


def _binding(text: str, pos: int) -> tuple[str | None, str | None, int]:
    """``(key, value, end)`` of the binding starting at ``pos`` (key None for a comment or blank end)."""
    pos = _MULTILINE_WS.match(text, pos).end()  # type: ignore[union-attr]  # \s* always matches
    if pos >= len(text):
        return None, None, pos
    pos = _EXPORT.match(text, pos).end()  # type: ignore[union-attr]
    key: str | None = None
    if text[pos : pos + 1] == "'":
        m = _match(_SINGLE_KEY, text, pos)
        key, pos = m.group(1), m.end()
    elif text[pos : pos + 1] != "#":
        m = _match(_BARE_KEY, text, pos)
        key, pos = m.group(1), m.end()
    pos = _WS.match(text, pos).end()  # type: ignore[union-attr]
    value: str | None = None
    if text[pos : pos + 1] == "=":
        m = _match(_EQUALS, text, pos)
        pos = m.end()
        if m.end() - m.start() > 1 and text[pos : pos + 1] == "#":
            value = ""  # "KEY= # comment": empty value, the rest is a comment
        else:
            value, pos = _value(text, pos)
    pos = _COMMENT.match(text, pos).end()  # type: ignore[union-attr]
    pos = _match(_END_OF_LINE, text, pos).end()
    return key, value, pos


def parse_dotenv(text: str) -> Iterator[tuple[str, str | None]]:
    """``(key, raw value)`` of every binding of ``text`` in order (value None for a key without ``=``); lines that
    break the grammar are skipped. Linear in ``len(text)``."""
    pos = 1 if text.startswith("\ufeff") else 0
    while pos < len(text):
        try:
            key, value, pos = _binding(text, pos)
        except _Broken as broken:
            pos = _REST_OF_LINE.match(text, broken.pos).end()  # type: ignore[union-attr]
            continue
        if key is not None:
            yield key, value


def expand(value: str, env: Mapping[str, str | None]) -> str:
    """``value`` with every ``${NAME}`` / ``${NAME:-default}`` replaced from ``env`` (a name set to None, or missing
    without a default, gives an empty string)."""

    def one(m: re.Match[str]) -> str:
        name, default = m.group(1), m.group(2)
        found = env[name] if name in env else (default if default is not None else "")
        return found if found is not None else ""

    return _VARIABLE.sub(one, value) if "${" in value else value


def dotenv_text(path: Path) -> str:
    """The text of the dotenv file ``path`` (UTF-8), line ends read as ``\n`` (as python-dotenv opens it).

    Raises:
        ConfigurationError: the file is not valid UTF-8 (naming the file, the line and the byte) or cannot be read.
    """
    try:
        data = path.read_bytes()
    except OSError as err:
        raise ConfigurationError(f"cannot read {path}: {err.strerror or err}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise ConfigurationError(
            f"{path} is not valid UTF-8 (line {line}: byte 0x{data[err.start]:02x} at offset {err.start}); "
            "save it as UTF-8 or fix that line"
        ) from None
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def read_dotenv(path: Path, environ: Mapping[str, str] | None = None) -> dict[str, str | None]:
    """Every key of the dotenv file ``path`` with its value, ``${...}`` expanded as python-dotenv's
    ``dotenv_values`` does (later keys win; a key without ``=`` maps to None).

    Raises:
        ConfigurationError: the file is not valid UTF-8 or cannot be read (see :func:`dotenv_text`).
    """
    env: dict[str, str | None] = dict(os.environ if environ is None else environ)
    out: dict[str, str | None] = {}
    for key, raw in parse_dotenv(dotenv_text(path)):
        value = None if raw is None else expand(raw, env)
        out[key] = value
        env[key] = value
    return out
