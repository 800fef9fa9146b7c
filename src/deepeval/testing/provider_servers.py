"""Loopback servers for the providers that speak their own wire format, on the machinery of
:class:`~deepeval.testing._http.LoopbackServer` (faults, counters, life cycle):

* :class:`AnthropicServer`: Anthropic Messages (``POST /v1/messages``, key in ``x-api-key``, ``anthropic-version``
  required), native structured outputs (``output_config.format``) and forced tool use;
* :class:`GeminiServer`: Gemini ``generateContent`` (``POST /v1beta|v1/models/{model}:generateContent``, key in
  ``x-goog-api-key``), JSON schema / JSON mode and ``logprobsResult``;
* :class:`OllamaServer`: Ollama's native ``POST /api/chat`` (``format``, ``logprobs``) and ``POST /api/embed``, plus
  its OpenAI-compatible ``/v1`` (chat completions and embeddings, as :class:`~deepeval.testing.servers.OpenAIChatServer`);
* :class:`BedrockServer`: Amazon Bedrock Converse (``POST /model/{modelId}/converse``, SigV4-signed by boto3: the
  server checks the access key id in the signature's credential scope, never a secret), forced tool use;
* :class:`AzureOpenAIServer`: Azure OpenAI deployment URLs (``/openai/deployments/{name}/chat/completions`` and
  ``/embeddings``, ``api-version`` query required, key in ``api-key``).

Every server hands its ``responder`` the same view of a request as :class:`OpenAIChatServer` does (``model``,
``messages`` with the user's text, and ``response_format.json_schema.name`` / ``.schema`` when the request carried a
schema, named by the schema's ``title`` or the forced tool's name), plus ``provider_request`` (the body as sent),
so one responder (e.g. :func:`~deepeval.testing.servers.schema_responder`) serves every provider. A responder
returns a string (the reply text) or a dict with ``content``, ``logprobs`` (one ``{token: logprob}`` per position),
``usage`` (``{"prompt_tokens", "completion_tokens"}``) and ``finish_reason`` (``"length"``: cut at the cap).
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import urllib.parse
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from deepeval.testing._http import LoopbackServer
from deepeval.testing.servers import ChatResponder, OpenAIChatServer, word_count

Embedder = Callable[[str], list[float]]

__all__ = [
    "AnthropicServer",
    "AzureOpenAIServer",
    "BedrockServer",
    "GeminiServer",
    "OllamaServer",
    "hashed_embedding",
]


def hashed_embedding(text: str, dim: int = 16) -> list[float]:
    """A deterministic unit vector for ``text``: its lower-cased words hashed into ``dim`` buckets (texts that
    share words point the same way), the loopback servers' default embedder."""
    vec = [0.0] * dim
    for word in re.findall(r"\w+", text.lower()):
        vec[int(hashlib.sha256(word.encode()).hexdigest(), 16) % dim] += 1.0
    norm = math.sqrt(sum(v * v for v in vec)) or 1.0
    return [v / norm for v in vec]


def _view(model: Any, text: str, schema: Any, name: str | None, payload: dict[str, Any]) -> dict[str, Any]:
    view: dict[str, Any] = {
        "model": model,
        "messages": [{"role": "user", "content": text}],
        "provider_request": payload,
    }
    if isinstance(schema, dict):
        view["response_format"] = {
            "type": "json_schema",
            "json_schema": {"name": name or schema.get("title") or "Output", "schema": schema},
        }
    return view


def _spec(reply: Any) -> dict[str, Any]:
    spec: dict[str, Any] = dict(reply) if isinstance(reply, dict) else {"content": reply}
    content = spec.get("content", "")
    spec["content"] = content if isinstance(content, str) else json.dumps(content)
    return spec


def _cut(spec: dict[str, Any], limit: Any) -> tuple[str, list[Mapping[str, float]] | None, bool]:
    """The reply text and logprob positions cut to ``limit`` words (and whether it was cut)."""
    content: str = spec["content"]
    positions = list(spec["logprobs"]) if spec.get("logprobs") is not None else None
    cut = spec.get("finish_reason") == "length"
    if isinstance(limit, int) and limit > 0:
        if word_count(content) > limit:
            content, cut = " ".join(content.split()[:limit]), True
        if positions is not None:
            positions = positions[:limit]
    return content, positions, cut


def _ranked(position: Mapping[str, float]) -> list[tuple[str, float]]:
    return sorted(position.items(), key=lambda kv: kv[1], reverse=True)


def _answer(server: Any, view: dict[str, Any]) -> dict[str, Any] | None:
    """The server's responder on ``view``, normalised; None when it raised (kept in ``responder_errors``)."""
    try:
        return _spec(server.responder(view))
    except Exception as exc:  # surfaced to the client as a 500, kept for the test to inspect
        server.responder_errors.append(exc)
        return None


class _ProviderServer(LoopbackServer):
    """Shared parts: the responder, its errors, token counts."""

    def __init__(self, responder: ChatResponder | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.responder: ChatResponder = responder or (lambda _req: "ok")
        self.responder_errors: list[BaseException] = []

    def _answer(self, view: dict[str, Any]) -> dict[str, Any] | None:
        return _answer(self, view)

    def handle_get(self, path: str) -> tuple[int, Any]:
        return 404, self._error_body(404, f"no route for GET {path}")


class AnthropicServer(_ProviderServer):
    """Anthropic Messages on 127.0.0.1 (non-streaming).

    Args:
        responder: see the module docstring.
        structured_outputs: whether ``output_config.format`` is accepted; False answers it with the 400 a model
            without native structured outputs gets (clients then fall back to tool use).
        **kwargs: :class:`LoopbackServer` options (``api_key`` is checked against ``x-api-key``).
    """

    credential_header = "x-api-key"
    credential_prefix = ""

    def __init__(
        self, responder: ChatResponder | None = None, *, structured_outputs: bool = True, **kwargs: Any
    ):
        super().__init__(responder, **kwargs)
        self.structured_outputs = structured_outputs

    @property
    def base_url(self) -> str:
        """The server root (clients append ``/v1/messages``)."""
        return self.root_url

    def _credential(self, headers: Any) -> str | None:
        """``x-api-key``, or the bearer token the ``anthropic`` SDK 2.x sends instead; either carries the key."""
        key = headers.get("x-api-key")
        if key is None and str(headers.get("Authorization") or "").startswith("Bearer "):
            key = str(headers["Authorization"]).removeprefix("Bearer ")
        return None if key is None else str(key)

    def is_post_path(self, path: str) -> bool:
        return path == "/v1/messages"

    def _error_body(self, status: int, message: str) -> Any:
        types = {
            400: "invalid_request_error",
            401: "authentication_error",
            403: "permission_error",
            404: "not_found_error",
            429: "rate_limit_error",
            529: "overloaded_error",
        }
        return {"type": "error", "error": {"type": types.get(status, "api_error"), "message": message}}

    def handle_post(self, path: str, payload: dict[str, Any], raw: bytes) -> tuple[int, Any, tuple[int, int]]:
        problem = self._invalid(payload)
        if problem:
            return 400, self._error_body(400, problem), (0, 0)
        if "anthropic-version" not in self.request_headers:
            return 400, self._error_body(400, "anthropic-version: header is required"), (0, 0)
        fmt = (payload.get("output_config") or {}).get("format")
        if fmt is not None and not self.structured_outputs:
            msg = "output_config.format: structured outputs are not supported for this model"
            return 400, self._error_body(400, msg), (0, 0)
        tool = self._forced_tool(payload)
        text = " ".join(
            str(part.get("text", "")) if isinstance(part, dict) else str(part)
            for m in payload["messages"]
            for part in (m.get("content") if isinstance(m.get("content"), list) else [m.get("content")])
        )
        schema = tool["input_schema"] if tool else (fmt or {}).get("schema")
        spec = self._answer(_view(payload["model"], text, schema, tool["name"] if tool else None, payload))
        if spec is None:
            return 500, self._error_body(500, "responder failed"), (0, 0)
        content, _positions, cut = _cut(spec, payload.get("max_tokens"))
        usage = spec.get("usage") or {}
        tin = int(usage.get("prompt_tokens", word_count(text)))
        tout = int(usage.get("completion_tokens", word_count(content)))
        if tool:
            block: dict[str, Any] = {
                "type": "tool_use",
                "id": "toolu_loopback",
                "name": tool["name"],
                "input": json.loads(content),
            }
        else:
            block = {"type": "text", "text": content}
        body = {
            "id": "msg_loopback",
            "type": "message",
            "role": "assistant",
            "model": payload["model"],
            "content": [block],
            "stop_reason": "max_tokens" if cut else ("tool_use" if tool else "end_turn"),
            "usage": {"input_tokens": tin, "output_tokens": tout},
        }
        return 200, body, (tin, tout)

    @staticmethod
    def _invalid(payload: dict[str, Any]) -> str | None:
        if not isinstance(payload.get("model"), str):
            return "model: Field required"
        if not isinstance(payload.get("max_tokens"), int):
            return "max_tokens: Field required"
        if not isinstance(payload.get("messages"), list) or not payload["messages"]:
            return "messages: Field required"
        return None

    @staticmethod
    def _forced_tool(payload: dict[str, Any]) -> dict[str, Any] | None:
        choice = payload.get("tool_choice") or {}
        if choice.get("type") != "tool":
            return None
        for tool in payload.get("tools") or []:
            if isinstance(tool, dict) and tool.get("name") == choice.get("name"):
                return tool
        return None


class GeminiServer(_ProviderServer):
    """Gemini ``generateContent`` on 127.0.0.1.

    Args:
        responder: see the module docstring.
        json_schema: whether ``responseJsonSchema`` is accepted (False: the 400 an older model gives).
        **kwargs: :class:`LoopbackServer` options (``api_key`` is checked against ``x-goog-api-key``).
    """

    credential_header = "x-goog-api-key"
    credential_prefix = ""
    _PATH = re.compile(
        r"^/(?:v1beta|v1)/(?:projects/([^/]+)/locations/([^/]+)/publishers/google/)?models/([^/:]+):generateContent$"
    )

    def __init__(self, responder: ChatResponder | None = None, *, json_schema: bool = True, **kwargs: Any):
        super().__init__(responder, **kwargs)
        self.json_schema = json_schema
        #: access tokens handed out by ``POST /token`` (Vertex AI requests must carry one as the bearer)
        self.issued_tokens: list[str] = []
        #: the form of each token request (grant type, assertion or refresh token)
        self.token_requests: list[dict[str, str]] = []

    @property
    def base_url(self) -> str:
        return self.root_url

    @property
    def token_uri(self) -> str:
        """An OAuth token endpoint (``token_uri`` of the credentials in Vertex AI tests)."""
        return f"{self.root_url}/token"

    def is_post_path(self, path: str) -> bool:
        return path == "/token" or self._PATH.match(path) is not None

    def _token(self, form: dict[str, Any]) -> tuple[int, Any, tuple[int, int]]:
        self.token_requests.append(dict(form))
        grant = form.get("grant_type")
        if grant == "refresh_token" and form.get("refresh_token") == "revoked":
            return (
                400,
                {"error": "invalid_grant", "error_description": "Token has been expired or revoked."},
                (0, 0),
            )
        if grant not in ("refresh_token", "urn:ietf:params:oauth:grant-type:jwt-bearer"):
            return 400, {"error": "unsupported_grant_type"}, (0, 0)
        token = f"ya29.loopback-{len(self.issued_tokens) + 1}-0123456789"
        self.issued_tokens.append(token)
        return 200, {"access_token": token, "expires_in": 3599, "token_type": "Bearer"}, (0, 0)

    def _error_body(self, status: int, message: str) -> Any:
        statuses = {
            400: "INVALID_ARGUMENT",
            401: "UNAUTHENTICATED",
            403: "PERMISSION_DENIED",
            404: "NOT_FOUND",
            429: "RESOURCE_EXHAUSTED",
            500: "INTERNAL",
            503: "UNAVAILABLE",
        }
        return {"error": {"code": status, "message": message, "status": statuses.get(status, "UNKNOWN")}}

    def handle_post(self, path: str, payload: dict[str, Any], raw: bytes) -> tuple[int, Any, tuple[int, int]]:
        if path == "/token":
            return self._token(payload)
        match = self._PATH.match(path)
        model = urllib.parse.unquote(match.group(3)) if match else ""
        if match and match.group(1):  # Vertex AI: an OAuth bearer token this server issued
            bearer = self.request_headers.get("authorization", "").removeprefix("Bearer ")
            if bearer not in self.issued_tokens:
                return 401, self._error_body(401, "Request had invalid authentication credentials."), (0, 0)
        contents = payload.get("contents")
        if not isinstance(contents, list) or not contents:
            return (
                400,
                self._error_body(400, "* GenerateContentRequest.contents: contents is not specified"),
                (0, 0),
            )
        config = payload.get("generationConfig") or {}
        if "responseJsonSchema" in config and not self.json_schema:
            return (
                400,
                self._error_body(400, 'Invalid JSON payload: unknown name "responseJsonSchema"'),
                (0, 0),
            )
        text = " ".join(str(p.get("text", "")) for c in contents for p in c.get("parts") or [])
        spec = self._answer(_view(model, text, config.get("responseJsonSchema"), None, payload))
        if spec is None:
            return 500, self._error_body(500, "responder failed"), (0, 0)
        content, positions, cut = _cut(spec, config.get("maxOutputTokens"))
        usage = spec.get("usage") or {}
        tin = int(usage.get("prompt_tokens", word_count(text)))
        tout = int(usage.get("completion_tokens", word_count(content)))
        candidate: dict[str, Any] = {
            "content": {"role": "model", "parts": [{"text": content}]},
            "finishReason": "MAX_TOKENS" if cut else "STOP",
            "index": 0,
        }
        if config.get("responseLogprobs"):
            k = int(config.get("logprobs") or 0)
            ranked = [
                _ranked(p)
                for p in (positions if positions is not None else [{w: 0.0} for w in content.split()])
            ]
            candidate["logprobsResult"] = {
                "topCandidates": [
                    {"candidates": [{"token": t, "logProbability": v} for t, v in r[:k]]} for r in ranked
                ],
                "chosenCandidates": [{"token": r[0][0], "logProbability": r[0][1]} for r in ranked],
            }
        body = {
            "candidates": [candidate],
            "usageMetadata": {
                "promptTokenCount": tin,
                "candidatesTokenCount": tout,
                "totalTokenCount": tin + tout,
            },
            "modelVersion": model,
        }
        return 200, body, (tin, tout)


class OllamaServer(OpenAIChatServer):
    """Ollama on 127.0.0.1: native ``/api/chat`` and ``/api/embed``, and the OpenAI-compatible ``/v1``
    (``/v1/chat/completions``, ``/v1/embeddings``) of :class:`OpenAIChatServer`.

    Args:
        responder: see the module docstring (used by both APIs).
        embedder: ``embedder(text) -> vector`` (default :func:`hashed_embedding`).
        models: names ``/api/chat`` accepts; any other gets Ollama's 404 (``model 'x' not found``). Empty: any.
        **kwargs: :class:`OpenAIChatServer` options.
    """

    def __init__(
        self,
        responder: ChatResponder | None = None,
        *,
        embedder: Embedder | None = None,
        models: Sequence[str] = (),
        **kwargs: Any,
    ) -> None:
        super().__init__(responder, embedder=embedder or hashed_embedding, **kwargs)
        self.ollama_models = frozenset(models)

    @property
    def root(self) -> str:
        """The server root, what :class:`~deepeval.models.OllamaModel` takes as ``base_url``."""
        return self.root_url

    def is_post_path(self, path: str) -> bool:
        return path in ("/api/chat", "/api/embed") or super().is_post_path(path)

    def _error_body(self, status: int, message: str) -> Any:
        return {"error": message}

    def handle_post(self, path: str, payload: dict[str, Any], raw: bytes) -> tuple[int, Any, tuple[int, int]]:
        if path == "/api/chat":
            return self._chat(payload)
        if path == "/api/embed":
            return self._embed(payload)
        status, body, tokens = super().handle_post(path, payload, raw)
        return status, body, tokens

    def _chat(self, payload: dict[str, Any]) -> tuple[int, Any, tuple[int, int]]:
        model = payload.get("model")
        messages = payload.get("messages")
        if not isinstance(model, str) or not model:
            return 400, {"error": "model is required"}, (0, 0)
        if self.ollama_models and model not in self.ollama_models:
            return 404, {"error": f"model '{model}' not found"}, (0, 0)
        if not isinstance(messages, list):
            return 400, {"error": "messages must be a list"}, (0, 0)
        text = " ".join(str(m.get("content", "")) for m in messages if isinstance(m, dict))
        fmt = payload.get("format")
        spec = self._answer(_view(model, text, fmt if isinstance(fmt, dict) else None, None, payload))
        if spec is None:
            return 500, {"error": "responder failed"}, (0, 0)
        options = payload.get("options") or {}
        content, positions, cut = _cut(spec, options.get("num_predict"))
        usage = spec.get("usage") or {}
        tin = int(usage.get("prompt_tokens", word_count(text)))
        tout = int(usage.get("completion_tokens", word_count(content)))
        body: dict[str, Any] = {
            "model": model,
            "created_at": "2026-01-01T00:00:00Z",
            "message": {"role": "assistant", "content": content},
            "done": True,
            "done_reason": "length" if cut else "stop",
            "prompt_eval_count": tin,
            "eval_count": tout,
        }
        if payload.get("logprobs"):
            k = int(payload.get("top_logprobs") or 0)
            ranked = [
                _ranked(p)
                for p in (positions if positions is not None else [{w: 0.0} for w in content.split()])
            ]
            body["logprobs"] = [
                {
                    "token": r[0][0],
                    "logprob": r[0][1],
                    "top_logprobs": [{"token": t, "logprob": v} for t, v in r[:k]],
                }
                for r in ranked
            ]
        return 200, body, (tin, tout)

    def _answer(self, view: dict[str, Any]) -> dict[str, Any] | None:
        return _answer(self, view)

    def _embed(self, payload: dict[str, Any]) -> tuple[int, Any, tuple[int, int]]:
        raw_input = payload.get("input")
        texts = [raw_input] if isinstance(raw_input, str) else raw_input
        if not isinstance(payload.get("model"), str) or not isinstance(texts, list):
            return 400, {"error": "model and input are required"}, (0, 0)
        embedder = self.embedder or hashed_embedding
        vectors = [embedder(str(t)) for t in texts]
        tin = sum(word_count(str(t)) for t in texts)
        return 200, {"model": payload["model"], "embeddings": vectors, "prompt_eval_count": tin}, (tin, 0)


class AzureOpenAIServer(OpenAIChatServer):
    """Azure OpenAI on 127.0.0.1: ``POST /openai/deployments/{deployment}/chat/completions`` and ``/embeddings``
    with a required ``api-version`` query, key in ``api-key``; bodies and replies as OpenAI's.

    Args:
        deployments: deployment names that exist (any other gets Azure's 404 ``DeploymentNotFound``). Empty: any.
        **kwargs: :class:`OpenAIChatServer` options.
    """

    credential_header = "api-key"
    credential_prefix = ""
    _PATH = re.compile(r"^/openai/deployments/([^/]+)/(chat/completions|embeddings)$")

    def __init__(
        self, responder: ChatResponder | None = None, *, deployments: Sequence[str] = (), **kwargs: Any
    ):
        super().__init__(responder, **kwargs)
        self.deployments = frozenset(deployments)

    @property
    def endpoint(self) -> str:
        """The resource endpoint (``AZURE_OPENAI_ENDPOINT``)."""
        return self.root_url

    def is_post_path(self, path: str) -> bool:
        return self._PATH.match(path) is not None

    def handle_post(self, path: str, payload: dict[str, Any], raw: bytes) -> tuple[int, Any, tuple[int, int]]:
        match = self._PATH.match(path)
        assert match is not None
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(self.request_target).query)
        if not query.get("api-version"):
            return 404, {"error": {"code": "404", "message": "Resource not found"}}, (0, 0)
        if self.deployments and match.group(1) not in self.deployments:
            msg = "The API deployment for this resource does not exist."
            return 404, {"error": {"code": "DeploymentNotFound", "message": msg}}, (0, 0)
        payload.setdefault("model", match.group(1))
        inner = "/v1/chat/completions" if match.group(2) == "chat/completions" else "/v1/embeddings"
        return super().handle_post(inner, payload, raw)


class BedrockServer(_ProviderServer):
    """Amazon Bedrock's Converse API on 127.0.0.1 (what ``boto3``'s ``bedrock-runtime`` client speaks).

    Args:
        responder: see the module docstring.
        access_key_id: when set, a request whose SigV4 credential scope names another key id gets 403
            ``UnrecognizedClientException``.
        tool_choice: whether a forced ``toolChoice`` is accepted (False: the 400 ``ValidationException`` a model
            without it gets).
        **kwargs: :class:`LoopbackServer` options (``api_key`` is not used: SigV4 sends no secret).
    """

    _PATH = re.compile(r"^/model/([^/]+)/converse$")
    _ERRORS: ClassVar[dict[int, str]] = {
        400: "ValidationException",
        403: "AccessDeniedException",
        404: "ResourceNotFoundException",
        408: "ModelTimeoutException",
        429: "ThrottlingException",
        500: "InternalServerException",
        503: "ServiceUnavailableException",
    }

    def __init__(
        self,
        responder: ChatResponder | None = None,
        *,
        access_key_id: str | None = None,
        tool_choice: bool = True,
        **kwargs: Any,
    ) -> None:
        super().__init__(responder, **kwargs)
        self.access_key_id = access_key_id
        self.tool_choice = tool_choice

    @property
    def endpoint_url(self) -> str:
        """What ``boto3.client("bedrock-runtime", endpoint_url=...)`` takes."""
        return self.root_url

    def is_post_path(self, path: str) -> bool:
        return self._PATH.match(urllib.parse.unquote(path)) is not None

    def _error_body(self, status: int, message: str) -> Any:
        return {"__type": self._ERRORS.get(status, "InternalServerException"), "message": message}

    def handle_post(self, path: str, payload: dict[str, Any], raw: bytes) -> tuple[int, Any, tuple[int, int]]:
        match = self._PATH.match(urllib.parse.unquote(path))
        model = match.group(1) if match else ""
        auth = self.request_headers.get("authorization", "")
        if self.access_key_id is not None and f"Credential={self.access_key_id}/" not in auth:
            refused = {
                "__type": "UnrecognizedClientException",
                "message": "The security token included in the request is invalid.",
            }
            return 403, refused, (0, 0)
        messages = payload.get("messages")
        if not isinstance(messages, list) or not messages:
            return 400, self._error_body(400, "messages: must not be empty"), (0, 0)
        tool_config = payload.get("toolConfig") or {}
        forced = (tool_config.get("toolChoice") or {}).get("tool", {}).get("name")
        if forced and not self.tool_choice:
            return (
                400,
                self._error_body(400, "This model doesn't support the toolConfig.toolChoice.tool field."),
                (0, 0),
            )
        tool = next(
            (
                t["toolSpec"]
                for t in tool_config.get("tools") or []
                if t.get("toolSpec", {}).get("name") == forced
            ),
            None,
        )
        text = " ".join(str(c.get("text", "")) for m in messages for c in m.get("content") or [])
        schema = (tool.get("inputSchema") or {}).get("json") if tool else None
        spec = self._answer(_view(model, text, schema, forced, payload))
        if spec is None:
            return 500, self._error_body(500, "responder failed"), (0, 0)
        content, _positions, cut = _cut(spec, (payload.get("inferenceConfig") or {}).get("maxTokens"))
        usage = spec.get("usage") or {}
        tin = int(usage.get("prompt_tokens", word_count(text)))
        tout = int(usage.get("completion_tokens", word_count(content)))
        block: dict[str, Any] = (
            {"toolUse": {"toolUseId": "tooluse_loopback", "name": forced, "input": json.loads(content)}}
            if tool
            else {"text": content}
        )
        body: dict[str, Any] = {
            "output": {"message": {"role": "assistant", "content": [block]}},
            "stopReason": "max_tokens" if cut else ("tool_use" if tool else "end_turn"),
            "usage": {"inputTokens": tin, "outputTokens": tout, "totalTokens": tin + tout},
            "metrics": {"latencyMs": 1},
        }
        return 200, body, (tin, tout)
