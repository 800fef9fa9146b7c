"""``deepeval judge-eval --metric answer_relevancy``: one decision per labelled statement, asked exactly as the
metric asks it in its eval mode (:meth:`~deepeval.metrics.pipeline.PipelineMetric.decide_units`), plus the metric's
own score of the answer against the gold share of relevant statements."""

from __future__ import annotations

from typing import TYPE_CHECKING

from deepeval.judge_eval.schema import Item
from deepeval.judge_eval.units import ItemScore, Unit, decide_units, item_score, relevancy_unit
from deepeval.test_case import LLMTestCase

if TYPE_CHECKING:
    from deepeval.judge_eval.runners import Judging


async def run_item(j: Judging, item: Item) -> tuple[list[Unit], ItemScore | None]:
    d = item.data
    q = d["input"]
    case = LLMTestCase(input=q, actual_output=d["actual_output"])
    units = [relevancy_unit(item, f"s{i}", st, q) for i, st in enumerate(d["statements"])]
    metric = j.instance
    await decide_units(
        j, units, lambda: metric.decide_units(metric.measure_context(), case, [u.text for u in units])
    )
    score = await item_score(j, item, case, units)
    return units, score
