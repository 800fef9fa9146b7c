"""Answer relevancy, declared (:mod:`deepeval.metrics.pipeline`): the statements of ``actual_output``, each judged
relevant to ``input`` or not (REFERENCE §2-§4).

llm: the LLM splits the output into statements and gives one verdict per statement (yes / no / borderline);
``score = (yes + borderline) / statements``; no statements -> 1.0 (an output with words from which the LLM draws no
statements). hybrid: the LLM extracts and writes the reason; System One decides each statement in one request
(``statement_relevant``: P > 0.65 yes, P < 0.35 no, else borderline); ours: with a System One model that weighs
statements (``share_weight``: the embedded judge, whose probabilities are calibrated), each statement counts by its
weight instead of 1 or 0 (see :func:`deepeval.metrics._engine.decisions.share_score`). system_one: three whole-metric
questions (weights 2, 1, 1). An ``actual_output`` of ``""`` raises ``MissingTestCaseParamsError``; a
whitespace-only output, or one with no letter or digit at all (``"..."``, ``"-"``, emoji only), scores 0 with a
reason and calls no judge, in every mode (ours: deepeval scores an empty output 1.0).

The System One state carries the data note and ``input`` once per request; each question quotes only its statement;
``answer`` (every statement of the output, one per line) rides in the question's ``data`` for local judges, which
read a statement beside the answer's others, and never goes over the wire.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from deepeval.metrics._engine.decisions import weighted_note
from deepeval.metrics._engine.extractor import Statements
from deepeval.metrics.answer_relevancy.names import REQUIRED_PARAMS
from deepeval.metrics.answer_relevancy.schema import AnswerRelevancyScoreReason, Verdicts
from deepeval.metrics.pipeline.spec import (
    UNIT,
    Input,
    NothingToJudge,
    Pipeline,
    Reason,
    ShareScore,
    UnitQuestion,
    Units,
    WholeMetricQuestion,
)
from deepeval.models.system_one.kinds import STATEMENT_RELEVANT

BLANK_OUTPUT_REASON = "The score is 0.00 because the actual output is blank (whitespace only), so it says nothing that answers the input."
NO_WORDS_REASON = (
    "The score is 0.00 because the actual output has no words (only punctuation, symbols or emoji), so it says "
    "nothing that answers the input."
)
NO_STATEMENTS_REASON = (
    "The score is 1.00 because the actual output makes no statements, so nothing in it is irrelevant."
)


def deterministic_reason(score: float, judged: Sequence[Mapping[str, Any]]) -> str:
    """Reason built from the verdicts alone (hybrid mode without an LLM)."""
    n = len(judged)
    bad = [j for j in judged if j["verdict"] == "no"]
    unsure = [j for j in judged if j["verdict"] == "borderline"]
    undecided = [j for j in judged if j["verdict"] == "unsure"]
    note = weighted_note(judged)
    if not bad and not unsure and not undecided:
        return f"The score is {score:.2f} because all {n} statements of the output are relevant to the input{note}."

    def show(j: Mapping[str, Any]) -> str:
        p = j.get("p_yes")
        return f"{j['statement']!r}" + (f" (P(relevant)={p:.2f})" if p is not None else "")

    parts = [
        f"The score is {score:.2f}: {n - len(bad) - len(undecided)} of {n} statements count as relevant{note}."
    ]
    if bad:
        parts.append(f"Irrelevant to the input: {'; '.join(show(j) for j in bad)}.")
    if unsure:
        parts.append(f"Borderline (counted as relevant): {'; '.join(show(j) for j in unsure)}.")
    if undecided:
        parts.append(
            f"Unsure (the judge could not tell; counted by probability): {'; '.join(show(j) for j in undecided)}."
        )
    return " ".join(parts)


PIPELINE = Pipeline(
    name="answer_relevancy",
    display_name="Answer Relevancy",
    required=REQUIRED_PARAMS,
    units=(
        Units(
            name="statements",
            source="actual_output",
            prompt="generate_statements",
            schema=Statements,
            extraction="statements",
        ),
    ),
    question=UnitQuestion(
        units="statements",
        kind=STATEMENT_RELEVANT,
        text="Does this statement from the answer help answer the request `input`?",
        fields={"input": "input", "statement": UNIT, "answer": Input("answer", "statements", join="\n")},
        label="statement",
        prompt="generate_verdicts",
        schema=Verdicts,
        verdicts="yes_no_idk",
        inputs=("input",),
        id_prefix="s",
        state=("input",),
        gold_labels=("relevant", "irrelevant"),
    ),
    score=ShareScore(passing=("yes", "borderline"), empty=1.0, empty_reason=NO_STATEMENTS_REASON),
    reason=Reason(
        schema=AnswerRelevancyScoreReason,
        unit="statement",
        passes="relevant to the input",
        fails="irrelevant to the input",
        failing_as="irrelevant_statements",
        inputs=("input",),
        written=deterministic_reason,
    ),
    whole_metric=(
        WholeMetricQuestion(
            id="all_relevant",
            text="Is every statement in `actual_output` relevant to `input`?",
            label="every statement in the output is relevant to the input",
            weight=2.0,
            offline="all",
            offline_empty=0.995,
        ),
        WholeMetricQuestion(
            id="addresses_input",
            text="Does `actual_output` directly address what `input` asks?",
            label="the output directly addresses what the input asks",
            offline="any",
            offline_empty=0.005,
        ),
        WholeMetricQuestion(
            id="relevant_share",
            text="How much of `actual_output` is relevant to `input`?",
            label="how much of the output is relevant",
            answer="score",
            levels=("none", "less than half", "most", "all"),
            offline="share",
        ),
    ),
    whole_metric_fields=("input", "actual_output"),
    nothing_to_judge=(
        NothingToJudge(
            "actual_output", "blank", 0.0, BLANK_OUTPUT_REASON, {"statements": 0, "blank_output": True}
        ),
        NothingToJudge(
            "actual_output", "no_words", 0.0, NO_WORDS_REASON, {"statements": 0, "no_words": True}
        ),
    ),
    version="2026-5",
)
