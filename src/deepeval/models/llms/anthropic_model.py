"""Anthropic's Messages API as judge (``AnthropicModel``): ``POST /v1/messages``, on
:class:`~deepeval.models.llms.wire.WireLLM`.

Structured output, best first: ``output_config.format`` with the JSON schema (Anthropic's native structured outputs,
Claude 4.1 and later), then a forced tool call whose ``input_schema`` is the schema (every Claude 3+ model), then plain
text with the schema in the prompt; a 400 that blames the schema moves the client down a rung for good. No token
log-probabilities (the API returns none). Usage: ``usage.input_tokens`` / ``usage.output_tokens``; prices from
:data:`deepeval.models.pricing.ANTHROPIC_PRICES` unless given.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel

from deepeval.config.settings import Settings, get_settings
from deepeval.models.http.errors import int_or_none
from deepeval.models.http.json_client import register_header_secrets
from deepeval.models.http.rate_limit import DEFAULT_MAX_CONCURRENCY
from deepeval.models.http.retry import RetryPolicy
from deepeval.models.llms.response_format import schema_name, strict_schema
from deepeval.models.llms.wire import WireLLM, WireReply, WireRequest
from deepeval.models.pricing import ANTHROPIC_PRICES, resolve_price

DEFAULT_ANTHROPIC_MODEL = "claude-opus-5"
DEFAULT_ANTHROPIC_BASE_URL = "https://api.anthropic.com"
ANTHROPIC_VERSION = "2023-06-01"
#: deepeval 4.3.1's default ``max_tokens`` (the Messages API requires one); Claude 3 models cap output at 4096
DEFAULT_MAX_TOKENS = 8192
LEGACY_MAX_TOKENS = 4096
_LEGACY = ("claude-3-opus", "claude-3-sonnet", "claude-3-haiku")
#: models that accept only their default temperature (deepeval 4.3.1's model table): none is sent to them
_NO_TEMPERATURE = ("claude-opus-4-7", "claude-opus-4-8", "claude-opus-5", "claude-sonnet-5", "claude-fable-5")
#: models without native structured outputs (they start on the tool-use rung)
_NO_OUTPUT_CONFIG = ("claude-3", "claude-opus-4-2025", "claude-sonnet-4-2025")


def anthropic_model_name(model: str | None, settings: Settings) -> str:
    """``model``, else ``ANTHROPIC_MODEL_NAME``, else :data:`DEFAULT_ANTHROPIC_MODEL`."""
    return model or settings.get("ANTHROPIC_MODEL_NAME") or DEFAULT_ANTHROPIC_MODEL


class AnthropicModel(WireLLM):
    """A Claude model as judge.

    Args:
        model: default ``ANTHROPIC_MODEL_NAME``, else ``claude-opus-5``.
        api_key: default ``ANTHROPIC_API_KEY`` (alias ``_anthropic_api_key=``). Without one, calls raise
            ``JudgeError(kind=ErrorKind.auth)``.
        temperature: default ``TEMPERATURE``; unset sends none (the model's default), as 4.3.1, and none is sent
            to the models that accept only their default (Opus 4.7 and later, Sonnet 5) or that refuse it with a 400.
        cost_per_input_token / cost_per_output_token: USD per token; default ``ANTHROPIC_COST_PER_INPUT_TOKEN`` /
            ``ANTHROPIC_COST_PER_OUTPUT_TOKEN``, else the price table; an unknown model has cost None.
        generation_kwargs: extra Messages API fields sent on every call (``{"top_k": 5}``, ``max_tokens``).
        timeout, max_retries, max_concurrency, retry_policy: as :class:`~deepeval.models.OpenAIModel`.
        **kwargs: the SDK client's options that apply: ``base_url`` (default ``ANTHROPIC_BASE_URL``, else
            ``https://api.anthropic.com``), ``default_headers``, ``max_tokens``; the rest go to ``httpx.AsyncClient``.
    """

    provider = "Anthropic"
    key_setting = "ANTHROPIC_API_KEY"
    rungs = ("json_schema", "tool", "text")

    def __init__(
        self,
        model: str | None = None,
        api_key: str | None = None,
        temperature: float | None = None,
        cost_per_input_token: float | None = None,
        cost_per_output_token: float | None = None,
        generation_kwargs: dict[str, Any] | None = None,
        *,
        timeout: float | None = None,
        max_retries: int | None = None,
        max_concurrency: int = DEFAULT_MAX_CONCURRENCY,
        retry_policy: RetryPolicy | None = None,
        **kwargs: Any,
    ) -> None:
        s = get_settings()
        api_key = api_key or kwargs.pop("_anthropic_api_key", None) or s.get("ANTHROPIC_API_KEY")
        name = anthropic_model_name(model, s)
        if temperature is None:
            temperature = s.get_float("TEMPERATURE")
        if cost_per_input_token is None:
            cost_per_input_token = s.get_float("ANTHROPIC_COST_PER_INPUT_TOKEN")
        if cost_per_output_token is None:
            cost_per_output_token = s.get_float("ANTHROPIC_COST_PER_OUTPUT_TOKEN")
        kwargs.pop("temperature", None)
        kwargs.pop("max_retries", None)  # retries are ours
        base_url = kwargs.pop("base_url", None)
        self._extra_headers = {str(k): str(v) for k, v in (kwargs.pop("default_headers", None) or {}).items()}
        register_header_secrets(self._extra_headers)
        options = dict(generation_kwargs or {})
        options.pop("temperature", None)
        cap = options.pop("max_tokens", kwargs.pop("max_tokens", None))
        self.max_tokens = (
            int(cap)
            if cap is not None
            else (LEGACY_MAX_TOKENS if name.startswith(_LEGACY) else DEFAULT_MAX_TOKENS)
        )
        super().__init__(
            name,
            api_key=api_key,
            base_url=str(base_url or s.get("ANTHROPIC_BASE_URL") or DEFAULT_ANTHROPIC_BASE_URL),
            base_url_setting="base_url" if base_url else "ANTHROPIC_BASE_URL",
            temperature=temperature,
            generation_kwargs=options,
            price=resolve_price(
                name,
                input_override=cost_per_input_token,
                output_override=cost_per_output_token,
                table=ANTHROPIC_PRICES,
            ),
            timeout=timeout,
            max_retries=max_retries,
            max_concurrency=max_concurrency,
            retry_policy=retry_policy,
            client_kwargs=kwargs,
        )
        if name.startswith(_NO_TEMPERATURE):
            self.send_temperature = False
        if name.startswith(_NO_OUTPUT_CONFIG) or name in ("claude-opus-4", "claude-sonnet-4"):
            self._rung = self.rungs.index("tool")

    def _auth_headers(self, key: str | None) -> dict[str, str]:
        headers = {"anthropic-version": ANTHROPIC_VERSION, **self._extra_headers}
        if key is not None:
            headers["x-api-key"] = key
        return headers

    def _request(
        self,
        prompt: str,
        *,
        rung: str | None,
        schema: type[BaseModel] | None,
        logprobs: tuple[int, int | None] | None = None,
    ) -> WireRequest:
        body: dict[str, Any] = {
            "model": self.name,
            "max_tokens": self.max_tokens,
            "messages": [{"role": "user", "content": [{"type": "text", "text": prompt}]}],
        }
        if self._temperature() is not None:
            body["temperature"] = self._temperature()
        if schema is not None and rung == "json_schema":
            body["output_config"] = {"format": {"type": "json_schema", "schema": _schema(schema)}}
        elif schema is not None and rung == "tool":
            tool = schema_name(schema)
            body["tools"] = [
                {
                    "name": tool,
                    "description": "Record the answer in the required structure.",
                    "input_schema": _schema(schema),
                }
            ]
            body["tool_choice"] = {"type": "tool", "name": tool}
        body.update(self.generation_kwargs)
        return WireRequest("/v1/messages", body)

    def _read(self, data: Any) -> WireReply:
        blocks = data.get("content") if isinstance(data, dict) else None
        if not isinstance(blocks, list):
            raise self._bad_reply("content", data)
        text = None
        for block in blocks:  # a thinking block may come first
            if not isinstance(block, dict):
                continue
            if block.get("type") == "tool_use" and isinstance(block.get("input"), dict):
                text = json.dumps(block["input"], ensure_ascii=False)
                break
            if block.get("type") == "text" and isinstance(block.get("text"), str):
                text = block["text"]
                break
        if text is None:
            raise self._bad_reply("text or tool_use block", data)
        usage = data.get("usage") if isinstance(data.get("usage"), dict) else {}
        return WireReply(
            text=text,
            input_tokens=int_or_none(usage.get("input_tokens")),
            output_tokens=int_or_none(usage.get("output_tokens")),
            cut=data.get("stop_reason") == "max_tokens",
        )


def _schema(schema: type[BaseModel]) -> dict[str, Any]:
    """The schema in the strict form Anthropic's structured outputs and tool schemas accept (every object closed,
    every property required); a schema whose root is not an object is sent as pydantic writes it."""
    strict = strict_schema(schema)
    return strict if strict is not None else schema.model_json_schema()
