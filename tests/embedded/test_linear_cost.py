"""Contextual relevancy on the embedded judge costs work linear in a node's sentences: the node and the context are
split, cleaned of instructions to the evaluator and ranked once per request, not once per statement. Measured by
counting work (sentences split, instruction checks, embedding lookups), never by timing."""

from __future__ import annotations

import zlib
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import pytest

from deepeval.metrics import ContextualRelevancyMetric
from deepeval.models.embedded import encoder
from deepeval.models.embedded import features as ft
from deepeval.models.embedded import text as tx
from deepeval.test_case import LLMTestCase


def _fake(texts: list[str], is_query: bool) -> np.ndarray:
    """A deterministic stand-in encoder: one pseudo-random vector per text."""
    out = np.zeros((len(texts), encoder.DIM), dtype=np.float32)
    for i, t in enumerate(texts):
        out[i] = np.random.default_rng(zlib.crc32(t.encode())).standard_normal(encoder.DIM)
    return out


class Work:
    def __init__(self) -> None:
        self.split_chars = 0
        self.instruction_checks = 0
        self.embed_lookups = 0

    @property
    def total(self) -> int:
        return self.split_chars // 40 + self.instruction_checks + self.embed_lookups


@pytest.fixture
def work(monkeypatch: pytest.MonkeyPatch) -> Iterator[Work]:
    w = Work()
    split, check, embed = tx.split_sentences, tx.is_instruction_to_evaluator, ft.embed

    def counting_split(text: str) -> list[str]:
        w.split_chars += len(text)
        return split(text)

    def counting_check(sentence: str) -> bool:
        w.instruction_checks += 1
        return check(sentence)

    def counting_embed(texts: Sequence[str], kind: Any = "passage") -> np.ndarray:
        w.embed_lookups += len(texts)
        return embed(texts, kind)

    monkeypatch.setattr(tx, "split_sentences", counting_split)
    monkeypatch.setattr(tx, "is_instruction_to_evaluator", counting_check)
    monkeypatch.setattr(ft, "embed", counting_embed)
    encoder.set_backend(_fake)
    try:
        yield w
    finally:
        encoder.set_backend(None)


def _node(n: int, salt: str) -> str:
    return " ".join(
        f"Record {salt}{i} says the harbour ferry number {i % 13} leaves pier {i % 7} at {i % 12 + 1} o'clock."
        for i in range(n)
    )


def _measure(n: int, salt: str, work: Work) -> tuple[int, dict[str, Any]]:
    before = work.total
    metric = ContextualRelevancyMetric(eval_mode="hybrid", include_reason=False, threshold=None)
    case = LLMTestCase(
        input="When does the harbour ferry leave pier 3?",
        actual_output="At noon.",
        retrieval_context=[_node(n, salt)],
    )
    metric.measure(case)
    assert metric.score_breakdown is not None
    return work.total - before, metric.score_breakdown


def test_work_grows_linearly_with_the_sentences_of_a_node(work: Work) -> None:
    small, b_small = _measure(100, "a", work)
    large, b_large = _measure(800, "b", work)
    assert b_small["statements"] == 100 and b_large["statements"] == 800
    # 8x the sentences: linear work is ~8x; the old per-statement re-split and re-rank was ~64x
    assert large / small < 10.0, (small, large)
    # every sentence is checked for instructions a bounded number of times, not once per statement
    assert work.instruction_checks < 12 * (100 + 800)


def _measure_answer(n: int, salt: str, work: Work) -> int:
    from deepeval.metrics import AnswerRelevancyMetric

    before = work.total
    metric = AnswerRelevancyMetric(eval_mode="hybrid", include_reason=False, threshold=None)
    metric.measure(
        LLMTestCase(input="When does the harbour ferry leave pier 3?", actual_output=_node(n, salt))
    )
    assert metric.score_breakdown is not None and metric.score_breakdown["statements"] == n
    return work.total - before


def test_answer_statements_read_beside_their_siblings_in_linear_work(work: Work) -> None:
    """Each answer statement is judged beside the answer's best other statement, found once per answer."""
    small = _measure_answer(100, "c", work)
    large = _measure_answer(800, "d", work)
    assert large / small < 10.0, (small, large)
