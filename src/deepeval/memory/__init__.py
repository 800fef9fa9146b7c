"""QA-probing memory evaluation: fact manifests, conversation generation, the short-term / long-term (wiki) /
artifact-only conditions, the 1-5 grader, recall and precision scores, reports, and a LoCoMo loader.

Names are imported lazily so ``import deepeval.memory`` stays light.
"""

from __future__ import annotations

import importlib
from typing import Any

_LAZY = {
    "Fact": "deepeval.memory.manifest",
    "FactManifest": "deepeval.memory.manifest",
    "ManifestError": "deepeval.memory.manifest",
    "load_manifest": "deepeval.memory.manifest",
    "parse_manifest": "deepeval.memory.manifest",
    "manifest_json_schema": "deepeval.memory.manifest",
    "GeneratedConversation": "deepeval.memory.generator",
    "generate_conversation": "deepeval.memory.generator",
    "a_generate_conversation": "deepeval.memory.generator",
    "check_coverage": "deepeval.memory.generator",
    "MemoryArtifact": "deepeval.memory.artifact",
    "Wiki": "deepeval.memory.wiki",
    "WikiError": "deepeval.memory.wiki",
    "tool_definitions": "deepeval.memory.wiki",
    "EmbeddedMemoryJudge": "deepeval.memory.judges",
    "LLMMemoryJudge": "deepeval.memory.judges",
    "resolve_memory_judge": "deepeval.memory.judges",
    "EndpointChatModel": "deepeval.memory.subjects",
    "CallableChatModel": "deepeval.memory.subjects",
    "EndpointWikiKeeper": "deepeval.memory.subjects",
    "CallableWikiKeeper": "deepeval.memory.subjects",
    "MemoryReport": "deepeval.memory.conditions",
    "TranscriptReader": "deepeval.memory.conditions",
    "evaluate_artifact": "deepeval.memory.conditions",
    "run_short_term": "deepeval.memory.conditions",
    "run_long_term": "deepeval.memory.conditions",
    "live_conversation": "deepeval.memory.conditions",
    "recall_summary": "deepeval.memory.scoring",
    "precision_summary": "deepeval.memory.scoring",
    "MemoryRecallMetric": "deepeval.memory.metrics",
    "MemoryPrecisionMetric": "deepeval.memory.metrics",
    "write_report": "deepeval.memory.report",
    "render_html": "deepeval.memory.report",
    "load_locomo": "deepeval.memory.locomo",
}

__all__ = list(_LAZY)


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'deepeval.memory' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
