"""The toy's judge-eval task: one labelled unit per item (does the output overlap the input?)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from deepeval.judge_eval.schema import Item, Line
from deepeval.judge_eval.units import ItemScore, Unit, error_text
from deepeval.metrics.declaration import JudgeEvalTask
from deepeval.test_case import LLMTestCase

if TYPE_CHECKING:
    from deepeval.judge_eval.runners import Judging


def check_item(ln: Line, obj: dict[str, Any], task: JudgeEvalTask) -> None:
    ln.text(obj, "input", "input")
    ln.text(obj, "actual_output", "actual_output")
    ln.label(obj, "label", task.labels)


async def run_item(j: Judging, item: Item) -> tuple[list[Unit], ItemScore | None]:
    d = item.data
    unit = Unit(item.id, "item", d["actual_output"], d["label"], d["label"] == "overlaps", list(item.tags))
    unit.baseline_p, unit.baseline_positive = 1.0, True
    try:
        unit.p = await j.instance.fresh_copy().a_measure(
            LLMTestCase(input=d["input"], actual_output=d["actual_output"])
        )
        unit.verdict = "overlaps" if unit.p >= 0.5 else "disjoint"
    except Exception as err:
        unit.error = error_text(err)
    return [unit], None


# -- for the registry's failure tests: a runner that raises on one item, one that returns nothing, a check that
# -- raises something other than the line's own error
async def run_item_failing_on_t2(j: Judging, item: Item) -> tuple[list[Unit], ItemScore | None]:
    if item.id == "t2":
        raise RuntimeError("the toy runner broke on t2")
    return await run_item(j, item)


async def run_item_returning_none(j: Judging, item: Item) -> None:
    return None


def check_item_raising_key_error(ln: Line, obj: dict[str, Any], task: JudgeEvalTask) -> None:
    obj["no_such_field"]
