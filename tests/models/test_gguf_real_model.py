"""A real instruct model through the GGUF judge: Qwen2.5-Coder-1.5B-Instruct (the catalog model users get offline)
judges each of our three metrics in ``llm`` mode, on one thread, and every measure ends with a score.

Runs when the assembled file is in the models folder (``DEEPEVAL_MODELS_DIR``; ``deepeval set-gguf-model
qwen2.5-coder-1.5b-instruct`` puts it there); skipped otherwise, so CI never needs the 1.1 GB model. Each measure
takes one to a few minutes on a loaded 2-core machine (see the issue-23 report for measured times)."""

from __future__ import annotations

import faulthandler
from collections.abc import Iterator

import pytest

from _support.gguf import catalog_model_path, xllamacpp_installed
from deepeval.metrics import AnswerRelevancyMetric, ContextualRelevancyMetric, KnowledgeRetentionMetric
from deepeval.models.usage import track_usage
from deepeval.test_case import ConversationalTestCase, LLMTestCase, Turn

pytestmark = [pytest.mark.gguf, pytest.mark.real_model, pytest.mark.slow]
MODEL = catalog_model_path("qwen2.5-coder-1.5b-instruct") if xllamacpp_installed() else None
if MODEL is None:
    pytest.skip(
        "Qwen2.5-Coder-1.5B-Instruct is not assembled in DEEPEVAL_MODELS_DIR (or xllamacpp is missing)",
        allow_module_level=True,
    )

#: seconds one real-model test may run before the watchdog ends the process with every thread's stack
WATCHDOG_S = 1800


@pytest.fixture(autouse=True)
def long_watchdog() -> Iterator[None]:
    faulthandler.dump_traceback_later(WATCHDOG_S, exit=True)
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()


@pytest.fixture(scope="module")
def judge():
    from deepeval.models import GGUFModel

    model = GGUFModel(MODEL, n_threads=1)
    yield model
    model.close()


def _measure(metric, case) -> tuple[float, int]:
    with track_usage() as usage:
        metric.measure(case)
    assert metric.error is None, metric.error
    assert metric.score is not None and 0.0 <= metric.score <= 1.0
    assert metric.evaluation_model == "gguf:qwen2.5-coder-1.5b-instruct-q4_k_m"
    return metric.score, usage.llm_calls + usage.retries


def test_answer_relevancy_scores_the_off_topic_sentence_down(judge) -> None:
    case = LLMTestCase(
        input="What is the capital of France, and what is it known for?",
        actual_output="The capital of France is Paris. Paris is known for the Eiffel Tower and the Louvre museum. "
        "My cousin once bought a red bicycle.",
    )
    score, requests = _measure(AnswerRelevancyMetric(model=judge, eval_mode="llm"), case)
    assert 0.0 < score < 1.0  # the bicycle is irrelevant, the rest is not
    assert requests <= 6  # statements, verdicts, reason; at most one re-ask each


@pytest.fixture(scope="module")
def contextual_relevancy(judge) -> tuple[float, int]:
    case = LLMTestCase(
        input="When was the Eiffel Tower built?",
        actual_output="It was built from 1887 to 1889.",
        retrieval_context=[
            "The Eiffel Tower was constructed between 1887 and 1889 for the World's Fair. It is 330 metres tall.",
            "Bananas are rich in potassium and grow in tropical climates.",
        ],
    )
    return _measure(ContextualRelevancyMetric(model=judge, eval_mode="llm"), case)


def test_contextual_relevancy_returns_a_score(contextual_relevancy: tuple[float, int]) -> None:
    _, requests = contextual_relevancy
    assert requests <= 10


# Was a known limit with our CR prompt 2026-1 (the banana chunk rewritten as an Eiffel Tower statement and judged
# relevant, CR 1.0 in 4 of 4 runs); with 2026-7 (reasons that open with "relevant:" / "not relevant:", bench/RESULTS.md
# section 7) the unrelated chunk is scored down: 2 of 2 runs.
def test_contextual_relevancy_scores_the_unrelated_chunk_down(
    contextual_relevancy: tuple[float, int],
) -> None:
    score, _ = contextual_relevancy
    assert 0.0 < score < 1.0


@pytest.fixture(scope="module")
def knowledge_retention(judge) -> tuple[float, int]:
    case = ConversationalTestCase(
        turns=[
            Turn(
                role="user", content="Hi, I'm planning a trip. My name is Dana and I'm allergic to peanuts."
            ),
            Turn(role="assistant", content="Nice to meet you, Dana! Where are you headed?"),
            Turn(role="user", content="Bangkok, for two weeks in March."),
            Turn(
                role="assistant",
                content="Great choice. Since you are allergic to peanuts, be careful with satay sauce and pad thai.",
            ),
            Turn(role="user", content="Any food tours you'd recommend?"),
            Turn(
                role="assistant",
                content="Try the Chinatown street-food tour in Bangkok; ask them to leave out peanuts for you.",
            ),
        ]
    )
    return _measure(KnowledgeRetentionMetric(model=judge, eval_mode="llm"), case)


def test_knowledge_retention_returns_a_score(knowledge_retention: tuple[float, int]) -> None:
    _, requests = knowledge_retention
    assert requests <= 20


# Qwen2.5-Coder-1.5B with knowledge_retention/2026-5 scored this 0.33 in 3 of 3 runs: it copied the worked example's
# reason ('allergy peanuts, yet suggests peanut butter'), the example's facts sharing this case's peanut allergy.
# The example now holds facts no test case is likely to share (2026-6): >= 0.5 in 3 of 3 runs.
def test_knowledge_retention_sees_the_facts_kept(knowledge_retention: tuple[float, int]) -> None:
    score, _ = knowledge_retention
    assert score >= 0.5  # the assistant keeps the name, the allergy and the destination
