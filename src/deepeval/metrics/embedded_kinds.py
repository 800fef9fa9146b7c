"""Tells the embedded judge (a layer below) about the declared metrics' own question kinds: each declaration's
``embedded_kinds`` table, imported on first use and checked. Imported by ``deepeval.metrics``, which installs it with
:func:`deepeval.models.embedded.kind_spec.use_metric_kinds`."""

from __future__ import annotations

import functools
from collections.abc import Mapping

from deepeval.metrics import registry
from deepeval.metrics.declaration import MetricLoadError, resolve_part
from deepeval.metrics.pipeline.spec import Pipeline
from deepeval.models.embedded.kind_spec import KindSpec, use_metric_kinds


@functools.lru_cache(maxsize=64)
def _table(path: str) -> Mapping[str, KindSpec]:
    table = resolve_part(path, "embedded kinds")
    if not isinstance(table, Mapping) or not all(isinstance(v, KindSpec) for v in table.values()):
        raise MetricLoadError(
            f"embedded kinds {path!r} must map question kinds to KindSpec, not {type(table).__name__}"
            + ("" if not isinstance(table, Mapping) else " values of other types")
        )
    return table


def spec_of(kind: str) -> KindSpec | None:
    """The spec of ``kind`` from the declared metric that lists it (None: none does).

    Raises:
        MetricLoadError: that metric's table cannot be imported or is not a mapping of ``KindSpec``.
    """
    for declaration in registry.declarations():
        if kind not in declaration.question_kinds:
            continue
        if declaration.pipeline is not None:
            return _pipeline_table(declaration.pipeline).get(kind)
        if declaration.embedded_kinds is not None:
            return _table(declaration.embedded_kinds).get(kind)
    return None


def _pipeline_table(pipeline: Pipeline) -> Mapping[str, KindSpec]:
    from deepeval.metrics._engine.offline import offline_kinds

    return offline_kinds(pipeline)


def kind_names() -> set[str]:
    """Every declared metric kind the embedded judge answers."""
    out: set[str] = set()
    for d in registry.declarations():
        if d.pipeline is not None:
            out.update(k for k in d.question_kinds if k in _pipeline_table(d.pipeline))
        elif d.embedded_kinds is not None:
            out.update(k for k in d.question_kinds if k in _table(d.embedded_kinds))
    return out


use_metric_kinds(spec_of, kind_names)
