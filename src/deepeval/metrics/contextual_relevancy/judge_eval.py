"""``deepeval judge-eval --metric contextual_relevancy``: one decision per labelled statement of each retrieved
node, asked as the metric asks it in its eval mode, plus the metric's own score of the retrieval context against
the gold share of relevant statements."""

from __future__ import annotations

from typing import TYPE_CHECKING

from deepeval.judge_eval.schema import Item
from deepeval.judge_eval.units import ItemScore, Unit, decide_units, item_score, relevancy_unit
from deepeval.test_case import LLMTestCase

if TYPE_CHECKING:
    from deepeval.judge_eval.runners import Judging


async def run_item(j: Judging, item: Item) -> tuple[list[Unit], ItemScore | None]:
    d = item.data
    q, nodes = d["input"], list(d["retrieval_context"])
    per_node: list[list[str]] = [[] for _ in nodes]
    units: list[Unit] = []
    for st in d["statements"]:
        n = st["node"]
        units.append(relevancy_unit(item, f"n{n}s{len(per_node[n])}", st, q))
        per_node[n].append(st["text"])
    await decide_units(j, units, lambda: j.instance._decide(j.context(), q, per_node, nodes))
    case = LLMTestCase(
        input=q, actual_output=d.get("actual_output") or "(not given)", retrieval_context=nodes
    )
    return units, await item_score(j, item, case, units)
