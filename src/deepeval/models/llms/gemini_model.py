"""Google's Gemini API as judge (``GeminiModel``): ``POST /v1beta/models/{model}:generateContent``, on
:class:`~deepeval.models.llms.wire.WireLLM`.

Structured output, best first: ``responseMimeType: application/json`` with ``responseJsonSchema`` (decoding
constrained to the schema), then JSON mode with the schema in the prompt, then plain text. Token log-probabilities:
``responseLogprobs`` / ``logprobs`` (read from ``logprobsResult``). Usage: ``usageMetadata.promptTokenCount`` and
``candidatesTokenCount`` plus ``thoughtsTokenCount`` (thinking is billed as output); prices from
:data:`deepeval.models.pricing.GEMINI_PRICES` unless given. Safety filters are off (``BLOCK_NONE`` on the four
categories), as deepeval 4.3.1 sets them: content under evaluation must reach the judge.

Vertex AI (``use_vertexai``, ``GOOGLE_GENAI_USE_VERTEXAI``, or a project and location with no API key, as 4.3.1
decides): ``POST /v1/projects/{project}/locations/{location}/publishers/google/models/{model}:generateContent`` on
``{location}-aiplatform.googleapis.com`` with an OAuth token (:mod:`deepeval.models.llms.google_auth`: a service
account key, or the Application Default Credentials of ``gcloud auth application-default login``).
"""

from __future__ import annotations

import urllib.parse
from typing import Any

from pydantic import BaseModel

from deepeval.config.settings import Settings, get_settings
from deepeval.errors import ConfigurationError, ErrorKind, JudgeError
from deepeval.models.http.errors import int_or_none
from deepeval.models.http.rate_limit import DEFAULT_MAX_CONCURRENCY
from deepeval.models.http.retry import RetryPolicy
from deepeval.models.llms.google_auth import GoogleTokens, load_credentials
from deepeval.models.llms.wire import LogprobWireLLM, WireReply, WireRequest
from deepeval.models.logprobs import TokenLogprob
from deepeval.models.pricing import GEMINI_PRICES, resolve_price

DEFAULT_GEMINI_MODEL = "gemini-3.6-flash"
DEFAULT_GEMINI_BASE_URL = "https://generativelanguage.googleapis.com"
SAFETY_OFF = [
    {"category": c, "threshold": "BLOCK_NONE"}
    for c in (
        "HARM_CATEGORY_DANGEROUS_CONTENT",
        "HARM_CATEGORY_HARASSMENT",
        "HARM_CATEGORY_HATE_SPEECH",
        "HARM_CATEGORY_SEXUALLY_EXPLICIT",
    )
]


def _use_vertexai(
    given: bool | None, s: Settings, has_key: bool, project: str | None, location: str | None
) -> bool:
    """4.3.1's rule: the argument, else ``GOOGLE_GENAI_USE_VERTEXAI``, else Vertex AI when a project and a
    location are set (ours: and no API key is)."""
    if given is not None:
        return given
    if s.get("GOOGLE_GENAI_USE_VERTEXAI") is not None:
        return s.get_bool("GOOGLE_GENAI_USE_VERTEXAI")
    return bool(project and location) and not has_key


def gemini_model_name(model: str | None, settings: Settings) -> str:
    """``model``, else ``GEMINI_MODEL_NAME``, else :data:`DEFAULT_GEMINI_MODEL`."""
    return model or settings.get("GEMINI_MODEL_NAME") or DEFAULT_GEMINI_MODEL


class GeminiModel(LogprobWireLLM):
    """A Gemini model as judge (the Gemini Developer API, keyed by ``GOOGLE_API_KEY``).

    Args:
        model: default ``GEMINI_MODEL_NAME``, else ``gemini-3.6-flash``.
        api_key: default ``GOOGLE_API_KEY``.
        temperature: default ``TEMPERATURE``, else 0 (Gemini 3 models: none sent, Google's default, as 4.3.1).
        project / location / service_account_key / use_vertexai: Vertex AI (default ``GOOGLE_CLOUD_PROJECT`` /
            ``GOOGLE_CLOUD_LOCATION`` / ``GOOGLE_SERVICE_ACCOUNT_KEY`` (JSON text or a dict) /
            ``GOOGLE_GENAI_USE_VERTEXAI``); without a key, the Application Default Credentials. A service account
            key needs the ``vertex`` extra (google-auth, to sign).
        generation_kwargs: ``generationConfig`` fields sent on every call (``{"topP": 0.9}``).
        cost_per_input_token / cost_per_output_token: USD per token; default ``GEMINI_COST_PER_INPUT_TOKEN`` /
            ``GEMINI_COST_PER_OUTPUT_TOKEN``, else the price table.
        timeout, max_retries, max_concurrency, retry_policy: as :class:`~deepeval.models.OpenAIModel`.
        **kwargs: ``base_url`` (default ``GOOGLE_GEMINI_BASE_URL``, else Google's endpoint); the rest go to
            ``httpx.AsyncClient``.
    """

    provider = "Gemini"
    key_setting = "GOOGLE_API_KEY"
    rungs = ("json_schema", "json", "text")

    def __init__(
        self,
        model: str | None = None,
        api_key: str | None = None,
        temperature: float | None = None,
        project: str | None = None,
        location: str | None = None,
        service_account_key: str | dict[str, str] | None = None,
        use_vertexai: bool | None = None,
        generation_kwargs: dict[str, Any] | None = None,
        cost_per_input_token: float | None = None,
        cost_per_output_token: float | None = None,
        *,
        timeout: float | None = None,
        max_retries: int | None = None,
        max_concurrency: int = DEFAULT_MAX_CONCURRENCY,
        retry_policy: RetryPolicy | None = None,
        **kwargs: Any,
    ) -> None:
        s = get_settings()
        name = gemini_model_name(model, s)
        self.project = project or s.get("GOOGLE_CLOUD_PROJECT")
        self.location = location or s.get("GOOGLE_CLOUD_LOCATION")
        api_key = api_key or s.get("GOOGLE_API_KEY")
        self.use_vertexai = _use_vertexai(use_vertexai, s, bool(api_key), self.project, self.location)
        self._oauth: GoogleTokens | None = None
        self._bearer: str | None = None
        if self.use_vertexai:
            if not self.project or not self.location:
                raise ConfigurationError(
                    "GeminiModel on Vertex AI needs a project and a location: pass project= and location= or set "
                    "GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION (deepeval set-gemini -p ... -l ...)"
                )
            if isinstance(service_account_key, str) and not service_account_key.strip():
                service_account_key = None
            info, source = load_credentials(service_account_key or s.get("GOOGLE_SERVICE_ACCOUNT_KEY"))
            self._oauth = GoogleTokens(
                info, source, timeout=s.get_float("DEEPEVAL_JUDGE_TIMEOUT", 60.0) or 60.0
            )
            self.requires_api_key = False  # type: ignore[misc]  # the OAuth token authenticates
        # 4.3.1: with no temperature configured, Gemini 3 models keep Google's default (none is sent)
        keep_default = temperature is None and s.get("TEMPERATURE") is None and name.startswith("gemini-3")
        if temperature is None:
            temperature = s.get_float("TEMPERATURE", 0.0)
        if cost_per_input_token is None:
            cost_per_input_token = s.get_float("GEMINI_COST_PER_INPUT_TOKEN")
        if cost_per_output_token is None:
            cost_per_output_token = s.get_float("GEMINI_COST_PER_OUTPUT_TOKEN")
        kwargs.pop("temperature", None)
        base_url = kwargs.pop("base_url", None)
        config = dict(generation_kwargs or {})
        config.pop("temperature", None)
        super().__init__(
            name,
            api_key=None if self.use_vertexai else api_key,
            base_url=str(base_url or self._default_base_url(s)),
            base_url_setting="base_url" if base_url else "GOOGLE_GEMINI_BASE_URL",
            temperature=0.0 if temperature is None else float(temperature),
            generation_kwargs=config,
            price=resolve_price(
                name,
                input_override=cost_per_input_token,
                output_override=cost_per_output_token,
                table=GEMINI_PRICES,
            ),
            timeout=timeout,
            max_retries=max_retries,
            max_concurrency=max_concurrency,
            retry_policy=retry_policy,
            client_kwargs=kwargs,
        )
        if keep_default:
            self.send_temperature = False

    def _default_base_url(self, s: Settings) -> str:
        if not self.use_vertexai:
            return s.get("GOOGLE_GEMINI_BASE_URL") or DEFAULT_GEMINI_BASE_URL
        location = str(self.location)
        host = (
            "aiplatform.googleapis.com" if location == "global" else f"{location}-aiplatform.googleapis.com"
        )
        return f"https://{host}"

    def _auth_headers(self, key: str | None) -> dict[str, str]:
        if self._oauth is not None:
            return {"Authorization": f"Bearer {self._bearer}"} if self._bearer else {}
        return {} if key is None else {"x-goog-api-key": key}

    async def _send_once(self, request: WireRequest) -> WireReply:
        if self._oauth is not None:
            self._bearer = await self._oauth.token(self.get_model_name())
        return await super()._send_once(request)

    def _request(
        self,
        prompt: str,
        *,
        rung: str | None,
        schema: type[BaseModel] | None,
        logprobs: tuple[int, int | None] | None = None,
    ) -> WireRequest:
        config: dict[str, Any] = {}
        if self._temperature() is not None:
            config["temperature"] = self._temperature()
        if schema is not None and rung in ("json_schema", "json"):
            config["responseMimeType"] = "application/json"
            if rung == "json_schema":
                config["responseJsonSchema"] = schema.model_json_schema()
        if logprobs is not None:
            config["responseLogprobs"] = True
            config["logprobs"] = logprobs[0]
            if logprobs[1] is not None:
                config["maxOutputTokens"] = logprobs[1]
        body = {
            "contents": [{"role": "user", "parts": [{"text": prompt}]}],
            "generationConfig": self._options(config),
            "safetySettings": SAFETY_OFF,
        }
        model = urllib.parse.quote(str(self.name).removeprefix("models/"), safe="-._~")
        if self.use_vertexai:
            where = f"/v1/projects/{self.project}/locations/{self.location}/publishers/google/models/{model}"
            return WireRequest(f"{where}:generateContent", body)
        return WireRequest(f"/v1beta/models/{model}:generateContent", body)

    def _read(self, data: Any) -> WireReply:
        candidates = data.get("candidates") if isinstance(data, dict) else None
        if not isinstance(candidates, list) or not candidates or not isinstance(candidates[0], dict):
            blocked = (
                (data.get("promptFeedback") or {}).get("blockReason") if isinstance(data, dict) else None
            )
            if blocked:
                name = self.get_model_name()
                raise JudgeError(
                    f"judge {name}: the prompt was blocked ({blocked})",
                    model=name,
                    kind=ErrorKind.invalid_output,
                )
            raise self._bad_reply("candidates", data)
        first = candidates[0]
        parts = (first.get("content") or {}).get("parts")
        texts = [
            p["text"]
            for p in parts or []
            if isinstance(p, dict) and isinstance(p.get("text"), str) and not p.get("thought")
        ]
        if not texts:
            raise self._bad_reply("candidates[0].content.parts[].text", data)
        usage = data.get("usageMetadata") if isinstance(data.get("usageMetadata"), dict) else {}
        out = int_or_none(usage.get("candidatesTokenCount"))
        thoughts = int_or_none(usage.get("thoughtsTokenCount"))
        if thoughts:
            out = (out or 0) + thoughts
        return WireReply(
            text="".join(texts),
            tokens=self._tokens(first.get("logprobsResult")),
            input_tokens=int_or_none(usage.get("promptTokenCount")),
            output_tokens=out,
            cut=first.get("finishReason") == "MAX_TOKENS",
        )

    def _tokens(self, raw: Any) -> list[TokenLogprob]:
        """``logprobsResult``: ``chosenCandidates[i]`` is the token generated at position i, ``topCandidates[i]
        .candidates`` its alternatives (``{token, logProbability}``)."""
        if not isinstance(raw, dict):
            return []
        try:
            chosen = raw.get("chosenCandidates") or []
            tops = raw.get("topCandidates") or []
            out = []
            for i, c in enumerate(chosen):
                alts = tops[i].get("candidates", []) if i < len(tops) else []
                top = {str(a["token"]): float(a["logProbability"]) for a in alts}
                out.append(TokenLogprob(str(c["token"]), float(c["logProbability"]), top))
            return out
        except (TypeError, ValueError, KeyError, AttributeError):
            name = self.get_model_name()
            raise JudgeError(
                f"judge {name}: malformed logprobsResult in the reply",
                model=name,
                kind=ErrorKind.invalid_output,
            ) from None
