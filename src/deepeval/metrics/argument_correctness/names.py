"""Argument correctness's names shared by its modules."""

#: the test-case fields a measure needs (deepeval 4.3.1's: input, tools_called)
REQUIRED_PARAMS = ("input", "tools_called")
#: the hybrid decision: one tool call's arguments are right for the input
ARGUMENTS_CORRECT = "argument_correctness.arguments_correct"
#: whole-metric System One kinds (system_one mode): noul weight 2, noul weight 1, a 4-level score
ALL_CORRECT = "argument_correctness.all_correct"
NONE_WRONG = "argument_correctness.none_wrong"
CORRECT_SHARE = "argument_correctness.correct_share"
