"""One judged score in [0, 1] with its reason, in every eval mode: the shape of deepeval 4.3.1's agent checks that
end in a single graded judgement (tool selection, task completion, step efficiency, plan quality...).

* ``llm``: the LLM answers the metric's prompt with ``{"score": ..., "reason": ...}`` (the metric's schema class);
  a score outside [0, 1] is re-asked once (then an error).
* ``hybrid``: System One answers one graded question (levels worst -> best; value = expected level / top level);
  when that call fails in a way the LLM can cover (connection, timeout, rate limit, context limit, server, missing
  answer, unsupported question; an auth error too), the LLM answers the prompt instead and the cause is kept as
  the fallback reason. With no LLM, the failure is the error.
* ``system_one``: System One only; a failure is the error.

The embedded offline judge answers no agent question kind (none was measured), so with nothing configured the
measure raises a :class:`~deepeval.errors.ConfigurationError` naming what to configure instead of guessing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from deepeval.config import redact
from deepeval.config.eval_mode import EvalMode
from deepeval.errors import ConfigurationError, ErrorKind, JudgeError
from deepeval.metrics._engine.decisions import FALLBACK_KINDS
from deepeval.metrics._engine.judges import NO_LLM_HELP, Judges, SyncLLM, SyncSystemOne
from deepeval.models.base_model import judge_name
from deepeval.models.plan import EMBEDDED_NAMES
from deepeval.models.structured import a_generate_structured
from deepeval.models.system_one.call import a_decide_checked
from deepeval.models.system_one.schema import ScoreQuestion
from deepeval.models.usage import record_usage

#: the question id of the one graded question
QUESTION_ID = "score"


@dataclass
class ScoreAsk:
    """What to ask: ``what`` names the judgement in reasons ("tool selection"); ``prompt`` builds the LLM prompt
    (called only when the LLM answers); ``schema`` is the reply class (``score`` and ``reason`` fields);
    ``instructions``, ``levels`` (worst first), ``state`` and ``kind`` make the System One question."""

    what: str
    prompt: Callable[[], str]
    schema: type[BaseModel]
    instructions: str
    levels: list[str]
    state: dict[str, Any]
    kind: str


@dataclass
class ScoreOutcome:
    """The judged score in [0, 1], the reason, who decided (``"llm"`` or ``"system_one"``), the System One
    confidence (None when it did not answer) and why System One's answer was replaced (None when it was not)."""

    score: float
    reason: str
    decided_by: str
    confidence: float | None = None
    fallback_reason: str | None = None
    judge: str | None = None
    details: dict[str, Any] = field(default_factory=dict)


def _in_unit_range(reply: Any) -> None:
    score = getattr(reply, "score", None)
    if not isinstance(score, (int, float)) or not 0.0 <= float(score) <= 1.0:
        raise ValueError(f"score must be a number from 0 to 1, got {score!r}")


async def _llm_score(llm: Any, ask: ScoreAsk) -> ScoreOutcome:
    reply = await a_generate_structured(llm, ask.prompt(), ask.schema, check=_in_unit_range)
    return ScoreOutcome(
        score=float(reply.score),  # type: ignore[attr-defined]
        reason=str(getattr(reply, "reason", "") or ""),
        decided_by="llm",
        judge=judge_name(llm),
    )


async def _system_one_score(s1: Any, ask: ScoreAsk, metric_name: str) -> ScoreOutcome:
    question = ScoreQuestion(instructions=ask.instructions, levels=ask.levels, kind=ask.kind)
    answers, cost = await a_decide_checked(s1, ask.state, {QUESTION_ID: question})
    record_usage(cost=cost)
    answer = answers.scores.get(QUESTION_ID)
    name = judge_name(s1) or "System One"
    if answer is None:
        raise JudgeError(
            f"{metric_name}: System One model {name} gave no answer to the {ask.what} question",
            model=name,
            kind=ErrorKind.missing_answer,
        )
    top = len(ask.levels) - 1
    value = min(1.0, max(0.0, answer.score / top))
    level = ask.levels[min(top, max(0, round(answer.score)))]
    reason = f"{name} rated the {ask.what} {value:.2f} (closest level: {level!r}; confidence {answer.confidence:.2f})."
    return ScoreOutcome(
        score=value,
        reason=reason,
        decided_by="system_one",
        confidence=answer.confidence,
        judge=name,
        details={"expected_level": answer.score, "levels": ask.levels},
    )


def _embedded(judges: Judges) -> bool:
    return judges.system_one is not None and judge_name(judges.system_one) in EMBEDDED_NAMES


async def judged_score(
    judges: Judges, ask: ScoreAsk, *, metric_name: str, sequential: bool = False
) -> ScoreOutcome:
    """Ask for one score (see module docstring).

    Raises:
        ConfigurationError: no judge that can answer (only the embedded judge, which answers no agent question).
        JudgeError: the judge failed and nothing could cover for it.
    """
    llm = judges.llm
    s1 = judges.system_one
    if _embedded(judges):
        s1 = None  # the embedded judge answers no agent kind: never ask it, never report its refusal as a score
    if sequential:
        llm = SyncLLM(llm) if llm is not None else None
        s1 = SyncSystemOne(s1) if s1 is not None else None
    if judges.mode is EvalMode.LLM or s1 is None:
        if llm is None:
            raise ConfigurationError(
                f"{metric_name}: the {ask.what} check needs a judge, and the embedded offline judge answers no "
                f"agent question (none was measured); configure an LLM judge ({NO_LLM_HELP.split(': ', 1)[1]}) "
                "or a System One judge (TYPESAFE_API_KEY)"
            )
        return await _llm_score(llm, ask)
    try:
        return await _system_one_score(s1, ask, metric_name)
    except JudgeError as err:
        if judges.mode is EvalMode.SYSTEM_ONE or llm is None or err.kind not in FALLBACK_KINDS:
            raise
        cause = redact(f"{err.kind}: {err}")
    outcome = await _llm_score(llm, ask)
    outcome.fallback_reason = (
        f"System One model {judge_name(s1) or 'System One'}: {cause}; the {ask.what} was judged by the LLM "
        f"({judge_name(llm) or 'LLM'}) instead"
    )
    return outcome
