"""User code run unchanged under ours and under deepeval 4.3.1 (``test_rag_metrics.py`` runs it with each
implementation's interpreter): a custom ``DeepEvalBaseLLM`` for the RAG metrics that branches on the schema class it
is handed, imported from the metrics' schema modules by 4.3.1's paths, and builds each reply from that class.

Prints one JSON object: per metric, the sorted ``[schema name, sorted field names]`` of its calls, its score, its
``score_breakdown`` (Summarization) and error. Only the standard library and ``deepeval`` are imported.
"""

from __future__ import annotations

import json
from typing import Any

from deepeval.metrics import (
    ContextualPrecisionMetric,
    ContextualRecallMetric,
    HallucinationMetric,
    SummarizationMetric,
)
from deepeval.metrics.contextual_precision import schema as cp
from deepeval.metrics.contextual_recall import schema as cr
from deepeval.metrics.hallucination import schema as h
from deepeval.metrics.summarization import schema as s
from deepeval.models import DeepEvalBaseLLM
from deepeval.test_case import LLMTestCase


def _verdicts(cls: Any, item: Any, words: list[str]) -> Any:
    return cls(verdicts=[item(verdict=w, reason=f"reason {i}") for i, w in enumerate(words)])


class BranchingJudge(DeepEvalBaseLLM):
    """Answers by the schema class it receives; records every schema's name and fields."""

    def __init__(self) -> None:
        self.seen: list[list[Any]] = []
        super().__init__("rag-branching-judge")

    def load_model(self) -> Any:
        return None

    def get_model_name(self) -> str:
        return "rag-branching-judge"

    def generate(self, prompt: str, schema: Any = None) -> Any:
        self.seen.append([schema.__name__, sorted(schema.model_fields)])
        if schema is cp.Verdicts:
            return _verdicts(schema, cp.ContextualPrecisionVerdict, ["no", "yes", "yes"])
        if schema is cr.Verdicts:
            return _verdicts(schema, cr.ContextualRecallVerdict, ["yes", "no"])
        if schema is h.Verdicts:
            return _verdicts(schema, h.HallucinationVerdict, ["yes", "no", "yes"])
        if schema is s.Verdicts:
            return _verdicts(schema, s.SummarizationAlignmentVerdict, ["yes", "borderline", "no"])
        if schema.__name__ == "Truths":
            return schema(truths=["The ferry has run since 1962.", "Coastlink operates it."])
        if schema.__name__ == "Claims":
            return schema(claims=["The ferry started in 1962.", "It is free.", "The city runs it."])
        if schema is s.Questions:
            return schema(questions=["Is a start year given?", "Is the operator named?", "Is a price given?"])
        if schema is s.Answers:
            summary = "SUMMARY" in prompt
            return schema(answers=["yes", "no", "no"] if summary else ["yes", "yes", "no"])
        return schema(reason="scripted reason")

    async def a_generate(self, prompt: str, schema: Any = None) -> Any:
        return self.generate(prompt, schema)


CASE = LLMTestCase(
    input="Who runs the Arlo ferry and since when?",
    actual_output="Coastlink has run the Arlo ferry since 1962.",
    expected_output="The Arlo ferry has run since 1962. Coastlink operates it.",
    retrieval_context=["The ferry has run since 1962.", "Tickets are sold on board.", "Coastlink runs it."],
    context=["The ferry has run since 1962.", "The city operates it.", "It seats 300."],
)
SUMMARY_CASE = LLMTestCase(
    input="The Arlo ferry has run since 1962. Coastlink operates it. Tickets cost 4 euros.",
    actual_output="SUMMARY: the ferry started in 1962 and is free.",
)


def main() -> None:
    out: dict[str, Any] = {}
    runs = [
        (ContextualPrecisionMetric, CASE),
        (ContextualRecallMetric, CASE),
        (HallucinationMetric, CASE),
        (SummarizationMetric, SUMMARY_CASE),
    ]
    for cls, case in runs:
        judge = BranchingJudge()
        metric = cls(model=judge, async_mode=False)
        try:
            score: Any = metric.measure(case)
            error = None
        except Exception as exc:  # reported, not raised: the test compares both implementations
            score, error = None, f"{type(exc).__name__}: {exc}"
        breakdown = getattr(metric, "score_breakdown", None) or {}
        out[cls.__name__] = {
            "score": score,
            "error": error,
            "seen": sorted(judge.seen),
            "components": {k: v for k, v in breakdown.items() if k in ("Alignment", "Coverage")},
        }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
