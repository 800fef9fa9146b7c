"""``deepeval judge-eval --metric fact_stated``: one ``fact_stated`` question to the System One judge per item
(judge-eval's own task, no metric's)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from deepeval.judge_eval import baselines
from deepeval.judge_eval.schema import Item
from deepeval.judge_eval.units import ItemScore, Unit, error_text

if TYPE_CHECKING:
    from deepeval.judge_eval.runners import Judging


async def fact_stated_item(j: Judging, item: Item) -> tuple[list[Unit], ItemScore | None]:
    """One ``fact_stated`` question to the System One judge: does the text state the fact? (contradicted and not
    stated are both "no")."""
    from deepeval.models.system_one.call import a_decide_checked
    from deepeval.models.system_one.kinds import FACT_STATED
    from deepeval.models.system_one.schema import NoulQuestion

    d = item.data
    u = Unit(
        item.id,
        "fact",
        d["fact"],
        d["label"],
        d["label"] == "stated",
        list(item.tags),
        baseline_p=baselines.claim_overlap(d["fact"], d["text"]),
    )
    u.baseline_positive = u.baseline_p >= 0.5
    question = NoulQuestion(
        instructions=f"Does the text in `text` state this fact: {d['fact']}",
        kind=FACT_STATED,
        data={"text": d["text"], "fact": d["fact"]},
    )
    t0 = time.perf_counter()
    try:
        answers, _ = await a_decide_checked(j.system_one, {"text": d["text"]}, {"q": question})
        noul = answers.nouls.get("q")
        if noul is None:
            raise RuntimeError("the judge gave no answer")
        u.p = noul.probability
        u.tier = answers.tiers.get("q")
        u.stages = answers.stages.get("q")
        u.verdict = "unsure" if u.tier == "unsure" else ("stated" if u.p >= 0.5 else "not stated")
    except Exception as err:
        u.error = error_text(err)
    u.seconds = time.perf_counter() - t0
    return [u], None
