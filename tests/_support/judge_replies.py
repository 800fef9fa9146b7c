"""Scripted chat-completions replies that make AnswerRelevancyMetric (llm mode) score an answer 1.0: one statement,
judged relevant, one reason. Keyed by the structured-output schema our client asks for (see
``deepeval.testing.servers.schema_responder``)."""

from __future__ import annotations

AR_ALL_RELEVANT = {
    "Statements": {"statements": ["Paris is the capital."]},
    "Verdicts": {"verdicts": [{"verdict": "yes", "reason": None}]},
    "AnswerRelevancyScoreReason": {"reason": "on topic"},
}
