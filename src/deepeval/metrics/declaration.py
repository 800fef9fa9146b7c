"""What a metric package declares about itself, in one place (read by :mod:`deepeval.metrics.registry`).

A metric is a folder (its class, prompts, System One questions, embedded scorers, judge-eval runner) plus one
:class:`MetricDeclaration` in the folder's ``declaration.py`` (``DECLARATIONS = (...)``). Every consumer that
needs to know the metrics (the lazy exports of ``deepeval.metrics``, the embedded judge's question kinds,
``deepeval evaluate --metric NAME`` and its default choice, ``deepeval judge-eval``) reads the registry instead of
a table of its own. Code is named by ``"package.module:attribute"`` strings, so reading the declarations imports
nothing heavy; :func:`resolve` imports one when a consumer needs it.

This module holds only the value types: metric folders import it, the registry imports the folders.
"""

from __future__ import annotations

import importlib
import inspect
import re
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field as _field
from typing import Any, Literal, get_args

from deepeval.base_errors import DeepEvalError
from deepeval.metrics.pipeline.spec import Pipeline

#: when ``deepeval evaluate FILE`` runs a metric without ``--metric``: for single-turn test cases, for single-turn
#: test cases with a retrieval context, for conversations
CliDefault = Literal["single_turn", "retrieval", "conversation"]
#: which judge a judge-eval task's runner gets: a metric instance built from the task's declaration (its judges
#: resolved as the metric resolves them), the memory judge, or the System One judge alone
TaskJudge = Literal["metric", "memory", "system_one"]


@dataclass(frozen=True)
class JudgeEvalTask:
    """One kind of labelled item ``deepeval judge-eval --metric NAME`` reads (``"kind": NAME`` on each line).

    ``labels``: the unit labels, the positive one first (``("relevant", "irrelevant")``). ``check``: a
    ``"module:function"`` ``(line, obj, task) -> None`` (``task`` is this :class:`JudgeEvalTask`) that validates
    one item and raises through ``line.fail`` (:class:`deepeval.judge_eval.schema.Line`). ``runner``: a
    ``"module:function"`` coroutine ``(judging, item) -> (units, item score or None)``
    (:mod:`deepeval.judge_eval.runners`; an exception it raises becomes the item's error row). ``baseline``: the
    report's name for the trivial baseline the runner fills in (``"word overlap"``)."""

    name: str
    labels: tuple[str, ...]
    check: str
    runner: str
    baseline: str
    judge: TaskJudge = "metric"


@dataclass(frozen=True)
class MetricDeclaration:
    """One metric: its registry and CLI name, the class ``deepeval.metrics`` exports, what it needs and asks.

    * ``name``: the registry key and the CLI name (``"answer_relevancy"``);
    * ``public_name`` / ``cls``: the class exported by ``deepeval.metrics`` and where it lives
      (``"deepeval.metrics.answer_relevancy.metric:AnswerRelevancyMetric"``, imported on first use);
    * ``conversational``: a :class:`~deepeval.metrics.base_metric.BaseConversationalMetric` (multi-turn);
    * ``required_params``: the test-case fields a measure needs;
    * ``question_kinds``: the metric's own System One question kinds (its whole-metric questions); the shared
      decision kinds of :mod:`deepeval.models.system_one.kinds` are not repeated here;
    * ``embedded_kinds``: ``"module:MAPPING"`` of kind -> :class:`~deepeval.models.embedded.kind_spec.KindSpec`,
      how the embedded offline judge answers ``question_kinds`` (None: the embedded judge does not answer them);
    * ``takes_eval_mode``: the constructor takes ``eval_mode=`` (``deepeval evaluate --eval-mode`` passes it);
    * ``cli_default``: when ``deepeval evaluate`` runs it without ``--metric`` (None: only when named);
    * ``judge_eval``: the labelled-item kinds ``deepeval judge-eval`` measures the metric's judge on;
    * ``pipeline``: the metric's declared :class:`~deepeval.metrics.pipeline.spec.Pipeline` (a
      :class:`~deepeval.metrics.pipeline.PipelineMetric`; :func:`deepeval.metrics.pipeline.declare` fills the
      other fields from it): the embedded judge answers its whole-metric kinds from it, with no ``embedded_kinds``;
    * ``helpers``: ``"package.module:Name"`` paths of other names ``deepeval.metrics`` exports beside the class, as
      deepeval 4.3.1 does (``GEvalTemplate``, ``DeepAcyclicGraph``); imported on first use;
    * ``example_args``: constructor arguments that build a working instance, for a metric whose constructor cannot
      be called with none (Misuse's ``{"domain": "swimming pools"}``); empty: it can. ``deepeval evaluate --metric
      NAME`` builds a metric with no arguments, so it names these when the constructor refuses; the registry's tests
      build every metric with them (and check that the constructor does refuse without them);
    * ``user_defined``: the metric is what its user defines (G-Eval's criteria, typed questions, a decision graph):
      it has no question kinds, embedded answers, labelled judge-eval set or default CLI run of its own, and is built
      in the user's code, never by name from the command line.

    Whether the metric has a measured offline tier is not declared but derived (:meth:`has_offline_tier`), so it
    cannot disagree with what the embedded judge answers.
    """

    name: str
    public_name: str
    cls: str
    conversational: bool
    required_params: tuple[str, ...]
    question_kinds: tuple[str, ...] = ()
    embedded_kinds: str | None = None
    takes_eval_mode: bool = False
    cli_default: CliDefault | None = None
    judge_eval: tuple[JudgeEvalTask, ...] = ()
    pipeline: Pipeline | None = None
    helpers: tuple[str, ...] = ()
    example_args: Mapping[str, Any] = _field(default_factory=dict, hash=False)  # a dict: left out of the hash
    user_defined: bool = False

    @property
    def asked_kinds(self) -> tuple[str, ...]:
        """Every System One question kind the declaration says the metric asks: its own ``question_kinds`` and,
        for a pipeline metric, its unit question's kind (a shared decision kind or one of its own)."""
        unit = () if self.pipeline is None else (self.pipeline.question.kind,)
        return tuple(dict.fromkeys((*self.question_kinds, *unit)))

    def has_offline_tier(self) -> bool:
        """Whether the embedded offline judge answers every kind in :attr:`asked_kinds` (its measured answers: a
        shared decision kind, the folder's ``embedded_kinds`` table, or the pipeline's whole-metric questions with an
        ``offline`` rule over an answered unit kind). A metric that asks no kind (scored in code, or defined by its
        user) has nothing the embedded judge must answer: True. Derived on each call, never declared.

        Raises:
            MetricLoadError: an ``embedded_kinds`` table of a declared metric cannot be imported.
        """
        from deepeval.models.embedded.question_kinds import spec_for

        return all(spec_for(kind) is not None for kind in self.asked_kinds)

    def load(self) -> type[Any]:
        """The metric class (imports its module).

        Raises:
            MetricLoadError: the module or class cannot be imported, or it is not a ``BaseMetric`` subclass.
        """
        from deepeval.metrics.base_metric import BaseMetric

        try:
            loaded = resolve(self.cls)
        except Exception as err:
            raise MetricLoadError(
                f"metric {self.name!r}: its class {self.cls!r} cannot be imported ({type(err).__name__}: {err})"
            ) from err
        if not (isinstance(loaded, type) and issubclass(loaded, BaseMetric)):
            raise MetricLoadError(
                f"metric {self.name!r}: {self.cls!r} is a {type(loaded).__name__}, not a deepeval metric class "
                "(a BaseMetric subclass)"
            )
        return loaded

    def create(self, **options: Any) -> Any:
        """An instance built with the ``options`` its constructor takes (the others are left out: judge-eval
        passes ``model=`` and ``include_reason=``, which a metric need not take).

        Raises:
            MetricLoadError: see :meth:`load`.
        """
        cls = self.load()
        try:
            params = inspect.signature(cls).parameters.values()
        except (TypeError, ValueError):
            return cls(**options)
        if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params):
            return cls(**options)
        names = {p.name for p in params}
        return cls(**{k: v for k, v in options.items() if k in names})


class MetricLoadError(DeepEvalError, ImportError):
    """A declared metric whose class cannot be loaded (the message names the metric and its ``cls``)."""


class DeclarationError(DeepEvalError, ValueError):
    """A declaration the registry refuses (the message says which field and why)."""


_NAME = re.compile(r"[a-z][a-z0-9_]*")
_PATH = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_][\w.]*")


def check_declaration(d: object) -> MetricDeclaration:
    """``d`` when it is a well-formed :class:`MetricDeclaration` (checked without importing anything): names in
    the registry's form (lower case, digits, ``_``), ``"module:attribute"`` paths, a known ``cli_default``, tasks
    with two or more distinct labels and a known judge, kinds named ``"<name>.<question>"``, ``example_args`` keyed
    by argument names and absent from a metric the default CLI run builds, and a ``user_defined`` metric with no
    kinds, embedded answers, pipeline, labelled set or default run of its own.

    Raises:
        TypeError: ``d`` is not a ``MetricDeclaration``.
        DeclarationError: a field is malformed.
    """
    if not isinstance(d, MetricDeclaration):
        raise TypeError(f"{_a(d)} is not a MetricDeclaration")
    wrong = _type_problems(d)
    if wrong:
        raise DeclarationError(f"metric declaration {d.name!r}: " + "; ".join(wrong))
    problems = [
        *([] if _NAME.fullmatch(d.name) else [f"name {d.name!r} must be lower case letters, digits and _"]),
        *([] if d.public_name.isidentifier() else [f"public_name {d.public_name!r} is not a Python name"]),
        *(f"{what} {p!r} must look like 'package.module:attribute'" for what, p in _paths(d) if not _PATH.fullmatch(p)),
        *([] if d.cli_default in (None, *get_args(CliDefault)) else [f"cli_default {d.cli_default!r} is not one of {get_args(CliDefault)}"]),
        *(f"question kind {k!r} must start with {d.name + '.'!r}" for k in d.question_kinds if not k.startswith(f"{d.name}.")),
        *(problem for task in d.judge_eval for problem in _task_problems(task)),
        *_argument_problems(d),
    ]  # fmt: skip
    if problems:
        raise DeclarationError(f"metric declaration {d.name!r}: " + "; ".join(problems))
    return d


def _a(value: object) -> str:
    name = type(value).__name__
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


def _type_problems(d: MetricDeclaration) -> list[str]:
    """Fields of the wrong type (a dataclass does not check them), before the checks that read them."""
    texts = {"name": d.name, "public_name": d.public_name, "cls": d.cls}
    problems = [
        f"{field} must be a string, not {_a(v)}" for field, v in texts.items() if not isinstance(v, str)
    ]
    if d.embedded_kinds is not None and not isinstance(d.embedded_kinds, str):
        problems.append(f"embedded_kinds must be a string or None, not {_a(d.embedded_kinds)}")
    for field, values in (
        ("required_params", d.required_params),
        ("question_kinds", d.question_kinds),
        ("helpers", d.helpers),
    ):
        if not isinstance(values, tuple) or not all(isinstance(v, str) for v in values):
            problems.append(f"{field} must be a tuple of strings")
    if not isinstance(d.example_args, Mapping) or not all(isinstance(k, str) for k in d.example_args):
        problems.append("example_args must be a mapping of argument names to values")
    if not isinstance(d.user_defined, bool):
        problems.append(f"user_defined must be True or False, not {_a(d.user_defined)}")
    if d.pipeline is not None and not isinstance(d.pipeline, Pipeline):
        problems.append(f"pipeline must be a Pipeline or None, not {_a(d.pipeline)}")
    if not isinstance(d.judge_eval, tuple) or not all(isinstance(t, JudgeEvalTask) for t in d.judge_eval):
        problems.append("judge_eval must be a tuple of JudgeEvalTask")
    else:
        for t in d.judge_eval:
            fields = {"name": t.name, "check": t.check, "runner": t.runner, "baseline": t.baseline}
            problems += [
                f"task field {f} must be a string" for f, v in fields.items() if not isinstance(v, str)
            ]
            if not isinstance(t.labels, tuple) or not all(isinstance(label, str) for label in t.labels):
                problems.append("task labels must be a tuple of strings")
    return problems


def _argument_problems(d: MetricDeclaration) -> list[str]:
    """``example_args`` and ``user_defined`` against the rest: argument names are Python names (not ``self``), a
    metric the default CLI run builds with no arguments needs none, and a user-defined metric declares nothing that
    only a fixed definition can have."""
    problems = [
        f"example_args key {k!r} is not a Python argument name"
        for k in d.example_args
        if not k.isidentifier() or k == "self"
    ]
    if d.example_args and d.cli_default is not None:
        problems.append(
            f"cli_default {d.cli_default!r} builds the metric with no arguments, but example_args says it needs some"
        )
    if d.user_defined:
        fixed = {
            "question_kinds": bool(d.question_kinds),
            "embedded_kinds": d.embedded_kinds is not None,
            "cli_default": d.cli_default is not None,
            "judge_eval": bool(d.judge_eval),
            "pipeline": d.pipeline is not None,
        }
        problems += [
            f"a user-defined metric has no {f} of its own" for f, declared in fixed.items() if declared
        ]
    return problems


def resolve_part(path: str, what: str) -> Any:
    """:func:`resolve` for a part of a declaration (``what``: "task 'x' runner"...).

    Raises:
        MetricLoadError: the module or attribute cannot be imported (the message names ``what`` and ``path``).
    """
    try:
        return resolve(path)
    except Exception as err:
        raise MetricLoadError(f"{what} {path!r} cannot be imported ({type(err).__name__}: {err})") from err


def _paths(d: MetricDeclaration) -> list[tuple[str, str]]:
    paths = [("cls", d.cls), *((("embedded_kinds", d.embedded_kinds),) if d.embedded_kinds else ())]
    paths += [("helper", h) for h in d.helpers]
    for task in d.judge_eval:
        paths += [(f"task {task.name!r} check", task.check), (f"task {task.name!r} runner", task.runner)]
    return paths


def _task_problems(task: JudgeEvalTask) -> list[str]:
    problems = (
        []
        if _NAME.fullmatch(task.name)
        else [f"task name {task.name!r} must be lower case letters, digits and _"]
    )
    if len(task.labels) < 2 or len(set(task.labels)) != len(task.labels):
        problems.append(f"task {task.name!r} needs two or more distinct labels, got {task.labels!r}")
    if task.judge not in get_args(TaskJudge):
        problems.append(f"task {task.name!r}: judge {task.judge!r} is not one of {get_args(TaskJudge)}")
    return problems


def resolve(path: str) -> Any:
    """The attribute a ``"package.module:attribute"`` string names (imports the module).

    Raises:
        ValueError: ``path`` has no ``":"``.
        ImportError / AttributeError: the module or the attribute does not exist.
    """
    module, sep, attribute = path.partition(":")
    if not sep or not module or not attribute:
        raise ValueError(f"{path!r} must look like 'package.module:attribute'")
    return getattr(importlib.import_module(module), attribute)
