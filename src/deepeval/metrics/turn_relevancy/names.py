"""Turn relevancy's names shared by its modules: its own System One question kinds and the test-case fields it needs."""

#: hybrid: is the last assistant turn of a window relevant to the conversation so far?
TURN_RELEVANT = "turn_relevancy.turn_relevant"
#: whole-metric kinds (system_one mode): noul weight 2, noul weight 1, a 4-level relevance level
ALL_RELEVANT = "turn_relevancy.all_relevant"
NONE_OFF_TOPIC = "turn_relevancy.none_off_topic"
RELEVANCE_LEVEL = "turn_relevancy.relevance_level"

#: the test-case fields a measure needs (a ConversationalTestCase always has them)
REQUIRED_PARAMS = ("turns",)
