"""Tool correctness's names shared by its modules."""

#: the test-case fields a measure needs (deepeval 4.3.1's: input, tools_called, expected_tools)
REQUIRED_PARAMS = ("input", "tools_called", "expected_tools")
#: the System One question kind of the tool-selection check (asked only when ``available_tools`` is given)
TOOL_SELECTION = "tool_correctness.tool_selection"
