"""MCP task completion's names shared by its modules."""

#: the test-case fields a measure needs: the turns and the MCP servers (deepeval 4.3.1 requires both)
REQUIRED_PARAMS = ("turns", "mcp_servers")
#: the hybrid judgement per exchange (4 levels)
TASK_DONE = "mcp_task_completion.task_done"
#: whole-metric kinds (system_one mode): noul weight 2, noul weight 1, a 4-level score
EVERY_TASK = "mcp_task_completion.every_task"
CLAIMS_BACKED = "mcp_task_completion.claims_backed"
COMPLETION_LEVEL = "mcp_task_completion.completion_level"
