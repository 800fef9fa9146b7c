"""What makes a judge base URL usable: one rule for the judges (checked when one is built) and the settings
commands (checked before a URL is saved). Standard library only, so the CLI stays cheap to import."""

from __future__ import annotations

import urllib.parse


def base_url_problem(url: str) -> str | None:
    """Why no request could use ``url`` as a base URL, or None when it is usable: it must parse, use http or
    https, name a host, and any port must be a number in 1-65535. The reason never quotes user-info or query."""
    try:
        parts = urllib.parse.urlsplit(url)
    except ValueError as err:  # e.g. an unclosed IPv6 bracket
        return f"it cannot be parsed ({err})"
    if parts.scheme not in ("http", "https"):
        return (
            f"the scheme must be http or https, not {parts.scheme!r}"
            if parts.scheme
            else "it has no http:// scheme"
        )
    if not parts.hostname:
        return "it has no host"
    try:
        port = parts.port
    except ValueError:  # out of range or not a number; the text after the host's last ':' is what was written
        written = parts.netloc.rpartition("@")[2].rpartition("]")[2].rpartition(":")[2]
        return f"port {written!r} is not a number in 1-65535"
    return "port 0 is not a number in 1-65535" if port == 0 else None
