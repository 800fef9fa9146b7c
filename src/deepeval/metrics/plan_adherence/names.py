"""Plan adherence's names shared by its modules."""

#: the test-case fields a measure needs (deepeval 4.3.1's: input, actual_output); the trace is read when present
REQUIRED_PARAMS = ("input", "actual_output")
#: the hybrid judgement (5 levels) and the whole-metric choice questions (system_one mode)
FOLLOWS_PLAN = "plan_adherence.follows_plan"
EVERY_STEP = "plan_adherence.every_step"
NOTHING_ELSE = "plan_adherence.nothing_else"
HOW_STRICTLY = "plan_adherence.how_strictly"
