"""Ollama's native chat API as judge (``OllamaModel``): ``POST /api/chat``, on :class:`~deepeval.models.llms.wire.WireLLM`.

Structured output: ``format`` set to the JSON schema (Ollama constrains decoding to it), then ``format: "json"``
with the schema in the prompt, then plain text. Token log-probabilities: ``logprobs`` / ``top_logprobs`` (Ollama
0.12.11 and later). Usage: ``prompt_eval_count`` / ``eval_count``; cost 0 (self-hosted). Ollama's OpenAI-compatible
``/v1`` endpoint is :class:`~deepeval.models.llms.local_model.LocalModel`'s business.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from deepeval.config.settings import Settings, get_settings
from deepeval.errors import ConfigurationError, ErrorKind, JudgeError
from deepeval.models.http.errors import int_or_none
from deepeval.models.http.rate_limit import DEFAULT_MAX_CONCURRENCY
from deepeval.models.http.retry import RetryPolicy
from deepeval.models.llms.wire import LogprobWireLLM, WireReply, WireRequest
from deepeval.models.logprobs import TokenLogprob
from deepeval.models.pricing import Price

DEFAULT_OLLAMA_BASE_URL = "http://localhost:11434"


def ollama_model_name(model: str | None, settings: Settings) -> str | None:
    """The model an :class:`OllamaModel` built with ``model`` uses: ``model``, else ``OLLAMA_MODEL_NAME``, else
    ``LOCAL_MODEL_NAME`` (ours: 4.3.1 stops at ``OLLAMA_MODEL_NAME``, yet names ``LOCAL_MODEL_NAME`` when it is
    missing, and a ``set-local-model`` user who marks the key ``ollama`` has only that one)."""
    return model or settings.get("OLLAMA_MODEL_NAME") or settings.get("LOCAL_MODEL_NAME")


def ollama_base_url(base_url: str | None, settings: Settings) -> str:
    """``base_url``, else ``LOCAL_MODEL_BASE_URL``, else ``http://localhost:11434``; a trailing ``/v1`` (the
    OpenAI-compatible endpoint's root, which ``set-local-model`` users often configure) is dropped: the native API
    lives at the server's root (ours)."""
    url = str(base_url or settings.get("LOCAL_MODEL_BASE_URL") or DEFAULT_OLLAMA_BASE_URL).rstrip("/")
    return url[: -len("/v1")] if url.endswith("/v1") else url


class OllamaModel(LogprobWireLLM):
    """A model served by Ollama as judge.

    Args:
        model: the Ollama model (``llama3.1``, ``qwen3:8b``); default ``OLLAMA_MODEL_NAME`` (``deepeval
            set-ollama``), else ``LOCAL_MODEL_NAME``.
        base_url: the server root; default ``LOCAL_MODEL_BASE_URL``, else ``http://localhost:11434``.
        temperature: default ``TEMPERATURE``, else 0.
        generation_kwargs: Ollama ``options`` sent on every call (``{"num_ctx": 8192, "top_p": 0.9}``).
        timeout, max_retries, max_concurrency, retry_policy: as :class:`~deepeval.models.OpenAIModel`.
        **kwargs: passed to the ``httpx.AsyncClient`` (``headers``, ``verify``, ``proxy``...), as 4.3.1 passes
            them to the ``ollama`` client.

    Raises:
        ConfigurationError: no model name from the argument or settings.
    """

    provider = "Ollama"
    requires_api_key = False
    rungs = ("json_schema", "json", "text")

    def __init__(
        self,
        model: str | None = None,
        base_url: str | None = None,
        temperature: float | None = None,
        generation_kwargs: dict[str, Any] | None = None,
        *,
        timeout: float | None = None,
        max_retries: int | None = None,
        max_concurrency: int = DEFAULT_MAX_CONCURRENCY,
        retry_policy: RetryPolicy | None = None,
        **kwargs: Any,
    ) -> None:
        s = get_settings()
        name = ollama_model_name(model, s)
        if not name:
            raise ConfigurationError(
                "OllamaModel needs a model name: pass model= or set OLLAMA_MODEL_NAME (deepeval set-ollama --model ...)"
            )
        if temperature is None:
            temperature = s.get_float("TEMPERATURE", 0.0)
        kwargs.pop("temperature", None)
        options = dict(generation_kwargs or {})
        options.pop("temperature", None)
        super().__init__(
            name,
            api_key=None,
            base_url=ollama_base_url(base_url, s),
            base_url_setting="base_url" if base_url else "LOCAL_MODEL_BASE_URL",
            temperature=0.0 if temperature is None else float(temperature),
            generation_kwargs=options,
            price=Price(0.0, 0.0),
            timeout=timeout,
            max_retries=max_retries,
            max_concurrency=max_concurrency,
            retry_policy=retry_policy,
            client_kwargs=kwargs,
        )

    def _request(
        self,
        prompt: str,
        *,
        rung: str | None,
        schema: type[BaseModel] | None,
        logprobs: tuple[int, int | None] | None = None,
    ) -> WireRequest:
        options: dict[str, Any] = {} if self._temperature() is None else {"temperature": self._temperature()}
        body: dict[str, Any] = {
            "model": self.name,
            "messages": [{"role": "user", "content": prompt}],
            "stream": False,
        }
        if schema is not None and rung == "json_schema":
            body["format"] = schema.model_json_schema()
        elif schema is not None and rung == "json":
            body["format"] = "json"
        if logprobs is not None:
            body["logprobs"] = True
            body["top_logprobs"] = logprobs[0]
            if logprobs[1] is not None:
                options["num_predict"] = logprobs[1]
        body["options"] = self._options(options)
        return WireRequest("/api/chat", body)

    def _read(self, data: Any) -> WireReply:
        message = data.get("message") if isinstance(data, dict) else None
        content = message.get("content") if isinstance(message, dict) else None
        if not isinstance(content, str):
            raise self._bad_reply("message.content", data)
        try:
            tokens = _tokens(data.get("logprobs"))
        except (TypeError, ValueError, KeyError) as exc:
            raise JudgeError(
                f"judge {self.get_model_name()}: malformed logprobs in the reply ({type(exc).__name__})",
                model=self.get_model_name(),
                kind=ErrorKind.invalid_output,
            ) from None
        return WireReply(
            text=content,
            tokens=tokens,
            input_tokens=int_or_none(data.get("prompt_eval_count")),
            output_tokens=int_or_none(data.get("eval_count")),
            cut=data.get("done_reason") == "length",
        )


def _tokens(raw: Any) -> list[TokenLogprob]:
    """Ollama's ``logprobs`` list (``[{token, logprob, top_logprobs: [{token, logprob}]}]``) as tokens."""
    if raw is None:
        return []
    out: list[TokenLogprob] = []
    for item in raw:
        top = {str(t["token"]): float(t["logprob"]) for t in item.get("top_logprobs") or []}
        out.append(TokenLogprob(str(item["token"]), float(item["logprob"]), top))
    return out
