"""``EmbeddedJudge``: the offline System One model ``deepeval-local-1`` that ships inside the package.

It answers questions that carry a ``kind`` (see :mod:`deepeval.models.system_one.kinds`) from the question's fields
(``{**state, **question.data}`` when the state is a dict). Decision kinds are scored by calibrated per-kind models
over encoder similarities and explicit checks; whole-metric kinds compose those scorers over a deterministic
extraction of the raw test case (:mod:`deepeval.models.embedded.composite`, composed in each metric's
``embedded.py``); ``answer_matches_expected`` goes to
:func:`deepeval.models.embedded.grading.grade_answer`. Which fields each kind needs and which scorer answers it is
looked up with :func:`deepeval.models.embedded.question_kinds.spec_for` (the shared decision kinds, and each
declared metric's own kinds); this module checks the fields and shapes answers.

Answer shapes: a :class:`NoulQuestion` gets ``NoulAnswer(probability=P(yes))``; a :class:`ScoreQuestion` gets a
``ScoreAnswer`` whose ``probabilities`` are a distribution over level indices, ``score`` the expected level and
``confidence`` ``(p_max - 1/n) / (1 - 1/n)``. For a yes/no kind asked as a score over ``n`` levels, the level
distribution is Binomial(n - 1, P(yes)) (ours: an ordinal spread with expected level ``(n - 1) * P(yes)``).
Choice questions are not supported. Cost is 0 (local, no tokens billed).

The cascade (:mod:`deepeval.models.embedded.cascade`): a yes/no decision question whose encoder P falls in its
kind's unsure band goes to the local reader (:mod:`deepeval.models.embedded.reader`, a GGUF instruct model, when
one is installed or configured); its calibrated answer decides when it is sure, else the answer is marked unsure.
``SystemOneAnswers.tiers`` says for each decision question which stage answered (``encoder``, ``reader``,
``unsure``), ``SystemOneAnswers.stages`` each stage's P where the reader was asked. The reader's questions of one
request are asked together under one lock (:meth:`~deepeval.models.embedded.reader.Reader.a_answer_many`, in the
order that lets llama.cpp's prompt cache serve their shared beginnings).
"""

from __future__ import annotations

import asyncio
import numbers
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Any, ClassVar

from deepeval._concurrency import run_sync
from deepeval.errors import ErrorKind, SystemOneError, UnsupportedQuestionError
from deepeval.models.base_model import DeepEvalBaseSystemOneModel
from deepeval.models.embedded import cascade, encoder, features
from deepeval.models.embedded.kind_spec import Asked, Texts, binomial_levels
from deepeval.models.embedded.names import MODEL_NAME
from deepeval.models.embedded.question_kinds import spec_for
from deepeval.models.embedded.reader import Reader, configured_reader
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

__all__ = ["MODEL_NAME", "EmbeddedJudge", "binomial_levels", "get_embedded_judge"]


def _probability(value: object, kind: str) -> float:
    """A scorer's P(yes), checked: a kind declared by a metric package is code we did not write.

    Raises:
        SystemOneError: (kind ``invalid_output``) the scorer gave something else than a number in [0, 1].
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not 0.0 <= float(value) <= 1.0:
        raise SystemOneError(
            f"the embedded scorer of question kind {kind!r} gave {value!r}, not a probability in [0, 1]",
            model=MODEL_NAME,
            kind=ErrorKind.invalid_output,
        )
    return float(value)


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
        spec = spec_for(question.kind) if question.kind is not None else None
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
    :func:`get_embedded_judge` to share one instance (and its caches) per process.

    Args:
        reader: the local reader asked where the encoder is unsure (:mod:`deepeval.models.embedded.cascade`);
            None: the encoder answers alone and marks its unsure answers as such.
    """

    #: in-process, no context window: long test cases are judged, not refused (deepeval has no such judge)
    enforce_request_budget: ClassVar[bool] = False

    def __init__(self, reader: Reader | None = None) -> None:
        self.reader = reader
        super().__init__(model=self.get_model_name())

    def load_model(self, *args: Any, **kwargs: Any) -> Any:
        from deepeval.models.embedded.calibrated import load_models

        return load_models()  # coefficients only; the encoder loads on first use

    def get_model_name(self) -> str:
        reader = getattr(self, "reader", None)
        return MODEL_NAME if reader is None else f"{MODEL_NAME} + reader {reader.name}"

    def answers(self, kind: str) -> bool:
        """Whether this judge, as configured, has a measured answer to questions of ``kind``: a kind it answers
        whose "yes" the encoder can decide, or one whose "yes" only the local reader gives
        (:data:`~deepeval.models.embedded.cascade.READER_DECIDES_YES`) when a reader that reads it is configured."""
        if spec_for(kind) is None:
            return False
        if kind not in cascade.READER_DECIDES_YES:
            return True
        return self.reader is not None and self.reader.asks(kind) and cascade.reader_reads(kind)

    def share_weight(self, probability: float) -> float | None:
        """Its probabilities are recalibrated on the blind-dev sets, so a share score weighs each statement by them
        (:func:`deepeval.models.embedded.calibrated.share_weight`)."""
        from deepeval.models.embedded.calibrated import share_weight

        return share_weight(probability)

    def decide(self, state: Any, questions: Questions) -> tuple[SystemOneAnswers, float | None]:
        """Answer every question; returns ``(answers, 0.0)``. ``answers.tiers`` says for each yes/no decision
        question which stage answered it (``encoder``, ``reader``) or that none was sure (``unsure``).

        Raises:
            UnsupportedQuestionError: a question has no kind, an unknown kind, or is a choice question.
            SystemOneError: (kind ``bad_request``) a field the kind needs is missing.
        """
        encoded = self._encode(state, questions)
        asked = self._reader_questions(questions, encoded)
        read = run_sync(self._read(asked)) if asked else {}
        return self._answers(questions, encoded, read), 0.0

    async def a_decide(self, state: Any, questions: Questions) -> tuple[SystemOneAnswers, float | None]:
        """:meth:`decide` without blocking the event loop: the encoder runs in a worker thread, the reader's
        calls are awaited."""
        encoded = await asyncio.to_thread(self._encode, state, questions)
        asked = self._reader_questions(questions, encoded)
        read = await self._read(asked) if asked else {}
        return self._answers(questions, encoded, read), 0.0

    # -- the stages -------------------------------------------------------------------------------------------
    def _encode(self, state: Any, questions: Questions) -> _Encoded:
        """The encoder's answers (yes/no: P(yes); score: level distribution) and each question's fields."""
        encoded = _Encoded()
        memo: dict[str, Any] = {}
        _prefetch(state, questions)
        for qid, question in questions.items():
            kind = question.kind
            spec = spec_for(kind) if kind is not None else None
            if kind is None or spec is None:
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
            fields = _fields(state, question)
            _require(fields, kind, *spec.fields)
            encoded.fields[qid] = fields
            asked = Asked(kind, fields, memo, MODEL_NAME)
            if isinstance(question, NoulQuestion):
                encoded.nouls[qid] = _probability(spec.probability(asked), kind)
            elif spec.levels is not None:
                encoded.scores[qid] = _fit_levels(spec.levels(asked), len(question.levels))
            else:
                encoded.scores[qid] = binomial_levels(
                    _probability(spec.probability(asked), kind), len(question.levels)
                )
        return encoded

    def _reader_questions(
        self, questions: Questions, encoded: _Encoded
    ) -> list[tuple[str, str, dict[str, Any]]]:
        """``(id, kind, fields)`` of the yes/no questions the encoder is unsure of, in request order; none without a
        reader."""
        if self.reader is None:
            return []
        out = []
        for qid, p in encoded.nouls.items():
            kind = questions[qid].kind
            if (
                kind is not None
                and self.reader.asks(kind)
                and cascade.reader_reads(kind)
                and cascade.needs_reader(kind, p)
            ):
                out.append((qid, kind, encoded.fields[qid]))
        return out

    async def _read(self, asked: list[tuple[str, str, dict[str, Any]]]) -> dict[str, float]:
        """The reader's P(yes) for each question it answered: the request's questions asked together under the
        reader's batch lock (:meth:`Reader.a_answer_many`: in the order that lets llama.cpp's prompt cache serve
        their shared beginnings, no other request in between); a failed call leaves its question to the
        encoder."""
        assert self.reader is not None
        progress = _Progress(len(asked), self.reader.name)
        async with self.reader.batch_lock():
            answers = await self.reader.a_answer_many(
                [(kind, fields) for _, kind, fields in asked], on_answer=progress.step
            )
        progress.done()
        return {qid: a.probability for (qid, _, _), a in zip(asked, answers, strict=True) if a is not None}

    def _answers(self, questions: Questions, encoded: _Encoded, read: dict[str, float]) -> SystemOneAnswers:
        nouls: dict[str, NoulAnswer] = {}
        tiers: dict[str, str] = {}
        stages: dict[str, dict[str, float]] = {}
        for qid, p in encoded.nouls.items():
            kind = questions[qid].kind
            settled, tier = cascade.settle(kind, p, read.get(qid))
            nouls[qid] = NoulAnswer(probability=min(1.0, max(0.0, settled)))
            if kind in cascade.ENCODER_BANDS:
                tiers[qid] = tier
            if qid in read:
                stages[qid] = {"encoder": p, "reader": read[qid]}
        scores = {qid: _score_answer(dist) for qid, dist in encoded.scores.items()}
        return SystemOneAnswers(
            nouls=nouls, scores=scores, model=self.get_model_name(), tiers=tiers, stages=stages
        )


@dataclass
class _Encoded:
    nouls: dict[str, float] = field(default_factory=dict)
    scores: dict[str, list[float]] = field(default_factory=dict)
    fields: dict[str, dict[str, Any]] = field(default_factory=dict)


#: a request with at least this many reader questions shows a progress line (on a terminal)
PROGRESS_MIN = 8


class _Progress:
    """One line on stderr, rewritten in place, while a long request's questions go through the reader (only when
    stderr is a terminal and the request has at least :data:`PROGRESS_MIN` of them)."""

    def __init__(self, total: int, name: str) -> None:
        self.total = total
        self.name = name
        self.t0 = time.perf_counter()
        self.on = total >= PROGRESS_MIN and sys.stderr.isatty()

    def step(self, done: int) -> None:
        if self.on:
            elapsed = time.perf_counter() - self.t0
            sys.stderr.write(
                f"\rdeepeval: local reader {self.name}: {done}/{self.total} unsure questions read ({elapsed:.0f} s)"
            )
            sys.stderr.flush()

    def done(self) -> None:
        if self.on:
            sys.stderr.write("\n")
            sys.stderr.flush()


_instances: dict[Reader | None, EmbeddedJudge] = {}
_instance_lock = threading.Lock()


def get_embedded_judge() -> EmbeddedJudge:
    """The process-wide :class:`EmbeddedJudge` with the reader the settings select
    (:func:`deepeval.models.embedded.reader.configured_reader`: the installed default reader unless
    ``DEEPEVAL_READER`` says otherwise); one instance per reader, created on first call (the encoder and the reader
    load on first use).

    Raises:
        ConfigurationError: ``DEEPEVAL_READER`` names a reader that is not there.
    """
    reader = configured_reader()
    judge = _instances.get(reader)
    if judge is None:
        with _instance_lock:
            judge = _instances.get(reader)
            if judge is None:
                judge = _instances[reader] = EmbeddedJudge(reader)
    return judge
