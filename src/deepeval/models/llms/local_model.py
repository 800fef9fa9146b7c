"""Any OpenAI-compatible server as judge: vLLM, Ollama, llama.cpp server, LM Studio (``LocalModel``)."""

from __future__ import annotations

from typing import Any

from deepeval.config.settings import Settings, get_settings
from deepeval.errors import ConfigurationError
from deepeval.models.http.rate_limit import DEFAULT_MAX_CONCURRENCY
from deepeval.models.http.retry import RetryPolicy
from deepeval.models.llms.openai_compatible import OpenAICompatibleLLM
from deepeval.models.pricing import Price


def local_model_name(model: str | None, settings: Settings) -> str | None:
    """The name a :class:`LocalModel` built with ``model`` reports: ``model``, else ``LOCAL_MODEL_NAME``; None when
    neither is set (building it then raises ``ConfigurationError``)."""
    return model or settings.get("LOCAL_MODEL_NAME")


class LocalModel(OpenAICompatibleLLM):
    """A model on an OpenAI-compatible server.

    Args:
        model: model name on the server; default ``LOCAL_MODEL_NAME``.
        api_key: default ``LOCAL_MODEL_API_KEY``; servers that ignore keys get a placeholder.
        base_url: the server's OpenAI base URL, usually ending in ``/v1`` (e.g. ``http://localhost:11434/v1``);
            default ``LOCAL_MODEL_BASE_URL``.
        temperature: default 0.
        format: first structured-output rung: ``json_schema`` (default), ``json`` or ``text``; default
            ``LOCAL_MODEL_FORMAT``. The client moves down a rung when the server rejects one with a 400.
        generation_kwargs: extra request fields sent on every call (e.g. ``{"top_p": 0.9}``).
        cost_per_input_token / cost_per_output_token: USD per token; default ``LOCAL_MODEL_COST_PER_INPUT_TOKEN``
            / ``LOCAL_MODEL_COST_PER_OUTPUT_TOKEN``, else 0 (self-hosted).
        timeout, max_retries, max_concurrency, retry_policy, **client_kwargs: as :class:`OpenAIModel`.

    Raises:
        ConfigurationError: no model name or no base URL from arguments or settings.
    """

    provider = "local"
    max_tokens_param = "max_tokens"
    requires_api_key = False

    def __init__(
        self,
        model: str | None = None,
        api_key: str | None = None,
        base_url: str | None = None,
        temperature: float | None = None,
        format: str | None = None,
        generation_kwargs: dict[str, Any] | None = None,
        cost_per_input_token: float | None = None,
        cost_per_output_token: float | None = None,
        *,
        timeout: float | None = None,
        max_retries: int | None = None,
        max_concurrency: int = DEFAULT_MAX_CONCURRENCY,
        retry_policy: RetryPolicy | None = None,
        **client_kwargs: Any,
    ) -> None:
        s = get_settings()
        name = local_model_name(model, s)
        url = base_url or s.get("LOCAL_MODEL_BASE_URL")
        if not name:
            raise ConfigurationError("LocalModel needs a model name: pass model= or set LOCAL_MODEL_NAME")
        if not url:
            raise ConfigurationError(
                "LocalModel needs the server's base URL: pass base_url= or set LOCAL_MODEL_BASE_URL "
                "(e.g. http://localhost:11434/v1)"
            )
        if cost_per_input_token is None:
            cost_per_input_token = s.get_float("LOCAL_MODEL_COST_PER_INPUT_TOKEN", 0.0)
        if cost_per_output_token is None:
            cost_per_output_token = s.get_float("LOCAL_MODEL_COST_PER_OUTPUT_TOKEN", 0.0)
        for value in (cost_per_input_token, cost_per_output_token):
            if value is not None and value < 0:
                raise ValueError(f"token prices must be >= 0 USD per token, got {value}")
        super().__init__(
            name,
            api_key=api_key or s.get("LOCAL_MODEL_API_KEY"),
            base_url=url,
            base_url_setting="base_url" if base_url else "LOCAL_MODEL_BASE_URL",
            temperature=0.0 if temperature is None else temperature,
            format=format or s.get("LOCAL_MODEL_FORMAT"),
            generation_kwargs=generation_kwargs,
            price=Price(cost_per_input_token or 0.0, cost_per_output_token or 0.0),
            timeout=timeout,
            max_retries=max_retries,
            max_concurrency=max_concurrency,
            retry_policy=retry_policy,
            **client_kwargs,
        )
