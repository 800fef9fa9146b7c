"""The decision runner: every yes/no decision of a metric, by the LLM (``llm`` mode) or by System One with LLM
fallback (``hybrid``).

Hybrid (REFERENCE §3, architecture contracts): all decisions of one metric go out as ONE ``a_decide`` request of
noul questions. P(yes) maps to a verdict through the metric's ``to_verdict`` (>= 0.5 yes; or the 0.35/0.65
borderline bands). Decisions whose answer is missing (e.g. a server refused, as too large, the one of several requests
that held them), or all of them when the call fails with a fallback kind (connection, timeout, rate_limit,
context_limit, model_unavailable, server, missing_answer, unsupported_question, auth), are made by the LLM instead and
the cause is appended to ``system_one_fallback_reason``. ``auth`` and ``model_unavailable`` also turn System One off
for the rest of the measure (:data:`TURNS_SYSTEM_ONE_OFF`). A user model's plain Python exceptions and malformed returns arrive here as ``SystemOneError``
of kind timeout / connection / server (``models/system_one/call.py``), so they fall back too. Other errors propagate.
With no LLM to fall back to, the metric errors with both causes.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from deepeval.config.eval_mode import EvalMode
from deepeval.config.settings import redact
from deepeval.errors import ErrorKind, JudgeError, SystemOneError
from deepeval.metrics._engine.context import Decision, MeasureContext
from deepeval.metrics._engine.judges import NO_LLM_HELP
from deepeval.metrics._engine.schemas import one_verdict_each
from deepeval.metrics._engine.verdicts import UNSURE, Verdict
from deepeval.models.base_model import judge_name
from deepeval.models.structured import a_generate_structured
from deepeval.models.system_one.call import a_decide_checked
from deepeval.models.system_one.schema import NoulQuestion
from deepeval.models.usage import record_usage

#: JudgeError kinds after which hybrid mode hands the decisions to the LLM.
FALLBACK_KINDS = frozenset(
    {
        ErrorKind.connection,
        ErrorKind.timeout,
        ErrorKind.rate_limit,
        ErrorKind.context_limit,
        ErrorKind.model_unavailable,
        ErrorKind.server,
        ErrorKind.missing_answer,
        ErrorKind.unsupported_question,
        ErrorKind.auth,
    }
)

#: kinds after which every later request of the measure would fail the same way
TURNS_SYSTEM_ONE_OFF = frozenset({ErrorKind.auth, ErrorKind.model_unavailable})

LLMDecide = Callable[[Sequence[str]], Awaitable[Mapping[str, Decision]]]


async def llm_verdicts(
    llm: Any, prompt: str, schema: type[BaseModel], ids: Sequence[str]
) -> dict[str, Decision]:
    """One LLM call that returns one verdict per id, in order (``schema`` has ``verdicts: [{verdict, reason}]``);
    a reply with another count is re-asked once, then raises ``StructuredOutputError``."""
    reply: Any = await a_generate_structured(llm, prompt, schema, check=one_verdict_each(len(ids)))
    return {i: Decision(v.verdict, None, "llm", v.reason) for i, v in zip(ids, reply.verdicts, strict=True)}


def decision_sources(decisions: Mapping[str, Decision]) -> dict[str, int]:
    """``{"decided_by_system_one": n, "decided_by_llm": m}`` for a metric's ``score_breakdown``; with a cascading
    System One judge also how many of its decisions each stage made (``decided_by_encoder``,
    ``decided_by_reader``) and how many stayed ``unsure``."""
    out = {
        "decided_by_system_one": sum(d.source == "system_one" for d in decisions.values()),
        "decided_by_llm": sum(d.source == "llm" for d in decisions.values()),
    }
    tiers = [d.tier for d in decisions.values() if d.tier is not None]
    if tiers:
        out["decided_by_encoder"] = tiers.count("encoder")
        out["decided_by_reader"] = tiers.count("reader")
        out["unsure"] = tiers.count("unsure")
    return out


def share_score(
    ctx: MeasureContext, decisions: Mapping[str, Decision], counts: Callable[[Decision], bool]
) -> tuple[float, dict[str, float]]:
    """The share of ``decisions`` that ``counts`` (e.g. verdict yes), and the weights the System One model gave.
    A System One decision weighs what the model's ``share_weight(P)`` says when it gives a weight (the embedded
    judge: by its calibrated probability, so an unsure statement counts in part); otherwise, and for LLM decisions,
    it counts 1 or 0 by its verdict (deepeval's rule); an ``unsure`` decision without a model weight counts its
    P(yes); a decision marked ``by_verdict`` counts by its verdict, except a borderline one with ``idk_probability`` where
    borderline does not count (it counts by that probability, as an unsure one does). ``decisions`` must not be empty."""
    weigh = getattr(ctx.system_one, "share_weight", None)
    weights: dict[str, float] = {}
    total = 0.0
    for i, d in decisions.items():
        w = (
            weigh(d.probability)
            if weigh is not None
            and d.source == "system_one"
            and d.probability is not None
            and not d.by_verdict
            else None
        )
        if d.by_verdict and d.idk_probability is not None and not counts(d):
            # an idk on an unsure unit question, where idk does not pass: counts by that question's probability
            w = weigh(d.idk_probability) if weigh is not None else None
            w = d.idk_probability if w is None else w
        if w is None and d.unsure and d.probability is not None:
            w = d.probability  # no stage was sure: the statement counts by its probability, never by a side
        if w is None:
            total += float(counts(d))
        else:
            weights[i] = float(w)
            total += float(w)
    return total / len(decisions), weights


WEIGHTED_NOTE = "each statement counts by its P(relevant), so unsure ones count in part"


def weighted_note(judged: Sequence[Mapping[str, Any]]) -> str:
    """`` (<WEIGHTED_NOTE>)`` when some verdict of ``judged`` was weighed by its probability (a ``weight`` key),
    else ``""``: the reason then says why the score is not the plain count."""
    return f" ({WEIGHTED_NOTE})" if any("weight" in j for j in judged) else ""


def _describe_error(err: BaseException) -> str:
    kind = getattr(err, "kind", None) or type(err).__name__
    return redact(f"{kind}: {err}")


async def decide(
    ctx: MeasureContext,
    *,
    state: Any,
    questions: Mapping[str, NoulQuestion],
    to_verdict: Callable[[float], Verdict],
    llm_decide: LLMDecide,
) -> dict[str, Decision]:
    """Decide every question; returns ``id -> Decision`` in the order of ``questions``.

    Args:
        state: the System One request state (hybrid only).
        questions: one noul question per decision, P(yes) meaning the verdict "yes".
        to_verdict: P(yes) -> verdict.
        llm_decide: decides the given ids with the LLM (``llm`` mode, and hybrid fallback).

    Raises:
        JudgeError: a non-fallback System One failure, an LLM failure, or a System One failure with no LLM.
    """
    ids = list(questions)
    if not ids:
        return {}
    if ctx.mode is EvalMode.LLM or ctx.system_one is None:
        return await decide_by_llm(ctx, ids, llm_decide)

    decisions: dict[str, Decision] = {}
    failed: list[str] = ids
    cause: str | None = None
    error: BaseException | None = None
    s1_name = judge_name(ctx.system_one) or "System One"
    if ctx.system_one_off:
        cause = "System One is off for the rest of this measure after an authentication or model error"
    else:
        try:
            answers, cost = await a_decide_checked(ctx.system_one, state, dict(questions))
        except JudgeError as err:
            if err.kind not in FALLBACK_KINDS:
                raise
            if err.kind in TURNS_SYSTEM_ONE_OFF:
                ctx.system_one_off = True
            cause, error = _describe_error(err), err
        else:
            record_usage(cost=cost)
            ctx.note_answers(answers)
            if answers.request_ids:  # the server's ids of its requests (TypeSafe), for support and logs
                ctx.log("System One request ids", ", ".join(answers.request_ids))
            failed = []
            for qid in ids:
                ans = answers.nouls.get(qid)
                if ans is None:
                    failed.append(qid)
                    continue
                ctx.confidences.append(ans.confidence)
                tier = answers.tiers.get(qid)
                verdict = UNSURE if tier == "unsure" else to_verdict(ans.probability)
                decisions[qid] = Decision(
                    verdict, ans.probability, "system_one", tier=tier, stages=answers.stages.get(qid)
                )
            if failed:
                cause = f"missing_answer: no answer for {len(failed)} of {len(ids)} question(s)"
                refused = [answers.refused[q] for q in failed if q in answers.refused]
                if refused:
                    cause += f" (the server refused the request that held {len(refused)}: {refused[0]})"
    if failed:
        if ctx.llm is None:
            raise SystemOneError(
                f"{ctx.metric_name}: System One model {s1_name} failed ({cause}) and the LLM fallback is "
                f"impossible because {NO_LLM_HELP}",
                model=s1_name,
                kind=getattr(error, "kind", ErrorKind.missing_answer),
                retryable=getattr(error, "retryable", False),
            ) from error
        llm_name = judge_name(ctx.llm) or "LLM"
        ctx.fallback_reasons.append(
            f"System One model {s1_name}: {cause}; {len(failed)} of {len(ids)} decision(s) made by the LLM "
            f"({llm_name}) instead"
        )
        ctx.llm_used = True
        decisions.update(await llm_decide(failed))
    return _ordered(ids, decisions)


async def decide_by_llm(
    ctx: MeasureContext, ids: Sequence[str], llm_decide: LLMDecide
) -> dict[str, Decision]:
    """Every decision by the LLM (``llm`` mode, or no System One model): what :func:`decide` does there, for a
    caller that need not build the System One questions at all."""
    if not ids:
        return {}
    ctx.llm_used = True
    return _ordered(ids, await llm_decide(ids))


def _ordered(ids: Sequence[str], decisions: Mapping[str, Decision]) -> dict[str, Decision]:
    missing = [i for i in ids if i not in decisions]
    if missing:  # an llm_decide bug, never a judge's fault
        raise RuntimeError(f"no decision for {missing}")
    return {i: decisions[i] for i in ids}
