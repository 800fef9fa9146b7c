"""How the embedded offline judge answers a pipeline's whole-metric questions (system_one mode), derived from the
declaration: the judged units are split deterministically from the raw test-case fields, each is asked the unit
question with the embedded judge's own scorer of that kind (a shared decision kind:
:data:`deepeval.models.embedded.question_kinds.KINDS`), and the probabilities are composed by the question's
``offline`` rule with :mod:`deepeval.models.embedded.composite`'s rules (``all``: the weakest; ``any``: the
strongest; ``share``: the mean, levels from the Poisson-binomial count). No metric folder writes this code.
"""

from __future__ import annotations

from typing import Any

from deepeval.metrics.pipeline.spec import UNIT, Input, Pipeline, WholeMetricQuestion
from deepeval.models.embedded import composite
from deepeval.models.embedded.kind_spec import Asked, KindSpec, Texts, binomial_levels, mean


def _text(value: Any, join: str = "\n\n") -> str:
    if isinstance(value, (list, tuple)):
        return join.join(composite.context_texts(value))
    return "" if value is None else str(value)


def _names(field: str) -> tuple[str, str]:
    """A test-case field as the state may spell it: snake case, or camel case (``actualOutput``)."""
    head, *rest = field.split("_")
    return field, head + "".join(w.title() for w in rest)


def _split(pipeline: Pipeline, name: str, fields: dict[str, Any]) -> list[str]:
    units = pipeline.units_named(name)
    if units is None:
        return []
    text = _text(composite.field_value(fields, *_names(units.source)))
    if units.extraction == "claims":
        return list(composite.EXTRACTOR.claims_sync(text))
    return list(composite.EXTRACTOR.statements_sync(text))


def unit_fields(pipeline: Pipeline, fields: dict[str, Any]) -> list[dict[str, Any]]:
    """The fields of the unit question for every unit of the raw test case ``fields`` (deterministic split)."""
    q = pipeline.question
    shared: dict[str, Any] = {}
    unit_field = "unit"
    for name, value in q.fields.items():
        source, join = (value.source, value.join or "\n\n") if isinstance(value, Input) else (value, "\n\n")
        if source == UNIT:
            unit_field = name
        elif pipeline.units_named(source) is not None:
            shared[name] = join.join(_split(pipeline, source, fields))
        else:
            shared[name] = _text(composite.field_value(fields, *_names(source)), join)
    return [{**shared, unit_field: u} for u in _split(pipeline, q.units, fields)]


def unit_probabilities(pipeline: Pipeline, a: Asked) -> list[float]:
    """P(yes) of the unit question for every unit of the raw test case in ``a`` (once per request)."""
    from deepeval.models.embedded.question_kinds import KINDS

    q = pipeline.question
    spec = KINDS[q.kind]

    def compose(fields: dict[str, Any]) -> list[float]:
        return [spec.probability(Asked(q.kind, f, a.memo, a.model)) for f in unit_fields(pipeline, fields)]

    probabilities: list[float] = a.composed(pipeline.name, compose)
    return probabilities


def _empty_p(pipeline: Pipeline, w: WholeMetricQuestion) -> float:
    if w.offline_empty is not None:
        return w.offline_empty
    return 0.995 if pipeline.score.empty >= 0.5 else 0.005


def _spec(pipeline: Pipeline, w: WholeMetricQuestion) -> KindSpec:
    from deepeval.models.embedded.question_kinds import KINDS

    empty = _empty_p(pipeline, w)
    unit_texts = KINDS[pipeline.question.kind].texts

    def ps(a: Asked) -> list[float]:
        return unit_probabilities(pipeline, a)

    def texts(fields: dict[str, Any], out: Texts) -> None:
        """What the unit question's scorer will encode for every unit (so the judge batches it)."""
        if unit_texts is None:
            return
        for f in unit_fields(pipeline, fields):
            unit_texts(f, out)

    # the fields the embedded judge checks first: those the judged units are not split from (their own field may
    # arrive under its camel-case name), else the first whole-metric field
    judged = pipeline.units_named(pipeline.question.units)
    split_from = judged.source if judged is not None else None
    needs = (
        tuple(f for f in pipeline.whole_metric_fields if f != split_from) or pipeline.whole_metric_fields[:1]
    )
    if w.offline == "any":
        return KindSpec(needs, lambda a: composite.strongest(ps(a), empty=empty), texts=texts)
    if w.offline == "share":

        def levels(a: Asked) -> list[float]:
            got = ps(a)
            if len(w.levels) == 4 and got:
                return composite.share_levels(got)
            return binomial_levels(mean(got, empty=pipeline.score.empty), max(2, len(w.levels)))

        return KindSpec(needs, lambda a: mean(ps(a), empty=pipeline.score.empty), levels=levels, texts=texts)
    return KindSpec(needs, lambda a: composite.weakest(ps(a), empty=empty), texts=texts)


def offline_kinds(pipeline: Pipeline) -> dict[str, KindSpec]:
    """The embedded judge's answers to ``pipeline``'s whole-metric kinds (those with an ``offline`` rule whose unit
    question is a kind the embedded judge answers)."""
    from deepeval.models.embedded.question_kinds import KINDS

    if pipeline.question.kind not in KINDS:
        return {}
    return {pipeline.kind_of(w): _spec(pipeline, w) for w in pipeline.whole_metric if w.offline is not None}
