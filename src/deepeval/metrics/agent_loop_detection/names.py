"""Agent loop detection's names shared by its modules."""

#: the test-case fields a measure needs (deepeval 4.3.1's: input, actual_output); the trace is needed too
REQUIRED_PARAMS = ("input", "actual_output")
