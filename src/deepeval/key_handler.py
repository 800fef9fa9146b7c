"""``deepeval.key_handler``: the key enums and ``KEY_FILE_HANDLER`` that deepeval code imports, over our settings.

deepeval 4.3.1 keeps non-secret settings in a JSON file of its own; here there is one place for settings, the
:mod:`deepeval.config.settings` reader (process environment, then ``.env.local``, then ``.env``). So:

* ``KEY_FILE_HANDLER.fetch_data(key)`` is ``get_settings().get(<the key's setting name>)``: the environment and the
  dotenv files, read fresh on every call (an empty value reads as None);
* ``write_key(key, value)`` writes ``KEY=value`` into ``.env.local`` (in ``ENV_DIR_PATH``, else the current folder),
  the file ``deepeval set-*`` commands write; as deepeval does, it refuses a secret (an API key) with a warning and
  writes nothing: keep secrets in the environment or a dotenv file you edit yourself;
* ``remove_key(key)`` removes the key from ``.env.local`` (a value from the environment or ``.env`` stays).

A key's setting name is its member name (``ModelKeyValues.OPENAI_API_KEY`` -> ``OPENAI_API_KEY``,
``KeyValues.DEEPEVAL_EVAL_MODE`` -> ``DEEPEVAL_EVAL_MODE``), also for members whose value is deepeval's JSON-file
name. The provider switches written here (``write_key(ModelKeyValues.USE_AZURE_OPENAI, "YES")``) select the judge
as ``deepeval set-azure-openai`` does (:data:`deepeval.config.eval_mode.PROVIDER_SWITCHES`).
"""

from __future__ import annotations

import logging
from enum import Enum
from typing import Any

from deepeval.config.dotenv_file import DEFAULT_DOTENV, set_keys, unset_keys
from deepeval.config.settings import env_dir, get_settings, is_secret_key

logger = logging.getLogger(__name__)


class KeyValues(Enum):
    """deepeval's general settings (member values: deepeval's JSON-file names)."""

    CONFIDENT_API_KEY = "confident_api_key"
    CONFIDENT_BASE_URL = "confident_base_url"
    CONFIDENT_REGION = "confident_region"
    DEEPEVAL_LOCAL_STORE = "local_store"
    DEEPEVAL_MODE = "mode"
    DEEPEVAL_EVAL_MODE = "eval_mode"
    LAST_TEST_RUN_LINK = "last_test_run_link"
    LAST_TEST_RUN_DATA = "last_test_run_data"


def _named(*names: str) -> dict[str, str]:
    return {n: n for n in names}


#: judge settings; the member value is the setting name
ModelKeyValues = Enum(  # type: ignore[misc]
    "ModelKeyValues",
    _named(
        "TEMPERATURE",
        "USE_ANTHROPIC_MODEL",
        "ANTHROPIC_API_KEY",
        "ANTHROPIC_MODEL_NAME",
        "ANTHROPIC_COST_PER_INPUT_TOKEN",
        "ANTHROPIC_COST_PER_OUTPUT_TOKEN",
        "AWS_ACCESS_KEY_ID",
        "AWS_SECRET_ACCESS_KEY",
        "USE_AWS_BEDROCK_MODEL",
        "AWS_BEDROCK_MODEL_NAME",
        "AWS_BEDROCK_REGION",
        "AWS_BEDROCK_COST_PER_INPUT_TOKEN",
        "AWS_BEDROCK_COST_PER_OUTPUT_TOKEN",
        "AZURE_OPENAI_API_KEY",
        "AZURE_OPENAI_ENDPOINT",
        "OPENAI_API_VERSION",
        "AZURE_DEPLOYMENT_NAME",
        "AZURE_MODEL_NAME",
        "AZURE_MODEL_VERSION",
        "USE_AZURE_OPENAI",
        "USE_DEEPSEEK_MODEL",
        "DEEPSEEK_API_KEY",
        "DEEPSEEK_MODEL_NAME",
        "DEEPSEEK_COST_PER_INPUT_TOKEN",
        "DEEPSEEK_COST_PER_OUTPUT_TOKEN",
        "USE_GEMINI_MODEL",
        "GOOGLE_API_KEY",
        "GEMINI_MODEL_NAME",
        "GOOGLE_GENAI_USE_VERTEXAI",
        "GOOGLE_CLOUD_PROJECT",
        "GOOGLE_CLOUD_LOCATION",
        "GOOGLE_SERVICE_ACCOUNT_KEY",
        "USE_GROK_MODEL",
        "GROK_API_KEY",
        "GROK_MODEL_NAME",
        "GROK_COST_PER_INPUT_TOKEN",
        "GROK_COST_PER_OUTPUT_TOKEN",
        "USE_LITELLM",
        "LITELLM_API_KEY",
        "LITELLM_MODEL_NAME",
        "LITELLM_API_BASE",
        "LITELLM_PROXY_API_BASE",
        "LITELLM_PROXY_API_KEY",
        "LM_STUDIO_API_KEY",
        "LM_STUDIO_MODEL_NAME",
        "USE_LOCAL_MODEL",
        "LOCAL_MODEL_API_KEY",
        "LOCAL_MODEL_NAME",
        "LOCAL_MODEL_BASE_URL",
        "LOCAL_MODEL_FORMAT",
        "USE_MOONSHOT_MODEL",
        "MOONSHOT_API_KEY",
        "MOONSHOT_MODEL_NAME",
        "MOONSHOT_COST_PER_INPUT_TOKEN",
        "MOONSHOT_COST_PER_OUTPUT_TOKEN",
        "OLLAMA_MODEL_NAME",
        "USE_OPENAI_MODEL",
        "OPENAI_API_KEY",
        "OPENAI_MODEL_NAME",
        "OPENAI_COST_PER_INPUT_TOKEN",
        "OPENAI_COST_PER_OUTPUT_TOKEN",
        "USE_PORTKEY_MODEL",
        "PORTKEY_API_KEY",
        "PORTKEY_MODEL_NAME",
        "PORTKEY_BASE_URL",
        "PORTKEY_PROVIDER_NAME",
        "VERTEX_AI_MODEL_NAME",
        "VLLM_API_KEY",
        "VLLM_MODEL_NAME",
        "USE_OPENROUTER_MODEL",
        "OPENROUTER_MODEL_NAME",
        "OPENROUTER_COST_PER_INPUT_TOKEN",
        "OPENROUTER_COST_PER_OUTPUT_TOKEN",
        "OPENROUTER_API_KEY",
        "TYPESAFE_API_KEY",
        "TYPESAFE_MODEL_NAME",
        "TYPESAFE_COST_PER_INPUT_TOKEN",
    ),
)

#: embedding-model settings (we run no embedding judge: read and written as settings only)
EmbeddingKeyValues = Enum(  # type: ignore[misc]
    "EmbeddingKeyValues",
    _named(
        "USE_AZURE_OPENAI_EMBEDDING",
        "AZURE_EMBEDDING_MODEL_NAME",
        "AZURE_EMBEDDING_DEPLOYMENT_NAME",
        "USE_LOCAL_EMBEDDINGS",
        "LOCAL_EMBEDDING_MODEL_NAME",
        "LOCAL_EMBEDDING_BASE_URL",
        "LOCAL_EMBEDDING_API_KEY",
    ),
)


def setting_name(key: Any) -> str:
    """The setting a key enum member (or a plain string) stands for: the member's name.

    Raises:
        TypeError: ``key`` is neither an Enum member nor a string.
    """
    if isinstance(key, Enum):
        return key.name
    if isinstance(key, str):
        return key
    raise TypeError(f"a settings key is a KeyValues/ModelKeyValues member or a str, not {type(key).__name__}")


class KeyFileHandler:
    """deepeval's settings handle, reading and writing through our settings (see module docstring)."""

    def fetch_data(self, key: Any) -> str | None:
        """The setting's current value (environment > ``.env.local`` > ``.env``), or None when unset or empty."""
        return get_settings().get(setting_name(key))

    def write_key(self, key: Any, value: Any) -> None:
        """Write a non-secret setting into ``.env.local``; a secret is refused with a warning (nothing written).

        Raises:
            ConfigurationError: the value cannot be stored in a dotenv file (a newline, ``${``).
        """
        name = setting_name(key)
        if is_secret_key(name):
            logger.warning(
                "%s is a secret: not written to a file. Set it in the environment or a dotenv file you keep.",
                name,
            )
            return
        set_keys(env_dir() / DEFAULT_DOTENV, {name: str(value)})

    def remove_key(self, key: Any) -> None:
        """Remove the setting from ``.env.local`` (a missing file or key removes nothing)."""
        unset_keys(env_dir() / DEFAULT_DOTENV, [setting_name(key)])


KEY_FILE_HANDLER = KeyFileHandler()

__all__ = [
    "KEY_FILE_HANDLER",
    "EmbeddingKeyValues",
    "KeyFileHandler",
    "KeyValues",
    "ModelKeyValues",
    "setting_name",
]
