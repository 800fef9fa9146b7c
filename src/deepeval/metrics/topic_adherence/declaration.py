"""Topic adherence's declaration (read by :mod:`deepeval.metrics.registry`)."""

from __future__ import annotations

from deepeval.metrics.declaration import MetricDeclaration
from deepeval.metrics.topic_adherence.names import (
    ANSWERED,
    OFF_TOPIC_DECLINED,
    ON_TOPIC,
    REQUIRED_PARAMS,
    TOPIC_ANSWERED,
)

DECLARATIONS = (
    MetricDeclaration(
        name="topic_adherence",
        public_name="TopicAdherenceMetric",
        cls="deepeval.metrics.topic_adherence.metric:TopicAdherenceMetric",
        conversational=True,
        required_params=REQUIRED_PARAMS,
        example_args={"relevant_topics": ["travel"]},
        question_kinds=(TOPIC_ANSWERED, OFF_TOPIC_DECLINED, ON_TOPIC, ANSWERED),
        takes_eval_mode=True,
    ),
)
