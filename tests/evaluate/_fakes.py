"""Small metrics for runner tests (Python-level fakes; the judge servers in the load test are real HTTP)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx

from deepeval.errors import JudgeError, MissingTestCaseParamsError
from deepeval.metrics.base_metric import BaseConversationalMetric, BaseMetric, SystemOnePlan
from deepeval.models.base_model import DeepEvalBaseSystemOneModel
from deepeval.models.system_one.schema import NoulQuestion, ScoreQuestion, SystemOneAnswers
from deepeval.models.usage import record_usage
from deepeval.test_case import ConversationalTestCase, LLMTestCase


@dataclass
class CallLog:
    """Shared by a metric and its fresh copies (shallow copy keeps the reference)."""

    calls: list[tuple[str, str]] = field(default_factory=list)  # (method, test case input)
    starts: list[float] = field(default_factory=list)
    in_flight: int = 0
    peak: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def enter(self, method: str, key: str) -> int:
        with self.lock:
            self.calls.append((method, key))
            self.starts.append(time.monotonic())
            self.in_flight += 1
            self.peak = max(self.peak, self.in_flight)
            return sum(1 for _, k in self.calls if k == key) - 1

    def leave(self) -> None:
        with self.lock:
            self.in_flight -= 1


Scorer = Callable[[Any, int], float]


class ScoreMetric(BaseMetric):
    """Scores from ``scorer(test_case, n)`` where n counts earlier calls on the same test case input; may sleep,
    raise, or require fields."""

    def __init__(
        self,
        scorer: Scorer | float = 1.0,
        *,
        threshold: float | None = 0.5,
        name: str = "Score",
        delay: float | Callable[[Any], float] = 0.0,
        fail_on: Callable[[Any], str | None] | None = None,
        requires: Sequence[str] = (),
        flaky: bool = False,
        eval_mode: str = "llm",
        prompt_version: str = "v1",
        judge: str = "scripted-judge",
        cost: float | None = None,
    ) -> None:
        self.scorer = scorer
        self.threshold = threshold
        self.name = name
        self.delay = delay
        self.fail_on = fail_on
        self.requires = list(requires)
        self.flaky = flaky
        self.eval_mode = eval_mode
        self.prompt_version = prompt_version
        self.judge = judge
        self.cost = cost
        self.log = CallLog()

    @property
    def __name__(self) -> str:  # type: ignore[override]
        return self.name

    def cache_config(self) -> dict[str, Any]:
        return {
            **super().cache_config(),
            "name": self.name,
            "eval_mode": self.eval_mode,
            "prompt_version": self.prompt_version,
            "judge": self.judge,
        }

    def _key(self, tc: Any) -> str:
        return tc.input if isinstance(tc, LLMTestCase) else tc.turns[0].content

    def _score(self, tc: Any, method: str) -> float:
        for f in self.requires:
            if getattr(tc, f, None) in (None, ""):
                raise MissingTestCaseParamsError(f"{self.name} needs {f!r}, which is missing")
        n = self.log.enter(method, self._key(tc))
        return self.scorer(tc, n) if callable(self.scorer) else float(self.scorer)

    def _finish(self, tc: Any, score: float) -> float:
        if self.fail_on is not None:
            msg = self.fail_on(tc)
            if msg:
                raise RuntimeError(msg)
        self.score = score
        self.reason = f"{self.name} scored {score:.2f}"
        self.evaluation_model = self.judge
        self.evaluation_cost = self.cost
        self.success = self.threshold is not None and score >= self.threshold
        return score

    def measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        score = self._score(test_case, "measure")
        try:
            d = self.delay(test_case) if callable(self.delay) else self.delay
            if d:
                time.sleep(d)
            return self._finish(test_case, score)
        finally:
            self.log.leave()

    async def a_measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        score = self._score(test_case, "a_measure")
        try:
            d = self.delay(test_case) if callable(self.delay) else self.delay
            if d:
                await asyncio.sleep(d)
            return self._finish(test_case, score)
        finally:
            self.log.leave()


class ConvMetric(BaseConversationalMetric):
    """Conversational metric: score = share of assistant turns (deterministic)."""

    def __init__(self, threshold: float = 0.5) -> None:
        self.threshold = threshold

    def measure(self, test_case: ConversationalTestCase, *args: Any, **kwargs: Any) -> float:  # type: ignore[override]
        turns = test_case.turns
        self.score = sum(t.role == "assistant" for t in turns) / len(turns)
        self.reason = "share of assistant turns"
        self.success = self.score >= self.threshold
        return self.score

    async def a_measure(self, test_case: ConversationalTestCase, *args: Any, **kwargs: Any) -> float:  # type: ignore[override]
        return self.measure(test_case)


class CountingSystemOne(DeepEvalBaseSystemOneModel):
    """Answers every noul with P(yes)=``p`` and every score with level ``level``; records requests; reports
    ``cost`` and tokens ``(input, output)``."""

    def __init__(
        self,
        p: float = 0.8,
        level: float = 3.0,
        cost: float | None = 0.004,
        tokens: tuple[int, int] = (400, 0),
        fail: Exception | None = None,
        name: str = "counting-s1",
    ) -> None:
        self.p, self.level, self.cost, self.tokens, self.fail = p, level, cost, tokens, fail
        self.requests: list[tuple[Any, dict[str, Any]]] = []
        super().__init__(model=name)

    def load_model(self, *args: Any, **kwargs: Any) -> Any:
        return None

    def get_model_name(self) -> str:
        return str(self.name)

    def decide(self, state: Any, questions: Any) -> tuple[SystemOneAnswers, float | None]:
        raise AssertionError("the runner must use a_decide")

    async def a_decide(self, state: Any, questions: Any) -> tuple[SystemOneAnswers, float | None]:
        self.requests.append((state, dict(questions)))
        record_usage(system_one_requests=1)
        if self.fail is not None:
            raise self.fail
        from deepeval.models.system_one.schema import NoulAnswer, ScoreAnswer

        nouls = {
            k: NoulAnswer(probability=self.p) for k, q in questions.items() if isinstance(q, NoulQuestion)
        }
        scores = {
            k: ScoreAnswer(score=self.level, confidence=1.0)
            for k, q in questions.items()
            if isinstance(q, ScoreQuestion)
        }
        return SystemOneAnswers(
            nouls=nouls,
            scores=scores,
            model="v-test",
            input_tokens=self.tokens[0],
            output_tokens=self.tokens[1],
        ), self.cost


class PlanMetric(BaseMetric):
    """A System One metric: ``n_nouls`` yes/no questions plus one 4-level score question on ``fields`` of the test
    case; score = (mean P(yes) + level/3) / 2."""

    def __init__(
        self,
        model: DeepEvalBaseSystemOneModel,
        name: str,
        n_nouls: int = 2,
        fields: Sequence[str] = ("input", "actual_output"),
        state_override: dict[str, Any] | None = None,
        threshold: float = 0.5,
    ) -> None:
        self.model = model
        self.name = name
        self.n_nouls = n_nouls
        self.fields = list(fields)
        self.state_override = state_override
        self.threshold = threshold
        self.measured = 0
        self.finished_with: list[tuple[SystemOneAnswers, float | None]] = []

    @property
    def __name__(self) -> str:  # type: ignore[override]
        return self.name

    def system_one_plan(self, test_case: Any) -> SystemOnePlan | None:
        state = self.state_override or {f: getattr(test_case, f) for f in self.fields}
        qs: dict[str, Any] = {
            f"q{i}": NoulQuestion(instructions=f"{self.name} question {i}") for i in range(self.n_nouls)
        }
        qs["level"] = ScoreQuestion(instructions=f"{self.name} level", levels=["a", "b", "c", "d"])
        return SystemOnePlan(model=self.model, state=state, questions=qs)

    def system_one_finish(self, test_case: Any, answers: SystemOneAnswers, cost: float | None) -> float:
        self.finished_with.append((answers, cost))
        missing = [q for q in [*(f"q{i}" for i in range(self.n_nouls)), "level"] if answers.get(q) is None]
        if missing:
            raise JudgeError(f"no answer for {missing}", kind="missing_answer")
        ps = [answers.nouls[f"q{i}"].probability for i in range(self.n_nouls)]
        p = sum(ps) / len(ps) if ps else 1.0
        self.score = (p + answers.scores["level"].score / 3) / 2
        self.reason = "system one"
        self.evaluation_model = self.model.get_model_name()
        self.evaluation_cost = cost
        self.input_tokens, self.output_tokens = answers.input_tokens, answers.output_tokens
        self.confidence = min(a.confidence for a in [*answers.nouls.values(), *answers.scores.values()])
        self.success = self.score >= self.threshold
        return self.score

    def measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        raise AssertionError("batched metrics must not be measured directly")

    async def a_measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        self.measured += 1
        raise AssertionError("batched metrics must not be measured directly")


class HttpJudgeMetric(BaseMetric):
    """Asks an OpenAI-compatible chat server (loopback) for ``{"score": x}``; retries 429/5xx up to
    ``max_retries`` times (honouring ``retry-after-ms``), recording retries, calls and tokens like a real client."""

    def __init__(
        self,
        base_url: str,
        name: str,
        threshold: float = 0.5,
        max_retries: int = 3,
        price_per_token: float = 1e-6,
        log: CallLog | None = None,
    ) -> None:
        self.log = log or CallLog()  # pass one log to several metrics to see their joint concurrency
        self.base_url = base_url
        self.name = name
        self.threshold = threshold
        self.max_retries = max_retries
        self.price = price_per_token
        self._clients: dict[int, httpx.AsyncClient] = {}  # one per event loop, shared by the fresh copies
        self._lock = threading.Lock()
        self.connection_errors: list[
            str
        ] = []  # shared by the copies: attempts the server may never have seen

    def _client(self) -> httpx.AsyncClient:
        key = id(asyncio.get_running_loop())
        with self._lock:
            if key not in self._clients:
                self._clients[key] = httpx.AsyncClient(timeout=10.0, limits=httpx.Limits(max_connections=100))
            return self._clients[key]

    @property
    def __name__(self) -> str:  # type: ignore[override]
        return self.name

    async def a_measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        self.log.enter("a_measure", test_case.input)
        try:
            return await self._a_measure(test_case)
        finally:
            self.log.leave()

    async def _a_measure(self, test_case: Any) -> float:
        import json

        body = {
            "model": "loopback-judge",
            "messages": [{"role": "user", "content": f"metric={self.name} case={test_case.input}"}],
        }
        client = self._client()
        attempt = 0
        while True:
            try:
                resp = await client.post(f"{self.base_url}/chat/completions", json=body)
            except httpx.TransportError as err:  # e.g. a reset connection: retryable, like real clients
                self.connection_errors.append(type(err).__name__)
                if attempt >= self.max_retries:
                    raise JudgeError(
                        f"judge loopback-judge: connection failed ({type(err).__name__})",
                        kind="connection",
                        retryable=True,
                    ) from None
                attempt += 1
                record_usage(retries=1)
                await asyncio.sleep(0.002)
                continue
            if resp.status_code == 200:
                break
            if resp.status_code in (429, 500, 502, 503) and attempt < self.max_retries:
                attempt += 1
                record_usage(retries=1)
                wait_ms = float(resp.headers.get("retry-after-ms", "2"))
                await asyncio.sleep(wait_ms / 1000)
                continue
            raise JudgeError(
                f"judge loopback-judge: HTTP {resp.status_code} after {attempt} retries",
                status_code=resp.status_code,
                kind="server",
            )
        data = resp.json()
        usage = data["usage"]
        record_usage(
            input_tokens=usage["prompt_tokens"], output_tokens=usage["completion_tokens"], llm_calls=1
        )
        self.score = float(json.loads(data["choices"][0]["message"]["content"])["score"])
        self.reason = f"judge said {self.score}"
        self.evaluation_model = "loopback-judge"
        self.evaluation_cost = (usage["prompt_tokens"] + usage["completion_tokens"]) * self.price
        self.success = self.score >= self.threshold
        return self.score

    def measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        from deepeval._concurrency import run_sync

        return run_sync(self.a_measure(test_case))
