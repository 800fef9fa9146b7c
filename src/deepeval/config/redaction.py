"""One mechanism for keeping secrets out of everything we show: redaction by *value*.

Every secret this process learns (an API key from settings or an argument, the password or token of a base URL's
user-info, a credential in a base URL's query) is registered once with :func:`register_secret` /
:func:`split_url`. :func:`redact` then replaces each registered value wherever it occurs, so nothing depends on
what a server says: a key a server echoes in a 500 body or in a structured-output reply excerpt (whole, in part, or
percent- or base64-encoded: :func:`secret_forms`) is scrubbed from
row errors, ``EvaluationError``, the JSON/HTML reports, the console and pytest output, and (through
:mod:`deepeval.config.log_redaction`, whose filter sits on the HTTP libraries' loggers) from log records, where
httpx / openai / aiohttp write full request URLs. This module reads no settings: :func:`deepeval.config.redact`
(in :mod:`deepeval.config.settings`) adds the settings' secrets to the registered ones.

Names: :func:`is_secret_name` is the one rule for "this setting or query parameter holds a credential".
URLs: :func:`split_url` turns a base URL into the clean URL requests are built on (no user-info, query or
fragment), the query parameters to send with every request, and the ``Authorization`` header its user-info stands
for; :func:`display_url` / :func:`safe_url` render a URL for messages.
"""

from __future__ import annotations

import base64
import functools
import re
import threading
import urllib.parse
from collections.abc import Iterable
from dataclasses import dataclass, field

#: a registered value shorter than this is ignored (it would mask ordinary words)
MIN_SECRET_LENGTH = 4
#: a query value under a name that does not look like a credential is still registered from this length on
#: (an opaque token under a short name such as ``?k=...``)
LONG_QUERY_VALUE = 16

_SECRET_WORDS = (
    "KEY",
    "TOKEN",
    "SECRET",
    "PASSWORD",
    "PASSWD",
    "PWD",
    "CREDENTIAL",
    "AUTH",
    "SIGNATURE",
    "SIG",
)

_values: set[str] = set()
_ordered: tuple[str, ...] = ()
_lock = threading.Lock()


def is_secret_name(name: str) -> bool:
    """Whether a setting or query parameter called ``name`` holds a credential: its name contains KEY, TOKEN,
    SECRET, PASSWORD, PASSWD, PWD, CREDENTIAL, AUTH or SIG(NATURE) in any case (``OPENAI_APIKEY``, ``api-key``,
    ``access_token``, ``X_AUTH``)."""
    upper = name.upper()
    return any(word in upper for word in _SECRET_WORDS)


def register_secret(value: str | None) -> None:
    """Remember ``value`` as a secret for every later :func:`redact` (surrounding whitespace dropped; values
    shorter than :data:`MIN_SECRET_LENGTH` are ignored)."""
    global _ordered
    if not isinstance(value, str):
        return
    value = value.strip()
    if len(value) < MIN_SECRET_LENGTH or value in _values:
        return
    with _lock:
        if value not in _values:
            _values.add(value)
            # longest first: a secret that contains another is replaced whole
            _ordered = tuple(sorted(_values, key=len, reverse=True))


def known_secrets() -> tuple[str, ...]:
    """Every registered secret value, longest first."""
    return _ordered


def is_known_secret(value: str | None) -> bool:
    """Whether ``value`` is, or contains, a registered secret."""
    return bool(value) and any(s in str(value) for s in _ordered)


def scrub(text: str, extra: Iterable[str] = ()) -> str:
    """``text`` with every registered secret and every value of ``extra`` replaced by ``***``, in every form a
    server or an HTTP library may echo it (see :func:`secret_forms`): whole, and any run of at least
    :data:`MIN_FRAGMENT` characters of a form (a key's prefix or suffix a server quotes, a key cut short by a
    message limit)."""
    values = _ordered
    more = [v for v in extra if v and len(v) >= MIN_SECRET_LENGTH and v not in _values]
    if more:
        values = tuple(sorted({*values, *more}, key=len, reverse=True))
    if not values or not text:
        return text
    return _matcher(values).scrub(text)


#: a run of at least this many characters of a secret, or of an encoded form of it, is scrubbed wherever it occurs
MIN_FRAGMENT = 8
#: runs are found from probes of ``_GRAM`` characters every ``_STRIDE`` characters: a run of MIN_FRAGMENT
#: characters always holds one (``_STRIDE + _GRAM - 1 <= MIN_FRAGMENT``)
_GRAM = 4
_STRIDE = MIN_FRAGMENT - _GRAM + 1


def secret_forms(value: str) -> tuple[str, ...]:
    """The forms of ``value`` that are scrubbed: the value itself, upper- and lower-cased; percent-encoded (``quote`` with and without
    ``/`` kept, ``quote_plus``, upper- and lower-case hex); base64 of its UTF-8 bytes, standard and URL-safe
    alphabets, at each of the three byte offsets it can sit at inside a longer encoded text (``user:key`` in a
    Basic header, a JSON blob): the characters that depend on its bytes alone, so the form is found whatever
    surrounds it (and the whole encoded token around a match is scrubbed). Encoded forms shorter than
    :data:`MIN_FRAGMENT` are left out (they would match ordinary text)."""
    return tuple(form for form, _ in _forms(value))


def _forms(value: str) -> list[tuple[str, bool]]:
    """:func:`secret_forms`, each with whether it is a base64 form."""
    # a server that echoes the key in another case (an upper-cased error body) still shows it
    forms = [(value, False), (value.upper(), False), (value.lower(), False)]
    for quoted in (
        urllib.parse.quote(value, safe=""),
        urllib.parse.quote(value, safe="/"),
        urllib.parse.quote_plus(value, safe=""),
    ):
        forms += [(quoted, False), (_PERCENT.sub(lambda m: m.group(0).lower(), quoted), False)]
    raw = value.encode("utf-8", errors="surrogatepass")
    for offset in range(3):
        encoded = base64.b64encode(b"\0" * offset + raw).decode("ascii").rstrip("=")
        # the first characters mix in the bytes before it; the last one, unless the bytes end a 3-byte group, the
        # bytes after it
        core = encoded[(0, 2, 3)[offset] : len(encoded) - (1 if (offset + len(raw)) % 3 else 0)]
        forms += [(core, True), (core.replace("+", "-").replace("/", "_"), True)]
    out: list[tuple[str, bool]] = []
    seen: set[str] = set()
    for form, encoded_form in forms:
        if form not in seen and (form == value or len(form) >= MIN_FRAGMENT):
            seen.add(form)
            out.append((form, encoded_form and form != value))
    return out


_PERCENT = re.compile(r"%[0-9A-F]{2}")
_ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
_STANDARD_BASE64 = frozenset(_ALNUM + "+/=")
_URLSAFE_BASE64 = frozenset(_ALNUM + "-_=")


class _Matcher:
    """Finds the forms of a set of secrets in a text: forms shorter than :data:`MIN_FRAGMENT` whole, longer ones
    by any run of :data:`MIN_FRAGMENT` or more of their characters (found from a probe of :data:`_GRAM` characters
    at every ``_STRIDE``-th position of the text, then extended both ways along the form)."""

    def __init__(self, values: tuple[str, ...]) -> None:
        kinds: dict[str, bool] = {}
        for v in values:
            for form, encoded in _forms(v):
                kinds[form] = kinds.get(form, False) or encoded
        forms = sorted(kinds, key=len, reverse=True)
        self.whole = [f for f in forms if len(f) < MIN_FRAGMENT]
        self.long = [f for f in forms if len(f) >= MIN_FRAGMENT]
        #: for a long base64 form, its alphabet: a match there takes the whole encoded token around it
        self.alphabet: list[frozenset[str] | None] = [
            (_URLSAFE_BASE64 if "-" in f or "_" in f else _STANDARD_BASE64) if kinds[f] else None
            for f in self.long
        ]
        self.grams: dict[str, list[tuple[int, int]]] = {}
        for i, form in enumerate(self.long):
            for j in range(len(form) - _GRAM + 1):
                self.grams.setdefault(form[j : j + _GRAM], []).append((i, j))

    def scrub(self, text: str) -> str:
        for form in self.whole:
            if form in text:
                text = text.replace(form, "***")
        spans = self._spans(text)
        if not spans:
            return text
        parts: list[str] = []
        last = 0
        for start, end in spans:
            parts += [text[last:start], "***"]
            last = end
        parts.append(text[last:])
        return "".join(parts)

    def _spans(self, text: str) -> list[tuple[int, int]]:
        """The runs to scrub, sorted and merged where they overlap."""
        found: list[tuple[int, int]] = []
        grams = self.grams
        hits = [p for p in range(0, len(text) - _GRAM + 1, _STRIDE) if text[p : p + _GRAM] in grams]
        for p in hits:
            for i, j in grams[text[p : p + _GRAM]]:
                start, end = self._extend(text, p, self.long[i], j)
                if end - start < MIN_FRAGMENT:
                    continue
                alphabet = self.alphabet[i]
                if alphabet is not None:
                    while start > 0 and text[start - 1] in alphabet:
                        start -= 1
                    while end < len(text) and text[end] in alphabet:
                        end += 1
                found.append((start, end))
        if not found:
            return []
        found.sort()
        merged = [found[0]]
        for start, end in found[1:]:
            if start < merged[-1][1]:
                merged[-1] = (merged[-1][0], max(merged[-1][1], end))
            else:
                merged.append((start, end))
        return merged

    @staticmethod
    def _extend(text: str, p: int, form: str, j: int) -> tuple[int, int]:
        """The longest run of ``text`` around ``text[p : p + _GRAM] == form[j : j + _GRAM]`` that is a run of
        ``form`` too."""
        start, k = p, j
        while start > 0 and k > 0 and text[start - 1] == form[k - 1]:
            start, k = start - 1, k - 1
        end, k = p + _GRAM, j + _GRAM
        while end < len(text) and k < len(form) and text[end] == form[k]:
            end, k = end + 1, k + 1
        return start, end


@functools.lru_cache(maxsize=32)
def _matcher(values: tuple[str, ...]) -> _Matcher:
    return _Matcher(values)


@dataclass(frozen=True)
class SplitURL:
    """A base URL taken apart by :func:`split_url`."""

    #: ``scheme://host[:port]/path`` (no user-info, query or fragment), or None for the client's default
    base_url: str | None
    #: the query's parameters, in order, sent with every request
    params: dict[str, str] = field(default_factory=dict)
    #: ``Basic ...`` for user-info (``user:password@``), as curl and httpx send URL credentials; else None
    authorization: str | None = None


def split_url(url: str | None) -> SplitURL:
    """Take ``url`` apart (see :class:`SplitURL`) and register its credentials as secrets: the user-info password
    (or the user name when it stands alone, a token), the values of query parameters whose name looks like a
    credential (:func:`is_secret_name`) and any query value of :data:`LONG_QUERY_VALUE` characters or more.

    Text that is not a URL with a scheme and host (or has a bad port) comes back whole as ``base_url``, for the
    client to refuse.
    """
    if not url:
        return SplitURL(None)
    try:
        parts = urllib.parse.urlsplit(str(url).strip())
        port = parts.port
    except ValueError:
        return SplitURL(str(url))
    if not parts.scheme or not parts.hostname:
        return SplitURL(str(url))
    authorization = None
    if parts.username is not None or parts.password is not None:
        user = urllib.parse.unquote(parts.username or "")
        password = urllib.parse.unquote(parts.password or "")
        register_secret(password if password else user)
        register_secret(parts.password)
        token = base64.b64encode(f"{user}:{password}".encode()).decode("ascii")
        register_secret(token)
        authorization = f"Basic {token}"
    params: dict[str, str] = {}
    for name, value in urllib.parse.parse_qsl(parts.query, keep_blank_values=True):
        params[name] = value
        if is_secret_name(name) or len(value) >= LONG_QUERY_VALUE:
            register_secret(value)
    host = _host(parts.hostname, port)
    path = parts.path.rstrip("/")
    return SplitURL(urllib.parse.urlunsplit((parts.scheme, host, path, "", "")), params, authorization)


@functools.lru_cache(maxsize=64)
def split_url_cached(url: str | None) -> SplitURL:
    """:func:`split_url`, remembered per URL (clients look their endpoint up on every request)."""
    return split_url(url)


def _host(hostname: str | None, port: int | None) -> str:
    host = hostname or ""
    if ":" in host:  # IPv6 literal
        host = f"[{host}]"
    return f"{host}:{port}" if port is not None else host


_USERINFO = re.compile(r"(?<=//)[^/?#]*@")
_QUERY_VALUE = re.compile(r"=[^&#]*")


def _rough(url: str, query: bool) -> str:
    """A URL that does not parse (a bad port, an unclosed ``[``), made safe by pattern: user-info becomes
    ``***@``; the query and fragment go, or (``query``) keep their names with ``***`` values; then known secrets
    are scrubbed."""
    text = _USERINFO.sub("***@", url, count=1)
    base, sep, rest = text.partition("?") if "?" in text else text.partition("#")
    if sep == "?" and query:
        base += "?" + _QUERY_VALUE.sub("=***", rest.split("#", 1)[0])
    return scrub(base)


def display_url(url: str | None) -> str:
    """``url`` without user-info, query or fragment (safe to show in messages); ``<default>`` when unset."""
    if not url:
        return "<default>"
    try:
        parts = urllib.parse.urlsplit(str(url))
        host = _host(parts.hostname, parts.port)
    except ValueError:
        return _rough(str(url), query=False)
    return urllib.parse.urlunsplit((parts.scheme, host, parts.path, "", ""))


def safe_url(url: str) -> str:
    """``url`` with credentials hidden, for display: any user-info becomes ``***@`` (a user name alone may be a
    token) and every query value becomes ``***`` (names kept, as ``?api_key=***``). Text that is not a URL comes
    back with known secrets scrubbed."""
    try:
        parts = urllib.parse.urlsplit(url)
        port = parts.port
    except ValueError:
        return _rough(url, query=True)
    if not parts.scheme or not parts.netloc:
        return scrub(url)
    host = _host(parts.hostname, port)
    if parts.username is not None:
        host = f"***@{host}"
    query = urllib.parse.urlencode(
        [(name, "***") for name, _ in urllib.parse.parse_qsl(parts.query, keep_blank_values=True)], safe="*"
    )
    return urllib.parse.urlunsplit((parts.scheme, host, parts.path, query, ""))
