"""The declaration of a metric's pipeline: plain, frozen values (no judge, no I/O), read by the engine.

A metric that is a unit pipeline (split something into units, ask one typed question per unit, score the verdicts,
explain the score) declares it as one :class:`Pipeline`; the engine
(:class:`deepeval.metrics.pipeline.PipelineMetric`) derives every eval mode from it:

* ``llm``: the LLM extracts each :class:`Units` with the metric's template prompt and decides every unit with the
  :class:`UnitQuestion`'s verdict prompt (one call for all units), then writes the reason;
* ``hybrid``: the LLM extracts and writes the reason; System One decides every unit in one request (the question's
  ``kind`` and ``text``); what System One could not decide goes to the LLM's verdict prompt;
* ``system_one``: one System One request of the :class:`WholeMetricQuestion` s over the raw test-case fields, no LLM;
* the embedded default (no key configured): hybrid on the embedded judge: units split deterministically, the
  encoder decides what it is sure of, the local reader (when installed) the rest, "unsure" stays unsure; the reason
  is written from the verdicts (:class:`Reason`'s wording).

Values here name where things come from by strings: a test-case field (``"actual_output"``), a units name
(``"claims"``), :data:`UNIT` (the unit being asked about), or an attribute of the metric (a constructor option such
as ``"truths_extraction_limit"``). Lookup order: units, test-case fields, the metric's attributes.

The names in ``__all__`` are public and stable: fields are added, never renamed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, cast

__all__ = [
    "UNIT",
    "Answer",
    "Contradiction",
    "Extraction",
    "Input",
    "NothingToJudge",
    "Pipeline",
    "RankScore",
    "Reason",
    "ShareScore",
    "UnitQuestion",
    "Units",
    "VerdictSet",
    "WholeMetricQuestion",
]

#: in :attr:`UnitQuestion.fields`: the unit being asked about
UNIT = "<unit>"

#: the type of a System One question: yes/no (P(yes)), one of several options, or a graded level
Answer = Literal["noul", "choice", "score"]
#: the verdicts an LLM may give per unit: ``yes``/``no``, or also ``idk`` (read as ``borderline``)
VerdictSet = Literal["yes_no", "yes_no_idk"]
#: how units are split without an LLM (and by a user's ``extractor=``): the shared
#: :class:`~deepeval.models.extraction.Extractor` methods (``statements``: sentences and list items; ``claims``: the
#: claim extractor memory precision uses too); ``items``: each item of a list field is one unit, as given (the
#: retrieval-context nodes of a ranking metric), never split and never sent to an extractor
Extraction = Literal["statements", "claims", "items"]


@dataclass(frozen=True)
class Input:
    """One keyword a template prompt receives: ``name`` = the value of ``source`` (units, a test-case field or a
    metric attribute, in that order), a list joined with ``join`` when it is given (deepeval 4.3.1 hands its prompts
    ``retrieval_context`` as one text joined with blank lines)."""

    name: str
    source: str
    join: str | None = None


def _inputs(values: tuple[str | Input, ...]) -> tuple[Input, ...]:
    return tuple(v if isinstance(v, Input) else Input(v, v) for v in values)


@dataclass(frozen=True)
class Units:
    """A list of units the metric extracts from one test-case field.

    * ``name``: how the rest of the declaration and the prompts call them (``"claims"``, ``"truths"``);
    * ``source``: the test-case field they come from (a list field, such as ``retrieval_context``, is joined with
      blank lines; ``RetrievedContextData`` nodes by their text);
    * ``prompt``: the template method that writes the LLM's extraction prompt (``"generate_claims"``), called by
      keyword with ``inputs`` (default: the source field under its own name);
    * ``schema``: the reply's pydantic class (deepeval 4.3.1's name, e.g. ``Claims``: a custom model sees it) and
      ``reply_field`` its list field (default: ``name``);
    * ``extraction``: how they are split without an LLM or by a user's ``extractor=``.

    ``prompt=None`` (with ``schema=None``): the LLM never extracts these units; they are split by ``extraction``
    in every mode (``items``: the field's items themselves; ``statements``: its sentences, as deepeval 4.3.1's
    hybrid splits ``expected_output``), so no extraction call is made.
    """

    name: str
    source: str
    prompt: str | None
    schema: type[Any] | None
    extraction: Extraction = "statements"
    inputs: tuple[str | Input, ...] = ()
    reply_field: str | None = None

    @property
    def prompt_inputs(self) -> tuple[Input, ...]:
        return _inputs(self.inputs) if self.inputs else (Input(self.source, self.source, "\n\n"),)

    @property
    def field_name(self) -> str:
        return self.reply_field or self.name


@dataclass(frozen=True)
class Contradiction:
    """A second question the embedded offline judge asks of a unit: does the unit's text contradict the other?

    * ``kind``: a shared decision kind whose P(yes) means "contradicted" (``claim_contradicted``);
    * ``fields``: the fields it needs -> where each comes from, as :attr:`UnitQuestion.fields` (:data:`UNIT` for
      the unit itself);
    * ``text``: the question as the judge reads it (the unit is quoted after it, under the unit question's
      ``label``).

    With the embedded judge (and only there: a remote System One model is asked the unit question alone, as before),
    the units the unit question does not decide ``yes`` (every unit when the embedded judge has no answer of its
    own to the unit question's kind) are asked this question; a unit it finds contradicted gets ``no``. The others
    get, with ``verdicts="yes_no_idk"``, ``borderline`` (deepeval 4.3.1's ``idk``: not supported, not contradicted),
    also when it is unsure; with ``verdicts="yes_no"``, ``yes``, or ``unsure`` (counted by P(not contradicted))
    when it is unsure. Such decisions count by their verdict in a share score (never weighed by a probability).
    Where the answer rests on the local reader (no encoder rule decides the kind), the engine refuses a unit
    question kind the embedded judge has no answer to when no reader is configured: see
    :meth:`deepeval.models.embedded.judge.EmbeddedJudge.answers`.
    """

    kind: str
    fields: Mapping[str, str | Input]
    text: str


@dataclass(frozen=True)
class UnitQuestion:
    """The question asked once per unit of ``units``.

    * ``kind``: its System One question kind: one of the shared decision kinds
      (:mod:`deepeval.models.system_one.kinds`, e.g. ``claim_supported``: the embedded judge answers it) or
      ``"<metric>.<name>"`` (no offline tier answers a kind nobody measured: the engine raises a
      ``ConfigurationError`` naming what to configure instead of guessing);
    * ``text``: the question as System One reads it (the unit is quoted after it, under ``label``);
    * ``fields``: the fields the kind needs -> where each comes from (:data:`UNIT` for the unit itself);
    * ``answer``: ``"noul"`` (P(yes) is the verdict's probability; ``choice`` and ``score`` are reserved);
    * ``verdicts``: the LLM's vocabulary; ``yes_no_idk`` maps P(yes) > 0.65 to yes, < 0.35 to no, else borderline
      (deepeval 4.3.1's bands), ``yes_no`` maps P(yes) >= 0.5 to yes;
    * ``prompt`` / ``schema``: the template method writing the LLM's verdict prompt (called by keyword: the units
      under their own name, plus ``inputs``) and its reply class (``{"verdicts": [...]}``, deepeval's name);
    * ``label``: the delimiter label of the quoted unit (declared in :attr:`Pipeline.labels`);
    * ``id_prefix``: the questions' ids are ``<id_prefix>0``, ``<id_prefix>1``, ... (they go over the wire);
    * ``state``: the fields sent once per request in the System One state (None: every field but the unit); the
      others ride on each question's ``data`` for local judges only and never go over the wire.

    A ``fields`` value may be an :class:`Input` to join a list differently (its ``source`` and ``join`` apply; the
    default join is a blank line).

    ``contradiction``: a :class:`Contradiction` question the embedded offline judge asks of units it does not find
    ``yes`` (3-way verdicts offline; the only offline answer of a kind it cannot answer itself).

    ``gold_labels``: the labels of a labelled unit in a ``deepeval judge-eval`` set, the one P(yes) means first
    (``("supported", "contradicted", "not stated")``); with them, :func:`deepeval.metrics.pipeline.declare` gives
    the metric a judge-eval task of its own (items: the required fields plus ``<units>: [{text, label, tags}]``).
    """

    units: str
    kind: str
    text: str
    fields: Mapping[str, str | Input]
    prompt: str
    schema: type[Any]
    label: str
    answer: Answer = "noul"
    verdicts: VerdictSet = "yes_no"
    inputs: tuple[str | Input, ...] = ()
    id_prefix: str = "u"
    state: tuple[str, ...] | None = None
    gold_labels: tuple[str, ...] = ()
    contradiction: Contradiction | None = None

    @property
    def prompt_inputs(self) -> tuple[Input, ...]:
        return _inputs(self.inputs)


@dataclass(frozen=True)
class WholeMetricQuestion:
    """One question of ``system_one`` mode, over the raw test-case fields :attr:`Pipeline.whole_metric_fields`.

    Its kind is ``"<metric name>.<id>"``. ``answer``: ``"noul"`` (value P(yes)) or ``"score"`` (value = expected
    level / top level over ``levels``, worst first). The score is the weighted mean of the values (strict mode: every
    question must pass). ``label`` words it in the reason. ``offline``: how the embedded judge answers it from the
    unit question's probabilities over the units it splits deterministically: ``"all"`` (the weakest), ``"any"``
    (the strongest), ``"share"`` (the mean; a score question's levels from the shares); None: the embedded judge
    does not answer it (the engine says what to configure). ``offline_empty``: the embedded judge's P(yes) when there
    is no unit (None: 0.995 when :attr:`ShareScore.empty` is at least 0.5, else 0.005).
    """

    id: str
    text: str
    label: str
    weight: float = 1.0
    answer: Literal["noul", "score"] = "noul"
    levels: tuple[str, ...] = ()
    offline: Literal["all", "any", "share"] | None = "all"
    offline_empty: float | None = None


@dataclass(frozen=True)
class ShareScore:
    """``score = units whose verdict is in passing / units`` (deepeval's rule for its QAG metrics); ``empty``: the
    score with no unit (and ``empty_reason`` the reason, with no judge call for the verdicts). ``passing`` may
    depend on the metric's options: a callable of the metric (Faithfulness' ``penalize_ambiguous_claims``).
    With a System One model that weighs units (``share_weight``, the embedded judge), each of its decisions counts
    by its weight; an ``unsure`` one counts by its probability. ``gold_passing``: the gold labels (of
    :attr:`UnitQuestion.gold_labels`) that count toward the expected score of a judge-eval item (default: the first)."""

    passing: tuple[str, ...] | Callable[[Any], tuple[str, ...]] = ("yes",)
    empty: float = 1.0
    empty_reason: str = ""
    gold_passing: tuple[str, ...] = ()

    def passing_for(self, metric: Any) -> tuple[str, ...]:
        if isinstance(self.passing, tuple):
            return self.passing
        rule = cast("Callable[[Any], tuple[str, ...]]", self.passing)
        return tuple(rule(metric))


@dataclass(frozen=True)
class RankScore:
    """Weighted cumulative precision over ranked units (deepeval 4.3.1's contextual precision): with ``r_k`` = 1 when
    the unit at rank ``k`` passes, ``score = sum_k (relevant in the top k / k) * r_k / relevant units``; 0 when no
    unit passes. Rewards passing units ranked above failing ones: ``[yes, no]`` scores 1.0, ``[no, yes]`` 0.5.
    ``empty``/``empty_reason``: the score and reason with no unit (no verdict call). An ``unsure`` decision (the
    embedded judge) counts as not passing."""

    passing: tuple[str, ...] | Callable[[Any], tuple[str, ...]] = ("yes",)
    empty: float = 0.0
    empty_reason: str = ""
    gold_passing: tuple[str, ...] = ()

    def passing_for(self, metric: Any) -> tuple[str, ...]:
        if isinstance(self.passing, tuple):
            return self.passing
        rule = cast("Callable[[Any], tuple[str, ...]]", self.passing)
        return tuple(rule(metric))


def rank_precision(relevant: list[bool]) -> float:
    """:class:`RankScore`'s formula over the units' relevance in rank order (0.0 when none is relevant)."""
    hits = 0
    total = 0.0
    for k, is_relevant in enumerate(relevant, start=1):
        if is_relevant:
            hits += 1
            total += hits / k
    return total / hits if hits else 0.0


@dataclass(frozen=True)
class Reason:
    """The reason of a score.

    With an LLM: the template method ``prompt`` (called by keyword: ``score``, ``judged`` (each unit with its
    verdict, who decided and, from System One, P(yes)), ``failing_as`` (the verdict reasons of units that do not
    pass, under deepeval 4.3.1's keyword, e.g. ``contradictions``) and ``inputs``), replied as ``schema``
    (``{"reason": str}``, deepeval's class). A template written for deepeval (its ``generate_reason`` takes no
    ``judged``) gets ``score`` formatted ``"0.50"`` as deepeval passes it.
    Without an LLM: written from the verdicts with ``unit`` (singular noun), ``passes`` and ``fails`` (what a
    passing / failing unit is, e.g. "supported by the retrieval context"), or by ``written(score, judged)`` when
    given (the metric's own wording).
    """

    schema: type[Any]
    unit: str
    passes: str
    fails: str
    prompt: str = "generate_reason"
    failing_as: str = "failing"
    inputs: tuple[str | Input, ...] = ()
    written: Callable[[float, list[dict[str, Any]]], str] | None = None

    @property
    def prompt_inputs(self) -> tuple[Input, ...]:
        return _inputs(self.inputs)


@dataclass(frozen=True)
class NothingToJudge:
    """A defined result for an input with nothing to judge, in every mode and before any judge call: when the field
    ``field`` is ``"blank"`` (a string of whitespace only, or an empty list), or has ``"no_words"`` (no letter or
    digit in it, or in any of its items). ``score`` and ``reason`` may be functions of the metric (e.g. of one of
    its options), as :attr:`ShareScore.passing` may."""

    field: str
    when: Literal["blank", "no_words"]
    score: float | Callable[[Any], float]
    reason: str | Callable[[Any], str]
    breakdown: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    def score_for(self, metric: Any) -> float:
        return float(self.score) if isinstance(self.score, (int, float)) else float(self.score(metric))

    def reason_for(self, metric: Any) -> str:
        return self.reason if isinstance(self.reason, str) else str(self.reason(metric))


@dataclass(frozen=True)
class Pipeline:
    """A metric's whole pipeline (see the module docstring).

    * ``name``: the registry / CLI name (``"faithfulness"``), prefix of its own question kinds;
    * ``display_name``: the metric's ``__name__`` (``"Faithfulness"``);
    * ``required``: the test-case fields a measure needs (``MissingTestCaseParamsError`` names a missing one);
    * ``units``: every units list, in extraction order (those the question or the prompts do not use are not
      extracted); ``question``: the per-unit question; ``score`` (:class:`ShareScore`, or :class:`RankScore` for
      ranked units); ``reason``;
    * ``whole_metric`` / ``whole_metric_fields``: system_one mode's questions and the fields of its state;
    * ``labels``: the delimiter labels the metric's prompts use (``quote("claim", ...)``), added to the known ones;
    * ``nothing_to_judge``: inputs with a defined result and no judge call;
    * ``version``: bump on any change of the declared texts (it enters the cache key with the prompts' digest).
    """

    name: str
    display_name: str
    required: tuple[str, ...]
    units: tuple[Units, ...]
    question: UnitQuestion
    score: ShareScore | RankScore
    reason: Reason
    whole_metric: tuple[WholeMetricQuestion, ...] = ()
    whole_metric_fields: tuple[str, ...] = ()
    labels: tuple[str, ...] = ()
    nothing_to_judge: tuple[NothingToJudge, ...] = ()
    version: str = "1"

    def units_named(self, name: str) -> Units | None:
        return next((u for u in self.units if u.name == name), None)

    @property
    def question_kinds(self) -> tuple[str, ...]:
        """The metric's own System One kinds: its whole-metric questions' (``"<name>.<id>"``)."""
        return tuple(f"{self.name}.{q.id}" for q in self.whole_metric)

    def kind_of(self, question: WholeMetricQuestion) -> str:
        return f"{self.name}.{question.id}"
