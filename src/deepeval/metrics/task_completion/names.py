"""Task completion's names shared by its modules."""

#: the test-case fields a measure needs (deepeval 4.3.1's: input, actual_output)
REQUIRED_PARAMS = ("input", "actual_output")
#: whole-metric System One kinds (system_one mode): noul weight 2, noul weight 1, a 4-level score
FULLY_ACCOMPLISHED = "task_completion.fully_accomplished"
OUTCOME_IS_THE_ASK = "task_completion.outcome_is_the_ask"
COMPLETION_LEVEL = "task_completion.completion_level"
#: the hybrid decision: how far the extracted outcome achieves the task (a 4-level score)
OUTCOME_ACHIEVES_TASK = "task_completion.outcome_achieves_task"
