"""MCP interaction records (``MCPServer``, ``MCPToolCall``, ``MCPResourceCall``, ``MCPPromptCall``), as deepeval has
them on test cases. They are data only: no MCP client is needed, and ``result`` may be any object (deepeval insists
on the ``mcp`` package's result types; ours does not depend on that package)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import AnyUrl, BaseModel, ConfigDict, StrictStr, field_serializer


class _McpCall(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True, extra="forbid")

    @field_serializer("result", mode="plain", when_used="json", check_fields=False)
    def _jsonable_result(self, value: Any) -> Any:
        """A result as JSON: pydantic objects (the ``mcp`` package's results) dumped, JSON values as they are,
        anything else as its ``str`` (so exports and cache keys never fail on an exotic result)."""
        dump = getattr(value, "model_dump", None)
        if callable(dump):
            return dump(mode="json")
        try:
            json.dumps(value)
        except (TypeError, ValueError):
            return str(value)
        return value


class MCPToolCall(_McpCall):
    """A call of an MCP tool: its ``name``, the ``args`` sent and the ``result`` returned."""

    name: StrictStr
    args: dict[str, Any]
    result: Any


class MCPPromptCall(_McpCall):
    """A fetch of an MCP prompt by ``name`` and what it returned."""

    name: StrictStr
    result: Any


class MCPResourceCall(_McpCall):
    """A read of an MCP resource at ``uri`` and what it returned."""

    uri: AnyUrl
    result: Any


@dataclass
class MCPServer:
    """An MCP server the application could use, with the tools, resources and prompts it offers (dicts or the
    ``mcp`` package's objects)."""

    server_name: str
    transport: Literal["stdio", "sse", "streamable-http"] | None = None
    available_tools: list[Any] | None = None
    available_resources: list[Any] | None = None
    available_prompts: list[Any] | None = None


def get_available_mcp_tool_names(mcp_servers: list[MCPServer]) -> set[str]:
    """Names of every tool the servers offer (dict entries by ``"name"``, objects by ``.name``)."""
    names: set[str] = set()
    for server in mcp_servers:
        for tool in server.available_tools or []:
            name = tool.get("name") if isinstance(tool, dict) else getattr(tool, "name", None)
            if name:
                names.add(str(name))
    return names
