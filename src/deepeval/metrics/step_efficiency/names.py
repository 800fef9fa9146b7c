"""Step efficiency's names shared by its modules."""

#: the test-case fields a measure needs (deepeval 4.3.1's: input, actual_output); the trace is read when present
REQUIRED_PARAMS = ("input", "actual_output")
#: the hybrid judgement (5 levels) and the whole-metric questions (system_one mode)
EFFICIENT = "step_efficiency.efficient"
EVERY_STEP_NEEDED = "step_efficiency.every_step_needed"
MOST_DIRECT = "step_efficiency.most_direct"
HOW_EFFICIENT = "step_efficiency.how_efficient"
