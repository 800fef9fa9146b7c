"""System One requests are no larger than deepeval 4.3.1's for the same questions: the state carries each piece of
content once and the instructions repeat nothing. Reference sizes: deepeval 4.3.1 with its TypeSafe SDK on the
same test cases (the first RAG case and the first 20-turn conversation of bench/workloads.py), request bodies as
compact UTF-8 JSON, measured 2026-12-01 against the bench's loopback judge."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.workloads import conversations, rag_cases

from deepeval import evaluate
from deepeval.evaluate import CacheConfig, DisplayConfig
from deepeval.metrics import (
    AnswerRelevancyMetric,
    ContextualRelevancyMetric,
    KnowledgeRetentionMetric,
)
from deepeval.models import TypeSafeModel
from deepeval.test_case import ConversationalTestCase, LLMTestCase, Turn
from deepeval.testing.servers import SystemOneServer

#: bytes of deepeval 4.3.1's system_one request for the same test case
DEEPEVAL_BYTES = {"AnswerRelevancy": 848, "ContextualRelevancy": 1881, "KnowledgeRetention": 2677}


def _size(body: object) -> int:
    return len(json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode())


@pytest.mark.parametrize(
    "metric_cls", [AnswerRelevancyMetric, ContextualRelevancyMetric, KnowledgeRetentionMetric]
)
def test_system_one_request_is_no_larger_than_deepevals_for_the_same_questions(metric_cls: type) -> None:
    rag = rag_cases(1)[0]
    conv = conversations(1, 20)[0]
    if metric_cls is KnowledgeRetentionMetric:
        case: object = ConversationalTestCase(
            turns=[Turn(role=t["role"], content=t["content"]) for t in conv["turns"]]
        )
    else:
        case = LLMTestCase(
            input=rag["input"], actual_output=rag["actual_output"], retrieval_context=rag["retrieval_context"]
        )
    with SystemOneServer() as srv:
        metric = metric_cls(
            eval_mode="system_one", system_one_model=TypeSafeModel(api_key="k", base_url=srv.base_url)
        )
        evaluate(
            [case],  # type: ignore[list-item]
            [metric],
            display_config=DisplayConfig(show_indicator=False, print_results=False),
            cache_config=CacheConfig(write_cache=False),
        )
        (body,) = srv.counters.bodies
    name = metric_cls.__name__.removesuffix("Metric")
    assert _size(body) <= DEEPEVAL_BYTES[name], (name, _size(body), json.dumps(body)[:600])
    # each piece of content once: the state holds it, no instruction repeats it
    state_text = json.dumps(body["state"], ensure_ascii=False)
    for q in body["questions"].values():
        assert q["instructions"] not in state_text and len(q["instructions"]) < 160
