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
import keyword
import pkgutil
import sys
import threading
import warnings
from collections.abc import Callable
from importlib.metadata import entry_points
from typing import Any

from deepeval.metrics.declaration import (
    DeclarationError,
    JudgeEvalTask,
    MetricDeclaration,
    MetricLoadError,
    check_declaration,
)

#: the modules that declare this project's metrics
BUILTIN = (
    "deepeval.metrics.answer_relevancy.declaration",
    "deepeval.metrics.contextual_relevancy.declaration",
    "deepeval.metrics.knowledge_retention.declaration",
    "deepeval.metrics.faithfulness.declaration",
    "deepeval.metrics.bias.declaration",
    "deepeval.metrics.toxicity.declaration",
    "deepeval.metrics.turn_relevancy.declaration",
    "deepeval.metrics.conversation_completeness.declaration",
    "deepeval.metrics.role_adherence.declaration",
    "deepeval.metrics.pii_leakage.declaration",
    "deepeval.metrics.misuse.declaration",
    "deepeval.metrics.non_advice.declaration",
    "deepeval.metrics.role_violation.declaration",
    "deepeval.metrics.prompt_alignment.declaration",
    "deepeval.metrics.exact_match.declaration",
    "deepeval.metrics.pattern_match.declaration",
    "deepeval.metrics.json_correctness.declaration",
    "deepeval.metrics.g_eval.declaration",
    "deepeval.metrics.conversational_g_eval.declaration",
    "deepeval.metrics.jev_eval.declaration",
    "deepeval.metrics.conversational_jev_eval.declaration",
    "deepeval.metrics.dag.declaration",
    "deepeval.metrics.conversational_dag.declaration",
    "deepeval.metrics.contextual_precision.declaration",
    "deepeval.metrics.contextual_recall.declaration",
    "deepeval.metrics.hallucination.declaration",
    "deepeval.metrics.summarization.declaration",
    "deepeval.metrics.turn_contextual_precision.declaration",
    "deepeval.metrics.turn_contextual_recall.declaration",
    "deepeval.metrics.turn_contextual_relevancy.declaration",
    "deepeval.metrics.turn_faithfulness.declaration",
    "deepeval.metrics.tool_correctness.declaration",
    "deepeval.metrics.tool_permission.declaration",
    "deepeval.metrics.agent_loop_detection.declaration",
    "deepeval.metrics.agent_responsiveness.declaration",
    "deepeval.metrics.task_completion.declaration",
    "deepeval.metrics.argument_correctness.declaration",
    "deepeval.metrics.plan_adherence.declaration",
    "deepeval.metrics.plan_quality.declaration",
    "deepeval.metrics.step_efficiency.declaration",
    "deepeval.metrics.goal_accuracy.declaration",
    "deepeval.metrics.topic_adherence.declaration",
    "deepeval.metrics.tool_use.declaration",
    "deepeval.metrics.mcp_use.declaration",
    "deepeval.metrics.mcp_task_completion.declaration",
    "deepeval.metrics.multi_turn_mcp_use.declaration",
    "deepeval.memory.declaration",
)
#: installed packages declare metrics under this entry-point group
ENTRY_POINT_GROUP = "deepeval_metrics"
#: the judge-eval tasks no metric owns (:data:`deepeval.judge_eval.tasks.JUDGE_TASKS`): no metric may declare them
JUDGE_EVAL_OWN_TASKS = frozenset({"fact_stated"})

# Reading the declarations imports plugin modules, which take Python's import locks: it runs without holding
# _lock (a thread importing a plugin that asks the registry must not wait for a thread that waits for that import).
# A nested call in the reading thread (a plugin's declaration module importing from deepeval.metrics, to subclass
# a built-in metric) sees the declarations read so far.
_lock = threading.RLock()
_reading = threading.local()
_loaded: dict[str, MetricDeclaration] | None = None
_registered: dict[str, MetricDeclaration] = {}
#: where each declaration came from, for messages: built-in module, entry point, register_metric
_sources: dict[str, str] = {}


def _members(obj: object) -> list[object]:
    return list(obj) if isinstance(obj, (tuple, list)) else [obj]


def _clash(found: dict[str, MetricDeclaration], d: MetricDeclaration) -> str | None:
    """Why ``d`` cannot join ``found`` (a name, exported class name or judge-eval task another declares), else None."""
    tasks = {t.name for t in d.judge_eval}
    if d.public_name in _package_names() or d.public_name.startswith("_") or keyword.iskeyword(d.public_name):
        return f"the class name {d.public_name!r} is a name of deepeval.metrics itself"
    reserved = tasks & JUDGE_EVAL_OWN_TASKS
    if reserved:
        return f"the judge-eval task {sorted(reserved)[0]!r} is judge-eval's own"
    mine = {d.public_name, *(h.rpartition(":")[2] for h in d.helpers)}
    for other in found.values():
        where = _sources.get(other.name, "another declaration")
        theirs = {other.public_name, *(h.rpartition(":")[2] for h in other.helpers)}
        if other.name != d.name and mine & theirs and other.public_name != d.public_name:
            return f"the name {sorted(mine & theirs)[0]!r} is already exported for {other.name!r} ({where})"
        if other.name == d.name:
            return f"a metric called {d.name!r} is already declared ({where})"
        if other.public_name == d.public_name:
            return f"the class name {d.public_name!r} is already exported for {other.name!r} ({where})"
        shared = tasks & {t.name for t in other.judge_eval}
        if shared:
            return (
                f"the judge-eval task {sorted(shared)[0]!r} is already declared by {other.name!r} ({where})"
            )
    return None


def _package_names() -> set[str]:
    """The names ``deepeval.metrics`` defines itself (base classes, its modules, imported or not): no metric may be
    exported under one of them."""
    package = sys.modules.get(__package__ or "")  # deepeval.metrics
    if package is None:
        return set()
    return {*vars(package), *(m.name for m in pkgutil.iter_modules(getattr(package, "__path__", [])))}


def _admit(found: dict[str, MetricDeclaration], obj: object, source: str) -> None:
    """``obj`` checked and added to ``found``; a malformed or clashing one is named in a warning and left out,
    so one broken plugin never costs the others (or the built-in metrics) their place."""
    try:
        d = check_declaration(obj)
    except Exception as err:  # TypeError / DeclarationError, or a field of a type nothing expects
        problem = (
            str(err) if isinstance(err, (TypeError, DeclarationError)) else f"{type(err).__name__}: {err}"
        )
    else:
        clash = _clash(found, d)
        if clash is None:
            found[d.name] = d
            _sources[d.name] = source
            return
        problem = clash
    warnings.warn(f"deepeval: {source} was not loaded: {problem}", RuntimeWarning, stacklevel=4)


def _load_plugins(found: dict[str, MetricDeclaration]) -> None:
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        source = f"metric plugin {ep.name!r} ({ep.value})"
        try:
            members = _members(ep.load())
        except (Exception, SystemExit) as err:  # a broken plugin is named, and the others still load
            warnings.warn(
                f"deepeval: {source} was not loaded: {type(err).__name__}: {err}",
                RuntimeWarning,
                stacklevel=3,
            )
            continue
        for obj in members:
            _admit(found, obj, source)


def _read() -> dict[str, MetricDeclaration]:
    found: dict[str, MetricDeclaration] = {}
    _reading.found = found
    try:
        for module in BUILTIN:
            for obj in _members(importlib.import_module(module).DECLARATIONS):
                d = check_declaration(obj)  # ours: a malformed one is a bug, raised
                found[d.name] = d
                _sources[d.name] = f"built-in ({module})"
        _load_plugins(found)
    finally:
        _reading.found = None
    return found


def _load() -> dict[str, MetricDeclaration]:
    global _loaded
    loaded = _loaded
    if loaded is None:
        partial = getattr(_reading, "found", None)
        if partial is not None:  # asked again while this thread reads them
            return {**partial, **_registered}
        found = _read()
        with _lock:
            if _loaded is None:  # another thread may have read them meanwhile: the first one stays
                _loaded = found
            loaded = _loaded
    with _lock:
        return {**loaded, **_registered}


def declarations() -> tuple[MetricDeclaration, ...]:
    """Every declared metric: built-in first, then plugins, then those registered at run time."""
    return tuple(_load().values())


def names() -> tuple[str, ...]:
    return tuple(_load())


def _key(name: str) -> str:
    """A name as the registry spells it: ``Answer-Relevancy`` -> ``answer_relevancy``."""
    return name.strip().lower().replace("-", "_")


def find(name: str) -> MetricDeclaration | None:
    """The declaration called ``name`` (``answer_relevancy``; ``-`` and case are ignored), else None."""
    return _load().get(_key(name))


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


def helper_path(name: str) -> str | None:
    """The ``"module:Name"`` of a helper name some declaration exports with its metric (``GEvalTemplate``)."""
    for d in _load().values():
        for path in d.helpers:
            if path.rpartition(":")[2] == name:
                return path
    return None


def helper_names() -> list[str]:
    """Every helper name the declarations export (:attr:`MetricDeclaration.helpers`)."""
    return [path.rpartition(":")[2] for d in _load().values() for path in d.helpers]


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
        TypeError: ``declaration`` is not a :class:`~deepeval.metrics.declaration.MetricDeclaration`.
        DeclarationError: (a ``ValueError``) a field is malformed, or its name, class name or a judge-eval task is
            already declared.
    """
    d = check_declaration(declaration)
    _load()  # read the declarations first (outside the lock: plugins are imported)
    with _lock:  # check and add in one step: two threads cannot both add one name
        clash = _clash(_load(), d)
        if clash is not None:
            raise DeclarationError(f"register_metric: {clash}")
        _registered[d.name] = d
        _sources[d.name] = "register_metric"


def unregister_metric(name: str) -> None:
    """Remove a metric :func:`register_metric` added (``-`` and case are ignored, as in :func:`find`).

    Raises:
        ValueError: no metric of that name was added by ``register_metric`` (built-in and plugin metrics stay).
    """
    key = _key(name)
    with _lock:
        if _registered.pop(key, None) is None:
            where = f"it is {source_of(key)}" if key in _load() else "no metric has that name"
            raise ValueError(f"unregister_metric: {name!r} was not added by register_metric ({where})")
        _sources.pop(key, None)


def load(declaration: MetricDeclaration) -> type[Any]:
    """``declaration``'s class.

    Raises:
        MetricLoadError: the class cannot be loaded; the message also says where the metric was declared.
    """
    return _sourced(declaration, declaration.load)  # type: ignore[no-any-return]


def create(declaration: MetricDeclaration, **options: Any) -> Any:
    """An instance built with the ``options`` its constructor takes
    (:meth:`~deepeval.metrics.declaration.MetricDeclaration.create`).

    Raises:
        MetricLoadError: as :func:`load`.
    """
    return _sourced(declaration, lambda: declaration.create(**options))


def _sourced(declaration: MetricDeclaration, make: Callable[[], Any]) -> Any:
    try:
        return make()
    except MetricLoadError as err:
        raise MetricLoadError(f"{err}; declared by {source_of(declaration.name)}") from err.__cause__


def source_of(name: str) -> str:
    """Where the metric ``name`` was declared, in words (for messages): built-in, a plugin's entry point, or
    ``register_metric``."""
    _load()
    return _sources.get(name, "not declared")
