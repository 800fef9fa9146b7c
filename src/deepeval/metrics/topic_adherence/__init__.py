"""Topic adherence: whether an assistant answers the questions on its topics and declines the others (judged,
multi-turn).

Exports are imported on first use, so reading the metric's ``declaration`` (the metric registry) stays light.
"""

from deepeval._lazy import lazy_exports

__all__ = [
    "QAPair",
    "QAPairs",
    "RelevancyVerdict",
    "TopicAdherenceMetric",
    "TopicAdherenceQuestions",
    "TopicAdherenceTemplate",
]
__getattr__ = lazy_exports(
    __name__,
    {
        "TopicAdherenceMetric": "deepeval.metrics.topic_adherence.metric",
        "TopicAdherenceTemplate": "deepeval.metrics.topic_adherence.prompts",
        "TopicAdherenceQuestions": "deepeval.metrics.topic_adherence.questions",
        "QAPair": "deepeval.metrics.topic_adherence.schema",
        "QAPairs": "deepeval.metrics.topic_adherence.schema",
        "RelevancyVerdict": "deepeval.metrics.topic_adherence.schema",
    },
)
