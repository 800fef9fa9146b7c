"""Cross-metric System One batching (REFERENCE §3: in ``evaluate()`` the System One questions of several metrics
on the same test case go out as one request).

Plans (:class:`deepeval.metrics.base_metric.SystemOnePlan`) on the same test case whose ``model`` is the *same
object* merge into one request: states (dicts of test-case fields) are united, a question id already taken by
an earlier member of the batch is prefixed (``m<k>_<id>``, k = the member's position) so ids never collide; the
others go out as the metric wrote them (ids are billed like any other text). A plan joins the first batch with the same model whose state agrees on
every shared key and whose merged size stays inside the System One request budget (tokens estimated as
``ceil(chars / 3)``; state + longest question <= 32,000 and whole request <= 64,000, REFERENCE §5); otherwise it
starts a new batch. Answers are split back by that mapping; the request's cost and tokens are split by question share
(member questions / batch questions).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from deepeval.metrics.base_metric import SystemOnePlan
from deepeval.models.base_model import DeepEvalBaseSystemOneModel
from deepeval.models.system_one.schema import SystemOneAnswers, SystemOneQuestion

K = TypeVar("K")

STATE_PLUS_QUESTION_BUDGET = 32_000
REQUEST_BUDGET = 64_000


def estimate_tokens(value: Any) -> int:
    """``ceil(chars / 3)`` of the value's JSON text (strings as they are)."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return math.ceil(len(text) / 3)


def _question_tokens(q: SystemOneQuestion) -> int:
    return estimate_tokens(q.model_dump(mode="json", exclude_none=True))


@dataclass
class Member(Generic[K]):
    """One metric's part of a batch: ``ids`` maps the prefixed id to the metric's own question id."""

    key: K
    ids: dict[str, str]


@dataclass
class Batch(Generic[K]):
    """One merged request."""

    model: DeepEvalBaseSystemOneModel
    state: dict[str, Any] = field(default_factory=dict)
    questions: dict[str, SystemOneQuestion] = field(default_factory=dict)
    members: list[Member[K]] = field(default_factory=list)

    def _fits(self, plan: SystemOnePlan) -> bool:
        for k, v in plan.state.items():
            if k in self.state and self.state[k] != v:
                return False
        state = {**self.state, **plan.state}
        all_q = [*self.questions.values(), *plan.questions.values()]
        state_t = estimate_tokens(state)
        longest = max((_question_tokens(q) for q in all_q), default=0)
        whole = state_t + sum(_question_tokens(q) for q in all_q)
        return state_t + longest <= STATE_PLUS_QUESTION_BUDGET and whole <= REQUEST_BUDGET

    def add(self, key: K, plan: SystemOnePlan) -> None:
        n = len(self.members)
        # a metric's own id goes out as it is unless an earlier member already uses it (ids are billed text)
        ids: dict[str, str] = {}
        for qid in plan.questions:
            wire = qid
            while wire in self.questions or wire in ids:
                wire = f"m{n}_{wire}"
            ids[wire] = qid
        self.state.update(plan.state)
        for prefixed, qid in ids.items():
            self.questions[prefixed] = plan.questions[qid]
        self.members.append(Member(key, ids))


def group_plans(plans: list[tuple[K, SystemOnePlan]]) -> list[Batch[K]]:
    """Merge ``(key, plan)`` pairs into batches (see module docstring); order of first appearance is kept."""
    batches: list[Batch[K]] = []
    for key, plan in plans:
        target = next(
            (b for b in batches if b.model is plan.model and (not b.members or b._fits(plan))), None
        )
        if target is None:
            target = Batch(model=plan.model)
            batches.append(target)
        target.add(key, plan)
    return batches


def split_answers(
    batch: Batch[K], answers: SystemOneAnswers, cost: float | None
) -> list[tuple[K, SystemOneAnswers, float | None]]:
    """Per member: its answers under its own ids (missing answers stay missing), its share of ``cost`` (None when
    ``cost`` is None) and of the request's tokens (floored; the last member gets the remainder)."""
    total_q = max(1, len(batch.questions))
    out: list[tuple[K, SystemOneAnswers, float | None]] = []
    given_in = given_out = 0
    for i, member in enumerate(batch.members):
        share = len(member.ids) / total_q
        last = i == len(batch.members) - 1
        in_t = _share_tokens(answers.input_tokens, share, given_in, last)
        out_t = _share_tokens(answers.output_tokens, share, given_out, last)
        given_in += in_t or 0
        given_out += out_t or 0
        sub = SystemOneAnswers(
            nouls={own: answers.nouls[p] for p, own in member.ids.items() if p in answers.nouls},
            choices={own: answers.choices[p] for p, own in member.ids.items() if p in answers.choices},
            scores={own: answers.scores[p] for p, own in member.ids.items() if p in answers.scores},
            tiers={own: answers.tiers[p] for p, own in member.ids.items() if p in answers.tiers},
            stages={own: answers.stages[p] for p, own in member.ids.items() if p in answers.stages},
            model=answers.model,
            input_tokens=in_t,
            output_tokens=out_t,
        )
        out.append((member.key, sub, None if cost is None else cost * share))
    return out


def _share_tokens(total: int | None, share: float, given: int, last: bool) -> int | None:
    if total is None:
        return None
    return total - given if last else math.floor(total * share)
