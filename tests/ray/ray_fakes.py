"""Deterministic scripted judges, workloads and fault-injecting metrics for the Ray backend tests.

Everything here is shipped to Ray workers by value (conftest registers this module with cloudpickle), so the
workers need not import it. Scores come from crc32 (never ``hash()``, which differs between processes).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import zlib
from pathlib import Path
from typing import Any

from deepeval.metrics import AnswerRelevancyMetric, ContextualRelevancyMetric, KnowledgeRetentionMetric
from deepeval.metrics.base_metric import BaseMetric
from deepeval.models.system_one.schema import NoulQuestion, ScoreQuestion
from deepeval.test_case import ConversationalTestCase, LLMTestCase, Turn
from deepeval.testing.scripted import ScriptedLLM, ScriptedSystemOne


def crc(text: str) -> int:
    return zlib.crc32(text.encode("utf-8"))


# -- scripted judges ------------------------------------------------------------------------------------------
def llm_responder(prompt: str, schema: Any) -> Any:
    """AnswerRelevancy in llm mode: 1-4 statements per output, verdicts from crc32; fails on 'q13'-style inputs."""
    if "case q13 " in prompt or "case q113 " in prompt:
        raise RuntimeError("scripted judge failure")
    name = None if schema is None else schema.__name__
    if name == "Statements":
        n = crc(prompt) % 4 + 1
        base = crc(prompt) % 10_000
        return {"statements": [f"claim-{base}-{k}" for k in range(n)]}
    if name == "Verdicts":
        claims = list(dict.fromkeys(re.findall(r"claim-\d+-\d+", prompt)))
        verdicts = [("yes", "no", "idk")[crc(c) % 3] for c in claims]
        return {"verdicts": [{"verdict": v, "reason": f"r{i}"} for i, v in enumerate(verdicts)]}
    if name == "AnswerRelevancyScoreReason":
        return {"reason": f"scripted reason {crc(prompt) % 97}"}
    raise AssertionError(f"unexpected schema {name}")


def system_one_responder(state: Any, questions: dict[str, Any]) -> dict[str, Any]:
    """Answers every question from crc32 of its id and the state."""
    text = json.dumps(state, sort_keys=True, default=str)
    out: dict[str, Any] = {}
    for qid, q in questions.items():
        h = crc(f"{qid}|{text}")
        if isinstance(q, NoulQuestion):
            out[qid] = (h % 100) / 100
        elif isinstance(q, ScoreQuestion):
            out[qid] = float(h % len(q.levels))
    return out


def workload(n: int) -> list[Any]:
    """n test cases: every 5th is a conversation, the rest single-turn with retrieval context."""
    cases: list[Any] = []
    for i in range(n):
        if i % 5 == 4:
            cases.append(
                ConversationalTestCase(
                    turns=[
                        Turn(role="user", content=f"I am user {i} and I live in city {i % 7}."),
                        Turn(role="assistant", content=f"Noted, user {i}."),
                        Turn(role="user", content="What did I say?"),
                        Turn(role="assistant", content=f"You live in city {(i * 3) % 7}."),
                    ]
                )
            )
        else:
            cases.append(
                LLMTestCase(
                    input=f"case q{i} question",
                    actual_output=f"Answer number {i}. It has {i % 3} parts.",
                    retrieval_context=[f"node {i} a", f"node {i % 4} b"],
                )
            )
    return cases


def three_metrics() -> list[BaseMetric]:
    s1 = ScriptedSystemOne(system_one_responder, name="scripted-s1", cost=0.001)
    return [
        AnswerRelevancyMetric(
            model=ScriptedLLM(llm_responder, name="scripted-llm", tokens=(11, 4)), eval_mode="llm"
        ),
        ContextualRelevancyMetric(system_one_model=s1, eval_mode="system_one"),
        KnowledgeRetentionMetric(system_one_model=s1, eval_mode="system_one"),
    ]


# -- fault injection ---------------------------------------------------------------------------------------------
class KillOnceMetric(BaseMetric):
    """Scores ``crc32(input) % 100 / 100``; on test case ``kill_input`` it first SIGKILLs its own worker process,
    once per marker file (``times`` kills in all), like a worker lost to OOM or a node failure."""

    def __init__(self, marker_dir: str, kill_input: str, times: int = 1, threshold: float = 0.5) -> None:
        self.marker_dir = marker_dir
        self.kill_input = kill_input
        self.times = times
        self.threshold = threshold

    @property
    def __name__(self) -> str:  # type: ignore[override]
        return "KillOnce"

    def measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        if test_case.input == self.kill_input:
            for k in range(self.times):
                marker = Path(self.marker_dir) / f"killed-{k}"
                if not marker.exists():
                    marker.write_text(str(os.getpid()))
                    os.kill(os.getpid(), signal.SIGKILL)
        self.score = (crc(test_case.input) % 100) / 100
        self.reason = "crc"
        self.success = self.score >= self.threshold
        self.evaluation_model = "crc-judge"
        return self.score

    async def a_measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        await asyncio.sleep(0)
        return self.measure(test_case)


def comparable(result: Any) -> list[dict[str, Any]]:
    """Rows as dicts without wall-clock fields (the only thing allowed to differ between backends)."""
    out = []
    for t in result.test_results:
        d = t.to_dict()
        for m in d["metrics_data"]:
            m.pop("duration_s", None)
            if m.get("system_one_batch"):
                m["system_one_batch"].pop("request_s", None)
        out.append(d)
    return out


class CrcMetric(BaseMetric):
    """Scores ``crc32(input) % 100 / 100`` (no judge); constructible with no arguments for ``module:Class`` CLIs."""

    def __init__(self, threshold: float = 0.5) -> None:
        self.threshold = threshold

    @property
    def __name__(self) -> str:  # type: ignore[override]
        return "Crc"

    def measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        self.score = (crc(test_case.input) % 100) / 100
        self.reason = f"crc of {test_case.input}"
        self.success = self.score >= self.threshold
        self.evaluation_model = "crc-judge"
        return self.score

    async def a_measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        return self.measure(test_case)
