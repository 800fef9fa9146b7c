"""``EmbeddedJudge``: the offline System One model ``deepeval-local-1`` that ships inside the package.

It answers questions that carry a ``kind`` (see :mod:`deepeval.models.system_one.kinds`) from the question's fields
(``{**state, **question.data}`` when the state is a dict). Decision kinds are scored by calibrated per-kind models
over encoder similarities and explicit checks; whole-metric kinds compose those scorers over a deterministic
extraction of the raw test case (:mod:`deepeval.models.embedded.composite`); ``answer_matches_expected`` goes to
:func:`deepeval.models.embedded.grading.grade_answer`. Which fields each kind needs and which scorer answers it is
one table, :data:`deepeval.models.embedded.question_kinds.KINDS`; this module checks the fields and shapes answers.

Answer shapes: a :class:`NoulQuestion` gets ``NoulAnswer(probability=P(yes))``; a :class:`ScoreQuestion` gets a
``ScoreAnswer`` whose ``probabilities`` are a distribution over level indices, ``score`` the expected level and
``confidence`` ``(p_max - 1/n) / (1 - 1/n)``. For a yes/no kind asked as a score over ``n`` levels, the level
distribution is Binomial(n - 1, P(yes)) (ours: an ordinal spread with expected level ``(n - 1) * P(yes)``).
Choice questions are not supported. Cost is 0 (local, no tokens billed).
"""

from __future__ import annotations

import threading
from typing import Any, ClassVar

from deepeval.errors import ErrorKind, SystemOneError, UnsupportedQuestionError
from deepeval.models.base_model import DeepEvalBaseSystemOneModel
from deepeval.models.embedded import encoder, features
from deepeval.models.embedded.names import MODEL_NAME
from deepeval.models.embedded.question_kinds import KINDS, Asked, Texts, binomial_levels
from deepeval.models.system_one.schema import (
    NoulAnswer,
    NoulQuestion,
    Questions,
    ScoreAnswer,
    ScoreQuestion,
    SystemOneAnswers,
    SystemOneQuestion,
    distribution_confidence,
)

#: the kinds of :data:`~deepeval.models.embedded.question_kinds.KINDS` (``DECISION_KINDS | WHOLE_METRIC_KINDS``)
SUPPORTED_KINDS = frozenset(KINDS)

__all__ = ["MODEL_NAME", "SUPPORTED_KINDS", "EmbeddedJudge", "binomial_levels", "get_embedded_judge"]


def _fit_levels(dist: list[float], n_levels: int) -> list[float]:
    """``dist`` when it has ``n_levels`` entries, else a Binomial spread with the same relative expected level."""
    if len(dist) == n_levels:
        return dist
    expected = sum(i * q for i, q in enumerate(dist)) / max(1, len(dist) - 1)
    return binomial_levels(min(1.0, max(0.0, expected)), n_levels)


def _score_answer(dist: list[float], legend: list[str] | None = None) -> ScoreAnswer:
    total = sum(dist) or 1.0
    probs = {i: q / total for i, q in enumerate(dist)}
    return ScoreAnswer(
        score=sum(i * q for i, q in probs.items()),
        probabilities=probs,
        confidence=distribution_confidence(probs),
        legend=legend,
    )


def _fields(state: Any, question: SystemOneQuestion) -> dict[str, Any]:
    if hasattr(state, "model_dump"):
        state = state.model_dump()
    base: dict[str, Any] = dict(state) if isinstance(state, dict) else {}
    if isinstance(state, str):
        base.setdefault("state", state)
    return {**base, **(question.data or {})}


def _require(fields: dict[str, Any], kind: str, *names: str) -> list[Any]:
    values = []
    for name in names:
        value = fields.get(name)
        if value is None:
            raise SystemOneError(
                f"question kind {kind!r} needs the field {name!r} (in question.data or the state)",
                model=MODEL_NAME,
                kind=ErrorKind.bad_request,
            )
        values.append(value)
    return values


def _prefetch(state: Any, questions: Questions) -> None:
    """Encode every distinct text the request's relevance and support questions need in one encoder call per
    prefix (batched, each text once; the encoder cache serves the per-question scorers). The same node, source or
    input is usually asked about by many questions of one request, and a batch costs less per text than single
    calls. Retention kinds are left to their scorer."""
    texts = Texts()
    for question in questions.values():
        spec = KINDS.get(question.kind) if question.kind is not None else None
        if spec is not None and spec.texts is not None:
            spec.texts(_fields(state, question), texts)
    passages = texts.passages
    for document in texts.documents:
        passages.update(features.sentences_of(document))
    if passages:
        passages.update(features.BACKGROUND)
    for kind, group in (("query", texts.queries), ("passage", passages)):
        todo = sorted(t for t in group if t.strip())
        if todo:
            encoder.embed(todo, kind)  # type: ignore[arg-type]


class EmbeddedJudge(DeepEvalBaseSystemOneModel):
    """The embedded offline judge (see module docstring). Thread-safe; construct through
    :func:`get_embedded_judge` to share one instance (and its caches) per process."""

    #: in-process, no context window: long test cases are judged, not refused (deepeval has no such judge)
    enforce_request_budget: ClassVar[bool] = False

    def __init__(self) -> None:
        super().__init__(model=MODEL_NAME)

    def load_model(self, *args: Any, **kwargs: Any) -> Any:
        from deepeval.models.embedded.calibrated import load_models

        return load_models()  # coefficients only; the encoder loads on first use

    def get_model_name(self) -> str:
        return MODEL_NAME

    def share_weight(self, probability: float) -> float | None:
        """Its probabilities are recalibrated on the blind-dev sets, so a share score weighs each statement by them
        (:func:`deepeval.models.embedded.calibrated.share_weight`)."""
        from deepeval.models.embedded.calibrated import share_weight

        return share_weight(probability)

    def decide(self, state: Any, questions: Questions) -> tuple[SystemOneAnswers, float | None]:
        """Answer every question; returns ``(answers, 0.0)``.

        Raises:
            UnsupportedQuestionError: a question has no kind, an unknown kind, or is a choice question.
            SystemOneError: (kind ``bad_request``) a field the kind needs is missing.
        """
        nouls: dict[str, NoulAnswer] = {}
        scores: dict[str, ScoreAnswer] = {}
        memo: dict[str, Any] = {}
        _prefetch(state, questions)
        for qid, question in questions.items():
            kind = question.kind
            if kind is None or kind not in SUPPORTED_KINDS:
                raise UnsupportedQuestionError(
                    f"the embedded judge cannot answer question {qid!r}: "
                    + ("it has no kind" if kind is None else f"unknown question kind {kind!r}"),
                    model=MODEL_NAME,
                    question_kind=kind,
                )
            if not isinstance(question, NoulQuestion | ScoreQuestion):
                raise UnsupportedQuestionError(
                    f"the embedded judge answers kind {kind!r} only as a yes/no or score question, "
                    f"not as a {type(question).__name__}",
                    model=MODEL_NAME,
                    question_kind=kind,
                )
            spec = KINDS[kind]
            fields = _fields(state, question)
            _require(fields, kind, *spec.fields)
            asked = Asked(kind, fields, memo, MODEL_NAME)
            if isinstance(question, NoulQuestion):
                nouls[qid] = NoulAnswer(probability=spec.probability(asked))
            elif spec.levels is not None:
                scores[qid] = _score_answer(_fit_levels(spec.levels(asked), len(question.levels)))
            else:
                scores[qid] = _score_answer(binomial_levels(spec.probability(asked), len(question.levels)))
        return SystemOneAnswers(nouls=nouls, scores=scores, model=MODEL_NAME), 0.0


_instance: EmbeddedJudge | None = None
_instance_lock = threading.Lock()


def get_embedded_judge() -> EmbeddedJudge:
    """The process-wide :class:`EmbeddedJudge` (created on first call; the encoder loads on first use)."""
    global _instance
    if _instance is None:
        with _instance_lock:
            if _instance is None:
                _instance = EmbeddedJudge()
    return _instance
