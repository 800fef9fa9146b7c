"""The process environment, for what is not a setting. With :mod:`deepeval.config.settings` (the settings reader:
process environment > ``.env.local`` > ``.env``) and :mod:`deepeval.config.test_run_options` (the hand-off of
``deepeval test run``'s options), this is the only place that reads the process environment; nothing outside
``config/`` touches ``os.environ`` (``tests/architecture/test_source_rules.py``).

What goes through here: variables other programs define (``RAY_ADDRESS``, pytest's ``PYTEST_CURRENT_TEST`` and
``PYTEST_DISABLE_PLUGIN_AUTOLOAD``), a variable the user names on the command line (``--api-key-env``), and whether a
settings key is set in the process environment itself (it then overrides what a dotenv file says)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

#: what ``import deepeval`` copied from the dotenv files into the process environment (key -> value; see
#: :func:`deepeval.config.settings.autoload_dotenv`): such a value is the file's, not the process environment's
AUTOLOADED: dict[str, str] = {}


def process_env(name: str) -> str | None:
    """The process environment's value of ``name``; None when it is unset (a dotenv file does not count, nor a value
    that ``import deepeval`` copied from one)."""
    value = os.environ.get(name)
    if value is not None and AUTOLOADED.get(name) == value:
        return None
    return value


def append_to_env(name: str, text: str) -> None:
    """Append ``text`` to the process environment's ``name`` (space-separated), for child processes started later
    (pytest-xdist workers read ``PYTEST_ADDOPTS``)."""
    os.environ[name] = " ".join(part for part in (os.environ.get(name, ""), text) if part)


@contextmanager
def restored_env(name: str) -> Iterator[None]:
    """Give ``name`` back its value (or its absence) when the block ends, whatever the block set it to."""
    before = os.environ.get(name)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = before


@contextmanager
def default_while(name: str, value: str) -> Iterator[None]:
    """``name`` set to ``value`` while the block runs unless the process already sets it (a library read at load time,
    e.g. OpenMP's ``OMP_NUM_THREADS``, then sees it); its absence is restored afterwards."""
    with restored_env(name):
        os.environ.setdefault(name, value)
        yield


@contextmanager
def set_while(name: str, value: str) -> Iterator[None]:
    """``name`` set to ``value`` while the block runs; its earlier value (or absence) restored afterwards."""
    with restored_env(name):
        os.environ[name] = value
        yield
