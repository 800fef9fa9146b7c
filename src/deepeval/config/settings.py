"""Resolved settings.

Precedence (highest first): the process environment, ``.env.local``, ``.env.<APP_ENV>``, ``.env`` (deepeval
4.3.1's order; ``APP_ENV`` from the process environment, else ``.env.local``, else ``.env``). Files are looked up in
``ENV_DIR_PATH`` if set, else the current working directory. ``DEEPEVAL_DISABLE_DOTENV=1`` skips the files.

As deepeval 4.3.1 does, ``import deepeval`` also copies the files' values into ``os.environ`` for the keys the
process environment does not set (:func:`autoload_dotenv`), so user code reading ``os.environ`` after the import sees
them. Settings still read the files fresh: a value that is in the environment only because the import copied it
there counts as the file's, so a file changed later (``deepeval set-eval-mode --save``) is seen at once.
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
from deepeval.config import environment as _environment
from deepeval.config.redaction import is_secret_name, scrub
from deepeval.config.redaction import safe_url as safe_url  # its home is deepeval.config.redaction

#: Keys whose values are secrets: masked by ``deepeval settings`` and never logged.
SECRET_KEYS = frozenset(
    {
        "OPENAI_API_KEY",
        "TYPESAFE_API_KEY",
        "LOCAL_MODEL_API_KEY",
        "ANTHROPIC_API_KEY",
        "AZURE_OPENAI_API_KEY",
        "AZURE_OPENAI_AD_TOKEN",
        "GOOGLE_API_KEY",
        "GOOGLE_SERVICE_ACCOUNT_KEY",
        "DEEPSEEK_API_KEY",
        "GROK_API_KEY",
        "MOONSHOT_API_KEY",
        "OPENROUTER_API_KEY",
        "PORTKEY_API_KEY",
        "LITELLM_API_KEY",
        "LITELLM_PROXY_API_KEY",
        "AWS_ACCESS_KEY_ID",
        "AWS_SECRET_ACCESS_KEY",
        "AWS_SESSION_TOKEN",
        "LOCAL_EMBEDDING_API_KEY",
    }
)

#: (setting, value) pairs that mark a provider rather than hold a secret (deepeval 4.3.1's Ollama markers)
MARKER_VALUES = frozenset({("LOCAL_MODEL_API_KEY", "ollama"), ("LOCAL_EMBEDDING_API_KEY", "ollama")})

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
    "TEMPERATURE": "temperature of the provider judges when their temperature= is not given",
    "USE_OPENAI_MODEL": "YES: OpenAI is the LLM judge (deepeval 4.3.1's switch; OPENAI_API_KEY alone does it too)",
    "USE_GEMINI_MODEL": "YES: Gemini is the LLM judge (deepeval set-gemini)",
    "GEMINI_MODEL_NAME": "Gemini judge model (default gemini-3.6-flash)",
    "GOOGLE_API_KEY": "Gemini API key",
    "GOOGLE_GEMINI_BASE_URL": "Gemini API base URL (default https://generativelanguage.googleapis.com)",
    "GEMINI_COST_PER_INPUT_TOKEN": "USD per input token of the Gemini judge (overrides the price table)",
    "GEMINI_COST_PER_OUTPUT_TOKEN": "USD per output token of the Gemini judge (overrides the price table)",
    "GOOGLE_GENAI_USE_VERTEXAI": "1: Gemini through Vertex AI (OAuth: GOOGLE_SERVICE_ACCOUNT_KEY or gcloud's ADC)",
    "GOOGLE_CLOUD_PROJECT": "Vertex AI project",
    "GOOGLE_CLOUD_LOCATION": "Vertex AI location",
    "GOOGLE_SERVICE_ACCOUNT_KEY": "Vertex AI service account key (JSON; signing needs the vertex extra)",
    "USE_LITELLM": "YES: LiteLLM is the LLM judge (deepeval set-litellm; litellm extra)",
    "LITELLM_MODEL_NAME": "LiteLLM model (provider/model, e.g. anthropic/claude-opus-5)",
    "LITELLM_API_KEY": "API key passed to LiteLLM",
    "LITELLM_API_BASE": "base URL passed to LiteLLM",
    "LITELLM_PROXY_API_KEY": "API key of a LiteLLM proxy",
    "LITELLM_PROXY_API_BASE": "base URL of a LiteLLM proxy",
    "USE_PORTKEY_MODEL": "YES: a Portkey gateway is the LLM judge (deepeval set-portkey)",
    "PORTKEY_MODEL_NAME": "model behind the Portkey gateway",
    "PORTKEY_API_KEY": "Portkey API key",
    "PORTKEY_BASE_URL": "Portkey gateway base URL",
    "PORTKEY_PROVIDER_NAME": "provider Portkey routes to (x-portkey-provider)",
    "OLLAMA_MODEL_NAME": "Ollama judge model (deepeval set-ollama; LOCAL_MODEL_API_KEY=ollama selects it)",
    "USE_AZURE_OPENAI": "YES: Azure OpenAI is the LLM judge (deepeval set-azure-openai)",
    "AZURE_OPENAI_API_KEY": "Azure OpenAI API key",
    "AZURE_OPENAI_AD_TOKEN": "Azure OpenAI Entra ID token (instead of a key)",
    "AZURE_OPENAI_ENDPOINT": "Azure OpenAI resource endpoint",
    "OPENAI_API_VERSION": "Azure OpenAI API version",
    "AZURE_DEPLOYMENT_NAME": "Azure OpenAI deployment of the judge",
    "AZURE_MODEL_NAME": "model behind the Azure deployment (names and prices)",
    "AZURE_MODEL_VERSION": "version of the model behind the Azure deployment",
    "USE_AZURE_OPENAI_EMBEDDING": "YES: Azure OpenAI embeddings (deepeval set-azure-openai-embedding)",
    "AZURE_EMBEDDING_MODEL_NAME": "model behind the Azure embedding deployment",
    "AZURE_EMBEDDING_DEPLOYMENT_NAME": "Azure OpenAI embedding deployment",
    "USE_MOONSHOT_MODEL": "YES: Kimi (Moonshot) is the LLM judge (deepeval set-moonshot)",
    "MOONSHOT_MODEL_NAME": "Kimi / Moonshot judge model",
    "MOONSHOT_API_KEY": "Moonshot API key",
    "MOONSHOT_COST_PER_INPUT_TOKEN": "USD per input token of the Kimi judge",
    "MOONSHOT_COST_PER_OUTPUT_TOKEN": "USD per output token of the Kimi judge",
    "USE_GROK_MODEL": "YES: Grok is the LLM judge (deepeval set-grok)",
    "GROK_MODEL_NAME": "Grok judge model",
    "GROK_API_KEY": "xAI API key",
    "GROK_COST_PER_INPUT_TOKEN": "USD per input token of the Grok judge",
    "GROK_COST_PER_OUTPUT_TOKEN": "USD per output token of the Grok judge",
    "USE_DEEPSEEK_MODEL": "YES: DeepSeek is the LLM judge (deepeval set-deepseek)",
    "DEEPSEEK_MODEL_NAME": "DeepSeek judge model",
    "DEEPSEEK_API_KEY": "DeepSeek API key",
    "DEEPSEEK_COST_PER_INPUT_TOKEN": "USD per input token of the DeepSeek judge",
    "DEEPSEEK_COST_PER_OUTPUT_TOKEN": "USD per output token of the DeepSeek judge",
    "USE_OPENROUTER_MODEL": "YES: OpenRouter is the LLM judge (deepeval set-openrouter)",
    "OPENROUTER_MODEL_NAME": "OpenRouter judge model (default openai/gpt-5.4)",
    "OPENROUTER_API_KEY": "OpenRouter API key",
    "OPENROUTER_BASE_URL": "OpenRouter base URL (default https://openrouter.ai/api/v1)",
    "OPENROUTER_COST_PER_INPUT_TOKEN": "USD per input token of the OpenRouter judge",
    "OPENROUTER_COST_PER_OUTPUT_TOKEN": "USD per output token of the OpenRouter judge",
    "USE_ANTHROPIC_MODEL": "YES: Anthropic is the LLM judge (deepeval set-anthropic)",
    "ANTHROPIC_MODEL_NAME": "Anthropic judge model (default claude-opus-5)",
    "ANTHROPIC_API_KEY": "Anthropic API key",
    "ANTHROPIC_BASE_URL": "Anthropic API base URL (default https://api.anthropic.com)",
    "ANTHROPIC_COST_PER_INPUT_TOKEN": "USD per input token of the Anthropic judge (overrides the price table)",
    "ANTHROPIC_COST_PER_OUTPUT_TOKEN": "USD per output token of the Anthropic judge (overrides the price table)",
    "USE_AWS_BEDROCK_MODEL": "YES: Amazon Bedrock is the LLM judge (deepeval set-bedrock; bedrock extra)",
    "AWS_BEDROCK_MODEL_NAME": "Bedrock model id (e.g. anthropic.claude-sonnet-4-5-20250929-v1:0)",
    "AWS_BEDROCK_REGION": "Bedrock region (e.g. us-east-1)",
    "AWS_BEDROCK_COST_PER_INPUT_TOKEN": "USD per input token of the Bedrock judge",
    "AWS_BEDROCK_COST_PER_OUTPUT_TOKEN": "USD per output token of the Bedrock judge",
    "AWS_ACCESS_KEY_ID": "AWS access key id (Bedrock)",
    "AWS_SECRET_ACCESS_KEY": "AWS secret access key (Bedrock)",
    "AWS_SESSION_TOKEN": "AWS session token (Bedrock, temporary credentials)",
    "USE_LOCAL_EMBEDDINGS": "YES: embeddings from a local / Ollama server (deepeval set-local-embeddings)",
    "LOCAL_EMBEDDING_MODEL_NAME": "embedding model on the local / Ollama server",
    "LOCAL_EMBEDDING_BASE_URL": "base URL of the embedding server",
    "LOCAL_EMBEDDING_API_KEY": "API key of the embedding server (ollama: set-ollama-embeddings' marker)",
    "DEEPEVAL_JUDGE_TIMEOUT": "seconds per judge attempt (default 60)",
    "DEEPEVAL_JUDGE_MAX_RETRIES": "retries per judge call on transient errors (default 4)",
    "DEEPEVAL_JUDGE_MAX_REPLY_BYTES": "most bytes of one judge / System One reply body read (default 33554432, 32 MiB)",
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
    "APP_ENV": "also read .env.<APP_ENV> (between .env and .env.local)",
    "DEEPEVAL_FILE_SYSTEM": "READ_ONLY: write no file (no result cache, no kept runs; exports only where asked)",
    "LOG_LEVEL": "level of the 'deepeval' logger, a name or number (deepeval set-debug --log-level)",
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


_LEVEL_NAMES = ("CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG", "NOTSET")


def parse_log_level(value: str | int) -> int:
    """A log level given by name (any case) or number, as its number (``"debug"`` -> 10).

    Raises:
        ValueError: neither a level name nor a whole number (the message lists the names).
    """
    import logging

    text = str(value).strip()
    if text.upper() in _LEVEL_NAMES:
        return int(logging.getLevelName(text.upper()))
    try:
        return int(text)
    except ValueError:
        raise ValueError(
            f"log level must be one of {', '.join(_LEVEL_NAMES)} or a number, got {value!r}"
        ) from None


def apply_log_level() -> None:
    """Set the ``deepeval`` logger's level from ``LOG_LEVEL`` when it is set, as deepeval 4.3.1 does on import
    (ours leaves the logger alone when it is unset; an unreadable setting or a bad value changes nothing)."""
    import logging

    try:
        raw = get_settings().get("LOG_LEVEL")
        if raw is not None:
            logging.getLogger("deepeval").setLevel(parse_log_level(raw))
    except (ConfigurationError, ValueError):
        return


def read_only() -> bool:
    """``DEEPEVAL_FILE_SYSTEM=READ_ONLY`` (deepeval 4.3.1's setting, case-insensitive here): write nothing on our
    own initiative: no result cache (``.deepeval/cache.sqlite``, neither read nor written), no run kept in
    ``.deepeval/runs/``. Files the user asks for (``results_folder``, ``file_output_dir``, ``--csv``,
    ``save_as``) are still written, as in 4.3.1."""
    try:
        value = get_settings().get("DEEPEVAL_FILE_SYSTEM") or ""
    except ConfigurationError:
        value = os.environ.get("DEEPEVAL_FILE_SYSTEM", "")
    return value.strip().upper() == "READ_ONLY"


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
        """The values of every secret key that is set (see :func:`is_secret_key`), less provider markers (the
        ``ollama`` that ``set-ollama`` stores as ``LOCAL_MODEL_API_KEY``, which is no key and would mask the word
        everywhere)."""
        return {
            k: v
            for k, v in self.values.items()
            if is_secret_key(k) and v and (k, v.strip()) not in MARKER_VALUES
        }


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
        for path in dotenv_paths(env_dir()):  # later files win
            for k, v in _file_values(path).items():
                values[k] = v
                sources[k] = str(path)
    for k, v in _environment_values().items():
        values[k] = v
        sources[k] = "environment"
    return Settings(values=values, sources=sources)


def _app_env(base: Path) -> str | None:
    """``APP_ENV``: the process environment's (unless only copied there from a file), else ``.env.local``'s, else
    ``.env``'s; None when unset or blank."""
    raw = os.environ.get("APP_ENV")
    if raw is not None and _environment.AUTOLOADED.get("APP_ENV") != raw and raw.strip():
        return raw.strip()
    for name in (".env.local", ".env"):
        value = (_file_values(base / name).get("APP_ENV") or "").strip()
        if value:
            return value
    return None


def dotenv_paths(base: Path) -> list[Path]:
    """The dotenv files settings read from folder ``base``, lowest precedence first: ``.env``,
    ``.env.<APP_ENV>`` (when ``APP_ENV`` is set), ``.env.local`` (deepeval 4.3.1's order)."""
    app_env = _app_env(base)
    middle = [base / f".env.{app_env}"] if app_env else []
    return [base / ".env", *middle, base / ".env.local"]


def autoload_dotenv() -> dict[str, str]:
    """Copy the dotenv files' values into ``os.environ`` for every key it does not hold yet, as deepeval 4.3.1 does
    when it is imported (``.env`` < ``.env.<APP_ENV>`` < ``.env.local``; the process environment always wins;
    nothing with ``DEEPEVAL_DISABLE_DOTENV=1``). Returns what was copied. Never raises: a bad ``ENV_DIR_PATH`` or an
    unreadable file is reported when settings are read, not at import."""
    if dotenv_disabled():
        return {}
    try:
        base = env_dir()
        merged: dict[str, str] = {}
        app_env = _app_env(base)
        if app_env:
            merged["APP_ENV"] = app_env
        for path in dotenv_paths(base):
            merged.update(_file_values(path))
    except (ConfigurationError, OSError):
        return {}
    copied = {k: v for k, v in merged.items() if k not in os.environ}
    os.environ.update(copied)
    _environment.AUTOLOADED.update(copied)
    return copied


def _environment_values() -> dict[str, str]:
    """The process environment variables settings read: :data:`KNOWN_KEYS` and our prefixes."""
    prefixes = ("DEEPEVAL_", "OPENAI_", "TYPESAFE_", "LOCAL_MODEL_")
    return {
        k: v
        for k, v in os.environ.items()
        if (k in KNOWN_KEYS or k.startswith(prefixes))
        and _environment.AUTOLOADED.get(k) != v  # copied from a file: the file's
    }


def reset_settings_cache() -> None:
    """Kept for API symmetry; settings are not cached."""
