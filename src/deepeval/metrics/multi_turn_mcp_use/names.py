"""Multi-turn MCP use's names shared by its modules."""

#: the test-case fields a measure needs: the turns and the MCP servers (deepeval 4.3.1 requires both)
REQUIRED_PARAMS = ("turns", "mcp_servers")
#: hybrid judgements per exchange (4 levels each)
PRIMITIVES = "multi_turn_mcp_use.primitives"
ARGUMENTS = "multi_turn_mcp_use.arguments"
#: whole-metric kinds (system_one mode): noul weight 2, noul weight 1, a 4-level score
RIGHT_PRIMITIVES = "multi_turn_mcp_use.right_primitives"
RIGHT_ARGUMENTS = "multi_turn_mcp_use.right_arguments"
USE_LEVEL = "multi_turn_mcp_use.use_level"
