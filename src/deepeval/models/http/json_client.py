"""A JSON-over-HTTP endpoint on the shared stack, for clients that speak a provider's own wire format rather than
OpenAI's through the ``openai`` SDK (the Anthropic, Gemini and Ollama judges, the embedding models).

:class:`JSONEndpoint` holds the base URL, the key (a :class:`~deepeval.models.http.secrets.Secret`), the retry
policy and adaptive limiter, and one async HTTP client per event loop (httpx, or the ``openai`` SDK's aiohttp-based
one as ``DEEPEVAL_HTTP_CLIENT`` selects, the System One client's rule; shared by endpoints of one configuration, on
the process-wide TLS context). :meth:`JSONEndpoint.call` sends one JSON body under
:func:`~deepeval.models.http.retry.call_with_retries` and maps every failure with :mod:`deepeval.models.http.errors`
(transport errors, statuses with ``Retry-After``, bodies that are not JSON); the caller's ``read`` turns the reply
into its result and may raise a retryable :class:`~deepeval.errors.JudgeError` for a reply missing what it needs.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Coroutine, Mapping
from typing import Any, TypeVar

import httpx

from deepeval.config.log_redaction import install_log_redaction
from deepeval.config.redaction import (
    SplitURL,
    display_url,
    is_secret_name,
    register_secret,
    split_url,
    split_url_cached,
)
from deepeval.errors import ErrorKind, JudgeError
from deepeval.models.http.errors import (
    malformed_key_error,
    plain_text,
    read_json,
    status_error,
    transport_error,
)
from deepeval.models.http.per_loop import PerLoop, share_key
from deepeval.models.http.rate_limit import AdaptiveLimiter
from deepeval.models.http.reply_limit import capped_event_hooks, max_reply_bytes
from deepeval.models.http.retry import RetryPolicy, call_with_retries
from deepeval.models.http.secrets import Secret, check_base_url
from deepeval.models.http.tls import library_of, shared_context
from deepeval.models.http.transport import system_one_client_class

R = TypeVar("R")
T = TypeVar("T")


class JSONEndpoint:
    """One provider endpoint: where requests go, with which credentials, under which retry policy.

    Args:
        base_url: the server root or API prefix requests' paths are appended to.
        base_url_setting: where ``base_url`` came from (named when it is unusable).
        api_key: the key (None: none).
        auth_headers: ``auth_headers(key) -> headers`` carrying the key (called per request, key None when unset).
        name: ``name() -> str``, the judge's name in messages.
        provider / key_setting / requires_key: a missing key is an ``auth`` error naming ``key_setting``.
        retry_policy / limiter: see :mod:`deepeval.models.http.retry` and :mod:`~deepeval.models.http.rate_limit`.
        client_kwargs: options for ``httpx.AsyncClient`` (``headers``, ``verify``, ``proxy``...).
        owner: a label that keeps endpoints of different client classes from sharing a connection pool.

    Raises:
        ConfigurationError: an unusable base URL.
    """

    def __init__(
        self,
        *,
        base_url: str,
        base_url_setting: str,
        api_key: str | None,
        auth_headers: Callable[[str | None], dict[str, str]],
        name: Callable[[], str],
        provider: str,
        key_setting: str,
        requires_key: bool,
        retry_policy: RetryPolicy,
        limiter: AdaptiveLimiter,
        client_kwargs: Mapping[str, Any] | None = None,
        owner: str = "",
    ) -> None:
        base_url = base_url.rstrip("/")
        check_base_url(base_url, base_url_setting)
        self.base_url = base_url
        split_url(base_url)  # registers the URL's credentials as secrets now
        install_log_redaction()
        self.api_key = Secret(api_key)
        self._auth_headers = auth_headers
        self._name = name
        self.provider = provider
        self.key_setting = key_setting
        self.requires_key = requires_key
        self.retry_policy = retry_policy
        self.limiter = limiter
        self._client_kwargs = dict(client_kwargs or {})
        register_header_secrets(self._client_kwargs.get("headers"))
        self._clients: PerLoop[Any] = PerLoop(
            self._new_client,
            _aclose,
            share_key=share_key(
                "json-endpoint",
                owner,
                base_url,
                self.api_key.get(),
                retry_policy.timeout,
                self._client_kwargs,
                max_reply_bytes(),
            ),
        )

    @property
    def shown_url(self) -> str:
        """The base URL as messages show it (no credentials or query)."""
        return display_url(self.base_url)

    @property
    def _endpoint(self) -> SplitURL:
        return split_url_cached(self.base_url)

    async def call(
        self,
        path: str,
        body: Mapping[str, Any],
        read: Callable[[Any], R],
        *,
        params: Mapping[str, str] | None = None,
    ) -> R:
        """POST ``body`` to ``path`` under the retry policy and limiter; ``read(reply_json)`` is part of each
        attempt (a reply it refuses with a retryable error is retried like a 5xx).

        Raises:
            JudgeError: the call failed (kind as :mod:`deepeval.models.http.errors` maps it) or ``read`` refused
                the last reply.
        """
        content = json.dumps(body, ensure_ascii=False).encode()

        async def attempt() -> R:
            return read(await self._post(path, content, params))

        return await call_with_retries(
            attempt, policy=self.retry_policy, model=self._name(), limiter=self.limiter
        )

    def context(self) -> dict[str, Any]:
        """Who failed, for the shared error mapping."""
        name = self._name()
        return {"label": f"judge {name}", "model": name, "base_url": self.shown_url}

    async def _post(self, path: str, content: bytes, params: Mapping[str, str] | None) -> Any:
        name = self._name()
        key = self.api_key.get() or None
        if key is None and self.requires_key:
            raise JudgeError(
                f"judge {name}: no {self.provider} API key; set {self.key_setting} or pass api_key=",
                model=name,
                kind=ErrorKind.auth,
            )
        if self.api_key.malformed:
            raise malformed_key_error(f"judge {name}", model=name)
        headers = {"Content-Type": "application/json", **self._auth_headers(key)}
        endpoint = self._endpoint
        if endpoint.authorization:
            headers["Authorization"] = endpoint.authorization
        query = {**dict(endpoint.params), **dict(params or {})}
        client = self._clients.get()
        try:
            resp = await client.post(
                (endpoint.base_url or self.base_url) + path,
                content=content,
                headers=headers,
                params=query or None,
            )
        except Exception as exc:
            mapped = transport_error(
                exc,
                timeout=self.retry_policy.timeout,
                timeout_note=self.retry_policy.timeout_note,
                **self.context(),
            )
            if mapped is None:
                raise
            raise mapped from None
        if not 200 <= resp.status_code < 300:
            detail, code = error_detail(resp)
            raise status_error(resp.status_code, model=name, detail=detail, headers=resp.headers, code=code)
        return read_json(resp.content, status=resp.status_code, **self.context())

    async def run_private(self, coro: Coroutine[Any, Any, T]) -> T:
        """Await ``coro`` with an HTTP client private to it, closed afterwards (sync wrappers' short loops)."""
        return await self._clients.run_private(coro)

    async def aclose(self) -> None:
        await self._clients.aclose()

    def bad_reply(self, what: str, data: Any) -> JudgeError:
        """The retryable ``server`` error for a 2xx reply that lacks ``what`` (naming the fields it has)."""
        name = self._name()
        present = sorted(data) if isinstance(data, dict) else type(data).__name__
        return JudgeError(
            f"judge {name}: the reply has no {what} (fields present: {present})",
            model=name,
            retryable=True,
            kind=ErrorKind.server,
        )

    def _new_client(self) -> Any:
        """An ``httpx.AsyncClient``, or the openai SDK's aiohttp-based one (same API; ``DEEPEVAL_HTTP_CLIENT``, the
        rule the System One client follows: :func:`~deepeval.models.http.transport.system_one_client_class`)."""
        kwargs: dict[str, Any] = {"timeout": self.retry_policy.timeout + 1.0}
        aio_class = system_one_client_class(self._client_kwargs, self._endpoint.base_url)
        library = httpx if aio_class is None else library_of(aio_class)
        context = shared_context(library) if library is not None else None
        if context is not None and not {"verify", "cert"} & set(self._client_kwargs):
            kwargs["verify"] = context
        kwargs.update(self._client_kwargs)
        kwargs["event_hooks"] = capped_event_hooks(self._client_kwargs.get("event_hooks"))
        if aio_class is None:
            return httpx.AsyncClient(**kwargs)
        return aio_class(follow_redirects=False, **kwargs)


async def _aclose(client: Any) -> None:
    await client.aclose()


def register_header_secrets(headers: Mapping[str, Any] | None) -> None:
    """Register as secrets the values of a caller's extra headers whose names say they carry a credential
    (``Authorization``, ``api-key``, ``x-portkey-api-key``...): a hosted Ollama's bearer token given as
    ``OllamaModel(headers={"Authorization": "Bearer ..."})`` is redacted like an API key."""
    for name, value in (headers or {}).items():
        if is_secret_name(str(name)) and isinstance(value, str):
            register_secret(value)
            register_secret(value.split(" ", 1)[1] if " " in value else None)


def error_detail(resp: Any) -> tuple[str, str | None]:
    """The server's own words from an error reply, in the shapes providers use: ``{"error": {"message", "type" |
    "status" | "code"}}`` (Anthropic, Gemini, OpenAI, Azure), ``{"error": "..."}`` (Ollama), ``{"message"}`` /
    ``{"detail"}``; a body that is not JSON as plain text. Returns ``(detail, code)``, uncut: the shared mapping
    redacts it before shortening it."""
    try:
        data = resp.json()
    except ValueError:
        return plain_text(str(resp.text)), None
    if not isinstance(data, dict):
        return json.dumps(data)[:2000], None
    err = data.get("error")
    if isinstance(err, str):
        return err, None
    inner = err if isinstance(err, dict) else data
    detail = str(inner.get("message") or inner.get("detail") or json.dumps(data)[:2000])
    code = inner.get("code") if isinstance(inner.get("code"), str) else None
    kind = inner.get("type") or inner.get("status")
    text = f"{kind}: {detail}" if isinstance(kind, str) and kind not in detail else detail
    return text, code
