"""``deepeval judge-eval --metric knowledge_retention``: the metric's fact extraction and per-turn decision for
every labelled assistant turn (a labelled turn the metric does not check, with no fact known before it, counts as
"keeps" with P(forgets) = 0), plus the metric's score against the gold share of turns that keep."""

from __future__ import annotations

from typing import TYPE_CHECKING

from deepeval.judge_eval.schema import Item
from deepeval.judge_eval.units import ItemScore, Unit, item_score, take, timed
from deepeval.test_case import ConversationalTestCase, Turn

if TYPE_CHECKING:
    from deepeval.judge_eval.runners import Judging


async def run_item(j: Judging, item: Item) -> tuple[list[Unit], ItemScore | None]:
    d = item.data
    turns = [Turn(role=t["role"], content=t["content"]) for t in d["turns"]]
    units = [
        Unit(
            item.id,
            f"turn {lab['turn']}",
            turns[lab["turn"]].content,
            lab["label"],
            lab["label"] == "forgets",
            list(lab.get("tags", [])),
        )
        for lab in d["labels"]
    ]

    async def judge() -> None:
        _, decisions, _ = await j.instance._judge_turns(j.context(), turns)
        for u, lab in zip(units, d["labels"], strict=True):
            dec = decisions.get(f"t{lab['turn']}")
            if dec is None:
                u.p, u.verdict, u.note = 0.0, "keeps", "not checked: no fact known before this turn"
            else:
                take(u, j.task.declared.labels, dec)

    await timed(units, judge)
    case = ConversationalTestCase(turns=turns)
    return units, await item_score(j, item, case, units, baseline=1.0, keeps=True)
