"""One base for the LLM judges whose providers speak their own JSON wire format over HTTP (Anthropic Messages,
Gemini ``generateContent``, Ollama ``/api/chat``): :class:`WireLLM`.

A subclass only says what goes on the wire and how to read the reply (:meth:`WireLLM._request`,
:meth:`WireLLM._read`, :meth:`WireLLM._auth_headers`); everything else is here, once, on the shared HTTP stack
(:mod:`deepeval.models.http`): an ``httpx.AsyncClient`` per event loop (shared by judges of one configuration, on the
process-wide TLS context), the retry policy with ``Retry-After`` and the adaptive limiter
(:func:`~deepeval.models.http.retry.call_with_retries`), the mapping of transport failures, HTTP statuses and
reply bodies to :class:`~deepeval.errors.JudgeError` kinds (:mod:`deepeval.models.http.errors`, redaction
included), usage and cost (:mod:`deepeval.models.usage`), and structured output through the one parse / repair /
re-ask ladder (:func:`deepeval.models.structured.run_ladder`) over the provider's best rung, moving down a rung
when the server refuses one with a 400 that blames it.

Keys are held in :class:`~deepeval.models.http.secrets.Secret` (registered for redaction) and go only into request
headers; no message, log record, repr or cache key holds one.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

from pydantic import BaseModel

from deepeval._concurrency import run_sync
from deepeval.config.redaction import display_url
from deepeval.errors import ErrorKind, JudgeError, StructuredOutputError
from deepeval.models.base_model import DeepEvalBaseLLM
from deepeval.models.http.json_client import JSONEndpoint
from deepeval.models.http.rate_limit import DEFAULT_MAX_CONCURRENCY, AdaptiveLimiter
from deepeval.models.http.retry import RetryPolicy
from deepeval.models.llms.response_format import schema_instruction
from deepeval.models.logprobs import LogprobCompletion, TokenLogprob
from deepeval.models.pricing import Price
from deepeval.models.structured import CutReply, run_ladder
from deepeval.models.usage import CostTotal, record_llm_request, record_usage

T = TypeVar("T", bound=BaseModel)
T2 = TypeVar("T2")

#: words in a 400's message that say the structured-output part of the request was refused
SCHEMA_WORDS = ("schema", "output_config", "output_format", "response_format", "format", "tool", "mime")


@dataclass(frozen=True)
class WireReply:
    """One reply as a wire format reads it: the text (for a tool-use reply, the tool input as JSON text), the
    generated tokens' log-probabilities (empty when none were returned), the server's token counts and whether it
    stopped at the token cap."""

    text: str
    tokens: list[TokenLogprob] = field(default_factory=list)
    input_tokens: int | None = None
    output_tokens: int | None = None
    cut: bool = False


@dataclass(frozen=True)
class WireRequest:
    """One request: ``path`` relative to the base URL, the JSON ``body``, extra query ``params``."""

    path: str
    body: dict[str, Any]
    params: Mapping[str, str] = field(default_factory=dict)


class WireLLM(DeepEvalBaseLLM):
    """Base class of the judges on a provider's own wire format (use a subclass).

    ``generate(prompt, schema=None)`` / ``await a_generate(...)`` return ``(result, cost_usd | None)`` like
    :class:`~deepeval.models.llms.openai_compatible.OpenAICompatibleLLM`; ``generate_with_logprobs`` on
    :class:`LogprobWireLLM`, for providers that return token log-probabilities.

    Raises (from every call): :class:`~deepeval.errors.JudgeError` with ``kind`` in connection, timeout,
    rate_limit, context_limit, auth, bad_request, server, invalid_output; messages name the model, never the key.
    """

    #: the provider in names and messages (``claude-opus-5 (Anthropic)``)
    provider: ClassVar[str] = "HTTP"
    #: the setting a missing key message names
    key_setting: ClassVar[str] = "an API key"
    requires_api_key: ClassVar[bool] = True
    #: structured-output rungs this provider offers, best first; the last is always ``text``
    rungs: ClassVar[tuple[str, ...]] = ("json_schema", "text")
    #: rungs whose request carries the schema in the prompt too (the server only promises JSON)
    prompt_schema_rungs: ClassVar[frozenset[str]] = frozenset({"json", "text"})
    #: most ``top_logprobs`` the provider returns per position (:class:`LogprobWireLLM`)
    max_top_logprobs: ClassVar[int] = 20

    def __init__(
        self,
        model: str,
        *,
        api_key: str | None,
        base_url: str,
        base_url_setting: str,
        temperature: float | None,
        generation_kwargs: Mapping[str, Any] | None,
        price: Price | None,
        timeout: float | None = None,
        max_retries: int | None = None,
        max_concurrency: int = DEFAULT_MAX_CONCURRENCY,
        retry_policy: RetryPolicy | None = None,
        client_kwargs: Mapping[str, Any] | None = None,
    ) -> None:
        if not model:
            raise ValueError(f"{type(self).__name__} needs a model name")
        if temperature is not None and temperature < 0:
            raise ValueError(f"temperature must be >= 0, got {temperature}")
        self.temperature = temperature
        #: False once the model refused ``temperature`` (a 400 that names it), or for models known to refuse it
        self.send_temperature = temperature is not None
        self.generation_kwargs: dict[str, Any] = dict(generation_kwargs or {})
        self.price = price
        self.retry_policy = retry_policy or RetryPolicy.from_settings(
            timeout=timeout, max_retries=max_retries
        )
        self.limiter = AdaptiveLimiter(max_concurrency)
        self._rung = 0
        self._lock = threading.Lock()
        self.name = model
        self.endpoint = JSONEndpoint(
            base_url=base_url,
            base_url_setting=base_url_setting,
            api_key=api_key,
            auth_headers=self._auth_headers,
            name=self.get_model_name,
            provider=self.provider,
            key_setting=self.key_setting,
            requires_key=self.requires_api_key,
            retry_policy=self.retry_policy,
            limiter=self.limiter,
            client_kwargs=client_kwargs,
            owner=type(self).__qualname__,
        )
        super().__init__(model)

    @property
    def base_url(self) -> str:
        return self.endpoint.base_url

    # -- the wire format (subclasses) ---------------------------------------------------------------------------
    def _request(
        self,
        prompt: str,
        *,
        rung: str | None,
        schema: type[BaseModel] | None,
        logprobs: tuple[int, int | None] | None = None,
    ) -> WireRequest:
        """The request for ``prompt``: plain text (``rung`` None), structured on ``rung`` for ``schema``, or with
        ``logprobs=(top_logprobs, max_tokens)``."""
        raise NotImplementedError

    def _read(self, data: Any) -> WireReply:
        """A successful reply body (parsed JSON). Raise :meth:`_bad_reply` for one missing what it must hold."""
        raise NotImplementedError

    def _auth_headers(self, key: str | None) -> dict[str, str]:
        """The headers that carry ``key`` (None: no key, for servers that need none)."""
        return {} if key is None else {"Authorization": f"Bearer {key}"}

    def _blames_rung(self, exc: JudgeError, rung: str) -> bool:
        """Whether a 400 refuses the structured-output part of a request on ``rung``."""
        text = str(exc).lower()
        return any(word in text for word in SCHEMA_WORDS)

    # -- DeepEvalBaseLLM -------------------------------------------------------------------------------------------
    def load_model(self, *args: Any, **kwargs: Any) -> None:
        """Nothing to load: HTTP clients are opened per event loop on first use."""
        return None

    def get_model_name(self) -> str:
        return f"{self.name} ({self.provider})"

    def generate(self, prompt: str, schema: type[BaseModel] | None = None) -> tuple[Any, float | None]:
        """Sync :meth:`a_generate` (works inside a running event loop too)."""
        return run_sync(self.run_with_private_client(self.a_generate(prompt, schema)))

    async def a_generate(
        self, prompt: str, schema: type[BaseModel] | None = None
    ) -> tuple[Any, float | None]:
        """The reply text, or a validated ``schema`` instance (the ladder's one re-ask included), and its cost."""
        if schema is None:
            record_llm_request()
            reply = await self._send(lambda: self._request(prompt, rung=None, schema=None))
            return reply.text, self._cost(reply)
        cost = CostTotal()

        async def ask(text: str) -> str:
            reply, spent = await self.a_structured_attempt(text, schema)
            cost.add(spent)
            return reply

        try:
            return await run_ladder(ask, prompt, schema, name=self.get_model_name()), cost.value
        except StructuredOutputError:
            record_usage(cost=cost.value)  # nothing is returned, so the spend is recorded here
            raise

    async def a_structured_attempt(self, prompt: str, schema: type[BaseModel]) -> tuple[str, float | None]:
        """One structured-output request on the current rung (moving down a rung on a 400 that blames it): the
        unvalidated reply text and its cost. Counted as one ``llm_calls``."""
        record_llm_request()
        while True:
            index = self._rung
            rung = self.rungs[index]
            text = prompt + schema_instruction(schema) if rung in self.prompt_schema_rungs else prompt
            try:
                reply = await self._send(
                    lambda text=text, rung=rung: self._request(text, rung=rung, schema=schema)  # type: ignore[misc]
                )
            except JudgeError as exc:
                last = index >= len(self.rungs) - 1
                if exc.status_code == 400 and not last and self._blames_rung(exc, rung):
                    with self._lock:
                        self._rung = max(self._rung, index + 1)
                    record_llm_request()  # the resend on the next rung is a request the server sees
                    continue
                raise
            if reply.cut:
                return CutReply(reply.text, reply.output_tokens), self._cost(reply)
            return reply.text, self._cost(reply)

    @property
    def structured_format(self) -> str:
        """The structured-output rung this client currently uses (it only moves down, on a 400)."""
        return self.rungs[self._rung]

    async def aclose(self) -> None:
        """Close the HTTP client this object opened on the running loop."""
        await self.endpoint.aclose()

    async def run_with_private_client(self, coro: Coroutine[Any, Any, T2]) -> T2:
        """Await ``coro`` (a call on this object) with an HTTP client private to it, closed afterwards."""
        return await self.endpoint.run_private(coro)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(model={self.name!r}, base_url={display_url(self.base_url)!r})"

    # -- one request -----------------------------------------------------------------------------------------------
    def _options(self, extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """``generation_kwargs`` over ``extra`` (the caller's settings win over ours)."""
        return {**(extra or {}), **self.generation_kwargs}

    def _temperature(self) -> float | None:
        """The temperature to send (None: send none)."""
        return self.temperature if self.send_temperature else None

    async def _send(self, build: Callable[[], WireRequest]) -> WireReply:
        """The request ``build()`` makes, under the retry policy and limiter, built again without ``temperature``
        when the model refuses it (a 400 naming it: some models accept only their default); usage recorded."""
        while True:
            try:
                reply = await self._send_once(build())
            except JudgeError as exc:
                if exc.status_code == 400 and self.send_temperature and "temperature" in str(exc).lower():
                    self.send_temperature = False
                    record_llm_request()  # the resend without it is a request the server sees
                    continue
                raise
            record_usage(input_tokens=reply.input_tokens, output_tokens=reply.output_tokens)
            return reply

    async def _send_once(self, request: WireRequest) -> WireReply:
        return await self.endpoint.call(request.path, request.body, self._read, params=request.params)

    def _bad_reply(self, what: str, data: Any) -> JudgeError:
        """The retryable ``server`` error for a 2xx reply that lacks ``what``."""
        return self.endpoint.bad_reply(what, data)

    def _cost(self, reply: WireReply) -> float | None:
        return None if self.price is None else self.price.reply_cost(reply.input_tokens, reply.output_tokens)


class LogprobWireLLM(WireLLM):
    """A :class:`WireLLM` whose provider returns token log-probabilities (Ollama, Gemini): it has
    ``generate_with_logprobs`` / ``a_generate_with_logprobs``, so it can back a
    :class:`~deepeval.models.system_one.logprob.LogprobSystemOneModel` (providers without them do not have the
    methods at all, and are refused there when built)."""

    def generate_with_logprobs(
        self, prompt: str, top_logprobs: int = 20, max_tokens: int | None = 1
    ) -> tuple[LogprobCompletion, float | None]:
        """Sync :meth:`a_generate_with_logprobs`."""
        return run_sync(
            self.run_with_private_client(self.a_generate_with_logprobs(prompt, top_logprobs, max_tokens))
        )

    async def a_generate_with_logprobs(
        self, prompt: str, top_logprobs: int = 20, max_tokens: int | None = 1
    ) -> tuple[LogprobCompletion, float | None]:
        """Plain-text completion of at most ``max_tokens`` tokens (None: no cap of ours, as a plain call) with the
        ``top_logprobs`` most probable alternatives at each position (capped at the provider's
        :attr:`max_top_logprobs`).

        Raises:
            ValueError: ``top_logprobs`` outside 1..20 or ``max_tokens`` < 1.
            JudgeError: the call failed, or the reply held none (kind ``invalid_output``).
        """
        if not 1 <= top_logprobs <= 20:
            raise ValueError(f"top_logprobs must be in 1..20, got {top_logprobs}")
        if max_tokens is not None and max_tokens < 1:
            raise ValueError(f"max_tokens must be >= 1, got {max_tokens}")
        name = self.get_model_name()
        record_llm_request()
        k = min(top_logprobs, self.max_top_logprobs)
        reply = await self._send(
            lambda: self._request(prompt, rung=None, schema=None, logprobs=(k, max_tokens))
        )
        if not reply.tokens:
            raise JudgeError(
                f"judge {name}: the server returned no token log-probabilities (it may not support them)",
                model=name,
                kind=ErrorKind.invalid_output,
            )
        completion = LogprobCompletion(reply.text, reply.tokens, reply.input_tokens, reply.output_tokens)
        return completion, self._cost(reply)
