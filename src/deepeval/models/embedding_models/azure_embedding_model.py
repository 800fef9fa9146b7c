"""Azure OpenAI embeddings (``AzureOpenAIEmbeddingModel``): ``POST {endpoint}/openai/deployments/{deployment}/
embeddings?api-version=...`` with the key in ``api-key``."""

from __future__ import annotations

from typing import Any

from deepeval.config.settings import get_settings
from deepeval.errors import ConfigurationError
from deepeval.models.embedding_models.http_embedding import HTTPEmbeddingModel
from deepeval.models.http.rate_limit import DEFAULT_MAX_CONCURRENCY
from deepeval.models.http.retry import RetryPolicy


class AzureOpenAIEmbeddingModel(HTTPEmbeddingModel):
    """An embedding model deployed on Azure OpenAI.

    Args:
        model: default ``AZURE_EMBEDDING_MODEL_NAME``, else the deployment name.
        api_key: default ``AZURE_OPENAI_API_KEY``.
        base_url: the resource endpoint; default ``AZURE_OPENAI_ENDPOINT``; required.
        deployment_name: default ``AZURE_EMBEDDING_DEPLOYMENT_NAME``; required.
        api_version: default ``OPENAI_API_VERSION``; required.
        generation_kwargs, timeout, max_retries, max_concurrency, retry_policy, **kwargs: as the other embedding
            models.

    Raises:
        ConfigurationError: endpoint, deployment or API version missing.
    """

    provider = "Azure"
    key_setting = "AZURE_OPENAI_API_KEY"
    requires_api_key = True

    def __init__(
        self,
        model: str | None = None,
        api_key: str | None = None,
        base_url: str | None = None,
        deployment_name: str | None = None,
        api_version: str | None = None,
        generation_kwargs: dict[str, Any] | None = None,
        *,
        timeout: float | None = None,
        max_retries: int | None = None,
        max_concurrency: int = DEFAULT_MAX_CONCURRENCY,
        retry_policy: RetryPolicy | None = None,
        **kwargs: Any,
    ) -> None:
        s = get_settings()
        endpoint = base_url or s.get("AZURE_OPENAI_ENDPOINT")
        self.deployment_name = deployment_name or s.get("AZURE_EMBEDDING_DEPLOYMENT_NAME")
        self.api_version = api_version or s.get("OPENAI_API_VERSION")
        for value, what, key in (
            (endpoint, "the resource endpoint", "base_url= or AZURE_OPENAI_ENDPOINT"),
            (
                self.deployment_name,
                "a deployment name",
                "deployment_name= or AZURE_EMBEDDING_DEPLOYMENT_NAME",
            ),
            (self.api_version, "an API version", "api_version= or OPENAI_API_VERSION"),
        ):
            if not value:
                raise ConfigurationError(f"AzureOpenAIEmbeddingModel needs {what}: pass {key}")
        self.path = f"/openai/deployments/{self.deployment_name}/embeddings"  # type: ignore[misc]
        super().__init__(
            str(model or s.get("AZURE_EMBEDDING_MODEL_NAME") or self.deployment_name),
            api_key=api_key or s.get("AZURE_OPENAI_API_KEY"),
            base_url=str(endpoint),
            base_url_setting="base_url" if base_url else "AZURE_OPENAI_ENDPOINT",
            generation_kwargs=generation_kwargs,
            timeout=timeout,
            max_retries=max_retries,
            max_concurrency=max_concurrency,
            retry_policy=retry_policy,
            client_kwargs=kwargs,
        )

    def _auth_headers(self, key: str | None) -> dict[str, str]:
        return {} if key is None else {"api-key": key}

    def _params(self) -> dict[str, str]:
        return {"api-version": str(self.api_version)}
