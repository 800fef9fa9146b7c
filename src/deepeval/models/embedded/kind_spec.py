"""The shape of one embedded-judge question kind (:class:`KindSpec`) and what its scorer sees (:class:`Asked`).

The shared decision kinds are listed in :data:`deepeval.models.embedded.question_kinds.KINDS`; a metric's own
whole-metric kinds are listed in its folder (``deepeval/metrics/<name>/embedded.py``). The metric layer, above this
one, tells the judge about them with :func:`use_metric_kinds` (:mod:`deepeval.metrics.embedded_kinds` does, when
``deepeval.metrics`` is imported), so this package never imports the metrics.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from deepeval.errors import UnsupportedQuestionError
from deepeval.models.system_one import kinds as K


@dataclass
class Texts:
    """What one request will encode: query texts, passage texts, and documents whose sentences are passages."""

    queries: set[str] = field(default_factory=set)
    passages: set[str] = field(default_factory=set)
    documents: set[str] = field(default_factory=set)


@dataclass
class Asked:
    """One question as its scorer sees it: its kind, its fields, and the request's memo (the whole-metric
    extractions of one test case, shared by every question of the request)."""

    kind: str
    fields: dict[str, Any]
    memo: dict[str, Any]
    model: str

    def text(self, name: str) -> str:
        return field_text(self.fields, name)

    def optional(self, name: str) -> str | None:
        value = self.fields.get(name)
        return str(value) if value else None

    def composed(self, key: str, compose: Callable[[dict[str, Any]], Any]) -> Any:
        """``compose(fields)`` once per request under ``key`` (the metric's name): the whole-metric extraction
        every question of one metric shares."""
        if key not in self.memo:
            self.memo[key] = compose(self.fields)
        return self.memo[key]

    def grade(self) -> list[float]:
        """The 5-level distribution of ``answer_matches_expected`` (index 0..4 = grades 1..5)."""
        try:
            from deepeval.models.embedded.grading import grade_answer
        except ImportError as exc:
            raise UnsupportedQuestionError(
                f"answer grading is not available in this installation ({exc})",
                model=self.model,
                question_kind=K.ANSWER_MATCHES_EXPECTED,
            ) from exc
        f = self.fields
        graded = grade_answer(str(f["question"]), str(f["expected"]), str(f["answer"]))
        if graded.probabilities:
            return [graded.probabilities.get(i, 0.0) for i in range(5)]
        return binomial_levels(min(1.0, graded.score / 4.0), 5)


@dataclass(frozen=True)
class KindSpec:
    """One question kind: the fields it needs (checked in this order, from ``question.data`` or the state), the
    texts it encodes, P(yes), and its own level distribution for score questions (None: Binomial from P(yes))."""

    fields: tuple[str, ...]
    probability: Callable[[Asked], float]
    levels: Callable[[Asked], list[float]] | None = None
    texts: Callable[[dict[str, Any], Texts], None] | None = None


def binomial_levels(p: float, n_levels: int) -> list[float]:
    """Binomial(n_levels - 1, p) over level indices 0..n_levels-1 (expected level ``(n_levels - 1) * p``)."""
    n = n_levels - 1
    return [math.comb(n, k) * p**k * (1.0 - p) ** (n - k) for k in range(n_levels)]


def expected_share(dist: list[float]) -> float:
    """The expected level of ``dist`` over its top level, in [0, 1]."""
    return min(1.0, max(0.0, sum(i * q for i, q in enumerate(dist)) / (len(dist) - 1)))


def mean(ps: list[float], empty: float) -> float:
    """The mean of ``ps``, or ``empty`` when there are none."""
    return sum(ps) / len(ps) if ps else empty


def field_text(fields: dict[str, Any], name: str) -> str:
    """The field ``name`` when it is a string, else ``""`` (a missing field adds nothing; its scorer reports it)."""
    value = fields.get(name)
    return value if isinstance(value, str) else ""


def _no_metric_kind(kind: str) -> KindSpec | None:
    return None


#: the metric layer's answers: a kind's spec (None: no declared metric has it) and every declared metric kind
_metric_kind: Callable[[str], KindSpec | None] = _no_metric_kind
_metric_kind_names: Callable[[], Iterable[str]] = tuple
#: loads the metric layer, which then calls :func:`use_metric_kinds` (set by ``deepeval/__init__``, the one module
#: above both layers); called once, the first time a metric kind is asked before the metric layer was imported
_load_metric_layer: Callable[[], object] | None = None


def use_metric_kinds(lookup: Callable[[str], KindSpec | None], names: Callable[[], Iterable[str]]) -> None:
    """Where the embedded judge finds the declared metrics' own kinds (set by :mod:`deepeval.metrics.embedded_kinds`)."""
    global _metric_kind, _metric_kind_names
    _metric_kind, _metric_kind_names = lookup, names


def use_metric_layer(load: Callable[[], object]) -> None:
    """How to load the metric layer on first need (``deepeval/__init__`` passes an import of ``deepeval.metrics``):
    a fresh process that asks the embedded judge a metric's kind gets its answer without importing the metrics
    itself."""
    global _load_metric_layer
    _load_metric_layer = load


def _metric_layer() -> None:
    global _load_metric_layer
    load = _load_metric_layer
    if _metric_kind is _no_metric_kind and load is not None:
        _load_metric_layer = None
        load()


def metric_kind(kind: str) -> KindSpec | None:
    """A declared metric's own kind, as :func:`use_metric_kinds` was told (the metric layer loaded first)."""
    _metric_layer()
    return _metric_kind(kind)


def metric_kind_names() -> frozenset[str]:
    _metric_layer()
    return frozenset(_metric_kind_names())
