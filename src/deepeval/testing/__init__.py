"""Test helpers: real loopback HTTP servers speaking the OpenAI and System One wire formats
(:mod:`deepeval.testing.servers`) and the providers' own (:mod:`deepeval.testing.provider_servers`: Anthropic,
Gemini, Ollama, Azure OpenAI, Bedrock). Nothing here touches the network beyond 127.0.0.1."""

from __future__ import annotations

from deepeval.testing.provider_servers import (
    AnthropicServer,
    AzureOpenAIServer,
    BedrockServer,
    GeminiServer,
    OllamaServer,
)
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
    "AnthropicServer",
    "AzureOpenAIServer",
    "BedrockServer",
    "Counters",
    "Fault",
    "GeminiServer",
    "OllamaServer",
    "OpenAIChatServer",
    "SystemOneReply",
    "SystemOneServer",
    "wire_choice",
    "wire_noul",
    "wire_score",
]
