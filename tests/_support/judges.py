"""User-style custom judges for the regression tests (subclasses of the public base classes, as a deepeval user
would write them). ``reply_for`` answers any of our metric prompts with valid JSON: every statement relevant,
nothing forgotten."""

from __future__ import annotations

import json
import re
from typing import Any

from deepeval.models import DeepEvalBaseLLM, DeepEvalBaseSystemOneModel
from deepeval.models.system_one import NoulAnswer, NoulQuestion, ScoreAnswer, ScoreQuestion, SystemOneAnswers


def _block(prompt: str, label: str) -> str:
    m = re.search(rf"<<<BEGIN {label} #\w+>>>\n(.*?)\n<<<END {label} #\w+>>>", prompt, re.S)
    return m.group(1) if m else ""


def _split(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+", text) if s.strip()]


def reply_for(prompt: str) -> str:
    m = re.search(r"exactly (\d+) verdicts", prompt)
    if m:
        return json.dumps({"verdicts": [{"verdict": "yes", "reason": None}] * int(m.group(1))})
    if re.search(r"exactly (\d+) entries", prompt) and "<<<BEGIN STATEMENTS" in prompt:
        statements = json.loads(_block(prompt, "STATEMENTS"))
        return json.dumps(
            {"verdicts": [{"statement": s, "verdict": "yes", "reason": None} for s in statements]}
        )
    m = re.search(r"exactly (\d+) entries", prompt)
    if m:
        texts = json.loads(_block(prompt, "TEXTS"))
        return json.dumps({"texts": [{"index": i, "statements": _split(t)} for i, t in enumerate(texts)]})
    if prompt.startswith("Split a text into its statements"):
        return json.dumps({"statements": _split(_block(prompt, "TEXT"))})
    if prompt.startswith("Split a retrieved document"):
        doc = _block(prompt, "DOCUMENT")
        return json.dumps(
            {"verdicts": [{"statement": s, "verdict": "yes", "reason": None} for s in _split(doc)]}
        )
    if prompt.startswith("Extract what a user tells"):
        facts = _split(_block(prompt, "USER_MESSAGE"))
        return json.dumps({"data": {f"fact {n}": f for n, f in enumerate(facts, start=1)}, "supersedes": []})
    if '{"verdict": "yes" or "no"' in prompt:
        return json.dumps({"verdict": "no", "reason": "keeps the facts"})
    if '"reason"' in prompt:
        return json.dumps({"reason": "scripted reason"})
    raise AssertionError(f"unknown prompt: {prompt[:200]}")


class UserLLM(DeepEvalBaseLLM):
    """A well-behaved custom LLM judge that counts its calls."""

    def __init__(self) -> None:
        self.calls = 0
        super().__init__("user-llm")

    def load_model(self, *args: Any, **kwargs: Any) -> None:
        return None

    def generate(self, prompt: str, schema: Any = None) -> str:
        self.calls += 1
        return reply_for(prompt)

    async def a_generate(self, prompt: str, schema: Any = None) -> str:
        return self.generate(prompt, schema)

    def get_model_name(self) -> str:
        return "user-llm"


def confident_answers(questions: Any, p_yes: float = 0.8) -> SystemOneAnswers:
    nouls: dict[str, NoulAnswer] = {}
    scores: dict[str, ScoreAnswer] = {}
    for qid, q in questions.items():
        if isinstance(q, NoulQuestion):
            nouls[qid] = NoulAnswer(probability=p_yes)
        elif isinstance(q, ScoreQuestion):
            top = len(q.levels) - 1
            scores[qid] = ScoreAnswer(score=top, probabilities={top: 1.0}, confidence=1.0)
    return SystemOneAnswers(nouls=nouls, scores=scores)


class UserSystemOne(DeepEvalBaseSystemOneModel):
    """A custom System One model whose ``decide`` behaviour is given by ``fn(state, questions)``."""

    def __init__(self, fn: Any, name: str = "user-s1") -> None:
        self.fn = fn
        self.name = name
        self.calls = 0
        super().__init__(name)

    def load_model(self, *args: Any, **kwargs: Any) -> None:
        return None

    def decide(self, state: Any, questions: Any) -> Any:
        self.calls += 1
        return self.fn(state, questions)

    async def a_decide(self, state: Any, questions: Any) -> Any:
        return self.decide(state, questions)

    def get_model_name(self) -> str:
        return self.name
