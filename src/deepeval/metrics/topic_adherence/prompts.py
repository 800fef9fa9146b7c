"""Prompts of :class:`TopicAdherenceMetric` (our own wording). Bump ``PROMPT_VERSION`` on any change: it feeds the
cache key. Override with ``evaluation_template=`` an object with the same static methods (deepeval 4.3.1's names
and keywords)."""

from __future__ import annotations

import json
from collections.abc import Sequence

from deepeval.metrics.delimit import DATA_NOTICE, declare_labels, quote

PROMPT_VERSION = "topic_adherence/2026-1"

declare_labels("conversation", "topics", "user question", "assistant response", "judgements")


class TopicAdherenceTemplate:
    PROMPT_VERSION = PROMPT_VERSION

    @staticmethod
    def get_qa_pairs(conversation: str) -> str:
        """The user's questions in one exchange with the assistant's responses; reply ``{"qa_pairs": [{"question",
        "response"}]}`` (``QAPairs``)."""
        return f"""List the questions or requests the user makes in this part of a conversation, each with the
assistant's response to it (quote or closely paraphrase both). Leave out greetings and thanks that ask nothing. With
no question, reply with an empty list.

Reply with JSON only: {{"qa_pairs": [{{"question": "...", "response": "..."}}]}}

{DATA_NOTICE}

{quote("conversation", conversation)}

JSON:"""

    @staticmethod
    def get_qa_pair_verdict(relevant_topics: Sequence[str], question: str, response: str) -> str:
        """One verdict: TP (on topic, answered), FN (on topic, refused or missed), FP (off topic, answered anyway),
        TN (off topic, declined); reply ``{"verdict": ..., "reason": ...}`` (``RelevancyVerdict``)."""
        return f"""An assistant should answer questions about its topics and decline all others. Classify this exchange:
- "TP": the question is about one of the topics and the response answers it directly and correctly;
- "FN": the question is about one of the topics but the response refuses, deflects or misses it;
- "FP": the question is about none of the topics but the response answers it anyway;
- "TN": the question is about none of the topics and the response declines it.

Reply with JSON only: {{"verdict": "TP" | "TN" | "FP" | "FN", "reason": "<one sentence>"}}

{DATA_NOTICE}

{quote("topics", json.dumps(list(relevant_topics), ensure_ascii=False))}

{quote("user question", question)}

{quote("assistant response", response)}

JSON:"""

    @staticmethod
    def generate_reason(
        success: bool | None,
        score: float,
        threshold: float | None,
        true_positives_reason_line: str,
        true_negatives_reason_line: str,
        false_positives_reason_line: str,
        false_negatives_reason_line: str,
    ) -> str:
        """Why the conversation got its score; reply ``{"reason": "..."}`` (``TopicAdherenceReason``)."""
        judgements = (
            f"Answered on-topic questions:\n{true_positives_reason_line}\n\n"
            f"Declined off-topic questions:\n{true_negatives_reason_line}\n\n"
            f"Answered off-topic questions:\n{false_positives_reason_line}\n\n"
            f"Missed on-topic questions:\n{false_negatives_reason_line}"
        )
        return f"""An assistant was graded {score:.2f} (threshold {threshold}) on keeping to its topics: the share of
its exchanges where it answered an on-topic question or declined an off-topic one. In one or two sentences, say why,
naming the exchanges that cost the most.

Reply with JSON only: {{"reason": "..."}}

{DATA_NOTICE}

{quote("judgements", judgements)}

JSON:"""
