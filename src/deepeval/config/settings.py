"""Resolved settings.

Precedence (highest first): the process environment, ``.env.local``, ``.env``. Files are looked up in
``ENV_DIR_PATH`` if set, else the current working directory. ``DEEPEVAL_DISABLE_DOTENV=1`` skips both files.
Settings are read fresh on every :func:`get_settings` call (cheap: two small files, read in time linear in their
size by :mod:`deepeval.config.dotenv_read`), so a test or CLI command that changes the environment sees the change.
A dotenv file that is not valid UTF-8 is a :class:`~deepeval.errors.ConfigurationError` naming the file and line.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from deepeval._files import user_path
from deepeval.base_errors import ConfigurationError
from deepeval.config.redaction import is_secret_name, scrub
from deepeval.config.redaction import safe_url as safe_url  # its home is deepeval.config.redaction

#: Keys whose values are secrets: masked by ``deepeval settings`` and never logged.
SECRET_KEYS = frozenset({"OPENAI_API_KEY", "TYPESAFE_API_KEY", "LOCAL_MODEL_API_KEY"})

#: Every key we read, with a one-line meaning (shown by ``deepeval settings``).
KNOWN_KEYS: dict[str, str] = {
    "DEEPEVAL_EVAL_MODE": "llm | hybrid | system_one",
    "DEEPEVAL_OFFLINE": "1: judges only from arguments and the embedded judge; the settings' LLM and TypeSafe are not used",
    "OPENAI_API_KEY": "OpenAI API key",
    "OPENAI_MODEL_NAME": "OpenAI judge model (default gpt-5.4)",
    "OPENAI_BASE_URL": "OpenAI API base URL",
    "OPENAI_COST_PER_INPUT_TOKEN": "USD per input token (overrides the price table)",
    "OPENAI_COST_PER_OUTPUT_TOKEN": "USD per output token (overrides the price table)",
    "USE_LOCAL_MODEL": "YES to use the OpenAI-compatible local model as the default LLM judge",
    "LOCAL_MODEL_NAME": "model name on the OpenAI-compatible server",
    "LOCAL_MODEL_BASE_URL": "base URL of the OpenAI-compatible server",
    "LOCAL_MODEL_API_KEY": "API key of the OpenAI-compatible server",
    "LOCAL_MODEL_FORMAT": "structured-output format: json_schema | json | text",
    "GGUF_MODEL_PATH": "a .gguf file run in-process as the default LLM judge (GGUFModel; gguf extra)",
    "DEEPEVAL_READER": "the embedded judge's local reader: auto (default: the catalog's reader when installed), off, a "
    "catalog model name, or a .gguf file",
    "DEEPEVAL_READER_THREADS": "CPU threads of the local reader (default: llama.cpp's choice)",
    "DEEPEVAL_MODELS_DIR": "folder of models assembled from PyPI chunk packages (default ~/.cache/deepeval/models)",
    "GGUF_MODEL_N_CTX": "context window of the GGUF judge in tokens (default 4096, at least 256)",
    "GGUF_MODEL_MAX_TOKENS": "most tokens the GGUF judge generates per call (default 512)",
    "GGUF_MODEL_N_THREADS": "CPU threads of the GGUF judge (default: half the usable CPUs, 1 to 8)",
    "GGUF_MODEL_VERBOSE": "YES to let llama.cpp write its own log to stderr (default: silent)",
    "TYPESAFE_API_KEY": "TypeSafe API key (System One model Jev)",
    "TYPESAFE_BASE_URL": "TypeSafe base URL (default https://api.typesafe.ai)",
    "TYPESAFE_MODEL_NAME": "System One model (default jev-latest)",
    "TYPESAFE_COST_PER_INPUT_TOKEN": "USD per input token for the System One model (default: Jev's price on "
    "TypeSafe's API, none for another server)",
    "TYPESAFE_MAX_QUESTIONS": "most questions in one System One request; more are split over several (default 64)",
    "DEEPEVAL_JUDGE_TIMEOUT": "seconds per judge attempt (default 60)",
    "DEEPEVAL_JUDGE_MAX_RETRIES": "retries per judge call on transient errors (default 4)",
    "DEEPEVAL_HTTP_CLIENT": "HTTP transport of async OpenAI-compatible judge calls: aiohttp (default) | httpx",
    "DEEPEVAL_RESULTS_FOLDER": "folder for JSON/HTML results",
    "DEEPEVAL_CACHE_PATH": "SQLite cache file (default .deepeval/cache.sqlite)",
    "LOCAL_MODEL_COST_PER_INPUT_TOKEN": "USD per input token of the local model (default 0)",
    "LOCAL_MODEL_COST_PER_OUTPUT_TOKEN": "USD per output token of the local model (default 0)",
    "DEEPEVAL_USE_CACHE": "assert_test: read and write the result cache (deepeval test run -c)",
    "DEEPEVAL_IGNORE_ERRORS": "assert_test: a metric error does not fail the assertion (deepeval test run -i)",
    "DEEPEVAL_SKIP_ON_MISSING_PARAMS": "assert_test: skip metrics whose test-case fields are missing (-s)",
    "DEEPEVAL_VERBOSE_MODE": "assert_test: verbose metric logs (deepeval test run -v)",
    "DEEPEVAL_SHOW_FULL_REASON": "pytest plugin table: full reasons instead of shortened ones",
    "DEEPEVAL_TEST_RUN_DISPLAY": "pytest plugin table: which rows to show (all | failing | passing; deepeval test run -d)",
    "DEEPEVAL_TEST_RUN_IDENTIFIER": "pytest plugin: the run's identifier in its export (deepeval test run -id)",
    "DEEPEVAL_REPEAT": "assert_test: measures of each metric per call (ours; deepeval test run -r reruns tests instead)",
    "DEEPEVAL_BACKEND": "assert_test: local | ray (deepeval test run --backend)",
    "DEEPEVAL_RAY_ADDRESS": "assert_test with the ray backend: address of the Ray cluster",
    "DEEPEVAL_ENCODER_THREADS": "threads of the embedded judge's encoder (default: the CPUs this process may use, at most 8)",
    "DEEPEVAL_SHARED_DATASETS": "folder of shared memory datasets (default ../shared/datasets)",
    "ENV_DIR_PATH": "folder of the .env / .env.local files (read from the process environment only)",
    "DEEPEVAL_DISABLE_DOTENV": "1 to ignore .env files (read from the process environment only)",
}


def is_secret_key(key: str) -> bool:
    """True for keys whose values must never be shown: the known secrets, and any other key whose name looks like
    a credential (:func:`~deepeval.config.redaction.is_secret_name`: contains KEY, TOKEN, SECRET, PASSWORD...). A
    key we read with a known, non-secret meaning (``OPENAI_COST_PER_INPUT_TOKEN``) is not one."""
    upper = key.upper()
    if upper in SECRET_KEYS:
        return True
    return upper not in KNOWN_KEYS and is_secret_name(upper)


def redact(text: str, secrets: Mapping[str, str] | None = None) -> str:
    """Replace every known secret value occurring in ``text`` with ``***``: the values registered with
    :func:`~deepeval.config.redaction.register_secret` (keys passed to clients, base-URL credentials), plus
    ``secrets`` (default: the secret values of the current settings). Values shorter than 4 characters are left
    alone (they would mask ordinary words)."""
    values = secrets if secrets is not None else current_secrets()
    return scrub(text, values.values())


def current_secrets() -> dict[str, str]:
    """The secret values of the current settings (what :func:`redact` scrubs besides the registered secrets).
    Resolving the settings reads the environment and the dotenv files, so a caller redacting many texts at once
    (a result row's reason and every verdict) resolves them once and passes them to ``redact(text, secrets)``."""
    # redact() runs on error paths, so it must not fail itself: with unreadable settings (a bad ENV_DIR_PATH, an
    # unreadable file) fall back to the secrets in the process environment.
    try:
        return get_settings().secrets()
    except Exception:
        # only the variables settings read: PWD and OLDPWD look like secret names, and masking them would hide
        # the current folder in the very error that names a file in it
        return {k: v for k, v in _environment_values().items() if is_secret_key(k) and v}


def is_url_key(key: str) -> bool:
    """True for settings that hold a URL (``*_URL``), whose user-info and query may carry credentials."""
    return key.upper().endswith("_URL")


def mask(value: str | None) -> str:
    """Render a secret for display: ``<unset>`` when empty, ``***`` plus the last 4 characters when the value is
    longer than 12 characters (enough to tell two keys apart), else just ``***``."""
    if not value:
        return "<unset>"
    return "***" + value[-4:] if len(value) > 12 else "***"


def env_dir() -> Path:
    """The folder holding ``.env`` and ``.env.local``: ``ENV_DIR_PATH`` if set, else the current directory.

    Raises:
        ConfigurationError: ``ENV_DIR_PATH`` is set but is not an existing directory.
    """
    raw = os.environ.get("ENV_DIR_PATH")
    if not raw:
        return Path(os.getcwd())
    path = user_path(raw)
    if not path.is_dir():
        raise ConfigurationError(
            f"ENV_DIR_PATH={raw!r} is not a directory; point it at the folder holding .env files"
        )
    return path


def dotenv_disabled() -> bool:
    """True when ``DEEPEVAL_DISABLE_DOTENV`` (process environment only) is 1/true/yes: no ``.env`` file is read."""
    return os.environ.get("DEEPEVAL_DISABLE_DOTENV", "").strip().lower() in {"1", "true", "yes", "on"}


@dataclass(frozen=True)
class Settings:
    """A snapshot of resolved settings. ``sources`` maps each key to where it came from."""

    values: dict[str, str] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)

    def get(self, key: str, default: str | None = None) -> str | None:
        value = self.values.get(key)
        return value if value not in (None, "") else default

    def get_float(self, key: str, default: float | None = None) -> float | None:
        raw = self.get(key)
        if raw is None:
            return default
        try:
            return float(raw)
        except ValueError:
            raise ConfigurationError(f"{key} must be a number, got {raw!r}") from None

    def get_positive_int(self, key: str, default: int) -> int:
        """``key`` as an integer of at least 1, ``default`` when unset; anything else is a ``ConfigurationError``."""
        raw = self.get(key)
        if raw is None:
            return default
        try:
            value = int(raw)
        except ValueError:
            value = 0
        if value < 1:
            raise ConfigurationError(f"{key} must be a positive integer, got {raw!r}")
        return value

    def get_bool(self, key: str, default: bool = False) -> bool:
        raw = self.get(key)
        if raw is None:
            return default
        return raw.strip().lower() in {"1", "true", "yes", "on", "y"}

    def secrets(self) -> dict[str, str]:
        """The values of every secret key that is set (see :func:`is_secret_key`)."""
        return {k: v for k, v in self.values.items() if is_secret_key(k) and v}


def _file_values(path: Path) -> dict[str, str]:
    from deepeval.config.dotenv_read import read_dotenv

    if not path.is_file():
        return {}
    return {k: v for k, v in read_dotenv(path).items() if v is not None}


def get_settings() -> Settings:
    """Resolve settings now: process env > ``.env.local`` > ``.env`` (see module docstring).

    Only keys we read (``KNOWN_KEYS`` and the ``DEEPEVAL_``/``OPENAI_``/``TYPESAFE_``/``LOCAL_MODEL_`` prefixes) are
    taken from the process environment; every key of the dotenv files is kept. An empty value counts as unset in
    :meth:`Settings.get`.

    Raises:
        ConfigurationError: ``ENV_DIR_PATH`` is set but is not a directory, or a dotenv file is not valid UTF-8 or
            cannot be read (naming the file).
    """
    values: dict[str, str] = {}
    sources: dict[str, str] = {}
    if not dotenv_disabled():
        base = env_dir()
        for name in (".env", ".env.local"):  # later files win
            for k, v in _file_values(base / name).items():
                values[k] = v
                sources[k] = str(base / name)
    for k, v in _environment_values().items():
        values[k] = v
        sources[k] = "environment"
    return Settings(values=values, sources=sources)


def _environment_values() -> dict[str, str]:
    """The process environment variables settings read: :data:`KNOWN_KEYS` and our prefixes."""
    prefixes = ("DEEPEVAL_", "OPENAI_", "TYPESAFE_", "LOCAL_MODEL_")
    return {k: v for k, v in os.environ.items() if k in KNOWN_KEYS or k.startswith(prefixes)}


def reset_settings_cache() -> None:
    """Kept for API symmetry; settings are not cached."""
