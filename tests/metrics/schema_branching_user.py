"""User code run unchanged under ours and under deepeval 4.3.1 (``test_schema_names.py`` runs it with each
implementation's interpreter): a custom ``DeepEvalBaseLLM`` that branches on the schema class it is handed, as
deepeval's docs show for JSON confinement, and answers each schema by building it from the schema modules' names.

Prints one JSON object: the ``[schema name, sorted field names]`` of every call, by metric, and each metric's score
and error. Only the standard library and ``deepeval`` are imported.
"""

from __future__ import annotations

import json
from typing import Any

from deepeval.metrics import AnswerRelevancyMetric, ContextualRelevancyMetric, KnowledgeRetentionMetric
from deepeval.metrics.answer_relevancy.schema import (
    AnswerRelevancyScoreReason,
    AnswerRelevancyVerdict,
    Statements,
    Verdicts,
)
from deepeval.metrics.contextual_relevancy.schema import (
    ContextualRelevancyScoreReason,
    ContextualRelevancyVerdict,
    ContextualRelevancyVerdicts,
)
from deepeval.metrics.knowledge_retention.schema import (
    Knowledge,
    KnowledgeRetentionScoreReason,
    KnowledgeRetentionVerdict,
)
from deepeval.models import DeepEvalBaseLLM
from deepeval.test_case import ConversationalTestCase, LLMTestCase, Turn


class BranchingJudge(DeepEvalBaseLLM):
    """Answers by the schema it receives; records every schema's name and fields."""

    def __init__(self) -> None:
        self.seen: list[list[Any]] = []
        super().__init__("branching-judge")

    def load_model(self, *args: Any, **kwargs: Any) -> None:
        return None

    def get_model_name(self) -> str:
        return "branching-judge"

    def generate(self, prompt: str, schema: Any = None) -> Any:
        self.seen.append([schema.__name__, sorted(schema.model_fields)])
        if schema is Statements:
            return Statements(statements=["Refunds are accepted within 30 days.", "Our shoes are red."])
        if schema is Verdicts:
            return Verdicts(
                verdicts=[
                    AnswerRelevancyVerdict(verdict="yes"),
                    AnswerRelevancyVerdict(verdict="no", reason="The colour does not answer the question."),
                ]
            )
        if schema is ContextualRelevancyVerdicts:
            return ContextualRelevancyVerdicts(
                verdicts=[ContextualRelevancyVerdict(statement="Refunds take 30 days.", verdict="yes")]
            )
        if schema is Knowledge:
            return Knowledge(data={"name": "Ada", "shoe size": "38"})
        if schema is KnowledgeRetentionVerdict:
            return KnowledgeRetentionVerdict(verdict="no")
        if schema in (
            AnswerRelevancyScoreReason,
            ContextualRelevancyScoreReason,
            KnowledgeRetentionScoreReason,
        ):
            return schema(reason="scored by the branching judge")
        raise ValueError(f"unexpected schema {schema!r}")

    async def a_generate(self, prompt: str, schema: Any = None) -> Any:
        return self.generate(prompt, schema)


def main() -> None:
    single = LLMTestCase(
        input="How long do I have to return shoes?",
        actual_output="Refunds are accepted within 30 days. Our shoes are red.",
        retrieval_context=["Refunds take 30 days."],
    )
    conversation = ConversationalTestCase(
        turns=[
            Turn(role="user", content="I'm Ada and my shoe size is 38."),
            Turn(role="assistant", content="Thanks Ada, noted."),
            Turn(role="user", content="Which trainers would fit me?"),
            Turn(role="assistant", content="These trainers come in size 38."),
        ]
    )
    out: dict[str, Any] = {}
    for metric_class, case in (
        (AnswerRelevancyMetric, single),
        (ContextualRelevancyMetric, single),
        (KnowledgeRetentionMetric, conversation),
    ):
        judge = BranchingJudge()
        metric = metric_class(model=judge, eval_mode="llm", async_mode=False)
        try:
            metric.measure(case)
        except Exception as exc:  # reported, compared by the test
            out[metric_class.__name__] = {"error": f"{type(exc).__name__}: {exc}"[:500], "seen": judge.seen}
            continue
        out[metric_class.__name__] = {"score": metric.score, "error": metric.error, "seen": judge.seen}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
