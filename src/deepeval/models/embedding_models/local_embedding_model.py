"""Embeddings from any OpenAI-compatible server (``LocalEmbeddingModel``): vLLM, LM Studio, llama.cpp, Ollama's
``/v1``, text-embeddings-inference; ``POST {base_url}/embeddings``."""

from __future__ import annotations

from typing import Any

from deepeval.config.settings import get_settings
from deepeval.errors import ConfigurationError
from deepeval.models.embedding_models.http_embedding import HTTPEmbeddingModel
from deepeval.models.http.rate_limit import DEFAULT_MAX_CONCURRENCY
from deepeval.models.http.retry import RetryPolicy


class LocalEmbeddingModel(HTTPEmbeddingModel):
    """An embedding model on an OpenAI-compatible server.

    Args:
        model: default ``LOCAL_EMBEDDING_MODEL_NAME``; required.
        api_key: default ``LOCAL_EMBEDDING_API_KEY``; servers that ignore keys need none.
        base_url: the server's OpenAI base URL (``http://localhost:8000/v1``); default ``LOCAL_EMBEDDING_BASE_URL``;
            required.
        generation_kwargs, timeout, max_retries, max_concurrency, retry_policy, **kwargs: as
            :class:`~deepeval.models.embedding_models.openai_embedding_model.OpenAIEmbeddingModel`.

    Raises:
        ConfigurationError: no model name or base URL.
    """

    provider = "Local Model"
    key_setting = "LOCAL_EMBEDDING_API_KEY"

    def __init__(
        self,
        model: str | None = None,
        api_key: str | None = None,
        base_url: str | None = None,
        generation_kwargs: dict[str, Any] | None = None,
        *,
        timeout: float | None = None,
        max_retries: int | None = None,
        max_concurrency: int = DEFAULT_MAX_CONCURRENCY,
        retry_policy: RetryPolicy | None = None,
        **kwargs: Any,
    ) -> None:
        s = get_settings()
        name = model or s.get("LOCAL_EMBEDDING_MODEL_NAME")
        url = base_url or s.get("LOCAL_EMBEDDING_BASE_URL")
        if not name:
            raise ConfigurationError(
                "LocalEmbeddingModel needs a model: pass model= or set LOCAL_EMBEDDING_MODEL_NAME"
            )
        if not url:
            raise ConfigurationError(
                "LocalEmbeddingModel needs the server's base URL: pass base_url= or set LOCAL_EMBEDDING_BASE_URL"
            )
        super().__init__(
            name,
            api_key=api_key or s.get("LOCAL_EMBEDDING_API_KEY"),
            base_url=url,
            base_url_setting="base_url" if base_url else "LOCAL_EMBEDDING_BASE_URL",
            generation_kwargs=generation_kwargs,
            timeout=timeout,
            max_retries=max_retries,
            max_concurrency=max_concurrency,
            retry_policy=retry_policy,
            client_kwargs=kwargs,
        )
