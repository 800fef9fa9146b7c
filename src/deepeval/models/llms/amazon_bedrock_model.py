"""Amazon Bedrock as judge (``AmazonBedrockModel``): the Converse API (``POST /model/{modelId}/converse``) through
``boto3`` (the ``bedrock`` extra: ``pip install -e ".[bedrock]"``, imported on the first call; it signs the
requests with SigV4). botocore's own retries are off: each attempt runs under our retry policy, limiter and
deadline, in a worker thread, and its errors are mapped to our kinds (``ThrottlingException`` -> ``rate_limit``
with ``Retry-After`` when sent, ``AccessDeniedException`` -> ``auth``, ``ValidationException`` -> ``bad_request``,
5xx -> ``server``).

Structured output: a forced tool call whose ``inputSchema`` is the schema (``toolChoice``), then plain text with the
schema in the prompt for models that refuse it. No log-probabilities (Converse returns none). Usage from
``usage.inputTokens`` / ``outputTokens``; cost from ``AWS_BEDROCK_COST_PER_*`` (no price table, as 4.3.1's).
"""

from __future__ import annotations

import asyncio
import importlib
import json
import threading
from typing import Any

from pydantic import BaseModel

from deepeval._install import extra_install_command
from deepeval.config.settings import get_settings
from deepeval.errors import ConfigurationError, ErrorKind, JudgeError
from deepeval.models.http.errors import int_or_none, status_error, timeout_error
from deepeval.models.http.rate_limit import DEFAULT_MAX_CONCURRENCY
from deepeval.models.http.retry import RetryPolicy, call_with_retries
from deepeval.models.http.secrets import Secret
from deepeval.models.llms.response_format import schema_name, strict_schema
from deepeval.models.llms.wire import WireLLM, WireReply, WireRequest
from deepeval.models.pricing import Price

DEFAULT_MAX_TOKENS = 4096


def load_boto3() -> Any:
    """The ``boto3`` module.

    Raises:
        ImportError: it is not installed; the message names the pip command.
    """
    try:
        return importlib.import_module("boto3")
    except ImportError as exc:
        raise ImportError(
            f"AmazonBedrockModel needs boto3, which is not installed: {extra_install_command('bedrock')}"
        ) from exc


class AmazonBedrockModel(WireLLM):
    """A model on Amazon Bedrock as judge.

    Args:
        model: the Bedrock model id (``anthropic.claude-sonnet-4-5-20250929-v1:0``); default
            ``AWS_BEDROCK_MODEL_NAME``; required.
        aws_access_key_id / aws_secret_access_key / aws_session_token: default ``AWS_ACCESS_KEY_ID`` /
            ``AWS_SECRET_ACCESS_KEY`` / ``AWS_SESSION_TOKEN``; none: boto3's own credential chain (profile, role).
        cost_per_input_token / cost_per_output_token: default ``AWS_BEDROCK_COST_PER_INPUT_TOKEN`` /
            ``AWS_BEDROCK_COST_PER_OUTPUT_TOKEN``; unset: cost None.
        region: default ``AWS_BEDROCK_REGION``; required (alias ``region_name=``).
        generation_kwargs: ``inferenceConfig`` fields (``{"maxTokens": 1024, "topP": 0.9}``).
        timeout, max_retries, max_concurrency, retry_policy: as :class:`~deepeval.models.OpenAIModel`.
        **kwargs: passed to ``boto3.client("bedrock-runtime", ...)`` (``endpoint_url``, ``profile_name`` is not
            one: use a session's environment).

    Raises:
        ConfigurationError: no model id or region.
    """

    provider = "Bedrock"
    key_setting = "AWS_SECRET_ACCESS_KEY"
    requires_api_key = False
    rungs = ("tool", "text")

    def __init__(
        self,
        model: str | None = None,
        aws_access_key_id: str | None = None,
        aws_secret_access_key: str | None = None,
        aws_session_token: str | None = None,
        cost_per_input_token: float | None = None,
        cost_per_output_token: float | None = None,
        region: str | None = None,
        generation_kwargs: dict[str, Any] | None = None,
        *,
        timeout: float | None = None,
        max_retries: int | None = None,
        max_concurrency: int = DEFAULT_MAX_CONCURRENCY,
        retry_policy: RetryPolicy | None = None,
        **kwargs: Any,
    ) -> None:
        s = get_settings()
        name = model or s.get("AWS_BEDROCK_MODEL_NAME")
        self.region = region or kwargs.pop("region_name", None) or s.get("AWS_BEDROCK_REGION")
        if not name:
            raise ConfigurationError(
                "AmazonBedrockModel needs a model id: pass model= or set AWS_BEDROCK_MODEL_NAME"
            )
        if not self.region:
            raise ConfigurationError(
                "AmazonBedrockModel needs a region: pass region= or set AWS_BEDROCK_REGION"
            )
        self._access_key_id = Secret(aws_access_key_id or s.get("AWS_ACCESS_KEY_ID"))
        self._secret_access_key = Secret(aws_secret_access_key or s.get("AWS_SECRET_ACCESS_KEY"))
        self._session_token = Secret(aws_session_token or s.get("AWS_SESSION_TOKEN"))
        cin = (
            cost_per_input_token
            if cost_per_input_token is not None
            else s.get_float("AWS_BEDROCK_COST_PER_INPUT_TOKEN")
        )
        cout = (
            cost_per_output_token
            if cost_per_output_token is not None
            else s.get_float("AWS_BEDROCK_COST_PER_OUTPUT_TOKEN")
        )
        for value in (cin, cout):
            if value is not None and value < 0:
                raise ValueError(f"token prices must be >= 0 USD per token, got {value}")
        self._boto_kwargs = kwargs
        self._client: Any = None
        self._client_lock = threading.Lock()
        config = dict(generation_kwargs or {})
        self.max_tokens = int(config.pop("maxTokens", DEFAULT_MAX_TOKENS))
        endpoint = str(kwargs.get("endpoint_url") or f"https://bedrock-runtime.{self.region}.amazonaws.com")
        super().__init__(
            name,
            api_key=None,
            base_url=endpoint,
            base_url_setting="endpoint_url" if kwargs.get("endpoint_url") else "AWS_BEDROCK_REGION",
            temperature=s.get_float("TEMPERATURE", 0.0),
            generation_kwargs=config,
            price=None if cin is None and cout is None else Price(cin or 0.0, cout or 0.0),
            timeout=timeout,
            max_retries=max_retries,
            max_concurrency=max_concurrency,
            retry_policy=retry_policy,
        )

    def get_model_name(self) -> str:
        return str(self.name)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the boto3 client (it holds sockets); the copy opens its own on first use."""
        state = dict(self.__dict__)
        state["_client"] = None
        return state

    def _request(
        self,
        prompt: str,
        *,
        rung: str | None,
        schema: type[BaseModel] | None,
        logprobs: tuple[int, int | None] | None = None,
    ) -> WireRequest:
        inference: dict[str, Any] = {"maxTokens": self.max_tokens}
        if self._temperature() is not None:
            inference["temperature"] = self._temperature()
        body: dict[str, Any] = {
            "modelId": self.name,
            "messages": [{"role": "user", "content": [{"text": prompt}]}],
            "inferenceConfig": self._options(inference),
        }
        if schema is not None and rung == "tool":
            tool = schema_name(schema)
            spec = strict_schema(schema) or schema.model_json_schema()
            body["toolConfig"] = {
                "tools": [
                    {
                        "toolSpec": {
                            "name": tool,
                            "description": "Record the answer in the required structure.",
                            "inputSchema": {"json": spec},
                        }
                    }
                ],
                "toolChoice": {"tool": {"name": tool}},
            }
        return WireRequest("converse", body)

    def _read(self, data: Any) -> WireReply:
        message = ((data.get("output") or {}).get("message") or {}) if isinstance(data, dict) else {}
        text = None
        for block in message.get("content") or []:
            if isinstance(block, dict) and isinstance(block.get("toolUse"), dict):
                text = json.dumps(block["toolUse"].get("input"), ensure_ascii=False)
                break
            if isinstance(block, dict) and isinstance(block.get("text"), str):
                text = block["text"]
                break
        if text is None:
            raise self._bad_reply("output.message.content", data)
        usage = data.get("usage") if isinstance(data.get("usage"), dict) else {}
        return WireReply(
            text=text,
            input_tokens=int_or_none(usage.get("inputTokens")),
            output_tokens=int_or_none(usage.get("outputTokens")),
            cut=data.get("stopReason") == "max_tokens",
        )

    # -- the call: boto3 in a worker thread, under our retries ----------------------------------------------
    async def _send_once(self, request: WireRequest) -> WireReply:
        client = self._boto_client()

        async def attempt() -> WireReply:
            try:
                data = await asyncio.to_thread(lambda: client.converse(**request.body))
            except Exception as exc:
                raise self._mapped(exc) from None
            return self._read(data)

        return await call_with_retries(
            attempt, policy=self.retry_policy, model=self.get_model_name(), limiter=self.limiter
        )

    def _boto_client(self) -> Any:
        with self._client_lock:
            if self._client is None:
                boto3 = load_boto3()
                config = importlib.import_module("botocore.config").Config(
                    retries={"total_max_attempts": 1, "mode": "standard"},
                    connect_timeout=self.retry_policy.timeout,
                    read_timeout=self.retry_policy.timeout,
                )
                creds = {
                    "aws_access_key_id": self._access_key_id.get(),
                    "aws_secret_access_key": self._secret_access_key.get(),
                    "aws_session_token": self._session_token.get(),
                }
                self._client = boto3.client(
                    "bedrock-runtime",
                    region_name=self.region,
                    config=config,
                    **{k: v for k, v in creds.items() if v},
                    **self._boto_kwargs,
                )
            return self._client

    def _mapped(self, exc: Exception) -> JudgeError:
        """A botocore error as a judge error (never quoting credentials: the shared mapping redacts them)."""
        name = self.get_model_name()
        kind_name = type(exc).__name__
        response = getattr(exc, "response", None)
        if isinstance(response, dict) and "Error" in response:
            meta = response.get("ResponseMetadata") or {}
            status = int(meta.get("HTTPStatusCode") or 500)
            code = str(response["Error"].get("Code") or "")
            if code in ("ThrottlingException", "TooManyRequestsException"):
                status = 429
            detail = f"{code}: {response['Error'].get('Message') or ''}"
            return status_error(status, model=name, detail=detail, headers=meta.get("HTTPHeaders") or {})
        if "Timeout" in kind_name:
            return timeout_error(name, self.retry_policy.timeout, note=self.retry_policy.timeout_note)
        if kind_name in ("NoCredentialsError", "PartialCredentialsError"):
            return JudgeError(
                f"judge {name}: no AWS credentials (set AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY or "
                "an AWS profile)",
                model=name,
                kind=ErrorKind.auth,
            )
        if "Connection" in kind_name or "Endpoint" in kind_name:
            return JudgeError(
                f"judge {name}: could not connect to {self.endpoint.shown_url} ({kind_name})",
                model=name,
                retryable=True,
                kind=ErrorKind.connection,
            )
        if "ResponseParser" in kind_name or isinstance(exc, ValueError):
            return JudgeError(
                f"judge {name}: the reply could not be read ({kind_name})",
                model=name,
                retryable=True,
                kind=ErrorKind.server,
            )
        return JudgeError(f"judge {name}: {kind_name}", model=name, kind=ErrorKind.server)
