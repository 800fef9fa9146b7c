"""One client for every OpenAI-compatible chat-completions server (OpenAI itself, vLLM, Ollama, llama.cpp server,
LM Studio, xllamacpp). :class:`~deepeval.models.llms.openai_model.OpenAIModel` and
:class:`~deepeval.models.llms.local_model.LocalModel` only differ in where their settings come from.

What a call does: builds the request for the client's current structured-output rung (see
:mod:`deepeval.models.llms.response_format`), sends it through the official ``openai`` SDK with the SDK's own
retries off, under :func:`deepeval.models.http.retry.call_with_retries` and the client's
:class:`~deepeval.models.http.rate_limit.AdaptiveLimiter`; parses the raw JSON reply itself (so a non-JSON body or a
reply missing ``choices`` is a clear error), records token usage, and prices it.
"""

from __future__ import annotations

import inspect
import threading
import warnings
from collections.abc import Coroutine, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

import openai
from pydantic import BaseModel

from deepeval._concurrency import run_sync
from deepeval.config.log_redaction import install_log_redaction
from deepeval.config.redaction import (
    SplitURL,
    split_url,
    split_url_cached,
)
from deepeval.config.redaction import display_url as display_url  # kept importable from here
from deepeval.errors import ErrorKind, JudgeError, StructuredOutputError
from deepeval.models.base_model import DeepEvalBaseLLM
from deepeval.models.http.errors import (
    int_or_none,
    malformed_key_error,
    plain_text,
    read_json,
    status_error,
    transport_error,
)
from deepeval.models.http.per_loop import PerLoop, share_key
from deepeval.models.http.rate_limit import DEFAULT_MAX_CONCURRENCY, AdaptiveLimiter
from deepeval.models.http.reply_limit import capped_event_hooks, max_reply_bytes
from deepeval.models.http.retry import RetryPolicy, call_with_retries
from deepeval.models.http.secrets import Secret as Secret  # kept importable from here
from deepeval.models.http.secrets import check_base_url as check_base_url
from deepeval.models.http.tls import library_of, shared_context
from deepeval.models.http.transport import async_http_client_class, transport_setting
from deepeval.models.llms.response_format import (
    RUNGS,
    normalise_format,
    response_format,
    schema_instruction,
)
from deepeval.models.logprobs import LogprobCompletion, TokenLogprob, parse_logprobs
from deepeval.models.pricing import Price
from deepeval.models.structured import CutReply, run_ladder
from deepeval.models.usage import CostTotal, record_llm_request, record_usage

#: stale keep-alive connections skipped per request (the SDK's default pool holds at most 1,000)
_STALE_CONNECTIONS_MAX = 1000

T = TypeVar("T", bound=BaseModel)
T2 = TypeVar("T2")


@dataclass(frozen=True)
class _Reply:
    text: str
    tokens: list[TokenLogprob]
    input_tokens: int | None
    output_tokens: int | None
    #: the reply's ``choices[0].message`` as the server sent it
    message: dict[str, Any] = field(default_factory=dict)
    #: the server stopped at the token cap (``finish_reason: "length"``)
    cut: bool = False


class OpenAICompatibleLLM(DeepEvalBaseLLM):
    """Base class of the OpenAI-compatible LLM judges (use a subclass).

    ``generate(prompt, schema=None)`` / ``await a_generate(...)`` return ``(result, cost_usd | None)``: ``result``
    is the reply text, or a validated ``schema`` instance when a pydantic ``schema`` class is given (one re-ask
    when the reply does not validate, then :class:`~deepeval.errors.StructuredOutputError`). ``cost`` is
    ``input_tokens * price.input + output_tokens * price.output`` summed over the calls made, or None when the
    price is unknown.

    Raises (from every call): :class:`~deepeval.errors.JudgeError` with ``kind`` in connection, timeout,
    rate_limit, context_limit, auth, bad_request, server, invalid_output; messages name the model, never the key.
    """

    #: shown in messages ("OpenAI", "local")
    provider: ClassVar[str] = "OpenAI-compatible"
    #: request field that caps generated tokens
    max_tokens_param: ClassVar[str] = "max_tokens"
    #: whether a missing key is an error (OpenAI) or replaced by a placeholder (local servers)
    requires_api_key: ClassVar[bool] = False
    #: the setting a missing-key message names
    key_setting: ClassVar[str] = "OPENAI_API_KEY"
    #: who answers, in words, when the user reaches no HTTP endpoint of theirs (``GGUFModel``: "the GGUF model
    #: server"); error messages then name it instead of an HTTP status and the base URL. None: a server at
    #: ``base_url``.
    server_name: ClassVar[str | None] = None

    def __init__(
        self,
        model: str,
        *,
        api_key: str | None,
        base_url: str | None,
        temperature: float | None,
        format: str | None,
        generation_kwargs: Mapping[str, Any] | None,
        price: Price | None,
        timeout: float | None = None,
        max_retries: int | None = None,
        max_concurrency: int = DEFAULT_MAX_CONCURRENCY,
        retry_policy: RetryPolicy | None = None,
        base_url_setting: str = "base_url",
        **client_kwargs: Any,
    ) -> None:
        if not model:
            raise ValueError(f"{type(self).__name__} needs a model name")
        if temperature is not None and temperature < 0:
            raise ValueError(f"temperature must be >= 0, got {temperature}")
        check_base_url(base_url, base_url_setting)
        self._api_key = Secret(api_key)
        self.base_url = base_url
        split_url(base_url)  # registers the URL's credentials as secrets now
        install_log_redaction()
        self.temperature = temperature
        self.generation_kwargs: dict[str, Any] = dict(generation_kwargs or {})
        #: default cap on generated tokens per call (sent as ``max_tokens_param`` unless the call or
        #: ``generation_kwargs`` sets one); None sends no cap (the server's default)
        self.max_tokens: int | None = None
        self.price = price
        self.retry_policy = retry_policy or RetryPolicy.from_settings(
            timeout=timeout, max_retries=max_retries
        )
        self.limiter = AdaptiveLimiter(max_concurrency)
        self._client_kwargs = client_kwargs
        self._rung = RUNGS.index(normalise_format(format))
        self._send_temperature = temperature is not None
        self._lock = threading.Lock()
        # A caller's own async http_client is theirs to close: closing our SDK client after a sync call would close
        # it too, and every later call would fail. An httpx-based one serves every call, sync ones (each on its own
        # short-lived loop) included: a keep-alive connection left from an earlier loop fails once with "Event loop
        # is closed" and is retried on a new connection (see _attempt). An aiohttp-based one is bound to the loop
        # it first ran on for good, so sync calls use a private default client instead (with a warning).
        given = client_kwargs.get("http_client")
        self._callers_client_is_loop_bound = _is_aiohttp_based(given)
        self._async_clients: PerLoop[openai.AsyncOpenAI] = (
            PerLoop(
                self._new_async_client,
                _keep_open,
                private=(self._new_private_async_client, _close_client)
                if self._callers_client_is_loop_bound
                else None,
            )
            if inspect.iscoroutinefunction(getattr(given, "send", None))
            else PerLoop(
                self._new_async_client,
                _close_client,
                # judges with one configuration share one client per event loop (see per_loop)
                share_key=share_key(
                    "openai-compatible",
                    type(self).__qualname__,
                    base_url,
                    self._api_key.get(),
                    self.retry_policy.timeout,
                    client_kwargs,
                    transport_setting(),
                    max_reply_bytes(),
                ),
            )
        )
        super().__init__(model)

    @property
    def _endpoint(self) -> SplitURL:
        """``base_url`` taken apart: requests go to the clean URL, its query goes with every request and its
        user-info as an ``Authorization`` header, so neither is left in the URL an HTTP library logs or quotes
        (both are registered secrets). Read from ``base_url`` each time, so a changed ``base_url`` is followed."""
        return split_url_cached(self.base_url)

    # -- DeepEvalBaseLLM -------------------------------------------------------------------------------------------
    def load_model(self, *args: Any, **kwargs: Any) -> openai.OpenAI | None:
        """A synchronous ``openai.OpenAI`` client for direct use (None without a key where one is required).
        Our calls use per-event-loop ``AsyncOpenAI`` clients."""
        key = self._key_or_none()
        if key is None:
            return None
        return openai.OpenAI(
            **self._with_our_http_client(self._sdk_kwargs(key), openai.DefaultHttpxClient, is_async=False)
        )

    def get_model_name(self) -> str:
        return str(self.name)

    def generate(self, prompt: str, schema: type[BaseModel] | None = None) -> tuple[Any, float | None]:
        """Sync :meth:`a_generate` (works inside a running event loop too)."""
        return run_sync(self.run_with_private_client(self.a_generate(prompt, schema)))

    async def a_generate(
        self, prompt: str, schema: type[BaseModel] | None = None
    ) -> tuple[Any, float | None]:
        """See the class docstring."""
        if schema is None:
            record_llm_request()
            reply = await self._complete(prompt, rung=None, schema=None)
            return reply.text, self._cost(reply)
        return await self._generate_structured(prompt, schema)

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
        """Plain-text completion of at most ``max_tokens`` tokens (None: the client's own cap, as a plain
        ``generate``) with the ``top_logprobs`` (1..20) most probable alternatives at each position.

        Raises:
            ValueError: ``top_logprobs`` outside 1..20 or ``max_tokens`` < 1.
            JudgeError: the call failed, or the server returned no log-probabilities (kind invalid_output).
        """
        if not 1 <= top_logprobs <= 20:
            raise ValueError(f"top_logprobs must be in 1..20, got {top_logprobs}")
        if max_tokens is not None and max_tokens < 1:
            raise ValueError(f"max_tokens must be >= 1, got {max_tokens}")
        extra: dict[str, Any] = {"logprobs": True, "top_logprobs": top_logprobs}
        if max_tokens is not None:
            extra[self.max_tokens_param] = max_tokens
        reply = await self._complete(prompt, rung=None, schema=None, extra=extra)
        if not reply.tokens:
            raise JudgeError(
                f"judge {self.get_model_name()}: the server returned no token log-probabilities "
                "(it may not support logprobs)",
                model=self.get_model_name(),
                kind=ErrorKind.invalid_output,
            )
        completion = LogprobCompletion(reply.text, reply.tokens, reply.input_tokens, reply.output_tokens)
        return completion, self._cost(reply)

    async def a_chat(self, messages: list[dict[str, Any]], **fields: Any) -> dict[str, Any]:
        """One chat-completions request with these OpenAI-style ``messages`` and request ``fields`` (``tools=``...),
        through this client's key handling, retries, limiter and usage accounting (one ``llm_calls``): the reply's
        ``choices[0].message`` as sent (``content``; ``tool_calls`` when the model called tools, then ``content``
        may be None). ``temperature`` is sent as for every call unless ``fields`` sets it.

        Raises:
            JudgeError: as every call (kind connection, timeout, rate_limit, auth, bad_request, server...), or
                ``invalid_output`` for a reply with neither content nor tool calls.
        """
        record_llm_request()
        reply = await self._send({"model": self.name, "messages": list(messages), **fields}, tools=True)
        return reply.message

    async def aclose(self) -> None:
        """Close the HTTP client this object opened on the running loop (others go when their loop closes)."""
        await self._async_clients.aclose()

    @property
    def structured_format(self) -> str:
        """The structured-output rung this client currently uses (it only moves down, on a 400)."""
        return RUNGS[self._rung]

    def __repr__(self) -> str:
        return f"{type(self).__name__}(model={self.name!r}, base_url={display_url(self.base_url)!r})"

    # -- structured output -----------------------------------------------------------------------------------------
    async def _generate_structured(self, prompt: str, schema: type[T]) -> tuple[T, float | None]:
        """The structured layer's ladder (:func:`deepeval.models.structured.run_ladder`) over
        :meth:`a_structured_attempt`: the one re-ask happens there, and each request counts in ``llm_calls``."""
        cost = CostTotal()

        async def ask(text: str) -> str:
            reply, spent = await self._structured_once(text, schema)
            cost.add(spent)
            return reply

        try:
            return await run_ladder(ask, prompt, schema, name=self.get_model_name()), cost.value
        except StructuredOutputError:
            record_usage(cost=cost.value)  # nothing is returned, so the spend is recorded here
            raise

    async def a_structured_attempt(self, prompt: str, schema: type[BaseModel]) -> tuple[str, float | None]:
        """One structured-output request on the current rung (moving down a rung on a 400 that blames
        ``response_format``): the unvalidated reply text and its cost. Counted as one ``llm_calls``."""
        return await self._structured_once(prompt, schema)

    async def _structured_once(self, prompt: str, schema: type[BaseModel]) -> tuple[str, float | None]:
        """:meth:`a_structured_attempt` itself; the ladder of ``a_generate(prompt, schema)`` calls this one, so a
        wrapper around the public methods (the Ray rate limiter) sees that call once."""
        record_llm_request()
        reply = await self._structured_call(prompt, schema)
        if reply.cut:  # the ladder must not repair a cut-off reply into a shorter one as if it were whole
            return CutReply(reply.text, reply.output_tokens), self._cost(reply)
        return reply.text, self._cost(reply)

    async def _structured_call(self, prompt: str, schema: type[BaseModel]) -> _Reply:
        while True:
            rung = self._rung
            try:
                return await self._complete(prompt, rung=rung, schema=schema)
            except JudgeError as exc:
                if exc.status_code == 400 and rung < len(RUNGS) - 1 and _blames(exc, "response_format"):
                    with self._lock:
                        self._rung = max(self._rung, rung + 1)
                    record_llm_request()  # the resend on the next rung is a request the server sees
                    continue
                raise

    # -- one completion ----------------------------------------------------------------------------------------
    async def _complete(
        self,
        prompt: str,
        *,
        rung: int | None,
        schema: type[BaseModel] | None,
        extra: Mapping[str, Any] | None = None,
    ) -> _Reply:
        content = prompt
        request: dict[str, Any] = {"model": self.name}
        if schema is not None and rung is not None:
            rf = response_format(RUNGS[rung], schema)
            if rf is not None:
                request["response_format"] = rf
            if rf is None or rf["type"] == "json_object":
                content = prompt + schema_instruction(schema)
        request["messages"] = [{"role": "user", "content": content}]
        request.update(extra or {})
        cap = self._max_tokens_for(schema if rung is not None else None, content)
        if cap is not None:
            request.setdefault(self.max_tokens_param, cap)
        request.update(self.generation_kwargs)
        return await self._send(request)

    async def _send(self, request: dict[str, Any], *, tools: bool = False) -> _Reply:
        """``request`` under the retry policy, resent once without ``temperature`` when the server refuses it."""
        while True:
            body = dict(request)
            if (
                self._send_temperature
                and "temperature" not in self.generation_kwargs
                and "temperature" not in request
            ):
                body["temperature"] = self.temperature
            policy = self._call_policy(body)
            try:
                reply = await call_with_retries(
                    lambda body=body, policy=policy: self._attempt(body, policy, tools=tools),  # type: ignore[misc]
                    policy=policy,
                    model=self.get_model_name(),
                    limiter=self.limiter,
                )
            except JudgeError as exc:
                if (
                    exc.status_code == 400
                    and "temperature" in body
                    and "temperature" not in self.generation_kwargs
                    and "temperature" not in request
                    and _blames(exc, "temperature")
                ):
                    self._send_temperature = False  # e.g. reasoning models accept only their default
                    record_llm_request()  # the resend without it is a request the server sees
                    continue
                raise
            record_usage(input_tokens=reply.input_tokens, output_tokens=reply.output_tokens)
            return reply

    def _max_tokens_for(self, schema: type[BaseModel] | None, prompt: str) -> int | None:
        """The token cap of one request for ``schema`` (None: a plain-text or logprob call) with this ``prompt``:
        :attr:`max_tokens`; a subclass may raise it for a request that needs a longer reply (the GGUF judge does)."""
        return self.max_tokens

    def _call_policy(self, body: Mapping[str, Any]) -> RetryPolicy:
        """The retry policy (per-attempt deadline included) of one request with this ``body``: the client's own
        policy; a subclass may size the deadline to the request (the GGUF judge does)."""
        return self.retry_policy

    def _on_reply(self, data: Mapping[str, Any]) -> None:
        """Called with every successful reply body (a subclass may read server timings from it)."""

    async def _attempt(self, body: dict[str, Any], policy: RetryPolicy, *, tools: bool = False) -> _Reply:
        name = self.get_model_name()
        if self._api_key.malformed:
            raise malformed_key_error(f"judge {name}", model=name)
        client = self._client()
        try:
            # The SDK's generic POST (its documented way to send a body as is) rather than
            # ``chat.completions.create``: that one first walks the whole body, JSON schema included, against its
            # TypedDicts (~0.6 ms of CPU per call, most of the client's time in a burst of concurrent calls) to
            # transform fields our plain JSON body never has. Auth, headers, timeout and errors are the same; the
            # reply comes back as text, which :meth:`_parse` reads.
            text = await self._post(client, body, policy.timeout)
        except openai.APIStatusError as exc:
            raise self._status_error(exc) from None
        except RuntimeError as exc:
            if "attached to a different loop" in str(exc) or (
                "Event loop is closed" in str(exc) and self._callers_client_is_loop_bound
            ):
                raise JudgeError(
                    f"judge {name}: the aiohttp-based http_client= passed in is bound to the event loop it first ran "
                    "on and cannot serve another (each evaluate()/measure() call runs on its own loop); use "
                    "a_evaluate()/a_measure() on one loop, or pass no http_client",
                    model=name,
                    kind=ErrorKind.bad_request,
                ) from None
            raise
        except Exception as exc:
            mapped = transport_error(
                exc, timeout=policy.timeout, timeout_note=policy.timeout_note, **self._error_context()
            )
            if mapped is None:
                raise
            raise mapped from None
        return self._parse(text, tools=tools)

    def _error_context(self) -> dict[str, Any]:
        """Who failed, for the shared error mapping: the judge's label and name, its base URL as shown, and the
        server's own name (``server_name``: the GGUF backend's words instead of HTTP's)."""
        name = self.get_model_name()
        return {
            "label": f"judge {name}",
            "model": name,
            "base_url": display_url(self.base_url),
            "server": self.server_name,
        }

    def _status_error(self, exc: openai.APIStatusError) -> JudgeError:
        """OpenAI's error body (``{"error": {"message", "code", "param"}}``, or a bare ``message`` / ``detail``)
        read into the shared status mapping."""
        err_body: dict[str, Any] = exc.body if isinstance(exc.body, dict) else {}
        nested = err_body.get("error")
        inner: dict[str, Any] = nested if isinstance(nested, dict) else err_body
        # a body that is not JSON (a proxy's HTML page) is the only clue the server gave: quote its text
        raw = plain_text(exc.body) if isinstance(exc.body, str) else ""
        return status_error(
            exc.status_code,
            model=self.get_model_name(),
            detail=str(inner.get("message") or inner.get("detail") or raw or exc.message or ""),
            headers=exc.response.headers,
            code=_str_or_none(inner.get("code")),
            param=_str_or_none(inner.get("param")),
            server=self.server_name,
        )

    async def _post(self, client: openai.AsyncOpenAI, body: dict[str, Any], timeout: float) -> str:
        """One POST; with a caller's httpx ``http_client``, keep-alive connections it opened on an event loop that
        has since closed are skipped. Each fails with "Event loop is closed" before anything is sent, and the
        pool drops it, so the request is simply sent again (up to the SDK's pool size, 1,000): one run of 20
        concurrent calls leaves 20 such connections, more than the retry budget would absorb."""
        options: Any = {"timeout": timeout + 1.0, "security": {"bearer_auth": True}}
        for _ in range(_STALE_CONNECTIONS_MAX):
            try:
                return await client.post("/chat/completions", cast_to=str, body=body, options=options)
            except RuntimeError as exc:
                if self._callers_client_is_loop_bound or "Event loop is closed" not in str(exc):
                    raise
        name = self.get_model_name()
        raise JudgeError(
            f"judge {name}: every pooled connection of the http_client= passed in came from an event loop that has "
            "closed (an httpx.AsyncClient shared across evaluate() calls); retrying",
            model=name,
            retryable=True,
            kind=ErrorKind.connection,
        )

    def _parse(self, text: str, *, tools: bool = False) -> _Reply:
        """Read a successful (2xx) chat-completions reply body (with ``tools``, a message that only calls tools
        is a reply too)."""
        name = self.get_model_name()
        data = read_json(text, **self._error_context())
        try:
            choice = data["choices"][0]
            message = choice["message"]
        except (KeyError, IndexError, TypeError):
            raise JudgeError(
                f"judge {name}: the reply has no choices[0].message (fields present: "
                f"{sorted(data) if isinstance(data, dict) else type(data).__name__})",
                model=name,
                retryable=True,
                kind=ErrorKind.server,
            ) from None
        content = message.get("content") if isinstance(message, dict) else None
        if content is None and tools and isinstance(message, dict) and message.get("tool_calls"):
            content = ""
        if content is None:
            refusal = message.get("refusal") if isinstance(message, dict) else None
            why = f"refused: {str(refusal)[:200]}" if refusal else "returned no content"
            raise JudgeError(f"judge {name} {why}", model=name, kind=ErrorKind.invalid_output)
        try:
            tokens = parse_logprobs(choice.get("logprobs"))
        except ValueError as exc:
            raise JudgeError(
                f"judge {name}: malformed logprobs in the reply ({exc})",
                model=name,
                kind=ErrorKind.invalid_output,
            ) from None
        usage = data.get("usage") if isinstance(data.get("usage"), dict) else {}
        self._on_reply(data)
        return _Reply(
            text=str(content),
            tokens=tokens,
            input_tokens=int_or_none(usage.get("prompt_tokens")),
            output_tokens=int_or_none(usage.get("completion_tokens")),
            message=message,
            cut=choice.get("finish_reason") == "length",
        )

    # -- plumbing ----------------------------------------------------------------------------------------------
    def _cost(self, reply: _Reply) -> float | None:
        return None if self.price is None else self.price.reply_cost(reply.input_tokens, reply.output_tokens)

    def _key_or_none(self) -> str | None:
        key = self._api_key.get()
        if key:
            return key
        return None if self.requires_api_key else "not-needed"

    def _sdk_kwargs(self, key: str) -> dict[str, Any]:
        kwargs: dict[str, Any] = {
            "api_key": key,
            "max_retries": 0,  # retries are ours (deepeval.models.http.retry), so counts are exact
            "timeout": self.retry_policy.timeout + 1.0,
        }
        endpoint = self._endpoint
        if endpoint.base_url:
            kwargs["base_url"] = endpoint.base_url
        if endpoint.params:
            kwargs["default_query"] = dict(endpoint.params)
        if endpoint.authorization:
            kwargs["default_headers"] = {"Authorization": endpoint.authorization}
        for name, value in self._client_kwargs.items():
            if name in ("default_query", "default_headers") and name in kwargs:
                kwargs[name] = {**kwargs[name], **dict(value or {})}
            else:
                kwargs[name] = value
        return kwargs

    def _missing_key_error(self) -> JudgeError:
        return JudgeError(
            f"judge {self.get_model_name()}: no {self.provider} API key; set {self.key_setting} or pass api_key=",
            model=self.get_model_name(),
            kind=ErrorKind.auth,
        )

    def _new_private_async_client(self) -> openai.AsyncOpenAI:
        """A sync call's own client when the caller's ``http_client=`` cannot leave its event loop (aiohttp)."""
        warnings.warn(
            f"{type(self).__name__}: the http_client= passed in is aiohttp-based and bound to the event loop it first "
            "ran on, so this synchronous call (which runs on its own loop) uses a default HTTP client instead; use "
            "the async API (a_generate, a_measure, a_evaluate) on one loop to go through it",
            RuntimeWarning,
            stacklevel=2,
        )
        return self._new_default_async_client()

    def _new_default_async_client(self) -> openai.AsyncOpenAI:
        """An SDK client on the default HTTP client even when the caller passed ``http_client=``."""
        key = self._key_or_none()
        if key is None:
            raise self._missing_key_error()
        kwargs = {k: v for k, v in self._sdk_kwargs(key).items() if k != "http_client"}
        return self._async_sdk_client(kwargs)

    def _new_async_client(self) -> openai.AsyncOpenAI:
        key = self._key_or_none()
        if key is None:
            raise self._missing_key_error()
        return self._async_sdk_client(self._sdk_kwargs(key))

    def _async_sdk_client(self, kwargs: dict[str, Any]) -> openai.AsyncOpenAI:
        http_client_class = async_http_client_class(self._endpoint.base_url)
        return openai.AsyncOpenAI(**self._with_our_http_client(kwargs, http_client_class, is_async=True))

    @staticmethod
    def _with_our_http_client(
        kwargs: dict[str, Any], http_client_class: Any, *, is_async: bool
    ) -> dict[str, Any]:
        """``kwargs`` plus the SDK's own HTTP client (``DefaultHttpxClient``, or for async calls the class
        :func:`~deepeval.models.http.transport.async_http_client_class` picks: the SDK's defaults) built with the
        process-wide TLS context (:mod:`deepeval.models.http.tls`) and, for our async calls, the reply size cap
        (:mod:`deepeval.models.http.reply_limit`), unless the caller passed ``http_client=``. A caller's client serves only the side it fits (an ``httpx.AsyncClient`` our async calls,
        an ``httpx.Client`` the sync client of :meth:`load_model`); the other side gets the default."""
        given = kwargs.get("http_client")
        if given is not None:
            # By shape, not class: the SDK may build on another httpx distribution than the caller's.
            if inspect.iscoroutinefunction(getattr(given, "send", None)) == is_async:
                return kwargs
            kwargs = {k: v for k, v in kwargs.items() if k != "http_client"}
        library = library_of(http_client_class)
        context = shared_context(library) if library is not None else None
        options: dict[str, Any] = {} if context is None else {"verify": context}
        if is_async:
            options["event_hooks"] = capped_event_hooks()
        if not options:
            return kwargs
        return {**kwargs, "http_client": http_client_class(**options)}

    def _client(self) -> openai.AsyncOpenAI:
        return self._async_clients.get()

    async def run_with_private_client(self, coro: Coroutine[Any, Any, T2]) -> T2:
        """Await ``coro`` (a call on this object) with an HTTP client private to it, closed afterwards: what sync
        wrappers use, since they own a short-lived event loop."""
        if self._key_or_none() is None:
            coro.close()
            raise self._missing_key_error()
        return await self._async_clients.run_private(coro)


async def _close_client(client: openai.AsyncOpenAI) -> None:
    await client.close()


async def _keep_open(client: openai.AsyncOpenAI) -> None:
    """Closer for SDK clients built on a caller's http_client: leave it open."""


def _is_aiohttp_based(client: Any) -> bool:
    """Whether an httpx-style client sends through aiohttp (the SDK's ``DefaultAioHttpClient`` or any client on an
    aiohttp transport): its session belongs to one event loop."""
    if client is None:
        return False
    aio = getattr(openai, "DefaultAioHttpClient", None)
    if aio is not None and isinstance(client, aio):
        return True
    return "aiohttp" in type(getattr(client, "_transport", None)).__module__.lower()


def _blames(exc: JudgeError, param: str) -> bool:
    blamed = exc.param
    return blamed == param or param in str(exc)


def _str_or_none(value: Any) -> str | None:
    return None if value is None else str(value)
