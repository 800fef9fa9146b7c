"""OpenRouter as judge (``OpenRouterModel``): OpenRouter's OpenAI-compatible API, one key for many providers'
models (``openai/gpt-5.4``, ``anthropic/claude-opus-5``...)."""

from __future__ import annotations

from typing import Any

from deepeval.models.http.rate_limit import DEFAULT_MAX_CONCURRENCY
from deepeval.models.http.retry import RetryPolicy
from deepeval.models.llms.hosted import HostedOpenAIModel

DEFAULT_OPENROUTER_MODEL = "openai/gpt-5.4"


class OpenRouterModel(HostedOpenAIModel):
    """A model through OpenRouter as judge; settings ``OPENROUTER_MODEL_NAME`` (default ``openai/gpt-5.4``),
    ``OPENROUTER_API_KEY``, ``OPENROUTER_BASE_URL`` (default ``https://openrouter.ai/api/v1``),
    ``OPENROUTER_COST_PER_INPUT_TOKEN`` / ``OPENROUTER_COST_PER_OUTPUT_TOKEN`` (no price table: OpenRouter's prices
    vary by route; cost None unless given). ``deepeval set-openrouter``. Other arguments as
    :class:`~deepeval.models.llms.hosted.HostedOpenAIModel`."""

    provider = "OpenRouter"
    prefix = "OPENROUTER"
    key_setting = "OPENROUTER_API_KEY"
    default_model = DEFAULT_OPENROUTER_MODEL
    default_base_url = "https://openrouter.ai/api/v1"
    base_url_key = "OPENROUTER_BASE_URL"

    def __init__(
        self,
        model: str | None = None,
        api_key: str | None = None,
        base_url: str | None = None,
        temperature: float | None = None,
        cost_per_input_token: float | None = None,
        cost_per_output_token: float | None = None,
        generation_kwargs: dict[str, Any] | None = None,
        *,
        timeout: float | None = None,
        max_retries: int | None = None,
        max_concurrency: int = DEFAULT_MAX_CONCURRENCY,
        retry_policy: RetryPolicy | None = None,
        **client_kwargs: Any,
    ) -> None:
        super().__init__(
            model,
            api_key,
            temperature,
            cost_per_input_token,
            cost_per_output_token,
            generation_kwargs,
            base_url=base_url,
            timeout=timeout,
            max_retries=max_retries,
            max_concurrency=max_concurrency,
            retry_policy=retry_policy,
            **client_kwargs,
        )
