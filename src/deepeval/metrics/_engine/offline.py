"""How the embedded offline judge answers a pipeline's whole-metric questions (system_one mode), derived from the
declaration: the judged units are split deterministically from the raw test-case fields, each is asked the unit
question with the embedded judge's own scorer of that kind (a shared decision kind:
:data:`deepeval.models.embedded.question_kinds.KINDS`), and the probabilities are composed by the question's
``offline`` rule with :mod:`deepeval.models.embedded.composite`'s rules (``all``: the weakest; ``any``: the
strongest; ``share``: the mean, levels from the Poisson-binomial count). No metric folder writes this code.
"""

from __future__ import annotations

from typing import Any

from deepeval.metrics.pipeline.spec import UNIT, Pipeline, WholeMetricQuestion
from deepeval.models.embedded import composite
from deepeval.models.embedded.kind_spec import Asked, KindSpec, Texts, binomial_levels, field_text, mean


def _text(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return "\n\n".join(composite.context_texts(value))
    return "" if value is None else str(value)


def _split(pipeline: Pipeline, name: str, fields: dict[str, Any]) -> list[str]:
    units = pipeline.units_named(name)
    if units is None:
        return []
    text = _text(composite.field_value(fields, units.source))
    if units.extraction == "claims":
        return list(composite.EXTRACTOR.claims_sync(text))
    return list(composite.EXTRACTOR.statements_sync(text))


def unit_probabilities(pipeline: Pipeline, a: Asked) -> list[float]:
    """P(yes) of the unit question for every unit of the raw test case in ``a`` (once per request)."""
    from deepeval.models.embedded.question_kinds import KINDS

    q = pipeline.question
    spec = KINDS[q.kind]

    def compose(fields: dict[str, Any]) -> list[float]:
        shared: dict[str, Any] = {}
        unit_field = "unit"
        for name, source in q.fields.items():
            if source == UNIT:
                unit_field = name
            elif pipeline.units_named(source) is not None:
                shared[name] = "\n\n".join(_split(pipeline, source, fields))
            else:
                shared[name] = _text(composite.field_value(fields, source))
        return [
            spec.probability(Asked(q.kind, {**shared, unit_field: u}, a.memo, a.model))
            for u in _split(pipeline, q.units, fields)
        ]

    probabilities: list[float] = a.composed(pipeline.name, compose)
    return probabilities


def _empty_p(pipeline: Pipeline) -> float:
    return 0.995 if pipeline.score.empty >= 0.5 else 0.005


def _spec(pipeline: Pipeline, w: WholeMetricQuestion) -> KindSpec:
    empty = _empty_p(pipeline)

    def ps(a: Asked) -> list[float]:
        return unit_probabilities(pipeline, a)

    def texts(fields: dict[str, Any], out: Texts) -> None:
        for name in pipeline.whole_metric_fields:
            out.passages.add(field_text(fields, name))

    if w.offline == "any":
        return KindSpec((), lambda a: composite.strongest(ps(a), empty=empty), texts=texts)
    if w.offline == "share":

        def levels(a: Asked) -> list[float]:
            got = ps(a)
            if len(w.levels) == 4 and got:
                return composite.share_levels(got)
            return binomial_levels(mean(got, empty=pipeline.score.empty), max(2, len(w.levels)))

        return KindSpec((), lambda a: mean(ps(a), empty=pipeline.score.empty), levels=levels, texts=texts)
    return KindSpec((), lambda a: composite.weakest(ps(a), empty=empty), texts=texts)


def offline_kinds(pipeline: Pipeline) -> dict[str, KindSpec]:
    """The embedded judge's answers to ``pipeline``'s whole-metric kinds (those with an ``offline`` rule whose unit
    question is a kind the embedded judge answers)."""
    from deepeval.models.embedded.question_kinds import KINDS

    if pipeline.question.kind not in KINDS:
        return {}
    return {pipeline.kind_of(w): _spec(pipeline, w) for w in pipeline.whole_metric if w.offline is not None}
