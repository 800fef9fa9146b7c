"""The errors that ``deepeval.config`` raises, in a module that imports nothing of ours, so settings can raise
them while :mod:`deepeval.errors` (whose judge errors redact their messages with the settings' secrets) builds on
them. Import them from :mod:`deepeval.errors`: they are the same classes, and say so in tracebacks."""

from __future__ import annotations


class DeepEvalError(Exception):
    """Base class of every error this package raises on purpose."""

    __module__ = "deepeval.errors"


class InvalidEvalModeError(DeepEvalError, ValueError):
    """An eval mode that is not one of ``llm``, ``hybrid``, ``system_one`` (from an argument or the environment)."""

    __module__ = "deepeval.errors"


class ConfigurationError(DeepEvalError, ValueError):
    """A setting or CLI option has a value we cannot use."""

    __module__ = "deepeval.errors"
