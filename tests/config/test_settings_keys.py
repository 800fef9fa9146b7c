"""One settings reader: every environment/settings key our sources name is in ``KNOWN_KEYS``, and nothing outside
``config/settings.py`` reads the process environment for one of them (so ``.env`` files apply everywhere)."""

from __future__ import annotations

import re
from pathlib import Path

import deepeval
from deepeval.config.settings import KNOWN_KEYS

SRC = Path(deepeval.__file__).resolve().parent
_KEY = re.compile(
    r"""["']((?:DEEPEVAL|OPENAI|TYPESAFE|LOCAL_MODEL|USE_LOCAL|ENV_DIR|GGUF)_?[A-Z0-9_]*[A-Z0-9])["']"""
)
_ENV_READ = re.compile(r"""os\.(?:environ\.get|getenv)\(\s*["']([A-Z0-9_]+)["']""")
#: keys that decide where settings come from, so they can only be read from the process environment
_BOOTSTRAP = {"ENV_DIR_PATH", "DEEPEVAL_DISABLE_DOTENV"}


def _sources() -> list[Path]:
    return [p for p in SRC.rglob("*.py") if "embedded" not in p.relative_to(SRC).parts]


def test_every_key_our_sources_name_is_known() -> None:
    # key_handler.py lists deepeval's key enums (every provider's keys, most of which no judge of ours reads)
    named = {
        m
        for p in _sources()
        if p.name != "key_handler.py"
        for m in _KEY.findall(p.read_text(encoding="utf-8"))
    }
    assert len(named) >= 30  # the grep itself works
    assert sorted(named - set(KNOWN_KEYS)) == []


def test_no_module_reads_a_known_key_from_the_process_environment() -> None:
    offenders = {
        f"{p.relative_to(SRC)}:{key}"
        for p in _sources()
        if p.name != "settings.py"
        for key in _ENV_READ.findall(p.read_text(encoding="utf-8"))
        if key in KNOWN_KEYS and key not in _BOOTSTRAP
    }
    assert sorted(offenders) == []
