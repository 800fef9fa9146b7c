"""Plan quality's names shared by its modules."""

#: the test-case fields a measure needs (deepeval 4.3.1's: input, actual_output); the trace is read when present
REQUIRED_PARAMS = ("input", "actual_output")
#: the hybrid judgement (5 levels) and the whole-metric choice questions (system_one mode)
PLAN_GOOD = "plan_quality.plan_good"
COMPLETE = "plan_quality.complete"
STEPS_SOUND = "plan_quality.steps_sound"
HOW_GOOD = "plan_quality.how_good"
