"""Tells the embedded judge (a layer below) about the declared metrics' own question kinds: each declaration's
``embedded_kinds`` table, imported on first use and checked. Imported by ``deepeval.metrics``, which installs it with
:func:`deepeval.models.embedded.kind_spec.use_metric_kinds`."""

from __future__ import annotations

import functools
from collections.abc import Mapping

from deepeval.metrics import registry
from deepeval.metrics.declaration import MetricLoadError, resolve_part
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
        if declaration.embedded_kinds is not None and kind in declaration.question_kinds:
            return _table(declaration.embedded_kinds).get(kind)
    return None


def kind_names() -> set[str]:
    """Every declared metric kind the embedded judge answers."""
    return {
        k
        for d in registry.declarations()
        if d.embedded_kinds is not None
        for k in d.question_kinds
        if k in _table(d.embedded_kinds)
    }


use_metric_kinds(spec_of, kind_names)
