"""Test helpers: real loopback HTTP servers speaking the OpenAI and System One wire formats
(:mod:`deepeval.testing.servers`). Nothing here touches the network beyond 127.0.0.1."""

from __future__ import annotations

from deepeval.testing.servers import (
    Counters,
    Fault,
    OpenAIChatServer,
    SystemOneReply,
    SystemOneServer,
    wire_choice,
    wire_noul,
    wire_score,
)

__all__ = [
    "Counters",
    "Fault",
    "OpenAIChatServer",
    "SystemOneReply",
    "SystemOneServer",
    "wire_choice",
    "wire_noul",
    "wire_score",
]
