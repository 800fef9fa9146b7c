"""Portkey's AI gateway as judge (``PortkeyModel``): OpenAI-compatible, authenticated by its own headers
(``x-portkey-api-key``, ``x-portkey-provider``)."""

from __future__ import annotations

from typing import Any

from deepeval.config.settings import get_settings
from deepeval.errors import ConfigurationError
from deepeval.models.http.rate_limit import DEFAULT_MAX_CONCURRENCY
from deepeval.models.http.retry import RetryPolicy
from deepeval.models.llms.hosted import HostedOpenAIModel


class PortkeyModel(HostedOpenAIModel):
    """A model through a Portkey gateway as judge.

    Args:
        model / api_key / base_url / provider: default ``PORTKEY_MODEL_NAME`` / ``PORTKEY_API_KEY`` /
            ``PORTKEY_BASE_URL`` / ``PORTKEY_PROVIDER_NAME``; model, base URL and provider are required (Portkey has
            no sensible default, as in 4.3.1). The key goes in ``x-portkey-api-key`` (and as the bearer token), the
            provider in ``x-portkey-provider``; a caller's ``default_headers`` are kept.
        temperature, generation_kwargs, timeout, max_retries, max_concurrency, retry_policy, **kwargs: as
            :class:`~deepeval.models.llms.hosted.HostedOpenAIModel`. No price table: cost None.

    Raises:
        ConfigurationError: model, base URL or provider missing.
    """

    provider = "Portkey"
    prefix = "PORTKEY"
    key_setting = "PORTKEY_API_KEY"
    base_url_key = "PORTKEY_BASE_URL"

    def __init__(
        self,
        model: str | None = None,
        api_key: str | None = None,
        base_url: str | None = None,
        provider: str | None = None,
        temperature: float | None = None,
        generation_kwargs: dict[str, Any] | None = None,
        *,
        timeout: float | None = None,
        max_retries: int | None = None,
        max_concurrency: int = DEFAULT_MAX_CONCURRENCY,
        retry_policy: RetryPolicy | None = None,
        **client_kwargs: Any,
    ) -> None:
        s = get_settings()
        self.portkey_provider = provider or s.get("PORTKEY_PROVIDER_NAME")
        for value, what, key in (
            (model or s.get("PORTKEY_MODEL_NAME"), "a model name", "model= or PORTKEY_MODEL_NAME"),
            (
                base_url or s.get("PORTKEY_BASE_URL"),
                "the gateway's base URL",
                "base_url= or PORTKEY_BASE_URL",
            ),
            (self.portkey_provider, "a provider", "provider= or PORTKEY_PROVIDER_NAME"),
        ):
            if not value:
                raise ConfigurationError(f"PortkeyModel needs {what}: pass {key}")
        key_value = api_key or s.get("PORTKEY_API_KEY")
        headers = dict(client_kwargs.pop("default_headers", None) or {})
        if key_value:
            headers["x-portkey-api-key"] = key_value
        headers["x-portkey-provider"] = str(self.portkey_provider)
        super().__init__(
            model,
            key_value,
            temperature,
            None,
            None,
            generation_kwargs,
            base_url=base_url,
            timeout=timeout,
            max_retries=max_retries,
            max_concurrency=max_concurrency,
            retry_policy=retry_policy,
            default_headers=headers,
            **client_kwargs,
        )
