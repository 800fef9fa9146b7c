"""Hosted OpenAI-compatible providers as judges (DeepSeek, xAI Grok, Moonshot Kimi, OpenRouter, Portkey): the one
OpenAI-compatible client (:class:`~deepeval.models.llms.openai_compatible.OpenAICompatibleLLM`) with each provider's
base URL, headers, settings keys and prices. :class:`HostedOpenAIModel` reads the settings; the provider modules
(``deepseek_model``, ``grok_model``, ``kimi_model``, ``openrouter_model``, ``portkey_model``) only declare them.
"""

from __future__ import annotations

from typing import Any, ClassVar

from deepeval.config.settings import get_settings
from deepeval.errors import ConfigurationError
from deepeval.models.http.rate_limit import DEFAULT_MAX_CONCURRENCY
from deepeval.models.http.retry import RetryPolicy
from deepeval.models.llms.openai_compatible import OpenAICompatibleLLM
from deepeval.models.pricing import Price, resolve_price


class HostedOpenAIModel(OpenAICompatibleLLM):
    """Base of the hosted OpenAI-compatible judges (use a subclass).

    Args (every subclass):
        model: default the ``<PREFIX>_MODEL_NAME`` setting, else the provider's default (when it has one).
        api_key: default ``<PREFIX>_API_KEY``; without one, calls raise ``JudgeError(kind=ErrorKind.auth)``.
        temperature: default ``TEMPERATURE``, else 0.
        cost_per_input_token / cost_per_output_token: USD per token; default ``<PREFIX>_COST_PER_INPUT_TOKEN`` /
            ``<PREFIX>_COST_PER_OUTPUT_TOKEN``, else the provider's price table; unknown: cost None.
        generation_kwargs: extra request fields sent on every call.
        timeout, max_retries, max_concurrency, retry_policy: as :class:`~deepeval.models.OpenAIModel`.
        **kwargs: passed to ``openai.AsyncOpenAI`` (``default_headers``...); ``base_url=`` overrides the provider's
            endpoint where the class takes no ``base_url`` argument.
    """

    #: settings prefix (``DEEPSEEK`` -> ``DEEPSEEK_API_KEY``, ``DEEPSEEK_MODEL_NAME``...)
    prefix: ClassVar[str] = ""
    default_model: ClassVar[str | None] = None
    default_base_url: ClassVar[str] = ""
    #: the setting that overrides the base URL (None: none, only the ``base_url`` argument)
    base_url_key: ClassVar[str | None] = None
    prices: ClassVar[dict[str, Price]] = {}
    #: the first structured-output rung (None: ``json_schema``); DeepSeek and Kimi serve JSON mode only
    default_format: ClassVar[str | None] = None
    requires_api_key = True
    max_tokens_param = "max_tokens"

    def __init__(
        self,
        model: str | None = None,
        api_key: str | None = None,
        temperature: float | None = None,
        cost_per_input_token: float | None = None,
        cost_per_output_token: float | None = None,
        generation_kwargs: dict[str, Any] | None = None,
        *,
        base_url: str | None = None,
        timeout: float | None = None,
        max_retries: int | None = None,
        max_concurrency: int = DEFAULT_MAX_CONCURRENCY,
        retry_policy: RetryPolicy | None = None,
        **client_kwargs: Any,
    ) -> None:
        s = get_settings()
        p = self.prefix
        name = model or s.get(f"{p}_MODEL_NAME") or self.default_model
        if not name:
            raise ConfigurationError(
                f"{type(self).__name__} needs a model name: pass model= or set {p}_MODEL_NAME"
            )
        if temperature is None:
            temperature = s.get_float("TEMPERATURE", 0.0)
        if cost_per_input_token is None:
            cost_per_input_token = s.get_float(f"{p}_COST_PER_INPUT_TOKEN")
        if cost_per_output_token is None:
            cost_per_output_token = s.get_float(f"{p}_COST_PER_OUTPUT_TOKEN")
        url = base_url or (s.get(self.base_url_key) if self.base_url_key else None) or self.default_base_url
        client_kwargs.pop("temperature", None)
        super().__init__(
            name,
            api_key=api_key or s.get(self.key_setting),
            base_url=url.rstrip("/"),
            base_url_setting="base_url" if base_url else (self.base_url_key or "base_url"),
            temperature=temperature,
            format=self.default_format,
            generation_kwargs={k: v for k, v in (generation_kwargs or {}).items() if k != "temperature"},
            price=resolve_price(
                name,
                input_override=cost_per_input_token,
                output_override=cost_per_output_token,
                table=self.prices,
            ),
            timeout=timeout,
            max_retries=max_retries,
            max_concurrency=max_concurrency,
            retry_policy=retry_policy,
            **client_kwargs,
        )

    def get_model_name(self) -> str:
        return f"{self.name} ({self.provider})"
