"""The options of ``deepeval test run`` and the one way they reach ``assert_test`` and the pytest plugin.

``deepeval test run`` hands them off through the process environment (:meth:`TestRunOptions.hand_off`), the one
channel that reaches the pytest session it starts and that session's pytest-xdist workers (child processes, which
inherit it). ``assert_test`` and the plugin read them back with :meth:`TestRunOptions.read`, through the settings
reader, so a ``.env`` file sets them like any other key and the process environment wins over it.

Each option is one settings key (listed in ``KNOWN_KEYS``): a flag is written as ``1`` when on and removed when off
(a dotenv file may still turn it on), ``DEEPEVAL_REPEAT``, ``DEEPEVAL_TEST_RUN_DISPLAY`` and ``DEEPEVAL_BACKEND``
are always written, the identifier and the Ray address when given (else removed).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from deepeval.base_errors import ConfigurationError
from deepeval.config.settings import Settings, get_settings

#: the flags and their settings keys
FLAG_KEYS = {
    "use_cache": "DEEPEVAL_USE_CACHE",
    "ignore_errors": "DEEPEVAL_IGNORE_ERRORS",
    "skip_on_missing_params": "DEEPEVAL_SKIP_ON_MISSING_PARAMS",
    "verbose_mode": "DEEPEVAL_VERBOSE_MODE",
    "show_full_reason": "DEEPEVAL_SHOW_FULL_REASON",
}
REPEAT_KEY = "DEEPEVAL_REPEAT"
DISPLAY_KEY = "DEEPEVAL_TEST_RUN_DISPLAY"
IDENTIFIER_KEY = "DEEPEVAL_TEST_RUN_IDENTIFIER"
BACKEND_KEY = "DEEPEVAL_BACKEND"
RAY_ADDRESS_KEY = "DEEPEVAL_RAY_ADDRESS"


@dataclass(frozen=True)
class TestRunOptions:
    """``-c`` use_cache, ``-i`` ignore_errors, ``-s`` skip_on_missing_params, ``-v`` verbose_mode,
    ``--full-reason`` show_full_reason, ``-r`` repeat (the text as given: :meth:`repeat_count` checks it),
    ``-d`` display (``all | failing | passing``), ``-id`` identifier, ``--backend`` backend (``local | ray``),
    ``--ray-address`` ray_address."""

    __test__ = False  # not a pytest test class

    use_cache: bool = False
    ignore_errors: bool = False
    skip_on_missing_params: bool = False
    verbose_mode: bool = False
    show_full_reason: bool = False
    repeat: str | None = "1"
    display: str = "all"
    identifier: str | None = None
    backend: str = "local"
    ray_address: str | None = None

    @classmethod
    def read(cls, settings: Settings | None = None) -> TestRunOptions:
        """The options in effect (``settings`` default: :func:`~deepeval.config.settings.get_settings` now)."""
        s = settings if settings is not None else get_settings()
        return cls(
            **{field: s.get_bool(key) for field, key in FLAG_KEYS.items()},
            repeat=(s.get(REPEAT_KEY) or "").strip() or "1",
            display=(s.get(DISPLAY_KEY) or "all").strip().lower(),
            identifier=s.get(IDENTIFIER_KEY) or None,
            backend=(s.get(BACKEND_KEY) or "").strip().lower() or "local",
            ray_address=(s.get(RAY_ADDRESS_KEY) or "").strip() or None,
        )

    def hand_off(self) -> None:
        """Write these options into the process environment for the pytest session about to start (see the
        module docstring for what is written and what is removed)."""
        for field, key in FLAG_KEYS.items():
            _put(key, "1" if getattr(self, field) else None)
        if self.repeat is not None:  # None: leave DEEPEVAL_REPEAT as the user set it
            _put(REPEAT_KEY, self.repeat)
        _put(DISPLAY_KEY, self.display)
        _put(IDENTIFIER_KEY, self.identifier or None)
        _put(BACKEND_KEY, self.backend)
        _put(RAY_ADDRESS_KEY, self.ray_address or None)

    def repeat_count(self) -> int:
        """``repeat`` as a number.

        Raises:
            ConfigurationError: it is not an integer.
        """
        try:
            return int(self.repeat or "1")
        except ValueError:
            raise ConfigurationError(f"{REPEAT_KEY} must be an integer >= 1, got {self.repeat!r}") from None


def _put(key: str, value: str | None) -> None:
    if value is None:
        os.environ.pop(key, None)
    else:
        os.environ[key] = value
