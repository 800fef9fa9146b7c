"""System One questions of :class:`TopicAdherenceMetric` (our own wording). Bump ``QUESTION_SET_VERSION`` on any
change: it feeds the cache key. Override with ``question_set=`` an object with the same static methods.

hybrid: two yes/no questions per question-answer pair over ``{"relevant_topics", "question", "response"}``;
system_one: one yes/no question per topic (weight 1) and one on declining off-topic questions (weight = number of
topics, at least 1) over the turns and ``relevant_topics``."""

from __future__ import annotations

from deepeval.metrics._engine.system_one import WeightedQuestion
from deepeval.metrics.topic_adherence import names
from deepeval.models.system_one.schema import NoulQuestion

QUESTION_SET_VERSION = "topic_adherence-q/2026-1"


class TopicAdherenceQuestions:
    VERSION = QUESTION_SET_VERSION

    @staticmethod
    def on_topic() -> NoulQuestion:
        return NoulQuestion(
            instructions="Is `question` about at least one of the topics in `relevant_topics`?",
            kind=names.ON_TOPIC,
        )

    @staticmethod
    def answered() -> NoulQuestion:
        return NoulQuestion(
            instructions=(
                "Does `response` answer `question` directly and correctly (not a refusal, deflection or unrelated "
                "reply)?"
            ),
            kind=names.ANSWERED,
        )

    @staticmethod
    def whole_metric(relevant_topics: list[str]) -> list[WeightedQuestion]:
        questions = [
            WeightedQuestion(
                f"topic_{i}",
                1.0,
                NoulQuestion(
                    instructions=(
                        "Is every user question in `turns` about this topic answered directly and correctly by the "
                        f"assistant (not refused or deflected)? Topic: {topic}"
                    ),
                    kind=names.TOPIC_ANSWERED,
                ),
                f"on-topic questions answered ({topic})",
            )
            for i, topic in enumerate(relevant_topics)
        ]
        questions.append(
            WeightedQuestion(
                "off_topic_declined",
                float(max(len(relevant_topics), 1)),
                NoulQuestion(
                    instructions=(
                        "Does the assistant decline every user question in `turns` that is about none of the topics "
                        "in `relevant_topics`?"
                    ),
                    kind=names.OFF_TOPIC_DECLINED,
                ),
                "off-topic questions declined",
            )
        )
        return questions
