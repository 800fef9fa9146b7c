"""Log records scrubbed of secrets: :class:`RedactingFilter` on the loggers of the HTTP libraries (httpx, httpcore,
openai, aiohttp) and our own, installed by :func:`install_log_redaction` when a judge client is built. It scrubs
with :func:`deepeval.config.redact` (registered secrets and the settings' secret keys), so it sits above
:mod:`deepeval.config.settings`, which sits above :mod:`deepeval.config.redaction`."""

from __future__ import annotations

import logging

from deepeval.config.settings import redact


class RedactingFilter(logging.Filter):
    """Scrubs registered secrets (and settings secrets, through ``redact``) from a record's message and arguments
    before any handler sees it; the record itself is kept."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a broken format string is the handler's business, not ours
            return True
        cleaned = redact(message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        return True


#: loggers that write request URLs or bodies (a filter applies to records logged on its own logger only, so
#: each one is named)
LOGGERS = (
    "httpx",
    "httpx2",
    "httpcore",
    "httpcore.connection",
    "httpcore.http11",
    "httpcore.http2",
    "httpcore.proxy",
    "httpcore2",  # httpx2's core (openai >= 3): logs reply headers at DEBUG
    "httpcore2.connection",
    "httpcore2.http11",
    "httpcore2.http2",
    "httpcore2.proxy",
    "openai",
    "openai._base_client",
    "openai.agents",
    "aiohttp",
    "aiohttp.client",
    "aiohttp.internal",
    "aiohttp.access",
    "deepeval",
)
_FILTER = RedactingFilter()


def install_log_redaction() -> None:
    """Put :class:`RedactingFilter` on every logger of :data:`LOGGERS` (idempotent)."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)
