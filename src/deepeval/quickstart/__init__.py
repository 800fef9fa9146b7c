"""The README's main job: evaluate real example data with the three metrics on whatever judge is configured
(offline, the embedded judge), print the results and how the scores compare with human labels.

Data (see ``data/NOTICE.md``): 20 ClapNQ RAG items (Apache-2.0) with human sentence-level relevance labels, and 10
hand-labelled conversations for knowledge retention.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

from deepeval.test_case import ConversationalTestCase, LLMTestCase


@dataclass
class QuickstartData:
    rag_cases: list[LLMTestCase]
    rag_labels: list[dict[str, Any]]
    conversations: list[ConversationalTestCase]
    conversation_labels: list[list[int]]


def load_data(limit: int | None = None) -> QuickstartData:
    """Load the bundled examples (``limit`` caps each set, for quick runs)."""
    root = resources.files("deepeval.quickstart") / "data"
    rows = [json.loads(line) for line in (root / "clapnq_quickstart.jsonl").read_text().splitlines() if line]
    convs = json.loads((root / "conversations.json").read_text())
    if limit is not None:
        rows, convs = rows[:limit], convs[:limit]
    rag_cases = [
        LLMTestCase(
            input=r["input"],
            actual_output=r["actual_output"],
            retrieval_context=r["retrieval_context"],
            name=r["id"],
        )
        for r in rows
    ]
    conversations = [ConversationalTestCase(turns=c["turns"], name=c["name"]) for c in convs]
    return QuickstartData(
        rag_cases=rag_cases,
        rag_labels=rows,
        conversations=conversations,
        conversation_labels=[c["attrition_turns"] for c in convs],
    )
