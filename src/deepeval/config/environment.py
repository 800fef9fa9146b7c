"""The process environment, for what is not a setting. With :mod:`deepeval.config.settings` (the settings reader:
process environment > ``.env.local`` > ``.env``) and :mod:`deepeval.config.test_run_options` (the hand-off of
``deepeval test run``'s options), this is the only place that reads the process environment; nothing outside
``config/`` touches ``os.environ`` (``tests/architecture/test_source_rules.py``).

What goes through here: variables other programs define (``RAY_ADDRESS``, pytest's ``PYTEST_CURRENT_TEST`` and
``PYTEST_DISABLE_PLUGIN_AUTOLOAD``), a variable the user names on the command line (``--api-key-env``), and whether a
settings key is set in the process environment itself (it then overrides what a dotenv file says)."""

from __future__ import annotations

import os


def process_env(name: str) -> str | None:
    """The process environment's value of ``name``; None when it is unset (a dotenv file does not count)."""
    return os.environ.get(name)
