"""The public metric-building API: declare a metric's pipeline, and every eval mode comes from the declaration.

See ``docs/metric_api.md`` for a worked example. Public and stable (fields are added, never renamed):

* the declaration values (:mod:`deepeval.metrics.pipeline.spec`): :class:`Pipeline`, :class:`Units`,
  :class:`UnitQuestion`, :class:`WholeMetricQuestion`, :class:`ShareScore`, :class:`RankScore`, :class:`Reason`,
  :class:`NothingToJudge`, :class:`Input`, :class:`Contradiction`, :data:`UNIT`;
* :class:`PipelineMetric`: the base class of a declared metric (``pipeline = ...``, ``default_template = ...``);
* :func:`declare`: the registry's :class:`~deepeval.metrics.declaration.MetricDeclaration` of a pipeline metric;
* reply schemas to subclass under your metric's names: :class:`TernaryVerdict` (yes / no / idk, read as
  borderline), :class:`BinaryVerdict` (yes / no), :class:`ReasonReply` (``{"reason": str}``); the extraction
  replies are any pydantic class with a list field (``Units.schema``).

Prompts quote the material under evaluation with :func:`deepeval.metrics.delimit.quote` / ``quote_list`` (labels
declared in ``Pipeline.labels``) after :data:`deepeval.metrics.delimit.DATA_NOTICE`.

The values import nothing heavy, so a folder's ``declaration.py`` may build them; :class:`PipelineMetric` (the
engine) is imported on first use.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from deepeval.metrics.pipeline.spec import (
    UNIT,
    Answer,
    Contradiction,
    Extraction,
    Input,
    NothingToJudge,
    Pipeline,
    RankScore,
    Reason,
    ShareScore,
    UnitQuestion,
    Units,
    VerdictSet,
    WholeMetricQuestion,
)

if TYPE_CHECKING:
    from deepeval.metrics._engine.pipeline import PipelineMetric, PipelineQuestions
    from deepeval.metrics._engine.schemas import BinaryVerdict, ReasonReply, TernaryVerdict
    from deepeval.metrics.declaration import CliDefault, JudgeEvalTask, MetricDeclaration

__all__ = [
    "UNIT",
    "Answer",
    "BinaryVerdict",
    "Contradiction",
    "Extraction",
    "Input",
    "NothingToJudge",
    "Pipeline",
    "PipelineMetric",
    "PipelineQuestions",
    "RankScore",
    "Reason",
    "ReasonReply",
    "ShareScore",
    "TernaryVerdict",
    "UnitQuestion",
    "Units",
    "VerdictSet",
    "WholeMetricQuestion",
    "declare",
]


def declare(
    pipeline: Pipeline,
    *,
    public_name: str,
    cls: str,
    cli_default: CliDefault | None = None,
    judge_eval: tuple[JudgeEvalTask, ...] = (),
    example_args: Mapping[str, Any] | None = None,
) -> MetricDeclaration:
    """The :class:`~deepeval.metrics.declaration.MetricDeclaration` of a pipeline metric: its name, required fields
    and question kinds come from ``pipeline``; it takes ``eval_mode=``; the embedded judge answers its whole-metric
    kinds from the pipeline. ``cls``: ``"package.module:Class"`` of its :class:`PipelineMetric` subclass.
    ``judge_eval``: its labelled-set tasks; by default, when the unit question declares ``gold_labels``, one task named
    like the metric whose items carry the required fields and the labelled units
    (:mod:`deepeval.metrics._engine.judge_eval`). ``example_args``: the constructor arguments of a metric that cannot
    be built with none (:attr:`~deepeval.metrics.declaration.MetricDeclaration.example_args`)."""
    from deepeval.metrics.declaration import JudgeEvalTask, MetricDeclaration

    if not judge_eval and len(pipeline.question.gold_labels) >= 2:
        engine = "deepeval.metrics._engine.judge_eval"
        judge_eval = (
            JudgeEvalTask(
                name=pipeline.name,
                labels=pipeline.question.gold_labels,
                check=f"{engine}:check_item",
                runner=f"{engine}:run_item",
                baseline="word overlap",
            ),
        )

    return MetricDeclaration(
        name=pipeline.name,
        public_name=public_name,
        cls=cls,
        conversational=False,
        required_params=pipeline.required,
        question_kinds=pipeline.question_kinds,
        takes_eval_mode=True,
        cli_default=cli_default,
        judge_eval=judge_eval,
        pipeline=pipeline,
        example_args=dict(example_args or {}),
    )


def __getattr__(name: str) -> Any:
    if name in ("PipelineMetric", "PipelineQuestions"):
        from deepeval.metrics._engine import pipeline as engine

        return getattr(engine, name)
    if name in ("BinaryVerdict", "ReasonReply", "TernaryVerdict"):
        from deepeval.metrics._engine import schemas

        return getattr(schemas, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
