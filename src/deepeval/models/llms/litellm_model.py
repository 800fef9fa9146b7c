"""LiteLLM as judge (``LiteLLMModel``): one client for the hundred-odd providers LiteLLM routes to
(``anthropic/claude-opus-5``, ``bedrock/...``, ``vertex_ai/...``, a LiteLLM proxy). Needs the ``litellm`` extra
(``pip install -e ".[litellm]"``), imported when the first call is made, never by ``import deepeval``.

Calls go through ``litellm.acompletion`` with LiteLLM's own retries off, under our retry policy and limiter; its
exceptions (subclasses of the ``openai`` SDK's) are mapped by the shared error mapping. Structured output takes the
OpenAI rungs (``json_schema``, ``json_object``, ``text``; LiteLLM translates them for each provider) through our
ladder. Log-probabilities where the routed provider returns them. Importing ``litellm`` would fetch its price map
from GitHub; we set ``LITELLM_LOCAL_MODEL_COST_MAP`` first (unless the user set it) so it reads its bundled copy.
"""

from __future__ import annotations

import importlib
import threading
from typing import Any

from pydantic import BaseModel

from deepeval._concurrency import run_sync
from deepeval._install import extra_install_command
from deepeval.config.environment import default_while
from deepeval.config.redaction import display_url
from deepeval.config.settings import get_settings
from deepeval.errors import ConfigurationError, ErrorKind, JudgeError, StructuredOutputError
from deepeval.models.base_model import DeepEvalBaseLLM
from deepeval.models.http.errors import int_or_none, malformed_key_error, status_error, transport_error
from deepeval.models.http.rate_limit import DEFAULT_MAX_CONCURRENCY, AdaptiveLimiter
from deepeval.models.http.retry import RetryPolicy, call_with_retries
from deepeval.models.http.secrets import Secret, check_base_url
from deepeval.models.llms.response_format import RUNGS, response_format, schema_instruction
from deepeval.models.logprobs import LogprobCompletion, TokenLogprob, parse_logprobs
from deepeval.models.structured import CutReply, run_ladder
from deepeval.models.usage import CostTotal, known_cost, record_llm_request, record_usage


def load_litellm() -> Any:
    """The ``litellm`` module.

    Raises:
        ImportError: it is not installed; the message names the pip command.
    """
    try:
        with default_while("LITELLM_LOCAL_MODEL_COST_MAP", "True"):  # read when litellm is imported
            module: Any = importlib.import_module("litellm")
    except ImportError as exc:
        raise ImportError(
            f"LiteLLMModel needs the litellm package, which is not installed: {extra_install_command('litellm')}"
        ) from exc
    module.suppress_debug_info = True  # its "Give Feedback" banner on every error; our errors say what failed
    return module


class LiteLLMModel(DeepEvalBaseLLM):
    """A model reached through LiteLLM as judge.

    Args:
        model: LiteLLM's ``provider/model`` (``openai/gpt-5.4``, ``anthropic/claude-opus-5``); default
            ``LITELLM_MODEL_NAME``; required.
        api_key: default ``LITELLM_API_KEY``, else ``LITELLM_PROXY_API_KEY``, ``OPENAI_API_KEY``,
            ``ANTHROPIC_API_KEY``, ``GOOGLE_API_KEY`` (as 4.3.1); None lets LiteLLM read the provider's own variable.
        base_url: default ``LITELLM_API_BASE``, else ``LITELLM_PROXY_API_BASE`` (LiteLLM's ``api_base``).
        temperature: default ``TEMPERATURE``, else 0.
        cost_per_input_token / cost_per_output_token: USD per token; default LiteLLM's own price of the model
            (None when it has none).
        generation_kwargs: extra ``litellm.acompletion`` arguments sent on every call.
        timeout, max_retries, max_concurrency, retry_policy: as :class:`~deepeval.models.OpenAIModel`.
        **kwargs: more ``litellm.acompletion`` arguments (``custom_llm_provider``, ``extra_headers``...).

    Raises:
        ConfigurationError: no model name. ``ImportError`` (naming the pip command) on the first call when the
        ``litellm`` extra is missing.
    """

    def __init__(
        self,
        model: str | None = None,
        api_key: str | None = None,
        base_url: str | None = None,
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
        name = model or s.get("LITELLM_MODEL_NAME")
        if not name:
            raise ConfigurationError("LiteLLMModel needs a model: pass model= or set LITELLM_MODEL_NAME")
        key = api_key or next(
            (
                s.get(k)
                for k in (
                    "LITELLM_API_KEY",
                    "LITELLM_PROXY_API_KEY",
                    "OPENAI_API_KEY",
                    "ANTHROPIC_API_KEY",
                    "GOOGLE_API_KEY",
                )
                if s.get(k)
            ),
            None,
        )
        self._api_key = Secret(key)
        self.base_url = base_url or s.get("LITELLM_API_BASE") or s.get("LITELLM_PROXY_API_BASE") or None
        if self.base_url:
            self.base_url = self.base_url.rstrip("/")
            check_base_url(self.base_url, "base_url" if base_url else "LITELLM_API_BASE")
        if temperature is None:
            temperature = s.get_float("TEMPERATURE", 0.0)
        if temperature is not None and temperature < 0:
            raise ValueError(f"temperature must be >= 0, got {temperature}")
        for value in (cost_per_input_token, cost_per_output_token):
            if value is not None and value < 0:
                raise ValueError(f"token prices must be >= 0 USD per token, got {value}")
        self.temperature = temperature
        self.cost_per_input_token = cost_per_input_token
        self.cost_per_output_token = cost_per_output_token
        kwargs.pop("temperature", None)
        self.kwargs = kwargs
        self.generation_kwargs = {k: v for k, v in (generation_kwargs or {}).items() if k != "temperature"}
        self.retry_policy = retry_policy or RetryPolicy.from_settings(
            timeout=timeout, max_retries=max_retries
        )
        self.limiter = AdaptiveLimiter(max_concurrency)
        self._rung = 0
        self._lock = threading.Lock()
        super().__init__(name)

    def load_model(self, *args: Any, **kwargs: Any) -> None:
        """Nothing to load: LiteLLM makes its clients per call (the module is imported on the first call)."""
        return None

    def get_model_name(self) -> str:
        name = str(self.name)
        return f"{name} ({name.split('/', 1)[0] if '/' in name else 'LiteLLM'})"

    def __repr__(self) -> str:
        return f"LiteLLMModel(model={self.name!r}, base_url={display_url(self.base_url)!r})"

    # -- calls -----------------------------------------------------------------------------------------------------
    def generate(self, prompt: str, schema: type[BaseModel] | None = None) -> tuple[Any, float | None]:
        return run_sync(self.a_generate(prompt, schema))

    async def a_generate(
        self, prompt: str, schema: type[BaseModel] | None = None
    ) -> tuple[Any, float | None]:
        if schema is None:
            record_llm_request()
            text, _tokens, _cut, cost = await self._complete(prompt, None)
            return text, cost
        spent = CostTotal()

        async def ask(text: str) -> str:
            reply, cost = await self.a_structured_attempt(text, schema)
            spent.add(cost)
            return reply

        try:
            return await run_ladder(ask, prompt, schema, name=self.get_model_name()), spent.value
        except StructuredOutputError:
            record_usage(cost=spent.value)
            raise

    async def a_structured_attempt(self, prompt: str, schema: type[BaseModel]) -> tuple[str, float | None]:
        """One structured request on the current rung (down a rung on a 400 blaming ``response_format``)."""
        record_llm_request()
        while True:
            index = self._rung
            rung = RUNGS[index]
            fmt = response_format(rung, schema)
            text = (
                prompt
                if fmt is not None and fmt["type"] == "json_schema"
                else prompt + schema_instruction(schema)
            )
            try:
                reply, _tokens, cut, cost = await self._complete(
                    text, {"response_format": fmt} if fmt else None
                )
            except JudgeError as exc:
                if exc.status_code == 400 and index < len(RUNGS) - 1 and "response_format" in str(exc):
                    with self._lock:
                        self._rung = max(self._rung, index + 1)
                    record_llm_request()
                    continue
                raise
            return (CutReply(reply) if cut else reply), cost

    def generate_with_logprobs(
        self, prompt: str, top_logprobs: int = 20, max_tokens: int | None = 1
    ) -> tuple[LogprobCompletion, float | None]:
        return run_sync(self.a_generate_with_logprobs(prompt, top_logprobs, max_tokens))

    async def a_generate_with_logprobs(
        self, prompt: str, top_logprobs: int = 20, max_tokens: int | None = 1
    ) -> tuple[LogprobCompletion, float | None]:
        """As :meth:`deepeval.models.OpenAIModel.a_generate_with_logprobs`, where the routed provider returns
        log-probabilities (``invalid_output`` when it returned none)."""
        if not 1 <= top_logprobs <= 20:
            raise ValueError(f"top_logprobs must be in 1..20, got {top_logprobs}")
        if max_tokens is not None and max_tokens < 1:
            raise ValueError(f"max_tokens must be >= 1, got {max_tokens}")
        record_llm_request()
        extra: dict[str, Any] = {"logprobs": True, "top_logprobs": top_logprobs}
        if max_tokens is not None:  # None: the provider's own cap, as a plain call
            extra["max_tokens"] = max_tokens
        text, tokens, _cut, cost = await self._complete(prompt, extra)
        if not tokens:
            name = self.get_model_name()
            raise JudgeError(
                f"judge {name}: the provider returned no token log-probabilities",
                model=name,
                kind=ErrorKind.invalid_output,
            )
        return LogprobCompletion(text, tokens, None, None), cost

    async def _complete(
        self, prompt: str, extra: dict[str, Any] | None
    ) -> tuple[str, list[TokenLogprob], bool, float | None]:
        litellm = load_litellm()
        name = self.get_model_name()
        if self._api_key.malformed:
            raise malformed_key_error(f"judge {name}", model=name)
        request: dict[str, Any] = {
            "model": self.name,
            "messages": [{"role": "user", "content": prompt}],
            "temperature": self.temperature,
            "num_retries": 0,
            "max_retries": 0,
            "timeout": self.retry_policy.timeout,
            **self.kwargs,
            **(extra or {}),
            **self.generation_kwargs,
        }
        if self._api_key.get():
            request["api_key"] = self._api_key.get()
        if self.base_url:
            request["api_base"] = self.base_url

        async def attempt() -> Any:
            try:
                return await litellm.acompletion(**request)
            except Exception as exc:
                raise self._mapped(exc) from None

        response = await call_with_retries(
            attempt, policy=self.retry_policy, model=name, limiter=self.limiter
        )
        data = response.model_dump() if hasattr(response, "model_dump") else dict(response)
        try:
            choice = data["choices"][0]
            text = choice["message"]["content"]
            tokens = parse_logprobs(choice.get("logprobs"))
        except (KeyError, IndexError, TypeError, ValueError):
            raise JudgeError(
                f"judge {name}: the reply has no choices[0].message.content",
                model=name,
                retryable=False,
                kind=ErrorKind.invalid_output,
            ) from None
        usage = data.get("usage") or {}
        tin, tout = int_or_none(usage.get("prompt_tokens")), int_or_none(usage.get("completion_tokens"))
        record_usage(input_tokens=tin, output_tokens=tout)
        return (
            str(text or ""),
            tokens,
            choice.get("finish_reason") == "length",
            self._cost(litellm, response, tin, tout),
        )

    def _cost(self, litellm: Any, response: Any, tin: int | None, tout: int | None) -> float | None:
        if self.cost_per_input_token is not None or self.cost_per_output_token is not None:
            return known_cost(
                (tin or 0) * (self.cost_per_input_token or 0.0)
                + (tout or 0) * (self.cost_per_output_token or 0.0)
            )
        try:
            cost = litellm.completion_cost(completion_response=response)
        except Exception:  # LiteLLM knows no price for this model: unknown, never a guess
            return None
        return known_cost(cost) if cost else None

    def _mapped(self, exc: Exception) -> BaseException:
        """LiteLLM's exception as a judge error (status, Retry-After and detail through the shared mapping)."""
        name = self.get_model_name()
        status = getattr(exc, "status_code", None)
        mapped = transport_error(
            exc,
            label=f"judge {name}",
            model=name,
            base_url=display_url(self.base_url),
            timeout=self.retry_policy.timeout,
        )
        if mapped is not None and not (
            isinstance(status, int) and status >= 400 and mapped.kind is ErrorKind.bad_request
        ):
            return mapped
        if isinstance(status, int) and status >= 400:
            response = getattr(exc, "response", None)
            headers = getattr(response, "headers", None) or getattr(exc, "litellm_response_headers", None)
            return status_error(
                status, model=name, detail=str(getattr(exc, "message", "") or exc), headers=headers
            )
        return mapped if mapped is not None else exc
