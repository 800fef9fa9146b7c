"""``deepeval judge-eval --metric NAME`` for any pipeline metric whose unit question declares ``labels``: no runner
in the metric's folder. An item holds the metric's required test-case fields and its labelled units under the
units' name (Faithfulness: ``{"input", "actual_output", "retrieval_context", "claims": [{"text", "label",
"tags"}]}``). Each unit is decided exactly as a measure decides it, in the metric's eval mode
(:meth:`~deepeval.metrics.pipeline.PipelineMetric.decide_units`); the item's gold score is the share of units whose
label counts toward the score (:attr:`~deepeval.metrics.pipeline.spec.ShareScore.gold_passing`), against the
metric's own score of the test case. Baseline: word overlap of each unit with the question's first other field."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from deepeval.judge_eval import baselines
from deepeval.judge_eval.schema import Item, Line
from deepeval.judge_eval.units import ItemScore, Unit, decide_units
from deepeval.metrics.declaration import JudgeEvalTask
from deepeval.metrics.pipeline.spec import UNIT, Input, Pipeline
from deepeval.test_case import LLMTestCase

if TYPE_CHECKING:
    from deepeval.judge_eval.runners import Judging


def _pipeline(name: str) -> Pipeline:
    from deepeval.metrics import registry

    pipeline = registry.get(name).pipeline
    if pipeline is None:
        raise ValueError(f"metric {name!r} declares no pipeline")
    return pipeline


def check_item(ln: Line, obj: dict[str, Any], task: JudgeEvalTask) -> None:
    """The required fields (a string, or a list of strings for a list field such as ``retrieval_context``) and the
    labelled units (``text``, ``label`` from the task's labels, ``tags``)."""
    pipeline = _pipeline(task.name)
    for name in pipeline.required:
        value = obj.get(name)
        if isinstance(value, list):
            if not all(isinstance(v, str) for v in value):
                raise ln.fail(name, "must be a list of strings")
        else:
            ln.text(obj, name, name)
    units = pipeline.question.units
    for i, unit in enumerate(ln.items(obj, units, units)):
        where = f"{units}[{i}]"
        ln.text(unit, "text", f"{where}.text")
        ln.label(unit, f"{where}.label", task.labels)
        ln.tags(unit, f"{where}.tags")


def _reference(pipeline: Pipeline, data: dict[str, Any]) -> str:
    """The text of the unit question's first field that is not the unit (the baseline's reference)."""
    for value in pipeline.question.fields.values():
        source = value.source if isinstance(value, Input) else value
        if source != UNIT and source in data:
            got = data[source]
            return "\n".join(got) if isinstance(got, list) else str(got)
    return ""


async def run_item(j: Judging, item: Item) -> tuple[list[Unit], ItemScore | None]:
    metric = j.instance
    pipeline: Pipeline = metric.pipeline
    q = pipeline.question
    d = item.data
    case = LLMTestCase(**{name: d[name] for name in pipeline.required})
    reference = _reference(pipeline, d)
    units: list[Unit] = []
    for i, u in enumerate(d[q.units]):
        unit = Unit(
            item.id,
            f"{q.id_prefix}{i}",
            u["text"],
            u["label"],
            u["label"] == q.gold_labels[0],
            list(u.get("tags", [])),
            baseline_p=baselines.relevancy_overlap(reference, u["text"]),
        )
        unit.baseline_positive = baselines.relevant_by_overlap(unit.baseline_p)
        units.append(unit)
    await decide_units(
        j, units, lambda: metric.decide_units(metric.measure_context(), case, [u.text for u in units])
    )
    counted = pipeline.score.gold_passing or q.gold_labels[:1]
    gold = sum(u.gold in counted for u in units) / len(units)
    baseline = sum(u.baseline_positive for u in units) / len(units)
    score, error, seconds = await j.item_score(case)
    return units, ItemScore(item.id, gold, score, baseline, seconds, error)
