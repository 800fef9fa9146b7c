"""TypeSafe's hosted System One model (Jev) over HTTP: ``POST {base}/v1/systemone`` (REFERENCE §5), on the openai
SDK's aiohttp transport or on httpx (``DEEPEVAL_HTTP_CLIENT``, see :mod:`deepeval.models.http.transport`).

Wire mapping of our questions (our ``kind``/``data`` fields never leave the process):

* :class:`NoulQuestion` -> ``{"type": "noul", "instructions", "criteria": {"true", "false"}}`` (criteria only
  when described, then with both keys: an undescribed side is ``null``, as deepeval 4.3.1 sends it)
* :class:`ChoiceQuestion` -> ``{"type": "choice", "instructions", "criteria": {option: description | null}}``
* :class:`ScoreQuestion` -> ``{"type": "score", "instructions", "criteria": [level0, ..., levelN]}`` (worst first)

Question text may be any JSON value (:mod:`deepeval.models.system_one.schema`).

Request budget (checked before sending; tokens estimated as ``ceil(chars / 3)``, chars of the JSON text): state +
longest question <= 32,000 tokens and the whole request <= 64,000, else :class:`RequestTooLargeError`.

Servers other than TypeSafe's own speak the same wire format (self-hosted ``/v1/systemone`` servers such as
avrik-server); for them:

* at most ``max_questions`` (``TYPESAFE_MAX_QUESTIONS``, default 64) questions go in one request; more are split
  over several requests sent together, and their answers merged. A server that refuses a request for its own
  question cap (``too_many_questions``) gets it again in halves, and later requests use the smaller size;
* a request the server refuses as too large (Jev's ``max_tokens_exceeded``, avrik's ``context_too_large``) fails
  with kind ``context_limit``; when other requests of the same call were answered, their answers are returned and
  the refused questions are left out (``SystemOneAnswers.refused`` says why), so hybrid mode decides just those
  with the LLM;
* a model the server does not serve (kind ``model_unavailable``): when no model was configured (the default
  ``jev-latest``), the first model the server's ``GET /v1/models`` lists is used instead; a configured name is
  never replaced, and the error names the models the server lists;
* a server on a loopback address (``localhost``, ``127.0.0.1``, ``::1``) needs no API key;
* cost: ``input_tokens * cost_per_input_token`` where a price is known: Jev's ($0.042 per million input tokens,
  output free) on TypeSafe's API, ``cost_per_input_token`` / ``TYPESAFE_COST_PER_INPUT_TOKEN`` when set; else the
  cost is None (unknown), never Jev's price for another server's model.

The server's request id (``x-typesafe-request-id``, or ``x-request-id``) is shown in errors and logged at DEBUG on
the ``deepeval.models.system_one`` logger with every reply. A reply without ``answers`` is not retried: its error
names what the server sent (e.g. ``results``, a batch reply: avrik-server reads a state that is a list of objects
with ``id`` and ``text`` as a batch of inputs; a batch of one input is read as its answers).
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import math
import urllib.parse
from collections.abc import Coroutine, Mapping
from dataclasses import dataclass, field
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
from deepeval.models.http.reply_limit import capped_event_hooks, max_reply_bytes
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
    as_text,
    legend_levels,
)
from deepeval.models.usage import known_cost, record_usage

T = TypeVar("T")

logger = logging.getLogger("deepeval.models.system_one")

DEFAULT_BASE_URL = "https://api.typesafe.ai"
#: USD per input token of Jev on TypeSafe's API ($0.042 per million); output tokens are free.
DEFAULT_COST_PER_INPUT_TOKEN = 0.042e-6
#: most questions in one request (``TYPESAFE_MAX_QUESTIONS``); avrik-server's default cap, and one public Jev config's
DEFAULT_MAX_QUESTIONS = 64
#: reply headers that carry the server's id of the request (TypeSafe's, then the common one avrik-server sends)
REQUEST_ID_HEADERS = ("x-typesafe-request-id", "x-request-id")


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
        if question.true is not None or question.false is not None:
            out["criteria"] = {"true": question.true, "false": question.false}
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


def _request_note(request_id: str | None) -> str:
    return f" (request id {request_id})" if request_id else ""


def _answers_object(data: Any, *, model: str, request_id: str | None) -> dict[str, Any]:
    """The ``answers`` object of a 2xx body; a batch reply of one input (``results: [{id, answers}]``) gives that
    input's answers.

    Raises:
        SystemOneError: kind ``server``, not retryable (the same request gets the same reply, and each is billed):
            the body has no ``answers`` object; the message names what it has.
    """
    if isinstance(data, dict) and isinstance(data.get("answers"), dict):
        return data["answers"]
    results = data.get("results") if isinstance(data, dict) else None
    if isinstance(results, list) and len(results) == 1 and isinstance(results[0], dict):
        one = results[0]
        if isinstance(one.get("answers"), dict):
            return one["answers"]
    if isinstance(results, list):
        what = (
            f"a batch reply ('results' for {len(results)} input(s)) instead of 'answers': the server read the "
            "state, a list of objects with 'id' and 'text', as a batch of inputs"
        )
        refused = [r.get("error") for r in results if isinstance(r, dict) and r.get("error")]
        if refused:
            what += f"; it refused {len(refused)} of them ({redact(json.dumps(refused[0]))[:200]})"
    elif isinstance(data, dict):
        what = f"a JSON object without an 'answers' object (fields present: {sorted(data)})"
    else:
        what = f"JSON that is not an object ({type(data).__name__})"
    raise SystemOneError(
        f"System One model {model}: the server replied with {what}{_request_note(request_id)}",
        model=model,
        retryable=False,
        kind=ErrorKind.server,
    )


def _parse_one(question: Any, ans: dict[str, Any]) -> NoulAnswer | ChoiceAnswer | ScoreAnswer | None:
    """One wire answer for ``question``, or None when it is of another type or malformed."""
    if isinstance(question, NoulQuestion) and ans.get("type", "noul") == "noul":
        return NoulAnswer(probability=float(ans["noul"]))
    if isinstance(question, ChoiceQuestion) and ans.get("type", "choice") == "choice":
        choice = str(ans["choice"])
        if choice not in question.options:
            return None
        probs = {str(k): float(v) for k, v in (ans.get("probabilities") or {}).items()}
        conf = ans.get("confidence")
        return ChoiceAnswer(
            choice=choice, probabilities=probs, confidence=float(conf if conf is not None else 0.0)
        )
    if isinstance(question, ScoreQuestion) and ans.get("type", "score") == "score":
        score = float(ans["score"])
        if not 0.0 <= score <= len(question.levels) - 1 + 1e-9:
            return None
        probs_i = {int(k): float(v) for k, v in (ans.get("probabilities") or {}).items()}
        conf = ans.get("confidence")
        return ScoreAnswer(
            score=min(score, float(len(question.levels) - 1)),
            probabilities=probs_i,
            confidence=float(conf if conf is not None else 0.0),
            legend=legend_levels(ans.get("legend")) or [as_text(level) for level in question.levels],
        )
    return None


def parse_answers(
    data: Any, questions: Questions, *, model: str, request_id: str | None = None
) -> tuple[SystemOneAnswers, int | None, int | None, str | None]:
    """Answers for the asked ``questions`` from a response body; also input/output tokens and resolved model.

    An answer that is absent, of another type than its question, or malformed (probability outside [0, 1], a
    choice that is not an option, a score outside the levels) is left out: the caller sees it as missing. The
    ``legend`` of a score answer is read from an object keyed ``"0"``, ``"1"``, ... (the API's shape) or a list.
    An answer with ``abstain: true`` (avrik-server: the abstain option won, or a near tie) is kept with tier
    ``unsure``.

    Raises:
        SystemOneError: the body has no ``answers`` object (kind server, not retried; see :func:`_answers_object`).
    """
    raw = _answers_object(data, model=model, request_id=request_id)
    nouls: dict[str, NoulAnswer] = {}
    choices: dict[str, ChoiceAnswer] = {}
    scores: dict[str, ScoreAnswer] = {}
    tiers: dict[str, str] = {}
    for qid, question in questions.items():
        ans = raw.get(qid)
        if not isinstance(ans, dict):
            continue
        try:
            parsed = _parse_one(question, ans)
        except (KeyError, TypeError, ValueError, ValidationError):
            continue
        if isinstance(parsed, NoulAnswer):
            nouls[qid] = parsed
        elif isinstance(parsed, ChoiceAnswer):
            choices[qid] = parsed
        elif isinstance(parsed, ScoreAnswer):
            scores[qid] = parsed
        if parsed is not None and ans.get("abstain") is True:
            tiers[qid] = "unsure"
    body: dict[str, Any] = data if isinstance(data, dict) else {}
    raw_usage = body.get("usage")
    usage: dict[str, Any] = raw_usage if isinstance(raw_usage, dict) else {}
    tin, tout = int_or_none(usage.get("input_tokens")), int_or_none(usage.get("output_tokens"))
    # the server's own text, kept in results (evaluation_model) and shown: redacted like every message
    resolved = redact(body["model"]) if isinstance(body.get("model"), str) else None
    answers = SystemOneAnswers(
        nouls=nouls,
        choices=choices,
        scores=scores,
        model=resolved,
        input_tokens=tin,
        output_tokens=tout,
        tiers=tiers,
        request_ids=[request_id] if request_id else [],
    )
    return answers, tin, tout, resolved


def is_loopback(url: str) -> bool:
    """Whether ``url``'s host is a loopback address (``localhost``, ``127.0.0.0/8``, ``::1``)."""
    host = urllib.parse.urlsplit(url).hostname or ""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def is_typesafe_api(url: str) -> bool:
    """Whether ``url`` is TypeSafe's own API (where Jev's price applies)."""
    host = urllib.parse.urlsplit(url).hostname or ""
    return host == "typesafe.ai" or host.endswith(".typesafe.ai")


def served_model_names(data: Any) -> list[str]:
    """The model names a ``GET /v1/models`` body lists: ``{"models": [{"name", ...}]}`` (TypeSafe's shape), or an
    OpenAI-style ``{"data": [{"id", ...}]}``; empty for anything else."""
    if not isinstance(data, dict):
        return []
    if isinstance(data.get("models"), list):
        return [
            str(m["name"]) for m in data["models"] if isinstance(m, dict) and isinstance(m.get("name"), str)
        ]
    if isinstance(data.get("data"), list):
        return [str(m["id"]) for m in data["data"] if isinstance(m, dict) and isinstance(m.get("id"), str)]
    return []


@dataclass
class _Part:
    """The outcome of one request of a call: its question ids and its answers or its error."""

    ids: list[str]
    answers: SystemOneAnswers | None = None
    error: JudgeError | None = None
    extra: list[_Part] = field(default_factory=list)


def _chunks(ids: list[str], size: int) -> list[list[str]]:
    size = max(1, size)
    return [ids[i : i + size] for i in range(0, len(ids), size)]


def _merge(parts: list[_Part]) -> SystemOneAnswers:
    """One answer set from the answered parts; the refused parts' questions are in ``refused``."""
    nouls: dict[str, NoulAnswer] = {}
    choices: dict[str, ChoiceAnswer] = {}
    scores: dict[str, ScoreAnswer] = {}
    tiers: dict[str, str] = {}
    refused: dict[str, str] = {}
    request_ids: list[str] = []
    tin: int | None = None
    tout: int | None = None
    model: str | None = None
    for part in parts:
        if part.answers is None:
            reason = str(part.error) if part.error is not None else "no reply"
            refused.update(dict.fromkeys(part.ids, reason))
            continue
        a = part.answers
        nouls.update(a.nouls)
        choices.update(a.choices)
        scores.update(a.scores)
        tiers.update(a.tiers)
        request_ids += a.request_ids
        model = a.model or model
        if a.input_tokens is not None:
            tin = (tin or 0) + a.input_tokens
        if a.output_tokens is not None:
            tout = (tout or 0) + a.output_tokens
    return SystemOneAnswers(
        nouls=nouls,
        choices=choices,
        scores=scores,
        model=model,
        input_tokens=tin,
        output_tokens=tout,
        tiers=tiers,
        refused=refused,
        request_ids=request_ids,
    )


def _outcome(parts: list[_Part]) -> SystemOneAnswers:
    """The call's answers from its parts (see the module docstring).

    Raises:
        JudgeError: every part failed (the first error), or a part failed for another reason than its size (the
            same error would hold for every request: e.g. auth, a bad request).
    """
    errors = [p.error for p in parts if p.error is not None]
    if errors and (len(errors) == len(parts) or any(e.kind != ErrorKind.context_limit for e in errors)):
        first = next((e for e in errors if e.kind != ErrorKind.context_limit), errors[0])
        raise first
    answers = _merge(parts)
    if answers.refused:
        logger.warning(
            "System One: %d of %d question(s) left unanswered: %s",
            len(answers.refused),
            sum(len(p.ids) for p in parts),
            next(iter(answers.refused.values())),
        )
    return answers


class TypeSafeModel(DeepEvalBaseSystemOneModel):
    """TypeSafe's System One model as a judge, or any server speaking its ``/v1/systemone`` wire format.

    Args:
        model: default ``TYPESAFE_MODEL_NAME``, else ``jev-latest`` (replaced by the server's own model when the
            server does not serve it; see the module docstring).
        api_key: default ``TYPESAFE_API_KEY``; without one, calls raise ``SystemOneError(kind=ErrorKind.auth)``
            (construction does not fail), except to a server on a loopback address, which gets no key.
        base_url: default ``TYPESAFE_BASE_URL``, else ``https://api.typesafe.ai``.
        cost_per_input_token: USD per input token; default ``TYPESAFE_COST_PER_INPUT_TOKEN``, else 0.042e-6 on
            TypeSafe's API and None (cost unknown) on another server.
        timeout / max_retries / retry_policy: as the LLM clients (``DEEPEVAL_JUDGE_TIMEOUT`` /
            ``DEEPEVAL_JUDGE_MAX_RETRIES``).
        max_concurrency: starting cap of concurrent requests (adaptive).
        max_questions: most questions in one request (default ``TYPESAFE_MAX_QUESTIONS``, else 64).
        **client_kwargs: passed to the HTTP client (e.g. ``headers``, ``verify``, ``proxy``); any other than
            those and ``cert``/``trust_env``/``timeout`` (e.g. ``transport=``) selects ``httpx.AsyncClient``.

    ``decide`` / ``a_decide`` return ``(SystemOneAnswers, cost_usd | None)``; cost is None when the server reports
    no usage or no price is known. They record ``input_tokens``/``output_tokens``/``system_one_requests`` with
    ``record_usage``; the caller records the cost.

    Raises (calls): :class:`RequestTooLargeError` (nothing sent), :class:`UnsupportedQuestionError`,
    :class:`SystemOneError` with kind auth (401/403), bad_request (400/404/422), context_limit (the server refused
    the request as too large), model_unavailable, rate_limit, server, timeout, connection. Messages name the model
    and the server's request id, and never the key.
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
        max_questions: int | None = None,
        **client_kwargs: Any,
    ) -> None:
        s = get_settings()
        self._api_key = Secret(api_key or s.get("TYPESAFE_API_KEY"))
        self.base_url = (base_url or s.get("TYPESAFE_BASE_URL") or DEFAULT_BASE_URL).rstrip("/")
        check_base_url(self.base_url, "base_url" if base_url else "TYPESAFE_BASE_URL")
        split_url(self.base_url)  # registers the URL's credentials as secrets now
        install_log_redaction()
        if cost_per_input_token is None:
            cost_per_input_token = s.get_float("TYPESAFE_COST_PER_INPUT_TOKEN")
        if cost_per_input_token is None and is_typesafe_api(self.base_url):
            cost_per_input_token = DEFAULT_COST_PER_INPUT_TOKEN
        if cost_per_input_token is not None and not cost_per_input_token >= 0:
            raise ValueError(f"cost_per_input_token must be >= 0 USD per token, got {cost_per_input_token}")
        #: USD per input token, or None: no price known for this server's model (calls report cost None)
        self.cost_per_input_token = None if cost_per_input_token is None else float(cost_per_input_token)
        if max_questions is None:
            raw_max = s.get_float("TYPESAFE_MAX_QUESTIONS", DEFAULT_MAX_QUESTIONS)
            max_questions = int(raw_max if raw_max is not None else DEFAULT_MAX_QUESTIONS)
        if max_questions < 1:
            raise ValueError(f"max_questions (TYPESAFE_MAX_QUESTIONS) must be >= 1, got {max_questions}")
        #: most questions per request; lowered when a server refuses a request for its own question cap
        self.max_questions = int(max_questions)
        self.retry_policy = retry_policy or RetryPolicy.from_settings(
            timeout=timeout, max_retries=max_retries
        )
        self.limiter = AdaptiveLimiter(max_concurrency)
        self.resolved_model: str | None = None
        #: the name was not configured (the default): a server that does not serve it may name its own
        self._default_name = not (model or s.get("TYPESAFE_MODEL_NAME"))
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
                max_reply_bytes(),
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
        """Answer ``questions`` about ``state``: one request, or several of at most ``max_questions`` questions
        sent together (see the class and module docstrings)."""
        name = str(self.name)
        if not questions:
            return SystemOneAnswers(), 0.0
        wire_qs = {str(qid): wire_question(q, model=name) for qid, q in questions.items()}
        sent_state = wire_state(state)
        check_budget(
            sent_state, wire_qs, {"model": name, "state": sent_state, "questions": wire_qs}, model=name
        )
        if not self._api_key.get() and not is_loopback(self.base_url):
            raise SystemOneError(
                f"System One model {name}: no TypeSafe API key; set TYPESAFE_API_KEY or pass api_key=",
                model=name,
                kind=ErrorKind.auth,
            )
        asked = {str(qid): q for qid, q in questions.items()}
        parts = await self._ask_all(sent_state, wire_qs, asked)
        unavailable = next(
            (p.error for p in parts if p.error and p.error.kind == ErrorKind.model_unavailable), None
        )
        if unavailable is not None and await self._adopt_served_model(unavailable):
            parts = await self._ask_all(sent_state, wire_qs, asked)
        answers = _outcome(parts)
        if answers.model:
            self.resolved_model = answers.model
        tin = answers.input_tokens
        cost = (
            None
            if tin is None or self.cost_per_input_token is None
            else known_cost(tin * self.cost_per_input_token)
        )
        return answers, cost

    async def _ask_all(self, state: Any, wire_qs: dict[str, Any], asked: dict[str, Any]) -> list[_Part]:
        """Every question asked, ``max_questions`` per request, the requests sent together."""
        groups = _chunks(list(wire_qs), self.max_questions)
        nested = await asyncio.gather(*(self._ask(state, ids, wire_qs, asked) for ids in groups))
        return [part for parts in nested for part in parts]

    async def _ask(
        self, state: Any, ids: list[str], wire_qs: dict[str, Any], asked: dict[str, Any]
    ) -> list[_Part]:
        """One request for ``ids``; refused for the server's question cap, it is asked again in halves."""
        try:
            answers = await self._request(state, {i: wire_qs[i] for i in ids}, {i: asked[i] for i in ids})
        except JudgeError as err:
            if err.error_type == "too_many_questions" and len(ids) > 1:
                half = (len(ids) + 1) // 2
                self.max_questions = min(self.max_questions, half)
                logger.info(
                    "System One model %s: the server refused %d questions in one request; sending at most %d",
                    self.name,
                    len(ids),
                    half,
                )
                nested = await asyncio.gather(
                    *(self._ask(state, c, wire_qs, asked) for c in _chunks(ids, half))
                )
                return [part for parts in nested for part in parts]
            return [_Part(ids, error=err)]
        return [_Part(ids, answers=answers)]

    async def _request(self, state: Any, wire_qs: dict[str, Any], asked: dict[str, Any]) -> SystemOneAnswers:
        """One ``POST /v1/systemone`` with retries; records its usage."""
        name = str(self.name)
        content = _dumps({"model": name, "state": state, "questions": wire_qs}).encode()

        async def attempt() -> tuple[SystemOneAnswers, int | None, int | None, str | None]:
            data, request_id = await self._post(content)
            return parse_answers(data, asked, model=name, request_id=request_id)

        try:
            answers, tin, tout, _ = await call_with_retries(
                attempt,
                policy=self.retry_policy,
                model=name,
                limiter=self.limiter,
                error_cls=SystemOneError,
            )
        except JudgeError:
            # it failed, but its requests were sent (and are in ``retries``)
            record_usage(system_one_requests=1)
            raise
        record_usage(input_tokens=tin, output_tokens=tout, system_one_requests=1)
        return answers

    async def _adopt_served_model(self, err: JudgeError) -> bool:
        """After the server refused this model: with the default name, switch to the first model its
        ``GET /v1/models`` lists and return True; else add the served names to ``err`` and return False."""
        served = await self._served_models()
        name = str(self.name)
        if self._default_name and served and name not in served:
            logger.warning(
                "System One: the server at %s does not serve %s; using %s, the first model its /v1/models lists "
                "(set TYPESAFE_MODEL_NAME to choose)",
                display_url(self.base_url),
                name,
                served[0],
            )
            self.name = served[0]
            self._default_name = False
            return True
        if served and err.args:
            err.args = (
                f"{err.args[0]}; the server serves: {', '.join(served[:10])} (set TYPESAFE_MODEL_NAME or model=)",
                *err.args[1:],
            )
        return False

    async def _served_models(self) -> list[str]:
        """The names the server's ``GET /v1/models`` lists (empty when it cannot say)."""
        try:
            resp = await self._clients.get().get("/v1/models", headers=self._headers())
            return served_model_names(resp.json()) if resp.status_code == 200 else []
        except Exception as exc:  # only a hint: its failure must not hide the refusal being reported
            logger.debug("System One: GET /v1/models failed (%s)", type(exc).__name__)
            return []

    async def aclose(self) -> None:
        """Close the HTTP client opened on the running loop."""
        await self._clients.aclose()

    def __repr__(self) -> str:
        return f"TypeSafeModel(model={self.name!r}, base_url={display_url(self.base_url)!r})"

    # -- HTTP ------------------------------------------------------------------------------------------------------
    def _headers(self) -> dict[str, str]:
        headers = {"Content-Type": "application/json"}
        authorization = self._endpoint.authorization or (
            f"Bearer {self._api_key.get()}" if self._api_key.get() else None
        )
        if authorization:
            headers["Authorization"] = authorization
        return headers

    async def _post(self, content: bytes) -> tuple[Any, str | None]:
        """The reply's JSON and the server's request id."""
        name = str(self.name)
        label = f"System One model {name}"
        if self._api_key.malformed:
            raise malformed_key_error(
                label, model=name, key_name="TypeSafe API key", error_cls=SystemOneError
            )
        client = self._clients.get()
        try:
            resp = await client.post("/v1/systemone", content=content, headers=self._headers())
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
        request_id = _request_id(resp.headers)
        logger.debug(
            "System One model %s: HTTP %s from %s%s",
            name,
            resp.status_code,
            display_url(self.base_url),
            _request_note(request_id),
        )
        if resp.status_code != 200:
            detail, error_type = error_detail(resp)
            raise status_error(
                resp.status_code,
                model=name,
                detail=detail,
                headers=resp.headers,
                code=error_type,
                error_cls=SystemOneError,
                request_id=request_id,
            )
        data = read_json(
            resp.content,
            label=label,
            model=name,
            base_url=display_url(self.base_url),
            status=resp.status_code,
            error_cls=SystemOneError,
        )
        return data, request_id

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
        kwargs["event_hooks"] = capped_event_hooks(self._client_kwargs.get("event_hooks"))
        if aio_class is None:
            return httpx.AsyncClient(**kwargs)
        return aio_class(follow_redirects=False, **kwargs)

    async def _run_private(self, coro: Coroutine[Any, Any, T]) -> T:
        return await self._clients.run_private(coro)


async def _aclose(client: Any) -> None:
    await client.aclose()


def _request_id(headers: Any) -> str | None:
    """The server's id of the request from the reply headers (:data:`REQUEST_ID_HEADERS`), redacted and cut."""
    try:
        for header in REQUEST_ID_HEADERS:
            value = headers.get(header)
            if value:
                return redact(str(value))[:100]
    except Exception:  # an error path must not fail on a header it cannot read
        return None
    return None


def _detail_items(detail: list[Any]) -> str:
    parts = []
    for item in detail[:3]:
        if isinstance(item, dict):
            loc = ".".join(str(x) for x in item.get("loc", []) if x != "body")
            parts.append(f"{loc}: {item.get('msg', '')}" if loc else str(item.get("msg", "")))
        else:
            parts.append(str(item))
    return "; ".join(parts)


def error_detail(resp: Any) -> tuple[str, str | None]:
    """The server's error message and error type from an error reply (uncut: the shared mapping redacts it before
    shortening it). Bodies read: Jev's ``{"detail": str | {"error_type", "message"?} | [{loc, msg}]}`` (FastAPI's
    shapes; Jev's context refusal ``{"detail": {"error_type": "max_tokens_exceeded"}}`` has no message, so the
    type stands for it), avrik-server's ``{"error": {"code", "message", "field"}}``, OpenAI's
    ``{"error": {"message", "code"}}``; anything else is shown as its text."""
    try:
        data = resp.json()
    except ValueError:
        return plain_text(str(resp.text)), None
    if not isinstance(data, dict):
        return json.dumps(data), None
    detail = data.get("detail")
    if isinstance(detail, list):
        return _detail_items(detail), None
    if isinstance(detail, dict):
        error_type = detail.get("error_type") if isinstance(detail.get("error_type"), str) else None
        message = detail.get("message")
        return (str(message) if message else error_type or json.dumps(detail)), error_type
    if detail is not None:
        return str(detail), None
    error = data.get("error")
    if isinstance(error, dict):
        code = error.get("code") if isinstance(error.get("code"), str) else None
        message = str(error.get("message") or code or json.dumps(error))
        where = error.get("field")
        return (f"{where}: {message}" if isinstance(where, str) and where else message), code
    return json.dumps(data), None
