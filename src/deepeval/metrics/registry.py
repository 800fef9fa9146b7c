"""The metric registry: every metric's :class:`~deepeval.metrics.declaration.MetricDeclaration`, by name.

Three sources, in this order: the metric packages listed in :data:`BUILTIN` (one line per metric package, each a
module with ``DECLARATIONS``), packages installed with an entry point in the group :data:`ENTRY_POINT_GROUP`
(the entry point names a ``MetricDeclaration`` or a tuple of them), and :func:`register_metric` at run time (a
test's or a notebook's metric). The list is explicit rather than filled by import-time decorators so that
``import deepeval`` stays light and the order stays stable. Adding a metric to this project is a new folder under
``deepeval/metrics/`` plus one line in :data:`BUILTIN`.
"""

from __future__ import annotations

import importlib
import threading
import warnings
from collections.abc import Iterable
from importlib.metadata import entry_points

from deepeval.metrics.declaration import JudgeEvalTask, MetricDeclaration

#: the modules that declare this project's metrics
BUILTIN = (
    "deepeval.metrics.answer_relevancy.declaration",
    "deepeval.metrics.contextual_relevancy.declaration",
    "deepeval.metrics.knowledge_retention.declaration",
    "deepeval.memory.declaration",
)
#: installed packages declare metrics under this entry-point group
ENTRY_POINT_GROUP = "deepeval_metrics"

_lock = threading.Lock()
_loaded: dict[str, MetricDeclaration] | None = None
_registered: dict[str, MetricDeclaration] = {}


def _as_declarations(obj: object, source: str) -> list[MetricDeclaration]:
    items = list(obj) if isinstance(obj, (tuple, list)) else [obj]
    for item in items:
        if not isinstance(item, MetricDeclaration):
            raise TypeError(f"{source} gives a {type(item).__name__}, not a MetricDeclaration")
    return items  # type: ignore[return-value]


def _plugin_declarations() -> Iterable[MetricDeclaration]:
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        try:
            yield from _as_declarations(ep.load(), f"entry point {ep.name!r} ({ep.value})")
        except Exception as err:  # a broken plugin is named, and the built-in metrics still work
            warnings.warn(
                f"deepeval: metric plugin {ep.name!r} ({ep.value}) was not loaded: {type(err).__name__}: {err}",
                RuntimeWarning,
                stacklevel=3,
            )


def _load() -> dict[str, MetricDeclaration]:
    global _loaded
    with _lock:
        if _loaded is None:
            found: dict[str, MetricDeclaration] = {}
            for module in BUILTIN:
                for d in _as_declarations(importlib.import_module(module).DECLARATIONS, module):
                    found[d.name] = d
            for d in _plugin_declarations():
                if d.name in found:
                    warnings.warn(
                        f"deepeval: metric plugin declares {d.name!r}, which is already declared; ignored",
                        RuntimeWarning,
                        stacklevel=2,
                    )
                    continue
                found[d.name] = d
            _loaded = found
        return {**_loaded, **_registered}


def declarations() -> tuple[MetricDeclaration, ...]:
    """Every declared metric: built-in first, then plugins, then those registered at run time."""
    return tuple(_load().values())


def names() -> tuple[str, ...]:
    return tuple(_load())


def find(name: str) -> MetricDeclaration | None:
    """The declaration called ``name`` (``answer_relevancy``; ``-`` and case are ignored), else None."""
    return _load().get(name.strip().lower().replace("-", "_"))


def get(name: str) -> MetricDeclaration:
    """The declaration called ``name``.

    Raises:
        ValueError: no metric has that name (the message lists the names).
    """
    found = find(name)
    if found is None:
        raise ValueError(f"unknown metric {name!r}; one of {', '.join(names())}")
    return found


def by_public_name(public_name: str) -> MetricDeclaration | None:
    """The declaration whose class ``deepeval.metrics`` exports as ``public_name``."""
    return next((d for d in _load().values() if d.public_name == public_name), None)


def for_class(cls: type) -> MetricDeclaration | None:
    """The declaration of ``cls`` or of the nearest declared class it subclasses (a user's subclass of
    ``AnswerRelevancyMetric`` is answer relevancy)."""
    paths = {d.cls: d for d in _load().values()}
    for klass in cls.__mro__:
        found = paths.get(f"{klass.__module__}:{klass.__qualname__}")
        if found is not None:
            return found
    return None


def judge_eval_tasks() -> dict[str, tuple[JudgeEvalTask, MetricDeclaration]]:
    """Every declared judge-eval task by name, with the metric that declares it."""
    return {t.name: (t, d) for d in _load().values() for t in d.judge_eval}


def register_metric(declaration: MetricDeclaration) -> None:
    """Declare a metric at run time (a test's or a notebook's); :func:`unregister_metric` takes it back.

    Raises:
        ValueError: a metric of that name is already declared.
    """
    _as_declarations(declaration, "register_metric")
    if declaration.name in _load():
        raise ValueError(f"a metric called {declaration.name!r} is already declared")
    with _lock:
        _registered[declaration.name] = declaration


def unregister_metric(name: str) -> None:
    """Remove a metric :func:`register_metric` added (built-in and plugin metrics stay)."""
    with _lock:
        _registered.pop(name, None)
