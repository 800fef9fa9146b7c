"""Tool permission's names shared by its modules."""

#: the test-case fields a measure needs (deepeval 4.3.1's: tools_called)
REQUIRED_PARAMS = ("tools_called",)
