"""``EmbeddedJudge``: the offline System One model ``deepeval-local-1`` that ships inside the package.

It answers questions that carry a ``kind`` (see :mod:`deepeval.models.system_one.kinds`) from the question's fields
(``{**state, **question.data}`` when the state is a dict). Decision kinds are scored by calibrated per-kind models
over encoder similarities and explicit checks; whole-metric kinds compose those scorers over a deterministic
extraction of the raw test case (:mod:`deepeval.models.embedded.composite`); ``answer_matches_expected`` goes to
:func:`deepeval.models.embedded.grading.grade_answer`.

Answer shapes: a :class:`NoulQuestion` gets ``NoulAnswer(probability=P(yes))``; a :class:`ScoreQuestion` gets a
``ScoreAnswer`` whose ``probabilities`` are a distribution over level indices, ``score`` the expected level and
``confidence`` ``(p_max - 1/n) / (1 - 1/n)``. For a yes/no kind asked as a score over ``n`` levels, the level
distribution is Binomial(n - 1, P(yes)) (ours: an ordinal spread with expected level ``(n - 1) * P(yes)``).
Choice questions are not supported. Cost is 0 (local, no tokens billed).
"""

from __future__ import annotations

import math
import threading
from typing import Any, ClassVar

from deepeval.errors import SystemOneError, UnsupportedQuestionError
from deepeval.models.base_model import DeepEvalBaseSystemOneModel
from deepeval.models.embedded import composite, encoder, features, scorers
from deepeval.models.embedded.names import MODEL_NAME
from deepeval.models.system_one import kinds as K
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

SUPPORTED_KINDS = frozenset(K.DECISION_KINDS | K.WHOLE_METRIC_KINDS)


def binomial_levels(p: float, n_levels: int) -> list[float]:
    """Binomial(n_levels - 1, p) over level indices 0..n_levels-1 (expected level ``(n_levels - 1) * p``)."""
    n = n_levels - 1
    return [math.comb(n, k) * p**k * (1.0 - p) ** (n - k) for k in range(n_levels)]


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
                kind="bad_request",
            )
        values.append(value)
    return values


def _texts_of(
    kind: str, fields: dict[str, Any], queries: set[str], passages: set[str], documents: set[str]
) -> None:
    """Add the texts the scorer of ``kind`` will encode to ``queries`` / ``passages``, and the texts whose sentences
    it will encode to ``documents`` (split once per request by the caller: the many statements of one node share
    it). Best effort: a missing field adds nothing, the scorer reports it."""
    split = features.sentences_of

    def text(name: str) -> str:
        value = fields.get(name)
        return value if isinstance(value, str) else ""

    if kind in (K.STATEMENT_RELEVANT, K.CONTEXT_STATEMENT_RELEVANT, K.CONTEXT_NODE_RELEVANT):
        queries.add(text("input"))
        passages.update((text("input"), text("statement")))
        documents.update((text("node"), text("context")))
        if kind == K.STATEMENT_RELEVANT:
            passages.update(features.elliptical_texts(text("input"), text("statement")))
    elif kind == K.CLAIM_SUPPORTED:
        passages.update((text("claim"), *split(text("source"))))
    elif kind in (K.AR_ALL_RELEVANT, K.AR_ADDRESSES_INPUT, K.AR_RELEVANT_SHARE):
        queries.add(text("input"))
        output = fields.get("actual_output", fields.get("actualOutput"))
        passages.update((text("input"), *split(output if isinstance(output, str) else "")))
    elif kind in (K.CR_ALL_RELEVANT, K.CR_EVERY_NODE_RELEVANT, K.CR_RELEVANT_SHARE):
        queries.add(text("input"))
        passages.add(text("input"))
        for node in composite.context_texts(fields.get("retrieval_context", fields.get("retrievalContext"))):
            passages.update(split(node))


def _prefetch(state: Any, questions: Questions) -> None:
    """Encode every distinct text the request's relevance and support questions need in one encoder call per
    prefix (batched, each text once; the encoder cache serves the per-question scorers). The same node, source or
    input is usually asked about by many questions of one request, and a batch costs less per text than single
    calls. Retention kinds are left to their scorer."""
    queries: set[str] = set()
    passages: set[str] = set()
    documents: set[str] = set()
    for question in questions.values():
        if question.kind in SUPPORTED_KINDS:
            _texts_of(question.kind, _fields(state, question), queries, passages, documents)
    for document in documents:
        passages.update(features.sentences_of(document))
    if passages:
        passages.update(features.BACKGROUND)
    for kind, texts in (("query", queries), ("passage", passages)):
        todo = sorted(t for t in texts if t.strip())
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
            fields = _fields(state, question)
            if isinstance(question, NoulQuestion):
                nouls[qid] = NoulAnswer(probability=self._probability(kind, fields, memo))
            else:
                scores[qid] = self._score(kind, fields, len(question.levels), memo)
        return SystemOneAnswers(nouls=nouls, scores=scores, model=MODEL_NAME), 0.0

    # -- per kind ----------------------------------------------------------------------------------------------
    def _probability(self, kind: str, fields: dict[str, Any], memo: dict[str, Any]) -> float:
        if kind == K.STATEMENT_RELEVANT:
            q, s = _require(fields, kind, "input", "statement")
            return scorers.statement_relevant(str(q), str(s))
        if kind == K.CONTEXT_STATEMENT_RELEVANT:
            q, s = _require(fields, kind, "input", "statement")
            node, context = fields.get("node"), fields.get("context")
            return scorers.context_statement_relevant(
                str(q), str(s), str(node) if node else None, str(context) if context else None
            )
        if kind == K.CONTEXT_NODE_RELEVANT:
            q, n = _require(fields, kind, "input", "node")
            return scorers.node_relevant(str(q), str(n))
        if kind == K.CLAIM_SUPPORTED:
            c, src = _require(fields, kind, "claim", "source")
            return scorers.claim_supported(str(c), str(src))
        if kind in (K.TURN_ATTRITION, K.TURN_FORGETS, K.TURN_REASKS):
            (facts,) = _require(fields, kind, "facts")
            (msg,) = _require(fields, kind, "assistant_message")
            if isinstance(facts, str):
                facts = [facts]
            user = fields.get("user_message")
            probs = scorers.turn_probabilities([str(f) for f in facts], str(msg), str(user) if user else None)
            key = {K.TURN_ATTRITION: "attrition", K.TURN_FORGETS: "forgets", K.TURN_REASKS: "reasks"}[kind]
            return probs[key]
        if kind == K.ANSWER_MATCHES_EXPECTED:
            dist = self._grade(fields)
            return min(1.0, max(0.0, sum(i * q for i, q in enumerate(dist)) / (len(dist) - 1)))
        return self._whole_metric_probability(kind, fields, memo)

    def _score(self, kind: str, fields: dict[str, Any], n_levels: int, memo: dict[str, Any]) -> ScoreAnswer:
        if kind == K.ANSWER_MATCHES_EXPECTED:
            return _score_answer(_fit_levels(self._grade(fields), n_levels))
        if kind == K.AR_RELEVANT_SHARE:
            ps = self._ar(fields, memo)["probabilities"]
            dist = composite.share_levels(ps) if ps else [0.0, 0.0, 0.0, 1.0]
            return _score_answer(_fit_levels(dist, n_levels))
        if kind == K.CR_RELEVANT_SHARE:
            ps = self._cr(fields, memo)["probabilities"]
            dist = composite.share_levels(ps) if ps else [1.0, 0.0, 0.0, 0.0]
            return _score_answer(_fit_levels(dist, n_levels))
        if kind == K.KR_RETENTION_LEVEL:
            turns = self._kr(fields, memo)
            dist = composite.retention_levels([t["attrition"] for t in turns])
            return _score_answer(_fit_levels(dist, n_levels))
        return _score_answer(binomial_levels(self._probability(kind, fields, memo), n_levels))

    def _grade(self, fields: dict[str, Any]) -> list[float]:
        q, exp, ans = _require(fields, K.ANSWER_MATCHES_EXPECTED, "question", "expected", "answer")
        try:
            from deepeval.models.embedded.grading import grade_answer
        except ImportError as exc:
            raise UnsupportedQuestionError(
                f"answer grading is not available in this installation ({exc})",
                model=MODEL_NAME,
                question_kind=K.ANSWER_MATCHES_EXPECTED,
            ) from exc
        graded = grade_answer(str(q), str(exp), str(ans))
        if graded.probabilities:
            return [graded.probabilities.get(i, 0.0) for i in range(5)]
        return binomial_levels(min(1.0, graded.score / 4.0), 5)

    def _ar(self, fields: dict[str, Any], memo: dict[str, Any]) -> dict[str, Any]:
        if "ar" not in memo:
            _require(fields, "answer_relevancy", "input")
            memo["ar"] = composite.answer_relevancy(fields)
        return memo["ar"]  # type: ignore[no-any-return]

    def _cr(self, fields: dict[str, Any], memo: dict[str, Any]) -> dict[str, Any]:
        if "cr" not in memo:
            _require(fields, "contextual_relevancy", "input")
            memo["cr"] = composite.contextual_relevancy(fields)
        return memo["cr"]  # type: ignore[no-any-return]

    def _kr(self, fields: dict[str, Any], memo: dict[str, Any]) -> list[dict[str, float]]:
        if "kr" not in memo:
            _require(fields, "knowledge_retention", "turns")
            memo["kr"] = composite.knowledge_retention(fields)
        return memo["kr"]  # type: ignore[no-any-return]

    def _whole_metric_probability(self, kind: str, fields: dict[str, Any], memo: dict[str, Any]) -> float:
        if kind == K.AR_ALL_RELEVANT:
            return composite.weakest(self._ar(fields, memo)["probabilities"], empty=0.995)
        if kind == K.AR_ADDRESSES_INPUT:
            return composite.strongest(self._ar(fields, memo)["probabilities"], empty=0.005)
        if kind == K.CR_ALL_RELEVANT:
            return composite.weakest(self._cr(fields, memo)["probabilities"], empty=0.005)
        if kind == K.CR_EVERY_NODE_RELEVANT:
            return composite.weakest(self._cr(fields, memo)["node_probabilities"], empty=0.005)
        if kind == K.KR_NO_FORGETTING:
            return 1.0 - composite.strongest([t["forgets"] for t in self._kr(fields, memo)], empty=0.0)
        if kind == K.KR_NO_REASKING:
            return 1.0 - composite.strongest([t["reasks"] for t in self._kr(fields, memo)], empty=0.0)
        if kind == K.KR_RETENTION_LEVEL:
            dist = composite.retention_levels([t["attrition"] for t in self._kr(fields, memo)])
            return sum(i * q for i, q in enumerate(dist)) / 3.0
        if kind == K.AR_RELEVANT_SHARE:
            ps = self._ar(fields, memo)["probabilities"]
            return sum(ps) / len(ps) if ps else 1.0
        if kind == K.CR_RELEVANT_SHARE:
            ps = self._cr(fields, memo)["probabilities"]
            return sum(ps) / len(ps) if ps else 0.0
        raise UnsupportedQuestionError(  # pragma: no cover - SUPPORTED_KINDS guards this
            f"unknown question kind {kind!r}", model=MODEL_NAME, question_kind=kind
        )


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
