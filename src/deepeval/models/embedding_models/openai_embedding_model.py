"""OpenAI embeddings (``OpenAIEmbeddingModel``): ``POST {base}/embeddings``."""

from __future__ import annotations

from typing import Any

from deepeval.config.settings import get_settings
from deepeval.errors import ConfigurationError
from deepeval.models.embedding_models.http_embedding import HTTPEmbeddingModel
from deepeval.models.http.rate_limit import DEFAULT_MAX_CONCURRENCY
from deepeval.models.http.retry import RetryPolicy

VALID_OPENAI_EMBEDDING_MODELS = ("text-embedding-3-small", "text-embedding-3-large", "text-embedding-ada-002")
DEFAULT_OPENAI_EMBEDDING_MODEL = "text-embedding-3-small"


class OpenAIEmbeddingModel(HTTPEmbeddingModel):
    """An OpenAI embedding model.

    Args:
        model: one of :data:`VALID_OPENAI_EMBEDDING_MODELS` (default ``text-embedding-3-small``), as 4.3.1 checks.
        api_key: default ``OPENAI_API_KEY`` (alias ``openai_api_key=``).
        generation_kwargs: extra request fields (``{"dimensions": 256}``).
        timeout, max_retries, max_concurrency, retry_policy: as the LLM judges.
        **kwargs: ``base_url`` (default ``OPENAI_BASE_URL``, else ``https://api.openai.com/v1``); the rest go to
            ``httpx.AsyncClient``.

    Raises:
        ConfigurationError: a model name not in the list.
    """

    provider = "OpenAI"
    key_setting = "OPENAI_API_KEY"
    requires_api_key = True

    def __init__(
        self,
        model: str | None = None,
        api_key: str | None = None,
        generation_kwargs: dict[str, Any] | None = None,
        *,
        timeout: float | None = None,
        max_retries: int | None = None,
        max_concurrency: int = DEFAULT_MAX_CONCURRENCY,
        retry_policy: RetryPolicy | None = None,
        **kwargs: Any,
    ) -> None:
        s = get_settings()
        name = model or DEFAULT_OPENAI_EMBEDDING_MODEL
        if name not in VALID_OPENAI_EMBEDDING_MODELS:
            raise ConfigurationError(
                f"Invalid model. Available OpenAI Embedding models: {', '.join(VALID_OPENAI_EMBEDDING_MODELS)}"
            )
        base_url = kwargs.pop("base_url", None)
        super().__init__(
            name,
            api_key=api_key or kwargs.pop("openai_api_key", None) or s.get("OPENAI_API_KEY"),
            base_url=str(base_url or s.get("OPENAI_BASE_URL") or "https://api.openai.com/v1"),
            base_url_setting="base_url" if base_url else "OPENAI_BASE_URL",
            generation_kwargs=generation_kwargs,
            timeout=timeout,
            max_retries=max_retries,
            max_concurrency=max_concurrency,
            retry_policy=retry_policy,
            client_kwargs=kwargs,
        )
