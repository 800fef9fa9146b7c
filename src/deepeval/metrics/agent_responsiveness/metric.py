"""AgentResponsivenessMetric: did the agent answer every user turn that was owed an answer? deepeval 4.3.1's voice
metric of that name, judge-free, from the turns alone (no audio is decoded).

For each user turn that is owed an answer (one that does not end the call: "bye", "goodbye", "thank you",
"thanks", "that's all", "that is all", ignoring case and a final "." or "!"):

* nothing after it: the agent failed to respond (critical);
* another user turn after it: the user had to re-prompt (each costs 0.25);
* an assistant turn without ``audio`` after it: the answer was never spoken (critical; a voice metric);

and ``metadata["end_reason"]`` (or ``endReason``) of ``AGENT_HANGUP``, ``ERROR`` or ``IDLE_TIMEOUT`` is a critical
unexpected end. Score: 0.0 with any critical event, else ``1 - 0.25 x re-prompts`` (not below 0). The events are
the ``score_breakdown`` (``critical_failure``, ``events``).
"""

from __future__ import annotations

from typing import Any

from deepeval.metrics._engine.judge_free import Computed, JudgeFreeMetric
from deepeval.metrics._engine.params import require_turns
from deepeval.metrics.base_metric import BaseConversationalMetric

#: endings of a user turn that owes no answer
CLOSINGS = ("bye", "goodbye", "thank you", "thanks", "that's all", "that is all")
#: ``end_reason`` values that end a call unexpectedly
UNEXPECTED_ENDS = frozenset({"AGENT_HANGUP", "ERROR", "IDLE_TIMEOUT"})
#: score lost per re-prompt
REPROMPT_COST = 0.25


def owes_answer(content: str) -> bool:
    text = content.strip().lower().rstrip(".!")
    return not text.endswith(CLOSINGS)


def responsiveness_events(
    turns: list[Any], metadata: dict[str, Any] | None
) -> tuple[list[dict[str, Any]], int]:
    """The events (type, turn index, critical) and the number of re-prompts."""
    events: list[dict[str, Any]] = []
    reprompts = 0
    for index, turn in enumerate(turns):
        if turn.role != "user" or not owes_answer(turn.content):
            continue
        following = turns[index + 1] if index + 1 < len(turns) else None
        if following is None:
            events.append({"type": "agent_failed_to_respond", "turn": index, "critical": True})
        elif following.role == "user":
            reprompts += 1
            events.append({"type": "user_reprompted", "turn": index + 1, "critical": False})
        elif following.audio is None:
            events.append({"type": "assistant_audio_missing", "turn": index + 1, "critical": True})
    end = (metadata or {}).get("end_reason") or (metadata or {}).get("endReason")
    if isinstance(end, str) and end.upper() in UNEXPECTED_ENDS:
        events.append({"type": "unexpected_end", "end_reason": end, "critical": True})
    return events, reprompts


class AgentResponsivenessMetric(JudgeFreeMetric, BaseConversationalMetric):
    """See the module docstring. Keyword-only arguments, as in 4.3.1."""

    def __init__(
        self,
        *,
        threshold: float | None = 0.5,
        include_reason: bool = True,
        strict_mode: bool = False,
        verbose_mode: bool = False,
        flaky: bool = False,
    ) -> None:
        super().__init__(
            threshold=threshold,
            include_reason=include_reason,
            async_mode=False,
            strict_mode=strict_mode,
            verbose_mode=verbose_mode,
            flaky=flaky,
        )

    @property
    def __name__(self) -> str:
        return "Agent Responsiveness"

    def _compute(self, test_case: Any) -> Computed:
        require_turns(test_case, self.__name__)
        events, reprompts = responsiveness_events(list(test_case.turns), test_case.metadata)
        critical = any(e["critical"] for e in events)
        score = 0.0 if critical else max(0.0, min(1.0, 1.0 - reprompts * REPROMPT_COST))
        if not events:
            reason = "The agent answered every user turn without needing a re-prompt."
        elif critical:
            reason = "Critical responsiveness failure: " + ", ".join(e["type"] for e in events) + "."
        else:
            reason = f"Responsiveness {score:.2f}: the user had to re-prompt {reprompts} time(s)."
        breakdown = {"critical_failure": critical, "events": events}
        return Computed(score=score, reason=reason, steps=[("Events", repr(events))], breakdown=breakdown)
