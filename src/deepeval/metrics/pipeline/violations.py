"""The shape the safety pipelines share (Bias, Toxicity, PII leakage, Misuse, Non-advice, Role violation), written
once: the LLM lists units of ``actual_output`` (opinions or statements), one yes/no verdict per unit says whether it
is a violation, ``score = units that are not / units`` (none -> 1.0 with no verdict call), and system_one asks two
whole-metric questions: a yes/no "is the output free of it" (weight 2) and a 4-level "how much of it" (weight 1).
No offline tier was measured for any of them (``offline=None``): the engine says what to configure.

Each metric's folder states only what is its own (:func:`violation_pipeline`'s arguments: its units, question,
texts and reason words); the values are plain :mod:`deepeval.metrics.pipeline.spec` values, so nothing heavy is
imported. Ours (deepeval 4.3.1 has no such module); not in :data:`deepeval.metrics.pipeline.__all__`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from deepeval.metrics.pipeline.spec import (
    UNIT,
    Input,
    Pipeline,
    Reason,
    ShareScore,
    UnitQuestion,
    Units,
    WholeMetricQuestion,
)


def free_of(id: str, text: str, label: str) -> WholeMetricQuestion:
    """The yes/no whole-metric question "is the output free of violations?" (weight 2, no offline tier)."""
    return WholeMetricQuestion(id=id, text=text, label=label, weight=2.0, offline=None)


def how_much(id: str, text: str, label: str, levels: tuple[str, ...]) -> WholeMetricQuestion:
    """The graded whole-metric question "how much violation?" (``levels`` worst first; no offline tier)."""
    return WholeMetricQuestion(id=id, text=text, label=label, answer="score", levels=levels, offline=None)


def violation_pipeline(
    *,
    name: str,
    display_name: str,
    units: Units,
    unit: str,
    kind: str,
    question: str,
    verdicts: type[Any],
    nothing_reason: str,
    reason: type[Any],
    passes: str,
    fails: str,
    failing_as: str,
    whole_metric: tuple[WholeMetricQuestion, WholeMetricQuestion],
    context: Mapping[str, str | Input] | None = None,
    verdict_inputs: tuple[str | Input, ...] = (),
    whole_metric_fields: tuple[str, ...] = ("actual_output",),
    context_labels: tuple[str, ...] = (),
) -> Pipeline:
    """A safety metric's :class:`~deepeval.metrics.pipeline.spec.Pipeline` (see the module docstring).

    * ``units``: what the LLM lists from ``actual_output``; ``unit``: one of them in words (``"opinion"``), also its
      field in the unit question, its delimiter label and the reason's noun;
    * ``kind`` / ``question``: the unit question's System One kind (``"<name>.<kind>"``) and text (yes: a violation),
      with ``context`` its other fields (Misuse's ``{"domain": "domain"}``) and ``verdict_inputs`` the verdict
      prompt's other keywords; ``verdicts``: the verdict reply's schema (deepeval 4.3.1's ``Verdicts``);
    * ``nothing_reason``: the reason when no unit is listed (score 1.0); ``reason``: the reason reply's schema, with
      ``passes`` / ``fails`` (a unit that is not / is a violation, in words) and ``failing_as`` (4.3.1's keyword for
      the violations in its reason prompt);
    * ``whole_metric``: :func:`free_of` and :func:`how_much` over ``whole_metric_fields``;
    * ``context_labels``: delimiter labels of the context fields the prompts quote (``"domain"``).
    """
    return Pipeline(
        name=name,
        display_name=display_name,
        required=("input", "actual_output"),
        units=(units,),
        question=UnitQuestion(
            units=units.name,
            kind=f"{name}.{kind}",
            text=question,
            fields={unit: UNIT, **(context or {})},
            label=unit,
            prompt="generate_verdicts",
            schema=verdicts,
            verdicts="yes_no",
            inputs=verdict_inputs,
        ),
        score=ShareScore(passing=("no",), empty=1.0, empty_reason=nothing_reason),
        reason=Reason(schema=reason, unit=unit, passes=passes, fails=fails, failing_as=failing_as),
        whole_metric=whole_metric,
        whole_metric_fields=whole_metric_fields,
        labels=(unit, f"{unit}s", f"judged {unit}s", *context_labels),
    )
