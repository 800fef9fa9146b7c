"""From the System One answers to JevEval's score (pure; deepeval 4.3.1's rules, our code):

    score = sum(w_i * v_i) / sum(w_i)   over the applicable questions; 1.0 when none applies

* Noul: ``v = P(true)``; always applicable;
* Score: ``v = clamp(expected level / (levels - 1), 0, 1)``; always applicable;
* Choice: the options' probabilities; when the "not applicable" options (credit None) hold at least half the mass
  the question is left out; else ``v = sum(p * credit) / sum(p)`` over the options with a credit (left out when
  that mass is 0);
* strict mode: every applicable question must pass (Noul: P(true) >= 0.5; Score: the top level is the most
  probable; Choice: the most probable option with a credit has credit 1); score 1 or 0 (1 when none applies).

A question without an answer of its type is a ``SystemOneError`` of kind ``missing_answer`` (no fallback: JevEval
is System One only).
"""

from __future__ import annotations

from collections.abc import Sequence

from deepeval.errors import ErrorKind, SystemOneError
from deepeval.metrics.jev_eval.questions import Choice, JevQuestion, Noul, QuestionOutcome, Score
from deepeval.models.system_one.schema import SystemOneAnswers, SystemOneQuestion

NOT_APPLICABLE_THRESHOLD = 0.5
EMPTY_SCORE = 1.0
STRICT_NOUL_THRESHOLD = 0.5


def question_key(index: int) -> str:
    """The id of the ``index``-th question in the request (``q_0``, ``q_1``...)."""
    return f"q_{index}"


def build_questions(questions: Sequence[JevQuestion]) -> dict[str, SystemOneQuestion]:
    return {question_key(i): q.to_system_one() for i, q in enumerate(questions)}


def _missing(kind: str, key: str, model: str) -> SystemOneError:
    return SystemOneError(
        f"{model} returned no {kind} answer for {key}; JevEval has no other judge to ask",
        model=model,
        kind=ErrorKind.missing_answer,
    )


def outcome_of(
    question: JevQuestion, answers: SystemOneAnswers, key: str, model: str = "System One"
) -> QuestionOutcome:
    """The value of one question's answer (see the module docstring).

    Raises:
        SystemOneError: no answer of the question's type (kind ``missing_answer``).
    """
    if isinstance(question, Noul):
        noul = answers.nouls.get(key)
        if noul is None:
            raise _missing("Noul", key, model)
        p = float(noul.probability)
        return QuestionOutcome(
            question=question.text,
            type="noul",
            weight=question.weight,
            value=p,
            applicable=True,
            probabilities={"true": p, "false": 1.0 - p},
            confidence=noul.confidence,
        )
    if isinstance(question, Score):
        sc = answers.scores.get(key)
        if sc is None:
            raise _missing("Score", key, model)
        top = len(question.levels) - 1
        probs = {question.levels[int(i)]: float(p) for i, p in sc.probabilities.items() if 0 <= int(i) <= top}
        return QuestionOutcome(
            question=question.text,
            type="score",
            weight=question.weight,
            value=min(max(float(sc.score) / top, 0.0), 1.0),
            applicable=True,
            probabilities=probs,
            confidence=sc.confidence,
        )
    return _choice_outcome(question, answers, key, model)


def _choice_outcome(question: Choice, answers: SystemOneAnswers, key: str, model: str) -> QuestionOutcome:
    ch = answers.choices.get(key)
    if ch is None:
        raise _missing("Choice", key, model)
    probs = {name: float(ch.probabilities.get(name, 0.0)) for name in question.options}
    applicable = sum(probs[n] for n in question.not_applicable_options) < NOT_APPLICABLE_THRESHOLD
    value: float | None = None
    if applicable:
        credits = question.applicable_options
        mass = sum(probs[n] for n in credits)
        if mass > 0:
            value = sum(probs[n] * c for n, c in credits.items()) / mass
        else:
            applicable = False
    return QuestionOutcome(
        question=question.text,
        type="choice",
        weight=question.weight,
        value=value,
        applicable=applicable,
        probabilities=probs,
        confidence=ch.confidence,
    )


def outcomes_of(
    questions: Sequence[JevQuestion], answers: SystemOneAnswers, model: str = "System One"
) -> list[QuestionOutcome]:
    return [outcome_of(q, answers, question_key(i), model) for i, q in enumerate(questions)]


def aggregate(outcomes: Sequence[QuestionOutcome]) -> float:
    applicable = [o for o in outcomes if o.applicable and o.value is not None]
    if not applicable:
        return EMPTY_SCORE
    return sum(o.weight * (o.value or 0.0) for o in applicable) / sum(o.weight for o in applicable)


def _argmax(probabilities: dict[str, float]) -> str | None:
    return max(probabilities.items(), key=lambda kv: kv[1])[0] if probabilities else None


def passes_strictly(question: JevQuestion, outcome: QuestionOutcome) -> bool:
    if isinstance(question, Noul):
        return outcome.probabilities.get("true", 0.0) >= STRICT_NOUL_THRESHOLD
    if isinstance(question, Score):
        return _argmax(outcome.probabilities) == question.levels[-1]
    credits = question.applicable_options
    chosen = _argmax({n: outcome.probabilities.get(n, 0.0) for n in credits})
    return chosen is not None and credits[chosen] >= 1.0


def mark_strict(
    questions: Sequence[JevQuestion], outcomes: Sequence[QuestionOutcome]
) -> list[QuestionOutcome]:
    return [
        o.model_copy(update={"passed": passes_strictly(q, o) if o.applicable else None})
        for q, o in zip(questions, outcomes, strict=True)
    ]


def aggregate_strict(outcomes: Sequence[QuestionOutcome]) -> float:
    applicable = [o for o in outcomes if o.applicable]
    if not applicable:
        return EMPTY_SCORE
    return 1.0 if all(o.passed for o in applicable) else 0.0


def min_confidence(outcomes: Sequence[QuestionOutcome]) -> float | None:
    values = [o.confidence for o in outcomes if o.confidence is not None]
    return min(values) if values else None


def _band(p: float) -> str:
    if p >= 0.85:
        return "clearly true"
    if p >= 0.65:
        return "probably true"
    if p > 0.35:
        return "undecided"
    if p > 0.15:
        return "probably false"
    return "clearly false"


def _ranked(probabilities: dict[str, float]) -> str:
    ranked = sorted(probabilities.items(), key=lambda kv: kv[1], reverse=True)
    if not ranked:
        return "no answer"
    (top, p1), rest = ranked[0], ranked[1:]
    if rest and p1 - rest[0][1] <= 0.15:
        return f"{top!r} (P={p1:.2f}), close to {rest[0][0]!r} (P={rest[0][1]:.2f})"
    return f"{top!r} (P={p1:.2f})"


def reason_text(outcomes: Sequence[QuestionOutcome], score: float, *, judge: str, strict_mode: bool) -> str:
    """The deterministic reason (no model call): the judge, then each question's answer in words with its numbers,
    then how the score follows."""
    conf = min_confidence(outcomes)
    lines = [f"Answered by {judge}" + (f" (lowest confidence {conf:.2f})." if conf is not None else ".")]
    for i, o in enumerate(outcomes, 1):
        if o.type == "noul":
            p = o.probabilities.get("true", 0.0)
            said = f"{_band(p)} (P(true)={p:.2f})"
        elif not o.applicable:
            said = "does not apply to this test case"
        else:
            said = _ranked(o.probabilities) + ("" if o.value is None else f", value {o.value:.2f}")
        lines.append(f"{i}. [weight {o.weight:g}] {o.question}: {said}.")
    applicable = [o for o in outcomes if o.applicable]
    if strict_mode:
        verdict = "every applicable question passed" if score == 1.0 else "an applicable question failed"
        lines.append(f"Score {score:.2f} (strict mode: {verdict}).")
    elif not applicable:
        lines.append(f"Score {score:.2f}: no question applied to this test case.")
    else:
        lines.append(f"Score {score:.2f}: the weighted mean over {len(applicable)} applicable question(s).")
    return "\n".join(lines)
