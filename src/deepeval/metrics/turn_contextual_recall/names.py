"""Turn Contextual Recall's names shared by its modules: its whole-conversation System One kinds (system_one mode: weights
2, 1 and a 4-level score) and the test-case fields it needs."""

ALL_ATTRIBUTABLE = "turn_contextual_recall.all_attributable"
KEY_FACTS_PRESENT = "turn_contextual_recall.key_facts_present"
ATTRIBUTABLE_SHARE = "turn_contextual_recall.attributable_share"

#: the test-case fields a measure needs (``turns`` always; ``expected_outcome`` where the metric compares to it)
REQUIRED_PARAMS = ("turns", "expected_outcome")
