"""Exact match's names shared by its modules: the test-case fields a measure needs."""

#: the test-case fields a measure needs (as deepeval 4.3.1: input, actual_output, expected_output)
REQUIRED_PARAMS = ("input", "actual_output", "expected_output")
