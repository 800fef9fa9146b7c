"""``deepeval judge-eval --metric memory_grade`` / ``claim_support``: the memory judge
(:func:`deepeval.memory.judges.resolve_memory_judge`: the LLM when one is configured or given, else the embedded
grader) grades each labelled answer 1-5 / verifies each labelled claim against its transcript."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from deepeval.judge_eval import baselines
from deepeval.judge_eval.schema import Item
from deepeval.judge_eval.units import ItemScore, Unit, error_text
from deepeval.memory.artifact import MemoryArtifact

if TYPE_CHECKING:
    from deepeval.judge_eval.runners import Judging


async def grade_item(j: Judging, item: Item) -> tuple[list[Unit], ItemScore | None]:
    d = item.data
    gold = int(d["grade"])
    unit = Unit(item.id, "item", d["answer"], str(gold), gold >= 3, list(item.tags), gold_grade=gold)
    unit.baseline_grade = baselines.grade_by_overlap(d["expected"], d["answer"])
    unit.baseline_p = (unit.baseline_grade - 1) / 4
    unit.baseline_positive = unit.baseline_grade >= 3
    t0 = time.perf_counter()
    try:
        graded = await j.memory_judge.grade(d["question"], d["expected"], d["answer"], [])
        unit.grade = int(graded.score)
        unit.p = (unit.grade - 1) / 4
        unit.verdict = str(unit.grade)
    except Exception as err:
        unit.error = error_text(err)
    unit.seconds = time.perf_counter() - t0
    return [unit], None


async def claim_support_item(j: Judging, item: Item) -> tuple[list[Unit], ItemScore | None]:
    d = item.data
    transcript = MemoryArtifact.from_turns(d["transcript"])
    text = "\n".join(t["content"] for t in d["transcript"])
    units: list[Unit] = []
    for i, claim in enumerate(d["claims"]):
        u = Unit(
            item.id,
            f"claim {i}",
            claim["text"],
            claim["label"],
            claim["label"] == "supported",
            list(claim.get("tags", [])),
            baseline_p=baselines.claim_overlap(claim["text"], text),
        )
        u.baseline_positive = u.baseline_p >= 0.5
        t0 = time.perf_counter()
        try:
            graded, _ = await j.memory_judge.verify(claim["text"], transcript)
            u.grade = int(graded.score)
            u.p = (u.grade - 1) / 4
            u.verdict = "supported" if u.p >= 0.5 else "not supported"
            u.tier = getattr(graded, "tier", None)
            u.stages = getattr(graded, "stages", None)
        except Exception as err:
            u.error = error_text(err)
        u.seconds = time.perf_counter() - t0
        units.append(u)
    return units, None
