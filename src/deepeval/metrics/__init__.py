"""Metrics. The concrete metrics are the ones the metric registry declares (:mod:`deepeval.metrics.registry`);
each is imported on first use so ``import deepeval.metrics`` stays light."""

from __future__ import annotations

import warnings
from typing import Any

from deepeval.metrics import embedded_kinds as _embedded_kinds  # noqa: F401  (tells the embedded judge)
from deepeval.metrics import registry
from deepeval.metrics.base_metric import BaseArenaMetric as BaseArenaMetric
from deepeval.metrics.base_metric import BaseConversationalMetric as BaseConversationalMetric
from deepeval.metrics.base_metric import BaseMetric as BaseMetric
from deepeval.metrics.declaration import MetricLoadError

_BASE = ["BaseArenaMetric", "BaseConversationalMetric", "BaseMetric"]


def _loadable() -> list[str]:
    """The exported names of the declared metrics whose class loads; a plugin's that does not is named in a
    warning and left out, so one broken plugin does not break ``from deepeval.metrics import *``."""
    names = []
    for d in registry.declarations():
        try:
            registry.load(d)
        except MetricLoadError as err:
            warnings.warn(f"deepeval: {err}", RuntimeWarning, stacklevel=3)
            continue
        names.append(d.public_name)
    return names


def __getattr__(name: str) -> Any:
    if name == "__all__":  # ``from deepeval.metrics import *``: the base classes and every declared metric
        return [*_BASE, *_loadable(), *registry.helper_names()]
    declaration = registry.by_public_name(name)
    if declaration is None:
        helper = registry.helper_path(
            name
        )  # a name exported beside a metric (GEvalTemplate, DeepAcyclicGraph)
        if helper is not None:
            from deepeval.metrics.declaration import resolve

            return resolve(helper)
        raise AttributeError(f"module 'deepeval.metrics' has no attribute {name!r}")
    return registry.load(
        declaration
    )  # MetricLoadError (an ImportError) names the metric, its class, its source


def __dir__() -> list[str]:
    return sorted({*globals(), *(d.public_name for d in registry.declarations()), *registry.helper_names()})
