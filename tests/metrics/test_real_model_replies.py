"""Replies Qwen2.5-Coder-1.5B-Instruct (Q4_K_M, llama.cpp, our json_schema requests) actually gave on blind-dev items
(bench/real_model.py transcripts), replayed through the metrics by a scripted model: what the real model sends must
parse into the verdicts and facts it means, and what it gets wrong must not cost more than that."""

from __future__ import annotations

from typing import Any

import pytest

from deepeval.metrics import AnswerRelevancyMetric, KnowledgeRetentionMetric
from deepeval.test_case import ConversationalTestCase, LLMTestCase, Turn
from deepeval.testing.scripted import ScriptedLLM

from .helpers import block, schema_name

AR_CASE = LLMTestCase(  # blind-dev ar-001
    input="Does the Brightwave Flex plan include roaming in Canada?",
    actual_output="Yes, Brightwave Flex includes roaming in Canada and Mexico at no extra charge. Roaming data is "
    "capped at 5 GB per month, after which speeds drop to 256 kbps.\n\nLet me know if there's anything else I can "
    "do for you!",
)
AR_REPLIES = {
    "Statements": '{\n  "statements": [\n    "Yes, Brightwave Flex includes roaming in Canada and Mexico at no extra '
    'charge.",\n    "Roaming data is capped at 5 GB per month, after which speeds drop to 256 kbps.",\n    "Let me '
    "know if there's anything else I can do for you!\"\n  ]\n}",
    # the reason-first verdicts, pretty-printed as the model writes them
    "Verdicts": '{\n  "verdicts": [\n    {"reason": "answers the question", "verdict": "yes"},\n    {"reason": "a cost '
    'the traveller needs", "verdict": "yes"},\n    {"reason": "a fact about the topic that does not bear on what was '
    'asked", "verdict": "no"}\n  ]\n}',
    # a quote inside the reason ended the JSON string early (the server's grammar then closes the object)
    "AnswerRelevancyScoreReason": '{"reason": "The score is 0.33 because out of the three statements provided, only '
    "two are relevant to the question about roaming in Canada for the Brightwave Flex plan. The third statement, "
    '" }',
}


def test_the_real_models_answer_relevancy_replies_parse_without_a_reask() -> None:
    llm = ScriptedLLM(lambda prompt, schema: AR_REPLIES[schema_name(schema) or ""])
    metric = AnswerRelevancyMetric(model=llm, eval_mode="llm")
    assert metric.measure(AR_CASE) == pytest.approx(2 / 3)
    assert [v["verdict"] for v in metric.verdicts or []] == ["yes", "yes", "no"]
    assert (metric.verdicts or [{}])[0]["reason"] == "answers the question"
    assert metric.reason is not None and metric.reason.endswith("The third statement,")
    assert llm.call_count == 3  # statements, verdicts, reason: nothing re-asked


def test_reason_prompts_ask_for_single_quotes_inside_the_text() -> None:
    """The truncated reason above: a double quote inside a JSON string ends it under a grammar-constrained decoder."""
    llm = ScriptedLLM(lambda prompt, schema: AR_REPLIES[schema_name(schema) or ""])
    AnswerRelevancyMetric(model=llm, eval_mode="llm").measure(AR_CASE)
    reason_prompt = next(c.prompt for c in llm.calls if schema_name(c.schema) == "AnswerRelevancyScoreReason")
    assert "single quotes inside the text" in reason_prompt


# blind-dev kr-blind-001: each user message and the model's actual Knowledge reply to it
KR_TURNS: list[tuple[str, str, str | None]] = [
    (
        "Hi, I'm looking to switch phone plans. I pay £31 a month with Vireo Mobile right now and I want to get "
        "under £25. I use around 18GB of data a month.",
        "Got it: under £25 a month, roughly 18GB of use. Are you out of contract with Vireo yet?",
        '{"data": {"plan": "Vireo Mobile", "monthly_cost": "£31", "data_usage": "18GB", "budget": "under £25"}, '
        '"supersedes": []}',
    ),
    (
        "Out of contract since March. And I want to keep my number.",
        "Good, then porting costs nothing. Your number moves across with a PAC code.",
        '{"data": {"budget": "under £25 a month", "data usage": "18GB", "contract status": "out of contract", '
        '"number": "keep"}, "supersedes": ["budget", "data usage"]}',
    ),
    (
        "Same as I told you at the start. Anyway, how do I get the PAC code?",
        "Text the word PAC to 65075 from your phone.",
        '{"data": {"pac_code": "XXXXX"}, "supersedes": ["number moves across with a PAC code"]}',
    ),
]


def _kr_case() -> ConversationalTestCase:
    turns = []
    for user, assistant, _ in KR_TURNS:
        turns += [Turn(role="user", content=user), Turn(role="assistant", content=assistant)]
    return ConversationalTestCase(turns=turns)


def test_the_real_models_fact_replies_keep_facts_a_stray_supersedes_entry_names() -> None:
    replies = {user: reply for user, _, reply in KR_TURNS}
    verdict_facts: dict[str, list[str]] = {}

    def respond(prompt: str, schema: Any) -> Any:
        name = schema_name(schema)
        if name == "Knowledge":
            return replies[block(prompt, "USER_MESSAGE")]
        if name == "KnowledgeRetentionVerdict":
            import json

            verdict_facts[block(prompt, "ASSISTANT_MESSAGE")] = json.loads(block(prompt, "FACTS"))
            return '{\n  "reason": "guests and date used correctly",\n  "verdict": "no"\n}'
        return '{"reason": "kept"}'

    llm = ScriptedLLM(respond)
    metric = KnowledgeRetentionMetric(model=llm, eval_mode="llm")
    assert metric.measure(_kr_case()) == 1.0
    last = verdict_facts[KR_TURNS[2][1]]
    # "number moves across with a PAC code" names no topic of its reply: "number: keep" stays known
    assert "number: keep" in last and "contract status: out of contract" in last
    # the re-listed topics carry their (same) new values: each is known once, with the later wording
    assert [f for f in last if f.startswith("budget")] == ["budget: under £25 a month"]
    assert "pac_code: XXXXX" in last  # what the model claimed the user said, judged like any fact
    assert llm.call_count == 3 + 3 + 1  # no re-ask
