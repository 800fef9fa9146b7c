"""Ollama embeddings (``OllamaEmbeddingModel``): ``POST /api/embed``."""

from __future__ import annotations

from typing import Any

from deepeval.config.settings import get_settings
from deepeval.errors import ConfigurationError
from deepeval.models.embedding_models.http_embedding import HTTPEmbeddingModel
from deepeval.models.http.errors import int_or_none
from deepeval.models.http.rate_limit import DEFAULT_MAX_CONCURRENCY
from deepeval.models.http.retry import RetryPolicy
from deepeval.models.llms.ollama_model import DEFAULT_OLLAMA_BASE_URL


class OllamaEmbeddingModel(HTTPEmbeddingModel):
    """An embedding model served by Ollama (``nomic-embed-text``, ``bge-m3``...).

    Args:
        model: default ``LOCAL_EMBEDDING_MODEL_NAME`` (``deepeval set-ollama-embeddings``); required.
        base_url: the server root; default ``LOCAL_EMBEDDING_BASE_URL``, else ``http://localhost:11434`` (a trailing
            ``/v1`` is dropped).
        generation_kwargs: extra ``/api/embed`` fields (``{"truncate": true, "keep_alive": "5m"}``).
        timeout, max_retries, max_concurrency, retry_policy, **kwargs: as the other embedding models.

    Raises:
        ConfigurationError: no model name.
    """

    provider = "Ollama"
    path = "/api/embed"

    def __init__(
        self,
        model: str | None = None,
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
        if not name:
            raise ConfigurationError(
                "OllamaEmbeddingModel needs a model: pass model= or set LOCAL_EMBEDDING_MODEL_NAME"
            )
        url = str(base_url or s.get("LOCAL_EMBEDDING_BASE_URL") or DEFAULT_OLLAMA_BASE_URL).rstrip("/")
        super().__init__(
            name,
            api_key=None,
            base_url=url.removesuffix("/v1"),
            base_url_setting="base_url" if base_url else "LOCAL_EMBEDDING_BASE_URL",
            generation_kwargs=generation_kwargs,
            timeout=timeout,
            max_retries=max_retries,
            max_concurrency=max_concurrency,
            retry_policy=retry_policy,
            client_kwargs=kwargs,
        )

    def _vectors(self, data: Any) -> tuple[list[list[float]], int | None]:
        """Ollama's reply: ``embeddings`` (one list per input), ``prompt_eval_count``."""
        rows = data.get("embeddings") if isinstance(data, dict) else None
        if not isinstance(rows, list):
            raise self.endpoint.bad_reply("embeddings", data)
        try:
            vectors = [[float(x) for x in row] for row in rows]
        except (TypeError, ValueError):
            raise self.endpoint.bad_reply("numeric embeddings", data) from None
        return vectors, int_or_none(data.get("prompt_eval_count"))
