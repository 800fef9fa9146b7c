"""Turn Faithfulness's names shared by its modules: its whole-conversation System One kinds (system_one mode: weights
2, 1 and a 4-level score) and the test-case fields it needs."""

ALL_SUPPORTED = "turn_faithfulness.all_supported"
NO_CONTRADICTION = "turn_faithfulness.no_contradiction"
GROUNDED_SHARE = "turn_faithfulness.grounded_share"

#: the test-case fields a measure needs (``turns`` always; ``expected_outcome`` where the metric compares to it)
REQUIRED_PARAMS = ("turns",)
