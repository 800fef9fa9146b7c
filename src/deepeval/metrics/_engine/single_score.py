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
from deepeval.metrics._engine.context import MeasureContext
from deepeval.metrics._engine.decisions import FALLBACK_KINDS
from deepeval.metrics._engine.judges import Judges, SyncLLM, SyncSystemOne
from deepeval.models.base_model import judge_name
from deepeval.models.resolve import is_embedded
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
    #: the reply's field holding the score (deepeval 4.3.1's schemas: ``score``, or ``verdict`` for task completion)
    score_field: str = "score"
    #: False: the LLM judges even in hybrid mode (4.3.1 asks System One nothing here, e.g. plan adherence without
    #: a trace)
    system_one: bool = True


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


def _unit_range_check(field_name: str) -> Callable[[Any], None]:
    def check(reply: Any) -> None:
        score = getattr(reply, field_name, None)
        if isinstance(score, bool) or not isinstance(score, (int, float)) or not 0.0 <= float(score) <= 1.0:
            raise ValueError(f"{field_name} must be a number from 0 to 1, got {score!r}")

    return check


async def _llm_score(llm: Any, ask: ScoreAsk) -> ScoreOutcome:
    reply = await a_generate_structured(
        llm, ask.prompt(), ask.schema, check=_unit_range_check(ask.score_field)
    )
    return ScoreOutcome(
        score=float(getattr(reply, ask.score_field)),
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
        details={"expected_level": answer.score, "levels": ask.levels, "model": answers.model},
    )


def is_embedded_judge(model: Any) -> bool:
    """Whether ``model`` (or the model a sync adapter wraps) is the embedded offline judge."""
    return is_embedded(model) or is_embedded(getattr(model, "_inner", None))


def no_judge_error(metric_name: str, what: str) -> ConfigurationError:
    """The offline rule's error: nothing configured can answer an agent question."""
    return ConfigurationError(
        f"{metric_name}: the {what} needs a judge, and the embedded offline judge answers no agent question (none "
        "was measured on them). Configure an LLM judge (OPENAI_API_KEY; a local model with USE_LOCAL_MODEL=YES and "
        "LOCAL_MODEL_BASE_URL; or model=) for the llm and hybrid modes, or a System One judge (TYPESAFE_API_KEY or "
        "system_one_model=) with eval_mode='system_one'"
    )


async def decide_score(ctx: MeasureContext, ask: ScoreAsk) -> ScoreOutcome:
    """Ask for one score with the judges of ``ctx`` (see module docstring), recording in ``ctx`` what a measure
    reports: System One's confidence and resolved version, the fallback reason, whether the LLM decided.

    Raises:
        ConfigurationError: no judge that can answer (only the embedded judge, which answers no agent question).
        JudgeError: the judge failed and nothing could cover for it.
    """
    llm = ctx.llm
    s1 = None if is_embedded_judge(ctx.system_one) else ctx.system_one
    if ctx.mode is EvalMode.LLM or s1 is None or ctx.system_one_off or not ask.system_one:
        if llm is None:
            raise no_judge_error(ctx.metric_name, ask.what)
        ctx.llm_used = True
        return await _llm_score(llm, ask)
    try:
        outcome = await _system_one_score(s1, ask, ctx.metric_name)
    except JudgeError as err:
        if ctx.mode is EvalMode.SYSTEM_ONE or llm is None or err.kind not in FALLBACK_KINDS:
            raise
        if err.kind == ErrorKind.auth:
            ctx.system_one_off = True
        cause = redact(f"{err.kind}: {err}")
    else:
        ctx.system_one_used = True
        ctx.system_one_version = outcome.details.get("model") or ctx.system_one_version
        if outcome.confidence is not None:
            ctx.confidences.append(outcome.confidence)
        return outcome
    ctx.llm_used = True
    outcome = await _llm_score(llm, ask)
    outcome.fallback_reason = (
        f"System One model {judge_name(s1) or 'System One'}: {cause}; the {ask.what} was judged by the LLM "
        f"({judge_name(llm) or 'LLM'}) instead"
    )
    ctx.fallback_reasons.append(outcome.fallback_reason)
    return outcome


async def judged_score(
    judges: Judges, ask: ScoreAsk, *, metric_name: str, sequential: bool = False
) -> ScoreOutcome:
    """:func:`decide_score` for a metric without a measure context of its own (tool correctness)."""
    llm, s1 = judges.llm, judges.system_one
    if sequential:
        llm = SyncLLM(llm) if llm is not None else None
        s1 = SyncSystemOne(s1) if s1 is not None else None
    ctx = MeasureContext(
        metric_name=metric_name,
        mode=judges.mode,
        llm=llm,
        system_one=s1,
        extractor=None,
        include_reason=True,
        sequential=sequential,
    )
    return await decide_score(ctx, ask)
