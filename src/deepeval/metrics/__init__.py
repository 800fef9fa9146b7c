"""Metrics. Concrete metrics are imported lazily so ``import deepeval.metrics`` stays light."""

from __future__ import annotations

import importlib
from typing import Any

from deepeval.metrics.base_metric import BaseConversationalMetric, BaseMetric

_LAZY = {
    "AnswerRelevancyMetric": "deepeval.metrics.answer_relevancy",
    "ContextualRelevancyMetric": "deepeval.metrics.contextual_relevancy",
    "KnowledgeRetentionMetric": "deepeval.metrics.knowledge_retention",
    "MemoryRecallMetric": "deepeval.memory.metrics",
    "MemoryPrecisionMetric": "deepeval.memory.metrics",
}

__all__ = ["BaseConversationalMetric", "BaseMetric", *_LAZY]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'deepeval.metrics' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
