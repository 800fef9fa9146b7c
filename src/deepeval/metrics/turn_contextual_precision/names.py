"""Turn Contextual Precision's names shared by its modules: its whole-conversation System One kinds (system_one mode: weights
2, 1 and a 4-level score) and the test-case fields it needs."""

USEFUL_FIRST = "turn_contextual_precision.useful_first"
TOP_NODE_USEFUL = "turn_contextual_precision.top_node_useful"
RANKING = "turn_contextual_precision.ranking"

#: the test-case fields a measure needs (``turns`` always; ``expected_outcome`` where the metric compares to it)
REQUIRED_PARAMS = ("turns", "expected_outcome")
