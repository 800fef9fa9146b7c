"""An OpenAI-compatible chat endpoint given by its URL, model name and key alone (``ChatEndpoint``): the model under
test of a memory evaluation (:class:`deepeval.memory.subjects.EndpointChatModel`), which converses in
OpenAI-style messages and calls tools through :meth:`~OpenAICompatibleLLM.a_chat`.

It reads no settings (a judge's ``LOCAL_MODEL_API_KEY`` must never reach the system under test) and prices
nothing; everything else is the judges' client: the key held as a :class:`~deepeval.models.http.secrets.Secret`,
the base URL's credentials registered and redacted, the shared retry policy, limiter, transport and TLS, and
:class:`~deepeval.errors.JudgeError` for every failure.
"""

from __future__ import annotations

from deepeval.models.http.retry import RetryPolicy
from deepeval.models.llms.openai_compatible import OpenAICompatibleLLM

#: retries after the first attempt unless the caller says otherwise (as the OpenAI SDK's default)
DEFAULT_MAX_RETRIES = 2


class ChatEndpoint(OpenAICompatibleLLM):
    """``base_url`` (usually ending in ``/v1``), ``model`` (its name there), ``api_key`` (None: a placeholder, for
    servers that ignore keys), ``temperature`` sent with every request, ``timeout`` seconds per attempt (default:
    ``DEEPEVAL_JUDGE_TIMEOUT`` or 60), ``max_retries`` retries of a failed attempt.

    Raises:
        ConfigurationError: ``base_url`` is not a usable http(s) URL.
    """

    provider = "endpoint"
    max_tokens_param = "max_tokens"
    requires_api_key = False

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        temperature: float = 0.0,
        timeout: float | None = None,
        max_retries: int = DEFAULT_MAX_RETRIES,
        retry_policy: RetryPolicy | None = None,
    ) -> None:
        super().__init__(
            model,
            api_key=api_key,
            base_url=base_url,
            temperature=temperature,
            format=None,
            generation_kwargs=None,
            price=None,
            timeout=timeout,
            max_retries=max_retries,
            retry_policy=retry_policy,
        )
