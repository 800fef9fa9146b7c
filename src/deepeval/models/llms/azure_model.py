"""Azure OpenAI as judge (``AzureOpenAIModel``): the one OpenAI-compatible client on the ``openai`` SDK's Azure client
(deployment URLs ``{endpoint}/openai/deployments/{deployment}/chat/completions?api-version=...``, the key in the
``api-key`` header, or an Entra ID token as the bearer)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import openai

from deepeval.config.settings import get_settings
from deepeval.errors import ConfigurationError
from deepeval.models.http.rate_limit import DEFAULT_MAX_CONCURRENCY
from deepeval.models.http.retry import RetryPolicy
from deepeval.models.http.secrets import Secret
from deepeval.models.http.transport import async_http_client_class
from deepeval.models.llms.openai_compatible import OpenAICompatibleLLM
from deepeval.models.pricing import resolve_price


class AzureOpenAIModel(OpenAICompatibleLLM):
    """A model deployed on Azure OpenAI as judge.

    Args:
        model: the model behind the deployment (prices, names); default ``AZURE_MODEL_NAME``; required.
        api_key: default ``AZURE_OPENAI_API_KEY``; or ``azure_ad_token`` (default ``AZURE_OPENAI_AD_TOKEN``) or an
            ``azure_ad_token_provider`` callable.
        base_url: the resource endpoint (``https://<resource>.openai.azure.com``); default ``AZURE_OPENAI_ENDPOINT``;
            required.
        temperature: default ``TEMPERATURE``, else 0.
        cost_per_input_token / cost_per_output_token: default ``OPENAI_COST_PER_INPUT_TOKEN`` /
            ``OPENAI_COST_PER_OUTPUT_TOKEN``, else OpenAI's price of ``model``.
        deployment_name: default ``AZURE_DEPLOYMENT_NAME``; required.
        api_version: default ``OPENAI_API_VERSION``; required.
        generation_kwargs, timeout, max_retries, max_concurrency, retry_policy, **kwargs: as
            :class:`~deepeval.models.OpenAIModel` (``kwargs`` go to ``openai.AsyncAzureOpenAI``).

    Raises:
        ConfigurationError: model, deployment, endpoint or API version missing.
    """

    provider = "Azure"
    key_setting = "AZURE_OPENAI_API_KEY"
    requires_api_key = True
    max_tokens_param = "max_completion_tokens"

    def __init__(
        self,
        model: str | None = None,
        api_key: str | None = None,
        base_url: str | None = None,
        azure_ad_token_provider: Callable[[], str | Awaitable[str]] | None = None,
        azure_ad_token: str | None = None,
        temperature: float | None = None,
        cost_per_input_token: float | None = None,
        cost_per_output_token: float | None = None,
        deployment_name: str | None = None,
        api_version: str | None = None,
        generation_kwargs: dict[str, Any] | None = None,
        *,
        timeout: float | None = None,
        max_retries: int | None = None,
        max_concurrency: int = DEFAULT_MAX_CONCURRENCY,
        retry_policy: RetryPolicy | None = None,
        **client_kwargs: Any,
    ) -> None:
        s = get_settings()
        name = model or s.get("AZURE_MODEL_NAME")
        self.deployment_name = deployment_name or s.get("AZURE_DEPLOYMENT_NAME")
        endpoint = base_url or s.get("AZURE_OPENAI_ENDPOINT")
        self.api_version = api_version or s.get("OPENAI_API_VERSION")
        for value, what, key in (
            (name, "a model name", "model= or AZURE_MODEL_NAME"),
            (self.deployment_name, "a deployment name", "deployment_name= or AZURE_DEPLOYMENT_NAME"),
            (endpoint, "the resource endpoint", "base_url= or AZURE_OPENAI_ENDPOINT"),
            (self.api_version, "an API version", "api_version= or OPENAI_API_VERSION"),
        ):
            if not value:
                raise ConfigurationError(
                    f"AzureOpenAIModel needs {what}: pass {key} (deepeval set-azure-openai)"
                )
        assert name is not None and endpoint is not None
        self._ad_token = Secret(azure_ad_token or s.get("AZURE_OPENAI_AD_TOKEN"))
        self._ad_token_provider = azure_ad_token_provider
        if temperature is None:
            temperature = s.get_float("TEMPERATURE", 0.0)
        if cost_per_input_token is None:
            cost_per_input_token = s.get_float("OPENAI_COST_PER_INPUT_TOKEN")
        if cost_per_output_token is None:
            cost_per_output_token = s.get_float("OPENAI_COST_PER_OUTPUT_TOKEN")
        client_kwargs.pop("temperature", None)
        super().__init__(
            name,
            api_key=api_key or s.get("AZURE_OPENAI_API_KEY"),
            base_url=endpoint.rstrip("/"),
            base_url_setting="base_url" if base_url else "AZURE_OPENAI_ENDPOINT",
            temperature=temperature,
            format=None,
            generation_kwargs={k: v for k, v in (generation_kwargs or {}).items() if k != "temperature"},
            price=resolve_price(
                name, input_override=cost_per_input_token, output_override=cost_per_output_token
            ),
            timeout=timeout,
            max_retries=max_retries,
            max_concurrency=max_concurrency,
            retry_policy=retry_policy,
            **client_kwargs,
        )

    def get_model_name(self) -> str:
        return f"{self.name} (Azure)"

    def _key_or_none(self) -> str | None:
        key = self._api_key.get()
        if key:
            return key
        # an Entra ID token (or its provider) authenticates instead of a key
        return "" if self._ad_token.get() or self._ad_token_provider is not None else None

    def _sdk_kwargs(self, key: str) -> dict[str, Any]:
        kwargs = super()._sdk_kwargs(key)
        kwargs.pop("base_url", None)
        kwargs["azure_endpoint"] = self._endpoint.base_url
        kwargs["azure_deployment"] = self.deployment_name
        kwargs["api_version"] = self.api_version
        if not key:
            kwargs["api_key"] = None
            if self._ad_token.get():
                kwargs["azure_ad_token"] = self._ad_token.get()
            if self._ad_token_provider is not None:
                kwargs["azure_ad_token_provider"] = self._ad_token_provider
        return kwargs

    def load_model(self, *args: Any, **kwargs: Any) -> openai.AzureOpenAI | None:
        """A synchronous ``openai.AzureOpenAI`` client for direct use (None without credentials)."""
        key = self._key_or_none()
        if key is None:
            return None
        return openai.AzureOpenAI(
            **self._with_our_http_client(self._sdk_kwargs(key), openai.DefaultHttpxClient, is_async=False)
        )

    def _async_sdk_client(self, kwargs: dict[str, Any]) -> openai.AsyncOpenAI:
        http_client_class = async_http_client_class(self._endpoint.base_url)
        return openai.AsyncAzureOpenAI(**self._with_our_http_client(kwargs, http_client_class, is_async=True))
