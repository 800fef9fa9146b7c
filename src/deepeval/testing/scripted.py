"""Scripted judges for tests: an LLM and a System One model that answer from a Python callable and count calls.

Both behave like real custom judges written for deepeval (they subclass the public base classes), so code under test
cannot tell them from a user's model. Neither touches the network.

* :class:`ScriptedLLM` answers ``generate(prompt, schema)`` from ``responder(prompt, schema)`` (or from a list of
  replies consumed in order). A reply may be a string, a dict (sent on as its JSON text), a pydantic model, or a
  ``(reply, cost_usd)`` tuple; a responder may raise to simulate a failing judge.
* :class:`ScriptedSystemOne` answers ``decide(state, questions)`` from ``responder(state, questions)``. A reply may
  be :class:`~deepeval.models.system_one.schema.SystemOneAnswers`, or a mapping ``question id -> value`` (float =
  P(yes) for a yes/no question or the expected level for a score question; str = the chosen option; an answer
  object as is), optionally as ``(reply, cost_usd)``. Ids left out of the mapping get no answer (a failed decision).
"""

from __future__ import annotations

import json
import math
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from deepeval.models.base_model import DeepEvalBaseLLM, DeepEvalBaseSystemOneModel
from deepeval.models.system_one.schema import (
    ChoiceAnswer,
    ChoiceQuestion,
    NoulAnswer,
    NoulQuestion,
    Questions,
    ScoreAnswer,
    ScoreQuestion,
    SystemOneAnswers,
    distribution_confidence,
)
from deepeval.models.usage import record_usage

__all__ = ["LLMCall", "ScriptedLLM", "ScriptedSystemOne", "SystemOneCall", "answers_from_values"]


@dataclass(frozen=True)
class LLMCall:
    """One call received by :class:`ScriptedLLM`. ``method`` is ``"generate"`` or ``"a_generate"``."""

    prompt: str
    schema: type[BaseModel] | None
    method: str


@dataclass(frozen=True)
class SystemOneCall:
    """One request received by :class:`ScriptedSystemOne`. ``method`` is ``"decide"`` or ``"a_decide"``."""

    state: Any
    questions: dict[str, Any]
    method: str


def _split_cost(reply: Any) -> tuple[Any, float | None, bool]:
    if (
        isinstance(reply, tuple)
        and len(reply) == 2
        and (reply[1] is None or isinstance(reply[1], (int, float)))
    ):
        return reply[0], (None if reply[1] is None else float(reply[1])), True
    return reply, None, False


class _Script:
    """A callable or a list of replies consumed in order (thread-safe)."""

    def __init__(self, responder: Callable[..., Any] | Sequence[Any], owner: str) -> None:
        self._fn = responder if callable(responder) else None
        self._queue = None if callable(responder) else list(responder)
        self._owner = owner
        self._lock = threading.Lock()

    def __call__(self, *args: Any) -> Any:
        if self._fn is not None:
            return self._fn(*args)
        assert self._queue is not None
        with self._lock:
            if not self._queue:
                raise RuntimeError(f"{self._owner} ran out of scripted replies")
            reply = self._queue.pop(0)
        if isinstance(reply, BaseException):
            raise reply
        return reply


class ScriptedLLM(DeepEvalBaseLLM):
    """An LLM judge answering from ``responder(prompt, schema)`` or a list of replies.

    Args:
        responder: callable ``(prompt: str, schema: type[BaseModel] | None) -> reply`` or a sequence of replies
            (an exception instance in the sequence is raised). Replies: see module docstring.
        name: what :meth:`get_model_name` returns.
        tokens: ``(input_tokens, output_tokens)`` recorded per call through ``record_usage``, like a real client.

    Attributes:
        calls: every :class:`LLMCall`, in order. ``call_count`` is ``len(calls)``.
    """

    def __init__(
        self,
        responder: Callable[[str, type[BaseModel] | None], Any] | Sequence[Any],
        *,
        name: str = "scripted-llm",
        tokens: tuple[int, int] | None = None,
    ) -> None:
        self._script = _Script(responder, f"ScriptedLLM({name})")
        self._tokens = tokens
        self._lock = threading.Lock()
        self.calls: list[LLMCall] = []
        super().__init__(model=name)

    def load_model(self, *args: Any, **kwargs: Any) -> Any:
        return None

    def get_model_name(self) -> str:
        return str(self.name)

    @property
    def call_count(self) -> int:
        return len(self.calls)

    @property
    def prompts(self) -> list[str]:
        return [c.prompt for c in self.calls]

    def _answer(self, prompt: str, schema: Any, method: str) -> Any:
        with self._lock:
            self.calls.append(LLMCall(prompt=prompt, schema=schema, method=method))
        if self._tokens is not None:
            record_usage(input_tokens=self._tokens[0], output_tokens=self._tokens[1])
        reply, cost, had_cost = _split_cost(self._script(prompt, schema))
        if isinstance(reply, (dict, list)):
            reply = json.dumps(reply)
        return (reply, cost) if had_cost else reply

    def generate(self, prompt: str, schema: Any = None) -> Any:
        return self._answer(prompt, schema, "generate")

    async def a_generate(self, prompt: str, schema: Any = None) -> Any:
        return self._answer(prompt, schema, "a_generate")


def _score_answer(question: ScoreQuestion, expected: float) -> ScoreAnswer:
    """A score answer whose expected level is ``expected``: the mass sits on the two neighbouring levels."""
    top = len(question.levels) - 1
    e = min(max(float(expected), 0.0), float(top))
    low = math.floor(e)
    frac = e - low
    probs: dict[int, float] = {i: 0.0 for i in range(top + 1)}
    probs[low] += 1.0 - frac
    if frac > 0:
        probs[low + 1] += frac
    return ScoreAnswer(
        score=e, probabilities=probs, confidence=distribution_confidence(probs), legend=list(question.levels)
    )


def answers_from_values(
    questions: Questions, values: Mapping[str, Any], *, model: str | None = None
) -> SystemOneAnswers:
    """Build answers from ``question id -> value`` (see module docstring). Unknown ids are ignored.

    Raises:
        TypeError: a value does not fit its question type.
    """
    nouls: dict[str, NoulAnswer] = {}
    choices: dict[str, ChoiceAnswer] = {}
    scores: dict[str, ScoreAnswer] = {}
    for qid, value in values.items():
        q = questions.get(qid)
        if q is None:
            continue
        if isinstance(value, NoulAnswer):
            nouls[qid] = value
        elif isinstance(value, ScoreAnswer):
            scores[qid] = value
        elif isinstance(value, ChoiceAnswer):
            choices[qid] = value
        elif isinstance(q, NoulQuestion) and isinstance(value, (int, float)):
            nouls[qid] = NoulAnswer(probability=float(value))
        elif isinstance(q, ScoreQuestion) and isinstance(value, (int, float)):
            scores[qid] = _score_answer(q, value)
        elif isinstance(q, ChoiceQuestion) and isinstance(value, str):
            choices[qid] = ChoiceAnswer(choice=value, probabilities={value: 1.0}, confidence=1.0)
        else:
            raise TypeError(f"scripted value {value!r} does not fit question {qid!r} ({type(q).__name__})")
    return SystemOneAnswers(nouls=nouls, choices=choices, scores=scores, model=model)


class ScriptedSystemOne(DeepEvalBaseSystemOneModel):
    """A System One model answering from ``responder(state, questions)`` or a list of replies.

    Args:
        responder: callable ``(state, questions: dict[str, question]) -> reply`` or a sequence of replies (an
            exception instance is raised). Replies: see module docstring.
        name: what :meth:`get_model_name` returns.
        model_version: the resolved version reported in ``SystemOneAnswers.model`` (like TypeSafe's ``model``).
        cost: cost in USD returned with each request when the reply does not carry one.
        tokens: ``(input_tokens, output_tokens)`` recorded per request through ``record_usage``.

    Attributes:
        calls: every :class:`SystemOneCall`, in order. ``call_count`` is ``len(calls)``.
    """

    def __init__(
        self,
        responder: Callable[[Any, dict[str, Any]], Any] | Sequence[Any],
        *,
        name: str = "scripted-system-one",
        model_version: str | None = None,
        cost: float | None = None,
        tokens: tuple[int, int] | None = None,
    ) -> None:
        self._script = _Script(responder, f"ScriptedSystemOne({name})")
        self._version = model_version
        self._cost = cost
        self._tokens = tokens
        self._lock = threading.Lock()
        self.calls: list[SystemOneCall] = []
        super().__init__(model=name)

    def load_model(self, *args: Any, **kwargs: Any) -> Any:
        return None

    def get_model_name(self) -> str:
        return str(self.name)

    @property
    def call_count(self) -> int:
        return len(self.calls)

    def _answer(self, state: Any, questions: Questions, method: str) -> tuple[SystemOneAnswers, float | None]:
        qs = dict(questions)
        with self._lock:
            self.calls.append(SystemOneCall(state=state, questions=qs, method=method))
        record_usage(
            system_one_requests=1,
            input_tokens=self._tokens[0] if self._tokens else None,
            output_tokens=self._tokens[1] if self._tokens else None,
        )
        reply, cost, had_cost = _split_cost(self._script(state, qs))
        if not had_cost:
            cost = self._cost
        if isinstance(reply, SystemOneAnswers):
            answers = reply
            if answers.model is None and self._version is not None:
                answers = answers.model_copy(update={"model": self._version})
        elif isinstance(reply, Mapping):
            answers = answers_from_values(qs, reply, model=self._version)
        else:
            raise TypeError(
                f"ScriptedSystemOne reply must be SystemOneAnswers or a mapping, not {type(reply).__name__}"
            )
        return answers, cost

    def decide(self, state: Any, questions: Questions) -> tuple[SystemOneAnswers, float | None]:
        return self._answer(state, questions, "decide")

    async def a_decide(self, state: Any, questions: Questions) -> tuple[SystemOneAnswers, float | None]:
        return self._answer(state, questions, "a_decide")
