"""MCP use's names shared by its modules."""

#: the test-case fields a measure needs (deepeval 4.3.1's: input, actual_output, mcp_servers)
REQUIRED_PARAMS = ("input", "actual_output", "mcp_servers")
#: hybrid judgements (4 levels each)
PRIMITIVES = "mcp_use.primitives"
ARGUMENTS = "mcp_use.arguments"
#: whole-metric kinds (system_one mode): noul weight 2, noul weight 1, a 4-level score
RIGHT_PRIMITIVES = "mcp_use.right_primitives"
RIGHT_ARGUMENTS = "mcp_use.right_arguments"
USE_LEVEL = "mcp_use.use_level"
