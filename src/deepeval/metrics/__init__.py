"""Metrics. The concrete metrics are the ones the metric registry declares (:mod:`deepeval.metrics.registry`);
each is imported on first use so ``import deepeval.metrics`` stays light."""

from __future__ import annotations

from typing import Any

from deepeval.metrics import registry
from deepeval.metrics.base_metric import BaseConversationalMetric as BaseConversationalMetric
from deepeval.metrics.base_metric import BaseMetric as BaseMetric

_BASE = ["BaseConversationalMetric", "BaseMetric"]


def __getattr__(name: str) -> Any:
    if name == "__all__":  # ``from deepeval.metrics import *``: the base classes and every declared metric
        return [*_BASE, *(d.public_name for d in registry.declarations())]
    declaration = registry.by_public_name(name)
    if declaration is None:
        raise AttributeError(f"module 'deepeval.metrics' has no attribute {name!r}")
    return declaration.load()


def __dir__() -> list[str]:
    return sorted({*globals(), *__getattr__("__all__")})
