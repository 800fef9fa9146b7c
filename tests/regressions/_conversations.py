"""Conversation helpers for the embedded-judge regression tests."""

from __future__ import annotations

from deepeval.metrics import KnowledgeRetentionMetric
from deepeval.test_case import ConversationalTestCase, Turn


def kr_score(*messages: str) -> float:
    """KnowledgeRetention score (default eval mode) of a conversation whose messages alternate user, assistant,
    user, ... starting with the user."""
    turns = [Turn(role="user" if i % 2 == 0 else "assistant", content=m) for i, m in enumerate(messages)]
    return KnowledgeRetentionMetric().measure(ConversationalTestCase(turns=turns))
