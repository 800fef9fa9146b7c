"""OpenAI judge (``OpenAIModel``, alias ``GPTModel``)."""

from __future__ import annotations

from typing import Any

from deepeval.config.settings import Settings, get_settings
from deepeval.models.http.rate_limit import DEFAULT_MAX_CONCURRENCY
from deepeval.models.http.retry import RetryPolicy
from deepeval.models.llms.openai_compatible import OpenAICompatibleLLM
from deepeval.models.pricing import resolve_price

DEFAULT_OPENAI_MODEL = "gpt-5.4"


def openai_model_name(model: str | None, settings: Settings) -> str:
    """The name an :class:`OpenAIModel` built with ``model`` reports (``get_model_name()``): ``model``, else
    ``OPENAI_MODEL_NAME``, else :data:`DEFAULT_OPENAI_MODEL`. Metrics name a judge from settings with it, before
    (or without) building the client."""
    return model or settings.get("OPENAI_MODEL_NAME") or DEFAULT_OPENAI_MODEL


class OpenAIModel(OpenAICompatibleLLM):
    """An OpenAI chat model as judge.

    Args:
        model: model id; default ``OPENAI_MODEL_NAME``, else ``gpt-5.4``.
        api_key: default ``OPENAI_API_KEY``. Without one, calls raise ``JudgeError(kind=ErrorKind.auth)`` (construction
            does not fail, so ``import`` and configuration never need a key).
        base_url: default ``OPENAI_BASE_URL``, else the SDK's default (api.openai.com).
        temperature: default 0 (dropped automatically if the model rejects it).
        format: first structured-output rung: ``json_schema`` (default), ``json`` or ``text``.
        generation_kwargs: extra request fields (e.g. ``{"reasoning_effort": "low"}``), sent on every call.
        cost_per_input_token / cost_per_output_token: USD per token; default ``OPENAI_COST_PER_INPUT_TOKEN`` /
            ``OPENAI_COST_PER_OUTPUT_TOKEN``, else :data:`deepeval.models.pricing.OPENAI_PRICES`; an unknown model
            has cost None.
        timeout / max_retries: per-attempt seconds and retries (default ``DEEPEVAL_JUDGE_TIMEOUT`` /
            ``DEEPEVAL_JUDGE_MAX_RETRIES``); ``retry_policy`` replaces both.
        max_concurrency: starting cap of concurrent requests of this client (adaptive, see ``rate_limit``).
        **client_kwargs: passed to ``openai.AsyncOpenAI`` (e.g. ``organization``, ``default_headers``). An
            ``http_client=`` of your own is never closed by us. An httpx ``AsyncClient`` serves every call; since
            each ``evaluate()``/``measure()`` runs on its own event loop, a keep-alive connection left from an
            earlier loop fails once and is retried on a new one (counted in ``retries``). An aiohttp-based one (the
            SDK's ``DefaultAioHttpClient``) is bound to its first loop: use it with the async API on one loop (sync
            calls then use a default client, with a warning; another loop gets a ``bad_request`` JudgeError).

    Raises:
        ValueError: negative temperature or price, unknown format.
        ConfigurationError: a numeric setting that is not a number.
    """

    provider = "OpenAI"
    max_tokens_param = "max_completion_tokens"
    requires_api_key = True

    def __init__(
        self,
        model: str | None = None,
        api_key: str | None = None,
        base_url: str | None = None,
        temperature: float | None = 0.0,
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
        api_key = api_key or client_kwargs.pop("_openai_api_key", None) or s.get("OPENAI_API_KEY")
        name = openai_model_name(model, s)
        if cost_per_input_token is None:
            cost_per_input_token = s.get_float("OPENAI_COST_PER_INPUT_TOKEN")
        if cost_per_output_token is None:
            cost_per_output_token = s.get_float("OPENAI_COST_PER_OUTPUT_TOKEN")
        super().__init__(
            name,
            api_key=api_key,
            base_url=base_url or s.get("OPENAI_BASE_URL"),
            base_url_setting="base_url" if base_url else "OPENAI_BASE_URL",
            temperature=temperature,
            format=format,
            generation_kwargs=generation_kwargs,
            price=resolve_price(
                name, input_override=cost_per_input_token, output_override=cost_per_output_token
            ),
            timeout=timeout,
            max_retries=max_retries,
            max_concurrency=max_concurrency,
            retry_policy=retry_policy,
            **client_kwargs,
        )


#: deepeval's historical name for :class:`OpenAIModel`.
GPTModel = OpenAIModel
