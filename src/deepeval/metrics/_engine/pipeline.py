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
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from deepeval.config.eval_mode import EvalMode
from deepeval.metrics._engine.context import Decision, MeasureContext
from deepeval.metrics._engine.decisions import (
    decide,
    decision_sources,
    llm_verdicts,
    share_score,
    weighted_note,
)
from deepeval.metrics._engine.extractor import LLMExtractor
from deepeval.metrics._engine.metric import EngineMetric, Outcome
from deepeval.metrics._engine.params import has_words, require_fields
from deepeval.metrics._engine.system_one import WeightedQuestion
from deepeval.metrics._engine.template_calls import call_template, takes
from deepeval.metrics._engine.verdicts import binary_from_probability, ternary_from_probability
from deepeval.metrics.delimit import STATE_NOTE, declare_labels, quote
from deepeval.metrics.pipeline.spec import (
    UNIT,
    Input,
    NothingToJudge,
    Pipeline,
    Units,
)
from deepeval.models.base_model import DeepEvalBaseLLM
from deepeval.models.extraction import Extractor
from deepeval.models.structured import a_generate_structured
from deepeval.models.system_one.schema import NoulQuestion, ScoreQuestion

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
        q = pipeline.question
        self.TEXT = json.dumps(
            {
                "unit": [q.kind, q.text, q.label, q.answer, dict(q.fields)],
                "whole_metric": [
                    [w.id, w.text, w.weight, w.answer, list(w.levels)] for w in pipeline.whole_metric
                ],
            },
            sort_keys=True,
        )

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


class _Units:
    """The units of one measure, extracted once each, on first need."""

    def __init__(self, metric: PipelineMetric, test_case: Any, ctx: MeasureContext) -> None:
        self.metric, self.test_case, self.ctx = metric, test_case, ctx
        self.done: dict[str, list[str]] = {}

    async def get(self, name: str) -> list[str]:
        if name not in self.done:
            units = self.metric.pipeline.units_named(name)
            assert units is not None
            self.done[name] = await self._extract(units)
            self.ctx.log(name.capitalize(), self.done[name])
        return self.done[name]

    async def gather(self, names: Sequence[str]) -> None:
        await self.ctx.gather(*(self.get(n) for n in dict.fromkeys(names)))

    async def _extract(self, units: Units) -> list[str]:
        text = _as_text(field_value(self.test_case, units.source))
        if not has_words(text):
            return []
        ctx = self.ctx
        if ctx.llm is not None and ctx.own_extraction:
            method = getattr(self.metric.evaluation_template, units.prompt)
            prompt = call_template(method, **self.metric.keywords(self.test_case, units.prompt_inputs, self))
            reply = await a_generate_structured(ctx.llm, prompt, units.schema)
            items = getattr(reply, units.field_name)
            return [s.strip() for s in items if isinstance(s, str) and s.strip()]
        assert ctx.extractor is not None
        extract = getattr(ctx.extractor, units.extraction)
        return list(await extract(text))


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

    # -- the engine's hooks, from the declaration --------------------------------------------------------------
    def _check_params(self, test_case: Any) -> None:
        require_fields(test_case, self.pipeline.required, self.__name__)

    def _make_extractor(self, llm: DeepEvalBaseLLM) -> Extractor:
        return LLMExtractor(llm)

    def _degenerate(self, test_case: Any) -> Outcome | None:
        for rule in self.pipeline.nothing_to_judge:
            if _applies(rule, field_value(test_case, rule.field)):
                return Outcome(rule.score, rule.reason, dict(rule.breakdown))
        return None

    def _system_one_request(self, test_case: Any) -> tuple[Any, list[WeightedQuestion]]:
        state = {f: field_value(test_case, f) for f in self.pipeline.whole_metric_fields}
        return state, list(self.question_set.whole_metric(state))

    # -- llm / hybrid --------------------------------------------------------------------------------------------
    def keywords(self, test_case: Any, inputs: Sequence[Input], units: _Units | None) -> dict[str, Any]:
        """The keyword arguments ``inputs`` name: units (already extracted), test-case fields, metric attributes."""
        out: dict[str, Any] = {}
        for i in inputs:
            if units is not None and i.source in units.done:
                value: Any = units.done[i.source]
            elif self.pipeline.units_named(i.source) is not None:
                value = []
            elif i.source in self.pipeline.required or hasattr(test_case, i.source):
                value = field_value(test_case, i.source)
            else:
                value = getattr(self, i.source, None)
            out[i.name] = _as_text(value, i.join) if i.join is not None and value is not None else value
        return out

    def _unit_sources(self, inputs: Sequence[Input]) -> list[str]:
        return [i.source for i in inputs if self.pipeline.units_named(i.source) is not None]

    async def _evaluate(self, test_case: Any, ctx: MeasureContext) -> Outcome:
        p = self.pipeline
        q = p.question
        units = _Units(self, test_case, ctx)
        first = [q.units]
        if ctx.mode is EvalMode.LLM or ctx.system_one is None:
            first += self._unit_sources(q.prompt_inputs)
        else:
            first += [s for s in q.fields.values() if p.units_named(s) is not None]
        if ctx.include_reason and ctx.llm is not None:
            first += self._unit_sources(p.reason.prompt_inputs)
        await units.gather(first)
        judged_units = units.done[q.units]
        if not judged_units:
            return Outcome(
                p.score.empty,
                p.score.empty_reason,
                {q.units: 0, **self._unit_counts(units)},
                units=dict(units.done),
            )
        decisions = await self._decide_units(ctx, test_case, units, judged_units)
        passing = p.score.passing_for(self)
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

    async def _decide_units(
        self, ctx: MeasureContext, test_case: Any, units: _Units, judged_units: list[str]
    ) -> dict[str, Decision]:
        """One decision per unit (ids ``u0, u1, ...``) in the eval mode of ``ctx``: the LLM's verdict prompt, or
        System One with the unit question (the LLM deciding what System One could not)."""
        q = self.pipeline.question
        ids = [f"u{i}" for i in range(len(judged_units))]
        by_id = dict(zip(ids, judged_units, strict=True))
        shared: dict[str, Any] = {}
        for name, source in q.fields.items():
            if source != UNIT:
                value = units.done.get(source) if source in units.done else field_value(test_case, source)
                shared[name] = _as_text(value)
        unit_field = next((name for name, source in q.fields.items() if source == UNIT), "unit")

        async def llm_decide(subset: Sequence[str]) -> Mapping[str, Decision]:
            assert ctx.llm is not None
            await units.gather(self._unit_sources(q.prompt_inputs))
            kwargs = {q.units: [by_id[i] for i in subset], **self.keywords(test_case, q.prompt_inputs, units)}
            prompt = call_template(getattr(self.evaluation_template, q.prompt), **kwargs)
            return await llm_verdicts(ctx.llm, prompt, q.schema, subset)

        return await decide(
            ctx,
            state={"note": STATE_NOTE, **shared},
            questions={i: self.question_set.unit(by_id[i], {**shared, unit_field: by_id[i]}) for i in ids},
            to_verdict=ternary_from_probability if q.verdicts == "yes_no_idk" else binary_from_probability,
            llm_decide=llm_decide,
        )

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
        failing = [str(j.get("reason") or j[r.unit]) for j in judged if j["verdict"] not in passing]
        if ctx.llm is None:
            return deterministic_reason(self.pipeline, score, judged, passing)
        method = getattr(self.evaluation_template, r.prompt)
        ours = takes(method, "judged") or not takes(method, "score")
        kwargs = {
            "score": score if ours else format(score, ".2f"),
            "judged": judged,
            r.failing_as: failing,
            **self.keywords(test_case, r.prompt_inputs, units),
        }
        reply: Any = await a_generate_structured(ctx.llm, call_template(method, **kwargs), r.schema)
        return str(reply.reason)


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
    note = weighted_note(judged)
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
