"""API keys and base URLs as both client families hold them: :class:`Secret` (a key that never shows itself and is
registered for redaction) and :func:`check_base_url` (a URL no request could use is refused when a judge is built).
Redaction itself, ``display_url`` and ``split_url`` live in :mod:`deepeval.config.redaction`."""

from __future__ import annotations

import urllib.parse

from deepeval.config.redaction import register_secret
from deepeval.config.urls import base_url_problem
from deepeval.errors import ConfigurationError


class Secret:
    """Holds an API key; its repr and str never show it.

    Surrounding whitespace is dropped (a key read from a file or pasted from a terminal often ends in a newline,
    which no HTTP header may carry). :attr:`malformed` is True for a key that still holds a control character: no
    request can carry it, and clients refuse it with an ``auth`` error that does not quote it."""

    __slots__ = ("_value",)

    def __init__(self, value: str | None) -> None:
        self._value = value.strip() if isinstance(value, str) else value
        register_secret(self._value)  # scrubbed by value from every message, log record and export

    @property
    def malformed(self) -> bool:
        return bool(self._value) and any(ord(c) < 32 or ord(c) == 127 for c in str(self._value))

    def get(self) -> str | None:
        return self._value

    def __repr__(self) -> str:
        return "<secret>" if self._value else "<unset>"

    __str__ = __repr__


def _shown(url: str | None) -> str:
    """``url`` as written, less user-info, query and fragment; for a URL that may not parse (a bad port)."""
    try:
        parts = urllib.parse.urlsplit(str(url))
    except ValueError:
        return "<invalid URL>"
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc.rpartition("@")[2], parts.path, "", ""))


def check_base_url(url: str | None, setting: str) -> None:
    """Refuse, when a judge is built, a base URL no request could use, instead of failing every row later.

    ``setting`` names where the URL came from (``base_url``, ``OPENAI_BASE_URL``, ...); the message shows the URL
    without user-info, query or fragment (where keys may sit), parsed or not.

    Raises:
        ConfigurationError: the URL does not parse, its scheme is not http/https, it has no host, or its port is
            not a number in 1-65535.
    """
    problem = base_url_problem(url) if url else None
    if problem is not None:
        raise ConfigurationError(
            f"{setting} {_shown(url)!r} is not a usable base URL: {problem}; fix the setting "
            "(e.g. http://localhost:8000/v1)"
        )
