"""Real HTTP servers on 127.0.0.1 for tests and benchmarks: no network, real wire formats, scripted failures.

* :class:`OpenAIChatServer` speaks the OpenAI chat-completions API (``POST /v1/chat/completions``,
  ``GET /v1/models``); its ``base_url`` ends in ``/v1`` as the ``openai`` SDK expects.
* :class:`SystemOneServer` speaks TypeSafe's System One API (``POST /v1/systemone``, ``GET /v1/models``) as in
  REFERENCE §5; its ``base_url`` is the server root (clients append ``/v1/systemone``).

Both take the options of :class:`LoopbackServer` (``api_key``, fixed ``latency``, a ``faults`` script,
``failure_rate``/``failure``/``seed``) and count what they saw in ``.counters`` (:class:`Counters`). Faults are
built with :class:`Fault` (429 with ``Retry-After``/``retry-after-ms``, 5xx, slow reply, non-JSON body, a reply
missing a field, a dropped connection).

Example::

    with OpenAIChatServer(lambda req: '{"verdict": "yes"}', faults=[Fault.rate_limited(0.05)]) as srv:
        client = OpenAIModel(model="gpt-5.4", api_key="sk-test", base_url=srv.base_url)
"""

from __future__ import annotations

import itertools
import json
import math
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from deepeval.testing._http import Counters, Fault, LoopbackServer

__all__ = [
    "MAX_TOKENS_EXCEEDED",
    "Counters",
    "Fault",
    "LoopbackServer",
    "OpenAIChatServer",
    "SystemOneReply",
    "SystemOneServer",
    "avrik_error",
    "schema_responder",
    "wire_choice",
    "wire_noul",
    "wire_score",
    "word_count",
]

ChatResponder = Callable[[dict[str, Any]], "str | dict[str, Any]"]


def schema_responder(replies: Mapping[str, Any]) -> ChatResponder:
    """A responder for :class:`OpenAIChatServer` that answers a structured-output request with
    ``replies[<schema name>]`` as JSON, the name being the one the client sends in
    ``response_format.json_schema.name`` (our clients send the pydantic class name, e.g. ``Statements``).

    Raises (inside the server, so the client sees a 500): KeyError for a schema ``replies`` does not cover.
    """

    def respond(request: dict[str, Any]) -> str:
        return json.dumps(replies[request["response_format"]["json_schema"]["name"]])

    return respond


def _count_or_null(value: Any) -> int | None:
    return None if value is None else int(value)


def word_count(text: str) -> int:
    """The servers' default token count: whitespace-separated words in ``text``."""
    return len(text.split())


def _message_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # content parts
        return " ".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return ""


def _openai_error(status: int, message: str, *, param: str | None = None, code: str | None = None) -> Any:
    types = {
        400: "invalid_request_error",
        401: "authentication_error",
        403: "permission_error",
        404: "not_found_error",
        422: "invalid_request_error",
        429: "rate_limit_error",
    }
    return {
        "error": {
            "message": message,
            "type": types.get(status, "server_error"),
            "param": param,
            "code": code,
        }
    }


class OpenAIChatServer(LoopbackServer):
    """OpenAI chat completions on 127.0.0.1 (non-streaming).

    Args:
        responder: ``responder(request_json) -> str | dict``. A string is the reply content. A dict may set
            ``content`` (a string, or a dict/list sent as its JSON text), ``logprobs`` (one ``{token: logprob}``
            dict per generated token; the chosen token is the most probable one; the reply's ``top_logprobs``
            lists the request's ``top_logprobs`` most probable entries, sorted), ``usage``
            (``{"prompt_tokens", "completion_tokens"}``; a None count is sent as null, as servers that do not count
            tokens send it), ``finish_reason`` and ``tool_calls``: a list of
            ``{"name": ..., "arguments": dict | str}`` (or full wire tool calls) sent as the message's OpenAI
            ``tool_calls`` (ids ``call_<n>``, arguments as JSON text, ``content`` null unless given,
            ``finish_reason`` ``"tool_calls"``). Default: replies ``"ok"``.
        models: ids listed by ``GET /v1/models`` (any model name is accepted by POST).
        supported_formats: ``response_format`` types accepted (subset of ``json_schema``, ``json_object``,
            ``text``); any other gets 400 with ``param: "response_format"`` like OpenAI's reply for a model without
            structured outputs.
        context_window: when set, a request whose prompt has more words gets 400 ``context_length_exceeded``.
            ``max_tokens`` / ``max_completion_tokens`` cut the reply (and its logprobs) to that many words, with
            ``finish_reason: "length"``.
        **kwargs: :class:`LoopbackServer` options.

    Default usage: ``prompt_tokens`` = words over all message contents, ``completion_tokens`` = words of the
    reply (:func:`word_count`). With ``logprobs`` requested and none supplied, every word of the reply is a token
    with logprob 0.0. A responder that raises gets a 500 (the exception is kept in ``responder_errors``).
    """

    def __init__(
        self,
        responder: ChatResponder | None = None,
        *,
        models: Sequence[str] = ("gpt-5.4", "gpt-4.1", "gpt-4o-mini"),
        supported_formats: Iterable[str] = ("json_schema", "json_object", "text"),
        context_window: int | None = None,
        embedder: Callable[[str], list[float]] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.responder: ChatResponder = responder or (lambda _req: "ok")
        #: ``embedder(text) -> vector`` answering ``POST /v1/embeddings`` (None: that route is absent)
        self.embedder = embedder
        self.models = list(models)
        self.supported_formats = frozenset(supported_formats)
        self.context_window = context_window
        self.responder_errors: list[BaseException] = []
        self._ids = itertools.count(1)

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>/v1`` (the ``base_url`` an OpenAI SDK client takes)."""
        return f"{self.root_url}/v1"

    @property
    def response_formats_seen(self) -> list[str | None]:
        """The ``response_format.type`` of every POST body, in order (``None`` when absent)."""
        out: list[str | None] = []
        for b in self.counters.bodies:
            rf = b.get("response_format") if isinstance(b, dict) else None
            out.append(rf.get("type") if isinstance(rf, dict) else None)
        return out

    def is_post_path(self, path: str) -> bool:
        return path == "/v1/chat/completions" or (path == "/v1/embeddings" and self.embedder is not None)

    def _error_body(self, status: int, message: str) -> Any:
        return _openai_error(status, message)

    def handle_get(self, path: str) -> tuple[int, Any]:
        if path == "/v1/models":
            data = [{"id": m, "object": "model", "created": 0, "owned_by": "loopback"} for m in self.models]
            return 200, {"object": "list", "data": data}
        return 404, _openai_error(404, f"no route for GET {path}")

    def handle_post(self, path: str, payload: dict[str, Any], raw: bytes) -> tuple[int, Any, tuple[int, int]]:
        if path == "/v1/embeddings":
            return self._embeddings(payload)
        model = payload.get("model")
        messages = payload.get("messages")
        if not isinstance(model, str) or not model:
            return 400, _openai_error(400, "you must provide a model parameter", param="model"), (0, 0)
        if not isinstance(messages, list) or not messages:
            return 400, _openai_error(400, "'messages' must be a non-empty array", param="messages"), (0, 0)
        rf = payload.get("response_format")
        if rf is not None:
            rtype = rf.get("type") if isinstance(rf, dict) else None
            if rtype not in {"json_schema", "json_object", "text"}:
                return 400, _openai_error(400, "invalid response_format", param="response_format"), (0, 0)
            if rtype not in self.supported_formats:
                msg = f"Invalid parameter: 'response_format' of type '{rtype}' is not supported with this model."
                return 400, _openai_error(400, msg, param="response_format"), (0, 0)
            if rtype == "json_schema":
                js = rf.get("json_schema")
                if not isinstance(js, dict) or not js.get("name") or not isinstance(js.get("schema"), dict):
                    msg = "response_format.json_schema needs a 'name' and a 'schema' object"
                    return 400, _openai_error(400, msg, param="response_format"), (0, 0)
        prompt_words = sum(
            word_count(_message_text(m.get("content"))) for m in messages if isinstance(m, dict)
        )
        if self.context_window is not None and prompt_words > self.context_window:
            msg = (
                f"This model's maximum context length is {self.context_window} tokens. However, your messages "
                f"resulted in {prompt_words} tokens."
            )
            return 400, _openai_error(400, msg, param="messages", code="context_length_exceeded"), (0, 0)
        try:
            reply = self.responder(payload)
        except Exception as exc:  # surfaced to the client as a 500, kept for the test to inspect
            self.responder_errors.append(exc)
            return 500, _openai_error(500, f"responder failed: {type(exc).__name__}"), (0, 0)
        spec: dict[str, Any] = reply if isinstance(reply, dict) else {"content": reply}
        tool_calls = [self._wire_tool_call(c) for c in spec.get("tool_calls") or []]
        content = spec.get("content", None if tool_calls else "")
        if content is not None and not isinstance(content, str):
            content = json.dumps(content)
        finish_reason = spec.get("finish_reason", "tool_calls" if tool_calls else "stop")
        limit = payload.get("max_completion_tokens") or payload.get("max_tokens")
        lp_spec = spec.get("logprobs")
        if isinstance(limit, int) and limit > 0 and content and word_count(content) > limit:
            content, finish_reason = " ".join(content.split()[:limit]), "length"
        if isinstance(limit, int) and limit > 0 and lp_spec is not None:
            lp_spec = list(lp_spec)[:limit]
        usage_in = spec.get("usage") or {}
        tin = _count_or_null(usage_in.get("prompt_tokens", prompt_words))
        tout = _count_or_null(usage_in.get("completion_tokens", word_count(content or "")))
        message: dict[str, Any] = {"role": "assistant", "content": content, "refusal": None}
        if tool_calls:
            message["tool_calls"] = tool_calls
        choice: dict[str, Any] = {
            "index": 0,
            "message": message,
            "logprobs": None,
            "finish_reason": finish_reason,
        }
        if payload.get("logprobs"):
            k = int(payload.get("top_logprobs") or 0)
            choice["logprobs"] = {"content": self._logprob_content(lp_spec, content or "", k)}
        body = {
            "id": f"chatcmpl-loopback-{next(self._ids)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": model,
            "choices": [choice],
            "usage": {
                "prompt_tokens": tin,
                "completion_tokens": tout,
                "total_tokens": None if tin is None or tout is None else tin + tout,
            },
        }
        return 200, body, (tin or 0, tout or 0)

    def _embeddings(self, payload: dict[str, Any]) -> tuple[int, Any, tuple[int, int]]:
        """OpenAI ``/v1/embeddings``: ``input`` a string or a list of strings."""
        raw_input = payload.get("input")
        texts = [raw_input] if isinstance(raw_input, str) else raw_input
        if not isinstance(payload.get("model"), str) or not isinstance(texts, list) or not texts:
            return (
                400,
                _openai_error(400, "'model' and a non-empty 'input' are required", param="input"),
                (0, 0),
            )
        assert self.embedder is not None
        data = [
            {"object": "embedding", "index": i, "embedding": self.embedder(str(t))}
            for i, t in enumerate(texts)
        ]
        tin = sum(word_count(str(t)) for t in texts)
        usage = {"prompt_tokens": tin, "total_tokens": tin}
        return 200, {"object": "list", "data": data, "model": payload["model"], "usage": usage}, (tin, 0)

    def _wire_tool_call(self, call: Mapping[str, Any]) -> dict[str, Any]:
        """A tool call in the OpenAI wire shape from ``{"name", "arguments"}`` or an already wire-shaped call."""
        fn = call.get("function", call)
        args = fn.get("arguments", {})
        return {
            "id": call.get("id") or f"call_{next(self._ids)}",
            "type": "function",
            "function": {
                "name": fn["name"],
                "arguments": args if isinstance(args, str) else json.dumps(args),
            },
        }

    @staticmethod
    def _logprob_content(spec: Any, content: str, k: int) -> list[dict[str, Any]]:
        positions: list[Mapping[str, float]]
        if spec is None:
            positions = [{w: 0.0} for w in content.split()]
        else:
            positions = list(spec)
        out = []
        for pos in positions:
            ranked = sorted(pos.items(), key=lambda kv: kv[1], reverse=True)
            token, lp = ranked[0]
            out.append(
                {
                    "token": token,
                    "logprob": lp,
                    "bytes": list(token.encode()),
                    "top_logprobs": [
                        {"token": t, "logprob": v, "bytes": list(t.encode())} for t, v in ranked[:k]
                    ],
                }
            )
        return out


# --------------------------------------------------------------------------------------------------------------
# System One
# --------------------------------------------------------------------------------------------------------------


def wire_noul(p_yes: float) -> dict[str, Any]:
    """A wire noul answer: ``{"type": "noul", "noul": p_yes}``."""
    return {"type": "noul", "noul": p_yes}


def _conf(probs: Sequence[float]) -> float:
    n = len(probs)
    return max(0.0, min(1.0, (max(probs) - 1.0 / n) / (1.0 - 1.0 / n))) if n > 1 else 1.0


def wire_choice(probabilities: Mapping[str, float], confidence: float | None = None) -> dict[str, Any]:
    """A wire choice answer; the choice is the most probable option; confidence defaults to
    ``(p_max - 1/n) / (1 - 1/n)``."""
    choice = max(probabilities, key=lambda k: probabilities[k])
    conf = _conf(list(probabilities.values())) if confidence is None else confidence
    return {"type": "choice", "choice": choice, "confidence": conf, "probabilities": dict(probabilities)}


def wire_score(
    probabilities: Sequence[float], legend: Sequence[str] | None = None, confidence: float | None = None
) -> dict[str, Any]:
    """A wire score answer from per-level probabilities (index 0 = worst): ``score`` = expected level index,
    ``probabilities`` and ``legend`` (the level descriptions, default ``"level 0"``, ...) keyed by the level index as
    a string, as the live API sends them (JSON object keys are strings)."""
    expected = sum(i * p for i, p in enumerate(probabilities))
    conf = _conf(list(probabilities)) if confidence is None else confidence
    levels = list(legend) if legend is not None else [f"level {i}" for i in range(len(probabilities))]
    return {
        "type": "score",
        "score": expected,
        "confidence": conf,
        "legend": {str(i): level for i, level in enumerate(levels)},
        "probabilities": {str(i): p for i, p in enumerate(probabilities)},
    }


@dataclass
class SystemOneReply:
    """A responder's full reply: wire ``answers`` plus optional ``usage`` (``{"input_tokens", "output_tokens"}``)
    and resolved ``model`` overriding the server's defaults, and ``extra`` top-level fields another server adds
    (e.g. avrik-server's ``audit``, which its own client requires)."""

    answers: dict[str, Any]
    usage: dict[str, int] | None = None
    model: str | None = None
    extra: dict[str, Any] | None = None


SystemOneResponder = Callable[[Any, dict[str, Any]], "dict[str, Any] | SystemOneReply"]


def _default_answer(question: dict[str, Any]) -> dict[str, Any]:
    qtype = question["type"]
    if qtype == "noul":
        return wire_noul(0.5)
    if qtype == "choice":
        opts = list(question["criteria"])
        return wire_choice({o: 1.0 / len(opts) for o in opts})
    levels = list(question["criteria"])
    return wire_score([1.0 / len(levels)] * len(levels), legend=levels)


def _detail(loc: list[Any], msg: str, typ: str = "value_error") -> dict[str, Any]:
    return {"loc": loc, "msg": msg, "type": typ}


def _is_text(value: Any) -> bool:
    """Question text the API takes: a string, an object or an array (any JSON inside)."""
    return isinstance(value, (str, dict, list))


def validate_systemone_request(payload: dict[str, Any]) -> list[dict[str, Any]]:
    """Validation errors (FastAPI ``detail`` items) of a ``/v1/systemone`` body; empty when valid.

    Checks REFERENCE §5 and the API's published schema: ``model`` string, ``state`` string/object/array,
    ``questions`` a non-empty object whose values are noul (instructions required; criteria ``{true?, false?}``
    optional), choice (criteria: ≥ 2 options, each text or null) or score (criteria: 2 to 10 levels); text is a
    string, object or array; no other fields anywhere.
    """
    errs: list[dict[str, Any]] = []
    for key in payload:
        if key not in {"model", "state", "questions"}:
            errs.append(_detail(["body", key], "extra fields not permitted", "extra_forbidden"))
    if not isinstance(payload.get("model"), str):
        errs.append(_detail(["body", "model"], "field required (a string)", "missing"))
    if "state" not in payload or not isinstance(payload["state"], (str, dict, list)):
        errs.append(_detail(["body", "state"], "state must be a string, object or array"))
    questions = payload.get("questions")
    if not isinstance(questions, dict) or not questions:
        errs.append(_detail(["body", "questions"], "questions must be a non-empty object"))
        return errs
    for qid, q in questions.items():
        loc = ["body", "questions", qid]
        if not isinstance(q, dict):
            errs.append(_detail(loc, "a question must be an object"))
            continue
        qtype = q.get("type")
        allowed = {"type", "instructions", "criteria"}
        for key in q:
            if key not in allowed:
                errs.append(_detail([*loc, key], "extra fields not permitted", "extra_forbidden"))
        instr = q.get("instructions")
        if instr is not None and not _is_text(instr):
            errs.append(_detail([*loc, "instructions"], "instructions must be a string, object or array"))
        crit = q.get("criteria")
        if qtype == "noul":
            if not _is_text(instr) or not instr:
                errs.append(_detail([*loc, "instructions"], "field required", "missing"))
            if crit is not None and (
                not isinstance(crit, dict)
                or set(crit) - {"true", "false"}
                or any(v is not None and not _is_text(v) for v in crit.values())
            ):
                errs.append(_detail([*loc, "criteria"], "noul criteria must be {true, false} text or null"))
        elif qtype == "choice":
            if (
                not isinstance(crit, dict)
                or len(crit) < 2
                or any(v is not None and not _is_text(v) for v in crit.values())
            ):
                errs.append(
                    _detail([*loc, "criteria"], "choice criteria must map >= 2 options to text or null")
                )
        elif qtype == "score":
            if not isinstance(crit, list) or not 2 <= len(crit) <= 10 or not all(_is_text(v) for v in crit):
                errs.append(_detail([*loc, "criteria"], "score criteria must be 2 to 10 levels of text"))
        else:
            errs.append(_detail([*loc, "type"], "type must be one of noul, choice, score"))
    return errs


#: the live API's error body for a request over its token budget (a 400; the API sends no message with it)
MAX_TOKENS_EXCEEDED = {"detail": {"error_type": "max_tokens_exceeded"}}


def avrik_error(code: str, message: str, field: str | None = None) -> dict[str, Any]:
    """avrik-server's error body ``{"error": {"code", "message", "field"}}`` (its refusals for size, a question cap
    or a model it does not serve are 422s with codes ``context_too_large``, ``too_many_questions``,
    ``model_unavailable``)."""
    return {"error": {"code": code, "message": message, "field": field}}


class SystemOneServer(LoopbackServer):
    """TypeSafe System One API on 127.0.0.1 (REFERENCE §5), in the shapes the live API sends.

    Args:
        responder: ``responder(state, questions) -> answers`` where ``questions`` is the wire dict (id ->
            ``{type, instructions, criteria}``) and ``answers`` maps ids to wire answers (see :func:`wire_noul`,
            :func:`wire_choice`, :func:`wire_score`; a bare float means a noul answer). Leaving an id out makes
            that answer missing. May return a :class:`SystemOneReply` to set usage or the resolved model.
            Default: knows nothing (noul 0.5, uniform choice and score distributions).
        models: alias -> resolved version. A request for a model not in it gets the live API's 400
            ``{"detail": {"error_type": "api_usage_error", "message": "Unknown model: ..."}}``.
        max_request_tokens: when set, a request whose body is estimated (ceil(bytes / 3)) over it gets the live
            API's 400 ``{"detail": {"error_type": "max_tokens_exceeded"}}``.
        max_questions: when set, a request with more questions gets avrik-server's 422 ``too_many_questions``.
        **kwargs: :class:`LoopbackServer` options. With ``api_key``, a request without a key gets 403 and one
            with another key 401 (as the live API answers), on ``GET /v1/models`` too.

    Every reply carries an ``x-typesafe-request-id`` header (``req-loopback-<n>``; all of them are kept in
    ``request_ids``). ``GET /v1/models`` lists ``models``' aliases as ``{"models": [{"name", "description",
    "release_date"}]}``. Validation failures get 422 ``{"detail": [...]}`` (see :func:`validate_systemone_request`).
    Default usage: ``input_tokens`` = ceil(request body bytes / 3), ``output_tokens`` = number of answers.
    """

    get_needs_key: ClassVar[bool] = True

    def __init__(
        self,
        responder: SystemOneResponder | None = None,
        *,
        models: Mapping[str, str] | None = None,
        max_request_tokens: int | None = None,
        max_questions: int | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.responder: SystemOneResponder = responder or (
            lambda _state, qs: {qid: _default_answer(q) for qid, q in qs.items()}
        )
        self.models = dict(models or {"jev-latest": "jev-2026-10-01", "jev-2026-10-01": "jev-2026-10-01"})
        self.max_request_tokens = max_request_tokens
        self.max_questions = max_questions
        self.responder_errors: list[BaseException] = []
        self.request_ids: list[str] = []
        self._request_numbers = itertools.count(1)

    def reply_headers(self) -> dict[str, str]:
        request_id = f"req-loopback-{next(self._request_numbers)}"
        self.request_ids.append(request_id)
        return {"x-typesafe-request-id": request_id}

    def auth_failure(self, authorization: str | None) -> tuple[int, Any] | None:
        if self.api_key is None or authorization == f"Bearer {self.api_key}":
            return None
        if not authorization:
            message = "No API key was sent; send it as Authorization: Bearer <key>."
            return 403, {"detail": {"error_type": "authentication_error", "message": message}}
        message = "The API key was not accepted; check it and try again."
        return 401, {"detail": {"error_type": "authentication_error", "message": message}}

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>`` (clients append ``/v1/systemone``)."""
        return self.root_url

    def is_post_path(self, path: str) -> bool:
        return path == "/v1/systemone"

    def _error_body(self, status: int, message: str) -> Any:
        if status == 422:
            return {"detail": [_detail(["body"], message)]}
        return {"detail": message}

    def handle_get(self, path: str) -> tuple[int, Any]:
        if path == "/v1/models":
            listed = [
                {
                    "name": alias,
                    "description": f"loopback System One model ({version})",
                    "release_date": "2026-10-01",
                }
                for alias, version in self.models.items()
            ]
            return 200, {"models": listed}
        return 404, {"detail": "Not Found"}

    def handle_post(self, path: str, payload: dict[str, Any], raw: bytes) -> tuple[int, Any, tuple[int, int]]:
        errors = validate_systemone_request(payload)
        if errors:
            return 422, {"detail": errors}, (0, 0)
        model = payload["model"]
        if model not in self.models:
            return (
                400,
                {"detail": {"error_type": "api_usage_error", "message": f"Unknown model: {model}"}},
                (0, 0),
            )
        if self.max_questions is not None and len(payload["questions"]) > self.max_questions:
            message = f"{len(payload['questions'])} questions exceed the {self.max_questions} allowed"
            return 422, avrik_error("too_many_questions", message, "questions"), (0, 0)
        if self.max_request_tokens is not None and math.ceil(len(raw) / 3) > self.max_request_tokens:
            return 400, MAX_TOKENS_EXCEEDED, (0, 0)
        try:
            reply = self.responder(payload["state"], payload["questions"])
        except Exception as exc:
            self.responder_errors.append(exc)
            return 500, {"detail": f"responder failed: {type(exc).__name__}"}, (0, 0)
        if not isinstance(reply, SystemOneReply):
            reply = SystemOneReply(answers=reply)
        answers = {
            qid: (wire_noul(float(a)) if isinstance(a, (int, float)) else a)
            for qid, a in reply.answers.items()
        }
        usage = reply.usage or {"input_tokens": math.ceil(len(raw) / 3), "output_tokens": len(answers)}
        body = {
            "model": reply.model or self.models[model],
            "answers": answers,
            "usage": usage,
            **(reply.extra or {}),
        }
        return 200, body, (int(usage.get("input_tokens", 0)), int(usage.get("output_tokens", 0)))
