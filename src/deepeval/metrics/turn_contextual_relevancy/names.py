"""Turn Contextual Relevancy's names shared by its modules: its whole-conversation System One kinds (system_one mode: weights
2, 1 and a 4-level score) and the test-case fields it needs."""

ALL_RELEVANT = "turn_contextual_relevancy.all_relevant"
EVERY_NODE_RELEVANT = "turn_contextual_relevancy.every_node_relevant"
RELEVANT_SHARE = "turn_contextual_relevancy.relevant_share"

#: the test-case fields a measure needs (``turns`` always; ``expected_outcome`` where the metric compares to it)
REQUIRED_PARAMS = ("turns",)
