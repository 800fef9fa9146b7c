"""TypeSafe's hosted System One model (Jev) over HTTP: ``POST {base}/v1/systemone`` (REFERENCE §5), on the openai
SDK's aiohttp transport or on httpx (``DEEPEVAL_HTTP_CLIENT``, see :mod:`deepeval.models.http.transport`).

Wire mapping of our questions (our ``kind``/``data`` fields never leave the process):

* :class:`NoulQuestion` -> ``{"type": "noul", "instructions", "criteria": {"true", "false"}}`` (criteria only
  when described)
* :class:`ChoiceQuestion` -> ``{"type": "choice", "instructions", "criteria": {option: description | null}}``
* :class:`ScoreQuestion` -> ``{"type": "score", "instructions", "criteria": [level0, ..., levelN]}`` (worst first)

Request budget (checked before sending; tokens estimated as ``ceil(chars / 3)``, chars of the JSON text): state +
longest question <= 32,000 tokens and the whole request <= 64,000, else :class:`RequestTooLargeError`.
Cost: ``input_tokens * cost_per_input_token`` (default $0.042 per million input tokens; output tokens are free).
"""

from __future__ import annotations

import json
import math
from collections.abc import Coroutine, Mapping
from typing import Any, ClassVar, TypeVar

import httpx
from pydantic import BaseModel, ValidationError

from deepeval._concurrency import run_sync
from deepeval.config.log_redaction import install_log_redaction
from deepeval.config.redaction import (
    SplitURL,
    display_url,
    split_url,
    split_url_cached,
)
from deepeval.config.settings import get_settings, redact
from deepeval.errors import (
    ErrorKind,
    JudgeError,
    RequestTooLargeError,
    SystemOneError,
    UnsupportedQuestionError,
)
from deepeval.models.base_model import DeepEvalBaseSystemOneModel
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
from deepeval.models.http.retry import RetryPolicy, call_with_retries
from deepeval.models.http.secrets import Secret, check_base_url
from deepeval.models.http.tls import library_of, shared_context
from deepeval.models.http.transport import system_one_client_class, transport_setting
from deepeval.models.system_one.names import DEFAULT_MODEL, typesafe_model_name
from deepeval.models.system_one.schema import (
    ChoiceAnswer,
    ChoiceQuestion,
    NoulAnswer,
    NoulQuestion,
    Questions,
    ScoreAnswer,
    ScoreQuestion,
    SystemOneAnswers,
)
from deepeval.models.usage import record_usage

T = TypeVar("T")

DEFAULT_BASE_URL = "https://api.typesafe.ai"
#: USD per input token ($0.042 per million); output tokens are free.
DEFAULT_COST_PER_INPUT_TOKEN = 0.042e-6


#: token budgets (estimated tokens = ceil(chars / 3))
STATE_PLUS_QUESTION_BUDGET = 32_000
REQUEST_BUDGET = 64_000


def estimate_tokens(text: str) -> int:
    """``ceil(len(text) / 3)``: the budget's token estimate."""
    return math.ceil(len(text) / 3)


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def wire_state(state: Any) -> Any:
    """The state as sent: strings, dicts and lists as they are, pydantic models dumped to JSON-able dicts.

    Raises:
        TypeError: anything else, or content that is not JSON-serialisable.
    """
    if isinstance(state, BaseModel):
        state = state.model_dump(mode="json", exclude_none=True)
    if not isinstance(state, (str, dict, list)):
        raise TypeError(f"System One state must be a string, dict or list, not {type(state).__name__}")
    try:
        _dumps(state)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"System One state is not JSON-serialisable: {exc}") from None
    return state


def wire_question(question: Any, *, model: str | None = None) -> dict[str, Any]:
    """One question in the wire format (see the module docstring).

    Raises:
        UnsupportedQuestionError: not a Noul/Choice/Score question.
    """
    if isinstance(question, NoulQuestion):
        out: dict[str, Any] = {"type": "noul", "instructions": question.instructions}
        criteria = {k: v for k, v in (("true", question.true), ("false", question.false)) if v is not None}
        if criteria:
            out["criteria"] = criteria
        return out
    if isinstance(question, ChoiceQuestion):
        return {"type": "choice", "instructions": question.instructions, "criteria": dict(question.options)}
    if isinstance(question, ScoreQuestion):
        return {"type": "score", "instructions": question.instructions, "criteria": list(question.levels)}
    raise UnsupportedQuestionError(
        f"System One model {model or DEFAULT_MODEL} cannot send a {type(question).__name__}; "
        "use NoulQuestion, ChoiceQuestion or ScoreQuestion",
        model=model,
        question_kind=type(question).__name__,
    )


def check_budget(
    state: Any, wire_questions: Mapping[str, Any], body: Mapping[str, Any], *, model: str
) -> None:
    """Refuse an oversized request before sending (see the module docstring for the budget).

    Raises:
        RequestTooLargeError: over budget; the message gives the estimate and says to use eval mode ``llm``.
    """
    state_tokens = estimate_tokens(state if isinstance(state, str) else _dumps(state))
    longest = max((estimate_tokens(_dumps(q)) for q in wire_questions.values()), default=0)
    total = estimate_tokens(_dumps(body))
    advice = (
        "; shorten the test case or switch this metric to eval mode 'llm' "
        "(eval_mode='llm' or DEEPEVAL_EVAL_MODE=llm)"
    )
    if state_tokens + longest > STATE_PLUS_QUESTION_BUDGET:
        raise RequestTooLargeError(
            f"System One request for {model} is too large: state + longest question is about "
            f"{state_tokens + longest:,} tokens (limit {STATE_PLUS_QUESTION_BUDGET:,}, estimated as chars/3)"
            + advice,
            model=model,
        )
    if total > REQUEST_BUDGET:
        raise RequestTooLargeError(
            f"System One request for {model} is too large: about {total:,} tokens in all "
            f"(limit {REQUEST_BUDGET:,}, estimated as chars/3)" + advice,
            model=model,
        )


def parse_answers(
    data: Any, questions: Questions, *, model: str
) -> tuple[SystemOneAnswers, int | None, int | None, str | None]:
    """Answers for the asked ``questions`` from a response body; also input/output tokens and resolved model.

    An answer that is absent, of another type than its question, or malformed (probability outside [0, 1], a
    choice that is not an option, a score outside the levels) is left out: the caller sees it as missing.

    Raises:
        SystemOneError: the body is not an object with an ``answers`` object (kind server).
    """
    if not isinstance(data, dict) or not isinstance(data.get("answers"), dict):
        fields = sorted(data) if isinstance(data, dict) else type(data).__name__
        raise SystemOneError(
            f"System One model {model}: the reply has no 'answers' object (fields present: {fields})",
            model=model,
            retryable=True,
            kind=ErrorKind.server,
        )
    raw: dict[str, Any] = data["answers"]
    nouls: dict[str, NoulAnswer] = {}
    choices: dict[str, ChoiceAnswer] = {}
    scores: dict[str, ScoreAnswer] = {}
    for qid, question in questions.items():
        ans = raw.get(qid)
        if not isinstance(ans, dict):
            continue
        try:
            if isinstance(question, NoulQuestion) and ans.get("type", "noul") == "noul":
                nouls[qid] = NoulAnswer(probability=float(ans["noul"]))
            elif isinstance(question, ChoiceQuestion) and ans.get("type", "choice") == "choice":
                choice = str(ans["choice"])
                if choice not in question.options:
                    continue
                probs = {str(k): float(v) for k, v in (ans.get("probabilities") or {}).items()}
                conf = ans.get("confidence")
                choices[qid] = ChoiceAnswer(
                    choice=choice, probabilities=probs, confidence=float(conf if conf is not None else 0.0)
                )
            elif isinstance(question, ScoreQuestion) and ans.get("type", "score") == "score":
                score = float(ans["score"])
                if not 0.0 <= score <= len(question.levels) - 1 + 1e-9:
                    continue
                probs_i = {int(k): float(v) for k, v in (ans.get("probabilities") or {}).items()}
                conf = ans.get("confidence")
                legend = ans.get("legend")
                scores[qid] = ScoreAnswer(
                    score=min(score, float(len(question.levels) - 1)),
                    probabilities=probs_i,
                    confidence=float(conf if conf is not None else 0.0),
                    legend=_legend(legend, question.levels),
                )
        except (KeyError, TypeError, ValueError, ValidationError):
            continue
    raw_usage = data.get("usage")
    usage: dict[str, Any] = raw_usage if isinstance(raw_usage, dict) else {}
    tin, tout = int_or_none(usage.get("input_tokens")), int_or_none(usage.get("output_tokens"))
    # the server's own text, kept in results (evaluation_model) and shown: redacted like every message
    resolved = redact(data["model"]) if isinstance(data.get("model"), str) else None
    answers = SystemOneAnswers(
        nouls=nouls, choices=choices, scores=scores, model=resolved, input_tokens=tin, output_tokens=tout
    )
    return answers, tin, tout, resolved


class TypeSafeModel(DeepEvalBaseSystemOneModel):
    """TypeSafe's System One model as a judge.

    Args:
        model: default ``TYPESAFE_MODEL_NAME``, else ``jev-latest``.
        api_key: default ``TYPESAFE_API_KEY``; without one, calls raise ``SystemOneError(kind=ErrorKind.auth)``
            (construction does not fail).
        base_url: default ``TYPESAFE_BASE_URL``, else ``https://api.typesafe.ai``.
        cost_per_input_token: USD per input token; default ``TYPESAFE_COST_PER_INPUT_TOKEN``, else 0.042e-6.
        timeout / max_retries / retry_policy: as the LLM clients (``DEEPEVAL_JUDGE_TIMEOUT`` /
            ``DEEPEVAL_JUDGE_MAX_RETRIES``).
        max_concurrency: starting cap of concurrent requests (adaptive).
        **client_kwargs: passed to the HTTP client (e.g. ``headers``, ``verify``, ``proxy``); any other than
            those and ``cert``/``trust_env``/``timeout`` (e.g. ``transport=``) selects ``httpx.AsyncClient``.

    ``decide`` / ``a_decide`` return ``(SystemOneAnswers, cost_usd | None)``; cost is None when the server reports
    no usage. They record ``input_tokens``/``output_tokens``/``system_one_requests`` with ``record_usage``; the
    caller records the cost.

    Raises (calls): :class:`RequestTooLargeError` (nothing sent), :class:`UnsupportedQuestionError`,
    :class:`SystemOneError` with kind auth (401/403), bad_request (400/404/422), rate_limit, server, timeout,
    connection. Messages name the model and never the key.
    """

    #: a_decide checks its own wire body against the budget (check_budget), so the generic check is skipped
    enforce_request_budget: ClassVar[bool] = False

    def __init__(
        self,
        model: str | None = None,
        api_key: str | None = None,
        base_url: str | None = None,
        cost_per_input_token: float | None = None,
        *,
        timeout: float | None = None,
        max_retries: int | None = None,
        max_concurrency: int = DEFAULT_MAX_CONCURRENCY,
        retry_policy: RetryPolicy | None = None,
        **client_kwargs: Any,
    ) -> None:
        s = get_settings()
        self._api_key = Secret(api_key or s.get("TYPESAFE_API_KEY"))
        self.base_url = (base_url or s.get("TYPESAFE_BASE_URL") or DEFAULT_BASE_URL).rstrip("/")
        check_base_url(self.base_url, "base_url" if base_url else "TYPESAFE_BASE_URL")
        split_url(self.base_url)  # registers the URL's credentials as secrets now
        install_log_redaction()
        if cost_per_input_token is None:
            cost_per_input_token = s.get_float("TYPESAFE_COST_PER_INPUT_TOKEN", DEFAULT_COST_PER_INPUT_TOKEN)
        if cost_per_input_token is None or cost_per_input_token < 0:
            raise ValueError(f"cost_per_input_token must be >= 0 USD per token, got {cost_per_input_token}")
        self.cost_per_input_token = float(cost_per_input_token)
        self.retry_policy = retry_policy or RetryPolicy.from_settings(
            timeout=timeout, max_retries=max_retries
        )
        self.limiter = AdaptiveLimiter(max_concurrency)
        self.resolved_model: str | None = None
        self._client_kwargs = client_kwargs
        self._clients: PerLoop[Any] = PerLoop(
            self._new_client,
            _aclose,
            # System One judges with one configuration share one client per event loop (see per_loop)
            share_key=share_key(
                "typesafe",
                self.base_url,
                self._api_key.get(),
                self.retry_policy.timeout,
                client_kwargs,
                transport_setting(),
            ),
        )
        super().__init__(typesafe_model_name(model, s))

    @property
    def _endpoint(self) -> SplitURL:
        """As the LLM clients': requests go to the clean URL, the query with every request, user-info as a
        header (read from ``base_url`` each time)."""
        return split_url_cached(self.base_url)

    # -- DeepEvalBaseSystemOneModel --------------------------------------------------------------------------------
    def load_model(self, *args: Any, **kwargs: Any) -> None:
        """Nothing to load: HTTP clients are opened per event loop on first use."""
        return None

    def get_model_name(self) -> str:
        """``jev-latest`` before the first reply; ``jev-latest (jev-2026-10-01)`` once the server named the
        version it resolved to (just the name when they are equal)."""
        name = str(self.name)
        if self.resolved_model and self.resolved_model != name:
            return f"{name} ({self.resolved_model})"
        return name

    def decide(self, state: Any, questions: Questions) -> tuple[SystemOneAnswers, float | None]:
        """Sync :meth:`a_decide` (works inside a running event loop too)."""
        return run_sync(self._run_private(self.a_decide(state, questions)))

    async def a_decide(self, state: Any, questions: Questions) -> tuple[SystemOneAnswers, float | None]:
        """Answer ``questions`` about ``state`` in one request (see the class docstring)."""
        name = str(self.name)
        if not questions:
            return SystemOneAnswers(), 0.0
        wire_qs = {str(qid): wire_question(q, model=name) for qid, q in questions.items()}
        body = {"model": name, "state": wire_state(state), "questions": wire_qs}
        check_budget(body["state"], wire_qs, body, model=name)
        if not self._api_key.get():
            raise SystemOneError(
                f"System One model {name}: no TypeSafe API key; set TYPESAFE_API_KEY or pass api_key=",
                model=name,
                kind=ErrorKind.auth,
            )
        content = _dumps(body).encode()

        async def attempt() -> tuple[SystemOneAnswers, int | None, int | None, str | None]:
            # parsing is part of the attempt: a reply without ``answers`` is retried like a 5xx
            return parse_answers(await self._post(content), questions, model=name)

        try:
            answers, tin, tout, resolved = await call_with_retries(
                attempt,
                policy=self.retry_policy,
                model=name,
                limiter=self.limiter,
                error_cls=SystemOneError,
            )
        except JudgeError:
            record_usage(
                system_one_requests=1
            )  # it failed, but its requests were sent (and are in ``retries``)
            raise
        if resolved:
            self.resolved_model = resolved
        record_usage(input_tokens=tin, output_tokens=tout, system_one_requests=1)
        cost = None if tin is None else tin * self.cost_per_input_token
        return answers, cost

    async def aclose(self) -> None:
        """Close the HTTP client opened on the running loop."""
        await self._clients.aclose()

    def __repr__(self) -> str:
        return f"TypeSafeModel(model={self.name!r}, base_url={display_url(self.base_url)!r})"

    # -- HTTP ------------------------------------------------------------------------------------------------------
    async def _post(self, content: bytes) -> Any:
        name = str(self.name)
        label = f"System One model {name}"
        if self._api_key.malformed:
            raise malformed_key_error(
                label, model=name, key_name="TypeSafe API key", error_cls=SystemOneError
            )
        client = self._clients.get()
        try:
            resp = await client.post(
                "/v1/systemone",
                content=content,
                headers={
                    "Authorization": self._endpoint.authorization or f"Bearer {self._api_key.get()}",
                    "Content-Type": "application/json",
                },
            )
        except Exception as exc:
            mapped = transport_error(
                exc,
                label=label,
                model=name,
                base_url=display_url(self.base_url),
                timeout=self.retry_policy.timeout,
                error_cls=SystemOneError,
            )
            if mapped is None:
                raise
            raise mapped from None
        if resp.status_code != 200:
            raise status_error(
                resp.status_code,
                model=name,
                detail=_detail_text(resp),
                headers=resp.headers,
                error_cls=SystemOneError,
            )
        return read_json(
            resp.content,
            label=label,
            model=name,
            base_url=display_url(self.base_url),
            status=resp.status_code,
            error_cls=SystemOneError,
        )

    def _new_client(self) -> Any:
        """An ``httpx.AsyncClient``, or the SDK's aiohttp-based one (same API, httpx2 underneath)."""
        kwargs: dict[str, Any] = {
            "base_url": self._endpoint.base_url,
            "timeout": self.retry_policy.timeout + 1.0,
        }
        if self._endpoint.params:
            kwargs["params"] = dict(self._endpoint.params)
        aio_class = system_one_client_class(self._client_kwargs, self._endpoint.base_url)
        library = httpx if aio_class is None else library_of(aio_class)
        context = shared_context(library) if library is not None else None
        if context is not None and not {"verify", "cert"} & set(self._client_kwargs):
            # built once per process (deepeval.models.http.tls); a caller's own TLS settings never touch it
            kwargs["verify"] = context
        kwargs.update(self._client_kwargs)
        if aio_class is None:
            return httpx.AsyncClient(**kwargs)
        return aio_class(follow_redirects=False, **kwargs)

    async def _run_private(self, coro: Coroutine[Any, Any, T]) -> T:
        return await self._clients.run_private(coro)


async def _aclose(client: Any) -> None:
    await client.aclose()


def _detail_text(resp: Any) -> str:
    """The server's error detail: FastAPI ``{"detail": str | [{loc, msg}]}``, else the body (uncut: the shared
    mapping redacts it before shortening it)."""
    try:
        data = resp.json()
    except ValueError:
        return plain_text(str(resp.text))
    detail = data.get("detail") if isinstance(data, dict) else None
    if isinstance(detail, list):
        parts = []
        for item in detail[:3]:
            if isinstance(item, dict):
                loc = ".".join(str(x) for x in item.get("loc", []) if x != "body")
                parts.append(f"{loc}: {item.get('msg', '')}" if loc else str(item.get("msg", "")))
            else:
                parts.append(str(item))
        return "; ".join(parts)
    if detail is not None:
        return str(detail)
    return json.dumps(data)


def _legend(legend: Any, levels: list[str]) -> list[str]:
    """The answer's legend as a list, worst first: the API sends ``{"0": level, ...}``; a list is taken as is; the
    question's own levels otherwise."""
    if isinstance(legend, list):
        return [str(x) for x in legend]
    if isinstance(legend, dict):
        try:
            return [str(legend[k]) for k in sorted(legend, key=int)]
        except (TypeError, ValueError):
            pass
    return list(levels)
