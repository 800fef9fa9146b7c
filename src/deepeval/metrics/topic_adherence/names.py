"""Topic adherence's names shared by its modules."""

#: the test-case fields a measure needs: the turns (deepeval 4.3.1 checks each turn's role and content)
REQUIRED_PARAMS = ("turns",)
#: hybrid decisions per question-answer pair
ON_TOPIC = "topic_adherence.on_topic"
ANSWERED = "topic_adherence.answered"
#: whole-metric kinds (system_one mode): one per relevant topic, and the off-topic refusals
TOPIC_ANSWERED = "topic_adherence.topic_answered"
OFF_TOPIC_DECLINED = "topic_adherence.off_topic_declined"
