"""The engine of a declared pipeline: :class:`PipelineMetric` runs a :class:`~deepeval.metrics.pipeline.spec.Pipeline`
in every eval mode (see that module's docstring for what each mode does). A metric folder declares; this module
holds the only per-mode code.

Judge calls of one measure (``n`` units judged):

* llm: one extraction call per units list the verdict prompt or the reason needs (concurrently; none for a field
  without words), one verdict call for every unit, one reason call (none with ``include_reason=False``, or with no
  unit: the declared ``empty_reason``);
* hybrid: the extraction calls of the judged units (and of a units list the System One question reads), one System
  One request for every unit, the reason call; the LLM's verdict call only for what System One could not decide
  (then the verdict prompt's own units are extracted first);
* system_one: one System One request of the whole-metric questions.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, ClassVar

from deepeval._install import extra_install_command
from deepeval.config.eval_mode import EvalMode
from deepeval.metrics._engine.context import Decision, MeasureContext
from deepeval.metrics._engine.decisions import (
    decide,
    decide_by_llm,
    decision_sources,
    llm_verdicts,
    share_score,
)
from deepeval.metrics._engine.extractor import LLMExtractor
from deepeval.metrics._engine.judges import Judges, SyncSystemOne, deterministic_extractor
from deepeval.metrics._engine.metric import EngineMetric, Outcome
from deepeval.metrics._engine.offline import offline_kinds
from deepeval.metrics._engine.params import has_words, require_fields
from deepeval.metrics._engine.system_one import WeightedQuestion
from deepeval.metrics._engine.template_calls import call_template, parameters, reason_keywords
from deepeval.metrics._engine.unmeasured import offline_refusal
from deepeval.metrics._engine.verdicts import Verdict, binary_from_probability, ternary_from_probability
from deepeval.metrics.delimit import STATE_NOTE, declare_labels, quote
from deepeval.metrics.pipeline.spec import (
    UNIT,
    Input,
    NothingToJudge,
    Pipeline,
    RankScore,
    Units,
    rank_precision,
)
from deepeval.models.base_model import DeepEvalBaseLLM
from deepeval.models.extraction import Extractor
from deepeval.models.resolve import is_embedded
from deepeval.models.structured import a_generate_structured
from deepeval.models.system_one.schema import NoulQuestion, ScoreQuestion

if TYPE_CHECKING:
    from deepeval.models.embedded.judge import EmbeddedJudge

__all__ = ["PipelineMetric", "PipelineQuestions", "field_value"]


def field_value(test_case: Any, name: str) -> Any:
    """A test-case field as judges read it: a ``RetrievedContextData`` node by its text (its ``source`` is metadata),
    a list of nodes as a list of texts."""
    value = getattr(test_case, name, None)
    if isinstance(value, list):
        return [getattr(v, "context", v) for v in value]
    return value


def _as_text(value: Any, join: str = "\n\n") -> str:
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        return join.join(str(v) for v in value)
    return str(value)


class PipelineQuestions:
    """The System One questions of a pipeline (the default ``question_set`` of a :class:`PipelineMetric`): the
    per-unit question (:meth:`unit`) and the whole-metric ones (:meth:`whole_metric`). ``TEXT`` (every declared
    question text) enters the cache key's digest; ``VERSION`` is the label."""

    def __init__(self, pipeline: Pipeline) -> None:
        self.pipeline = pipeline
        self.VERSION = f"{pipeline.name}-q/{pipeline.version}"

    @property
    def TEXT(self) -> str:
        """Every declared question text, kind and field (what the cache key's content digest reads)."""
        p = self.pipeline
        q = p.question
        text: dict[str, Any] = {
            "unit": [q.kind, q.text, q.label, q.answer, {k: _source(v) for k, v in q.fields.items()}],
            "whole_metric": [[w.id, w.text, w.weight, w.answer, list(w.levels)] for w in p.whole_metric],
        }
        c = q.contradiction
        if c is not None:
            text["contradiction"] = [c.kind, c.text, {k: _source(v) for k, v in c.fields.items()}]
        return json.dumps(text, sort_keys=True)

    def unit(self, unit: str, fields: Mapping[str, Any]) -> NoulQuestion:
        """The per-unit question about ``unit``: the declared text with the unit quoted after it; ``fields`` (the
        kind's fields) ride in ``data`` for local judges and never go over the wire."""
        q = self.pipeline.question
        return NoulQuestion(instructions=f"{q.text}\n{quote(q.label, unit)}", kind=q.kind, data=dict(fields))

    def whole_metric(self, fields: Mapping[str, Any]) -> list[WeightedQuestion]:
        """The whole-metric questions over the state ``fields`` (the raw test-case fields)."""
        out: list[WeightedQuestion] = []
        for w in self.pipeline.whole_metric:
            kind = self.pipeline.kind_of(w)
            question: NoulQuestion | ScoreQuestion = (
                ScoreQuestion(instructions=w.text, levels=list(w.levels), kind=kind, data=dict(fields))
                if w.answer == "score"
                else NoulQuestion(instructions=w.text, kind=kind, data=dict(fields))
            )
            out.append(WeightedQuestion(w.id, w.weight, question, w.label))
        return out


@dataclass(frozen=True)
class _Plan:
    """What a measure reads from the declaration, worked out once per pipeline (no lookups per measure)."""

    pipeline: Pipeline
    units: dict[str, Units]
    unit_inputs: dict[str, tuple[Input, ...]]
    question_inputs: tuple[Input, ...]
    reason_inputs: tuple[Input, ...]
    #: the unit question's fields other than the unit: (name, source, join)
    shared_fields: tuple[tuple[str, str, str], ...]
    unit_field: str
    #: units lists the verdict prompt / the System One fields / the reason prompt read
    for_llm: tuple[str, ...]
    for_system_one: tuple[str, ...]
    for_reason: tuple[str, ...]
    to_verdict: Callable[[float], Verdict]
    #: the verdicts that pass, when they do not depend on the metric's options (else None: asked per measure)
    passing: tuple[str, ...] | None

    @classmethod
    def of(cls, p: Pipeline) -> _Plan:
        units = {u.name: u for u in p.units}
        q = p.question
        fields = [(name, *_source(value)) for name, value in q.fields.items()]
        question_inputs, reason_inputs = q.prompt_inputs, p.reason.prompt_inputs
        return cls(
            pipeline=p,
            units=units,
            unit_inputs={u.name: u.prompt_inputs for u in p.units},
            question_inputs=question_inputs,
            reason_inputs=reason_inputs,
            shared_fields=tuple(f for f in fields if f[1] != UNIT),
            unit_field=next((name for name, source, _ in fields if source == UNIT), "unit"),
            for_llm=tuple(i.source for i in question_inputs if i.source in units),
            for_system_one=tuple(source for _, source, _ in fields if source in units),
            for_reason=tuple(i.source for i in reason_inputs if i.source in units),
            to_verdict=ternary_from_probability if q.verdicts == "yes_no_idk" else binary_from_probability,
            passing=p.score.passing if isinstance(p.score.passing, tuple) else None,
        )


_PLANS: dict[int, _Plan] = {}


def plan_of(pipeline: Pipeline) -> _Plan:
    """The plan of ``pipeline`` (kept by identity: a declaration is made once, at import)."""
    plan = _PLANS.get(id(pipeline))
    if plan is None or plan.pipeline is not pipeline:
        plan = _PLANS[id(pipeline)] = _Plan.of(pipeline)
    return plan


class _Units:
    """The units of one measure, extracted once each, on first need."""

    def __init__(self, metric: PipelineMetric, plan: _Plan, test_case: Any, ctx: MeasureContext) -> None:
        self.metric, self.plan, self.test_case, self.ctx = metric, plan, test_case, ctx
        self.done: dict[str, list[str]] = {}

    async def get(self, name: str) -> list[str]:
        """The units called ``name``, extracted on first need (one coroutine: its frame is what a measure in flight
        holds while the judge extracts)."""
        if name in self.done:
            return self.done[name]
        units = self.plan.units[name]
        ctx = self.ctx
        value = field_value(self.test_case, units.source)
        text = _as_text(value)
        items: list[str]
        if (
            units.extraction == "items"
        ):  # the field's items are the units, as given (blank ones keep their rank)
            items = [] if value is None else [str(v) for v in (value if isinstance(value, list) else [value])]
            items = items if any(has_words(v) for v in items) else []
        elif not has_words(text):
            items = []
        elif units.prompt is None:  # never extracted by the LLM: split by rule in every mode
            items = list(await getattr(deterministic_extractor(), units.extraction)(text))
        elif ctx.llm is not None and ctx.own_extraction:
            method = getattr(self.metric.evaluation_template, units.prompt)
            kwargs = self.metric.keywords(self.test_case, self.plan.unit_inputs[name], self)
            assert units.schema is not None
            reply = await a_generate_structured(ctx.llm, call_template(method, **kwargs), units.schema)
            items = [
                s.strip()
                for s in getattr(reply, units.reply_field or name)
                if isinstance(s, str) and s.strip()
            ]
        else:
            assert ctx.extractor is not None
            items = list(await getattr(ctx.extractor, units.extraction)(text))
        self.done[name] = items
        ctx.log(name.capitalize(), items)
        return items

    async def get_or_field(self, source: str) -> Any:
        """The units called ``source`` when the pipeline declares them, else the test-case field ``source``."""
        if source in self.plan.units:
            return await self.get(source)
        return field_value(self.test_case, source)

    async def gather(self, names: Sequence[str]) -> None:
        """Every units list of ``names`` (concurrently when there are several)."""
        todo = [n for n in dict.fromkeys(names) if n not in self.done]
        if len(todo) > 1:
            await self.ctx.gather(*(self.get(n) for n in todo))
        elif todo:
            await self.get(todo[0])


class PipelineMetric(EngineMetric):
    """A metric whose measure is its declared :attr:`pipeline` (see :mod:`deepeval.metrics.pipeline`).

    A subclass sets ``pipeline`` (a :class:`~deepeval.metrics.pipeline.spec.Pipeline`) and ``default_template``
    (its prompts: the methods the declaration names); everything else (field checks, every eval mode, scoring,
    strict mode, reasons, the System One questions, the offline judge's answers) comes from the declaration. The
    constructor is :class:`~deepeval.metrics._engine.metric.EngineMetric`'s; a metric with options of its own
    (``truths_extraction_limit``) writes an ``__init__`` that stores them and calls ``super().__init__``.
    After a measure each units list is an attribute under its name (``metric.claims``) and ``verdicts`` lists
    each judged unit with its verdict.
    """

    pipeline: ClassVar[Pipeline]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        pipeline = vars(cls).get("pipeline")
        if pipeline is not None:
            declare_labels(*pipeline.labels)
            cls.reason_schema = pipeline.reason.schema
            if "default_question_set" not in vars(cls):
                cls.default_question_set = PipelineQuestions(pipeline)

    @property
    def __name__(self) -> str:
        return self.pipeline.display_name

    def judges(self) -> Judges:
        """:meth:`EngineMetric.judges`, refusing a set-up that would leave a decision to the embedded judge on a
        question kind no offline tier answers (it never returns an unmeasured number as a score).

        Raises:
            ConfigurationError: the embedded judge would decide a kind it has no measured answer for; the message
                says what to configure.
        """
        judges = super().judges()
        if judges.system_one is not None and is_embedded(judges.system_one):
            missing = self._offline_gaps(judges)
            if missing:
                self._judges = None  # resolved again (and refused again) on the next measure
                raise offline_refusal(
                    self.__name__,
                    f"the question kind(s) {', '.join(missing)}",
                    judges.mode,
                    self._reader_hint(judges),
                )
        return judges

    def _reader_hint(self, judges: Judges) -> str:
        """Why the embedded judge cannot answer a declared contradiction question in hybrid mode (neither the encoder
        nor the local reader passed the ship rule for it), and what would work offline instead."""
        c = self.pipeline.question.contradiction
        judge = _embedded_judge(judges.system_one)
        if c is None or judges.mode is not EvalMode.HYBRID or judge is None:
            return ""
        from deepeval.models.embedded.cascade import reader_reads
        from deepeval.models.embedded.reader import READER_KEY

        if not reader_reads(c.kind):
            hint = (
                f": it would have to answer the '{c.kind}' question, and on the blind-dev set neither the encoder "
                "nor the local reader told a contradiction from an unstated claim better than chance, so the "
                "reader's answers to it are not used (bench/RESULTS.md)"
            )
        elif judge.reader is None:
            hint = (
                f": only the local reader answers its '{c.kind}' question, and no reader is configured (set "
                f"{READER_KEY} to the reader's .gguf file or catalog name, with xllamacpp installed: "
                f"{extra_install_command('gguf')})"
            )
        else:
            hint = f": the local reader could not answer its '{c.kind}' question"
        if self._contradiction_scores():
            hint += (
                "; with penalize_ambiguous_claims=True it needs no contradiction answer (an unstated claim then "
                "fails like a contradicted one) and runs offline"
            )
        return hint

    def _offline_gaps(self, judges: Judges) -> list[str]:
        """The kinds the embedded judge would have to decide in ``judges``' mode without an answer for them."""
        from deepeval.models.embedded.question_kinds import KINDS

        p = self.pipeline
        if judges.mode is EvalMode.SYSTEM_ONE:
            answered = offline_kinds(p)
            return [k for k in p.question_kinds if k not in answered]
        q = p.question
        if judges.mode is not EvalMode.HYBRID or judges.llm is not None:
            return []
        c = q.contradiction
        contradiction_answered = c is not None and _embedded_answers(judges.system_one, c.kind)
        if q.kind not in KINDS:
            return [] if contradiction_answered else [q.kind]
        if c is not None and not contradiction_answered and self._contradiction_scores():
            # the unit question tells supported from the rest; only the contradiction question can tell a
            # contradicted unit from an unstated one, and the score counts them differently
            return [c.kind]
        return []

    def _contradiction_scores(self) -> bool:
        """Whether the score counts a contradicted unit (no) and an unstated one (borderline) differently, so that
        the declared contradiction question decides scores (Faithfulness' default reading; not with
        ``penalize_ambiguous_claims``, where both fail)."""
        passing = getattr(self.pipeline.score, "passing", ())
        chosen = passing(self) if callable(passing) else passing
        return ("no" in chosen) != ("borderline" in chosen)

    # -- the engine's hooks, from the declaration --------------------------------------------------------------
    def _check_params(self, test_case: Any) -> None:
        require_fields(test_case, self.pipeline.required, self.__name__)

    def _make_extractor(self, llm: DeepEvalBaseLLM) -> Extractor:
        return LLMExtractor(llm)

    def _degenerate(self, test_case: Any) -> Outcome | None:
        for rule in self.pipeline.nothing_to_judge:
            if _applies(rule, field_value(test_case, rule.field)):
                return Outcome(rule.score_for(self), rule.reason_for(self), dict(rule.breakdown))
        return None

    def _system_one_request(self, test_case: Any) -> tuple[Any, list[WeightedQuestion]]:
        state = {f: field_value(test_case, f) for f in self.pipeline.whole_metric_fields}
        return state, list(self.question_set.whole_metric(state))

    # -- llm / hybrid --------------------------------------------------------------------------------------------
    def keywords(self, test_case: Any, inputs: Sequence[Input], units: _Units | None) -> dict[str, Any]:
        """The keyword arguments ``inputs`` name: units (already extracted), test-case fields, metric attributes."""
        out: dict[str, Any] = {}
        declared = plan_of(self.pipeline).units
        for i in inputs:
            if units is not None and i.source in units.done:
                value: Any = units.done[i.source]
            elif i.source in declared:
                value = []
            elif i.source in self.pipeline.required or hasattr(test_case, i.source):
                value = field_value(test_case, i.source)
            else:
                value = getattr(self, i.source, None)
            out[i.name] = _as_text(value, i.join) if i.join is not None and value is not None else value
        return out

    async def _evaluate(self, test_case: Any, ctx: MeasureContext) -> Outcome:
        p = self.pipeline
        q = p.question
        plan = plan_of(p)
        units = _Units(self, plan, test_case, ctx)
        first = [
            q.units,
            *(plan.for_llm if ctx.mode is EvalMode.LLM or ctx.system_one is None else plan.for_system_one),
        ]
        if ctx.include_reason and ctx.llm is not None:
            first += plan.for_reason
        first = [n for n in dict.fromkeys(first) if n not in units.done]
        if len(first) == 1:  # awaited in place: no task, no extra frame while the judge extracts
            await units.get(first[0])
        else:
            await units.gather(first)
        judged_units = units.done[q.units]
        if not judged_units:
            nothing = {q.units: 0, **self._unit_counts(units), "yes": 0, "no": 0, "borderline": 0}
            return Outcome(p.score.empty, p.score.empty_reason, nothing, units=dict(units.done))
        decisions = await self._decide(ctx, test_case, units, judged_units)
        passing = plan.passing if plan.passing is not None else p.score.passing_for(self)
        weights: dict[str, float] = {}
        if isinstance(p.score, RankScore):
            score = rank_precision([d.verdict in passing for d in decisions.values()])
        else:
            score, weights = share_score(ctx, decisions, lambda d: d.verdict in passing)
        noun = p.reason.unit
        judged = [
            {noun: u, **d.as_log(), **({"weight": round(weights[i], 4)} if i in weights else {})}
            for u, (i, d) in zip(judged_units, decisions.items(), strict=True)
        ]
        ctx.log_verdicts("Verdicts", judged)
        counts = {v: sum(d.verdict == v for d in decisions.values()) for v in ("yes", "no", "borderline")}
        if any(d.unsure for d in decisions.values()):
            counts["unsure"] = sum(d.unsure for d in decisions.values())
        breakdown: dict[str, Any] = {
            q.units: len(judged_units),
            **self._unit_counts(units),
            **counts,
            "weighted_by_probability": bool(weights),
            **decision_sources(decisions),
        }
        reason = (
            await self._reason(ctx, test_case, units, score, judged, passing) if ctx.include_reason else None
        )
        return Outcome(score, reason, breakdown, units=dict(units.done))

    def _unit_counts(self, units: _Units) -> dict[str, int]:
        q = self.pipeline.question
        return {name: len(items) for name, items in units.done.items() if name != q.units}

    def measure_context(self, *, sequential: bool = False) -> MeasureContext:
        """A fresh :class:`~deepeval.metrics._engine.context.MeasureContext` with this metric's judges (what one
        measure uses; ``deepeval judge-eval`` asks :meth:`decide_units` with it)."""
        return self._context(self.judges(), sequential)

    async def decide_units(
        self, ctx: MeasureContext, test_case: Any, units: Sequence[str]
    ) -> dict[str, Decision]:
        """The decision of the declared unit question on each of ``units`` (ids ``<id_prefix>0, 1, ...``), in the
        eval mode of ``ctx``, as a measure makes them (``deepeval judge-eval`` measures the judge with it).

        Raises:
            JudgeError: as a measure's decisions.
        """
        extracted = _Units(self, plan_of(self.pipeline), test_case, ctx)
        extracted.done[self.pipeline.question.units] = list(units)
        return await self._decide(ctx, test_case, extracted, list(units))

    async def _decide(
        self, ctx: MeasureContext, test_case: Any, units: _Units, judged_units: list[str]
    ) -> dict[str, Decision]:
        """One decision per unit in the eval mode of ``ctx``: the LLM's verdict prompt, or System One with the unit
        question (the LLM deciding what System One could not)."""
        q = self.pipeline.question
        plan = units.plan
        ids = [f"{q.id_prefix}{i}" for i in range(len(judged_units))]
        by_id = dict(zip(ids, judged_units, strict=True))

        async def llm_decide(subset: Sequence[str]) -> Mapping[str, Decision]:
            assert ctx.llm is not None
            await units.gather(plan.for_llm)
            kwargs = {
                q.units: [by_id[i] for i in subset],
                **self.keywords(test_case, plan.question_inputs, units),
            }
            prompt = call_template(getattr(self.evaluation_template, q.prompt), **kwargs)
            return await llm_verdicts(ctx.llm, prompt, q.schema, subset)

        if (
            ctx.mode is EvalMode.LLM or ctx.system_one is None
        ):  # the LLM decides: no System One question is built
            return await decide_by_llm(ctx, ids, llm_decide)
        shared: dict[str, Any] = {}
        for name, source, join in plan.shared_fields:
            got = units.done[source] if source in units.done else field_value(test_case, source)
            shared[name] = _as_text(got, join)
        wire = shared if q.state is None else {k: v for k, v in shared.items() if k in q.state}
        unit_field = plan.unit_field
        contradiction = q.contradiction if _embedded_judge(ctx.system_one) is not None else None
        first: dict[str, Decision] = {}
        if contradiction is None or _embedded_answers(ctx.system_one, q.kind):
            first = await decide(
                ctx,
                state={"note": STATE_NOTE, **wire},
                questions={
                    i: self.question_set.unit(
                        by_id[i], {k: by_id[i] if k == unit_field else shared[k] for k in q.fields}
                    )
                    for i in ids
                },
                to_verdict=plan.to_verdict,
                llm_decide=llm_decide,
            )
        if contradiction is None:
            return first
        ask = [
            i
            for i in ids
            if i not in first or (first[i].source == "system_one" and first[i].verdict != "yes")
        ]
        if not ask:
            return first
        questions: dict[str, NoulQuestion] = {}
        for i in ask:
            fields = {}
            for name, value in contradiction.fields.items():
                source, join = _source(value)
                got = by_id[i] if source == UNIT else await units.get_or_field(source)
                fields[name] = _as_text(got, join)
            questions[i] = NoulQuestion(
                instructions=f"{contradiction.text}\n{quote(q.label, by_id[i])}",
                kind=contradiction.kind,
                data=fields,
            )
        second = await decide(
            ctx,
            state={"note": STATE_NOTE},
            questions=questions,
            to_verdict=binary_from_probability,
            llm_decide=llm_decide,
        )
        ternary = q.verdicts == "yes_no_idk"
        return {
            i: _with_contradiction(first.get(i), second[i], ternary)
            if i in second
            else replace(first[i], by_verdict=first[i].source == "system_one")
            for i in ids
        }

    async def _reason(
        self,
        ctx: MeasureContext,
        test_case: Any,
        units: _Units,
        score: float,
        judged: list[dict[str, Any]],
        passing: tuple[str, ...],
    ) -> str:
        """The LLM's reason from the declared prompt; without an LLM, one written from the verdicts."""
        r = self.pipeline.reason
        if ctx.llm is None:
            if r.written is not None:
                return r.written(score, judged)
            return deterministic_reason(self.pipeline, score, judged, passing)
        failing = [
            str(j.get("reason") or j[r.unit]) for j in judged if j["verdict"] not in (*passing, "unsure")
        ]
        method = getattr(self.evaluation_template, r.prompt)
        inputs = self.keywords(test_case, units.plan.reason_inputs, units)
        params = parameters(method)
        if params is None or "judged" in params or "score" not in params:
            kwargs = {"score": score, "judged": judged, r.failing_as: failing, **inputs}
        else:  # a template written for deepeval 4.3.1: its keywords, score formatted as it passes it
            kwargs = {**reason_keywords(score, judged, ()), r.failing_as: failing, **inputs}
        reply: Any = await a_generate_structured(ctx.llm, call_template(method, **kwargs), r.schema)
        return str(reply.reason)


def _embedded_judge(model: Any) -> EmbeddedJudge | None:
    """``model`` when it is the embedded judge (also behind :class:`SyncSystemOne`, ``async_mode=False``)."""
    from deepeval.models.embedded.judge import EmbeddedJudge

    inner = model.load_model() if isinstance(model, SyncSystemOne) else model
    return inner if isinstance(inner, EmbeddedJudge) else None


def _embedded_answers(model: Any, kind: str) -> bool:
    """Whether ``model`` is the embedded judge and has a measured answer to ``kind`` as configured (its reader
    included: :meth:`deepeval.models.embedded.judge.EmbeddedJudge.answers`)."""
    judge = _embedded_judge(model)
    return judge is not None and judge.answers(kind)


def _with_contradiction(first: Decision | None, second: Decision, ternary: bool) -> Decision:
    """A unit's decision from the unit question's (``first``; None when it was not asked) and the contradiction
    question's (``second``; P(yes) = contradicted), as :class:`~deepeval.metrics.pipeline.spec.Contradiction` says:
    contradicted -> no; else borderline (ternary verdicts, also when unsure; on an unsure unit question it keeps that
    question's P as ``idk_probability``, what it counts where borderline does not pass) or yes (unsure stays unsure,
    P(yes) = P(not contradicted)). An LLM's verdict (the fallback) is the unit question's own and stays as it is."""
    if second.source != "system_one" or second.probability is None:
        return second
    p = second.probability
    stages = {**(first.stages or {} if first is not None else {}), "contradicted": p}
    if first is not None and first.probability is not None:
        stages["supported"] = first.probability
    if second.unsure and not ternary:
        return Decision("unsure", 1.0 - p, "system_one", tier=second.tier, stages=stages)
    verdict: Verdict = "no" if not second.unsure and p >= 0.5 else ("borderline" if ternary else "yes")
    shown = first.probability if first is not None and first.probability is not None else 1.0 - p
    idk = first.probability if verdict == "borderline" and first is not None and first.unsure else None
    return Decision(
        verdict, shown, "system_one", tier=second.tier, stages=stages, by_verdict=True, idk_probability=idk
    )


def _source(value: str | Input) -> tuple[str, str]:
    """Where a field comes from and how a list is joined."""
    if isinstance(value, Input):
        return value.source, "\n\n" if value.join is None else value.join
    return value, "\n\n"


def _applies(rule: NothingToJudge, value: Any) -> bool:
    items = value if isinstance(value, (list, tuple)) else [value]
    if rule.when == "blank":
        return (isinstance(value, (list, tuple)) and not value) or (
            isinstance(value, str) and not value.strip()
        )
    return all(not has_words(str(v)) for v in items if v is not None)


def deterministic_reason(
    pipeline: Pipeline, score: float, judged: Sequence[Mapping[str, Any]], passing: tuple[str, ...]
) -> str:
    """The reason written from the verdicts alone (no LLM): how many units pass, and which do not."""
    r = pipeline.reason
    n = len(judged)
    note = (
        f" (each {r.unit} counts by its P(yes), so unsure ones count in part)"
        if any("weight" in j for j in judged)
        else ""
    )
    plural = r.unit if n == 1 else f"{r.unit}s"
    failing = [j for j in judged if j["verdict"] not in passing and j["verdict"] != "unsure"]
    unsure = [j for j in judged if j["verdict"] == "unsure"]
    if not failing and not unsure:
        return f"The score is {score:.2f} because all {n} {plural} are {r.passes}{note}."

    def show(j: Mapping[str, Any]) -> str:
        p = j.get("p_yes")
        return f"{j[r.unit]!r}" + (f" (P(yes)={p:.2f})" if p is not None else "")

    parts = [
        f"The score is {score:.2f}: {n - len(failing) - len(unsure)} of {n} {plural} are {r.passes}{note}."
    ]
    if failing:
        parts.append(f"{r.fails[:1].upper()}{r.fails[1:]}: {'; '.join(show(j) for j in failing)}.")
    if unsure:
        parts.append(
            f"Unsure (the judge could not tell; counted by probability): {'; '.join(show(j) for j in unsure)}."
        )
    return " ".join(parts)
