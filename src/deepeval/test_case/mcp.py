"""deepeval's module path for the MCP records (``from deepeval.test_case.mcp import MCPServer``)."""

from deepeval.test_case._mcp import (
    MCPPromptCall,
    MCPResourceCall,
    MCPServer,
    MCPToolCall,
    get_available_mcp_tool_names,
)

__all__ = ["MCPPromptCall", "MCPResourceCall", "MCPServer", "MCPToolCall", "get_available_mcp_tool_names"]
