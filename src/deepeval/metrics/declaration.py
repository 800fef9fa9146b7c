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
from dataclasses import dataclass
from typing import Any, Literal

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
    ``"module:function"`` ``(line, obj, task_name) -> None`` that validates one item and raises through
    ``line.fail`` (:class:`deepeval.judge_eval.schema.Line`). ``runner``: a ``"module:function"`` coroutine
    ``(judging, item) -> (units, item score or None)`` (:mod:`deepeval.judge_eval.runners`). ``baseline``: the
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
    * ``judge_eval``: the labelled-item kinds ``deepeval judge-eval`` measures the metric's judge on.
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

    def load(self) -> type[Any]:
        """The metric class (imports its module)."""
        loaded: type[Any] = resolve(self.cls)
        return loaded


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
