"""Conversation helpers for the embedded-judge regression tests."""

from __future__ import annotations

from _support.markers import known_limit
from deepeval.metrics import KnowledgeRetentionMetric
from deepeval.test_case import ConversationalTestCase, Turn


def kr_score(*messages: str) -> float:
    """KnowledgeRetention score (default eval mode) of a conversation whose messages alternate user, assistant,
    user, ... starting with the user."""
    turns = [Turn(role="user" if i % 2 == 0 else "assistant", content=m) for i, m in enumerate(messages)]
    return KnowledgeRetentionMetric().measure(ConversationalTestCase(turns=turns))


#: KnowledgeRetention on the embedded judge is precision first (deepeval.models.embedded.evidence): another name or
#: number near a fact forgets on only 23/50 and 25/54 of the blind-dev turns where it is the strongest evidence, so
#: such a turn is worth P(attrition) ~0.46: borderline ("unsure"), counted as keeping. These conflicts are real, and
#: the judge no longer says so with confidence; a strict xfail records it until a rule separates them on blind-dev.
PRECISION_FIRST = known_limit(
    strict=True,
    reason="known limit, precision first: name/number conflict worth P~0.46 on blind-dev (23/50, 25/54 forget)",
)
