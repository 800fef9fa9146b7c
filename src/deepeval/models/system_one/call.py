"""One checked way to call a System One model: every caller (metrics, runner, memory grader) goes through
:func:`a_decide_checked`, so a user's model that returns the wrong shape or raises a plain Python exception gets the
same clear :class:`~deepeval.errors.SystemOneError` everywhere.

What ``decide``/``a_decide`` may return (REFERENCE §6): ``(SystemOneAnswers, cost)`` with ``cost`` a number (USD) or
None; we also accept a bare ``SystemOneAnswers`` (cost None) and a dict that validates as ``SystemOneAnswers``.
Anything else raises ``SystemOneError`` (kind ``server``: the judge failed) naming the model and the expected shape.

Exceptions raised by the model:

* our own errors (:class:`~deepeval.errors.DeepEvalError`, e.g. ``SystemOneError`` from TypeSafe) pass unchanged;
* ``TimeoutError`` / ``asyncio.TimeoutError`` -> ``SystemOneError`` kind ``timeout`` (retryable);
* other ``OSError`` (``ConnectionError``, refused sockets, ...) -> kind ``connection`` (retryable);
* any other ``Exception`` -> kind ``server`` (not retryable); the original is chained as ``__cause__``.

Hybrid mode falls back to the LLM for all three kinds (``metrics/_engine/decisions.py``); ``system_one`` mode reports
the error.

Before calling, a request over the System One token budget (``typesafe.check_budget``: state + longest question
<= 32,000 and whole request <= 64,000 estimated tokens) is refused with ``RequestTooLargeError`` (kind
``context_limit``, advising eval mode ``llm``), as deepeval refuses it for every System One model. Models whose
``enforce_request_budget`` is False skip this: our in-process judges (no context window) and ``TypeSafeModel``,
which checks its own wire body.
"""

from __future__ import annotations

import asyncio
import math
from typing import Any

from pydantic import ValidationError

from deepeval.config.settings import redact
from deepeval.errors import DeepEvalError, ErrorKind, SystemOneError
from deepeval.models.base_model import DeepEvalBaseSystemOneModel
from deepeval.models.system_one.schema import Questions, SystemOneAnswers

EXPECTED_RETURN = "(SystemOneAnswers, cost | None)"


def model_name(model: Any) -> str:
    """The judge's name for messages (its ``get_model_name()``, else its class name)."""
    try:
        return str(model.get_model_name())
    except Exception:
        return type(model).__name__


def _shape(value: Any) -> str:
    if isinstance(value, tuple):
        return f"a tuple of {len(value)} ({', '.join(type(v).__name__ for v in value)})"
    return type(value).__name__ if value is not None else "None"


def check_decision(result: Any, model: Any) -> tuple[SystemOneAnswers, float | None]:
    """Normalise what ``model.decide``/``a_decide`` returned to ``(answers, cost)`` (see module docstring).

    Raises:
        SystemOneError: kind ``server``; the message names the model, what it returned and :data:`EXPECTED_RETURN`.
    """
    name = model_name(model)
    answers: Any = result
    cost: Any = None
    if isinstance(result, tuple) and len(result) == 2:
        answers, cost = result
    problem: str | None = None
    if isinstance(answers, dict):
        try:
            answers = SystemOneAnswers.model_validate(answers)
        except ValidationError as err:
            problem = f"a dict that is not a SystemOneAnswers ({err.error_count()} validation error(s))"
    if problem is None and not isinstance(answers, SystemOneAnswers):
        problem = _shape(result)
    if problem is None and cost is not None:
        if isinstance(cost, bool) or not isinstance(cost, (int, float)) or not math.isfinite(cost):
            problem = f"a cost of type {type(cost).__name__} ({cost!r:.40})"
    if problem is not None:
        raise SystemOneError(
            f"System One model {name}: decide() must return {EXPECTED_RETURN}, i.e. SystemOneAnswers and the "
            f"cost in USD or None (a bare SystemOneAnswers is accepted too); it returned {problem}",
            model=name,
            kind=ErrorKind.server,
        )
    return answers, None if cost is None else float(cost)


def wrap_model_exception(err: BaseException, model: Any) -> BaseException:
    """The error to raise for ``err`` raised by ``model``'s ``decide``/``a_decide`` (see module docstring)."""
    if isinstance(err, DeepEvalError) or not isinstance(err, Exception):
        return err
    name = model_name(model)
    if isinstance(err, (TimeoutError, asyncio.TimeoutError)):
        kind, retryable = ErrorKind.timeout, True
    elif isinstance(err, OSError):
        kind, retryable = ErrorKind.connection, True
    else:
        kind, retryable = ErrorKind.server, False
    detail = redact(str(err)) or "(no message)"
    wrapped = SystemOneError(
        f"System One model {name} raised {type(err).__name__}: {detail}",
        model=name,
        retryable=retryable,
        kind=kind,
    )
    wrapped.__cause__ = err
    return wrapped


def check_request_budget(model: Any, state: Any, questions: Questions) -> None:
    """Refuse a request over the System One token budget before it reaches ``model`` (see module docstring).

    Raises:
        RequestTooLargeError: over budget (kind ``context_limit``); the message says to use eval mode ``llm``.
    """
    if not getattr(model, "enforce_request_budget", True) or not questions:
        return
    from deepeval.errors import UnsupportedQuestionError
    from deepeval.models.system_one.typesafe import check_budget, wire_question, wire_state

    try:
        sent_state = wire_state(state)
    except TypeError:
        return  # not JSON-shaped: the model decides what it accepts
    wire_qs: dict[str, Any] = {}
    for qid, q in questions.items():
        try:
            wire_qs[str(qid)] = wire_question(q)
        except UnsupportedQuestionError:
            wire_qs[str(qid)] = (
                q.model_dump(mode="json", exclude_none=True) if hasattr(q, "model_dump") else str(q)
            )
    check_budget(sent_state, wire_qs, {"state": sent_state, "questions": wire_qs}, model=model_name(model))


async def a_decide_checked(
    model: DeepEvalBaseSystemOneModel, state: Any, questions: Questions
) -> tuple[SystemOneAnswers, float | None]:
    """``await model.a_decide(state, questions)``, normalised by :func:`check_decision`; plain Python exceptions
    become ``SystemOneError`` by :func:`wrap_model_exception`.

    Returns:
        ``(answers, cost)``; cost in USD or None when the model reports none.

    Raises:
        RequestTooLargeError: the request is over budget (nothing was sent).
        SystemOneError: the model failed (kinds ``timeout``, ``connection``, ``server`` or the model's own kind).
    """
    check_request_budget(model, state, questions)
    try:
        result = await model.a_decide(state, questions)
    except Exception as err:
        wrapped = wrap_model_exception(err, model)
        if wrapped is err:
            raise
        raise wrapped from err
    return check_decision(result, model)
