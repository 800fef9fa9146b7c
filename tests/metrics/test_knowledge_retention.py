from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest

from deepeval.errors import SystemOneError
from deepeval.metrics import KnowledgeRetentionMetric
from deepeval.metrics.base_metric import BaseConversationalMetric
from deepeval.metrics.delimit import STATE_NOTE
from deepeval.metrics.knowledge_retention.questions import DECISION_NOTE
from deepeval.metrics.knowledge_retention.schema import Knowledge
from deepeval.models import DeepEvalBaseLLM
from deepeval.test_case import ConversationalTestCase, LLMTestCase, Turn
from deepeval.testing.scripted import ScriptedLLM, ScriptedSystemOne

from .helpers import FakeExtractor, SlowLLM, block, calls_by_schema, router

U1 = "Hi, I'm Ann and I'm flying to Lisbon on 3 May."
A1 = "Great, Ann! Where would you like to stay in Lisbon?"
U2 = "Somewhere near Alfama, budget 120 euros a night."
A2 = "Sorry, where are you travelling to again?"  # re-asks: attrition
U3 = "Actually, make it 150 euros a night."
A3 = "Here are Alfama hotels under 150 euros a night for your 3 May arrival."
U4 = "Thanks!"
A4 = "Just to confirm, that's 150 a night, right?"  # confirming: not attrition
A5 = "Enjoy Madrid on 5 June, Ben!"  # contradicts

FACTS = {  # the judge's Knowledge replies
    U1: {"data": {"name": "Ann", "flight": "to Lisbon on 3 May"}},
    U2: {"data": {"stay": "near Alfama", "budget": "120 euros a night"}},
    U3: {"data": {"budget": "150 euros a night"}, "supersedes": ["budget"]},
    U4: {"data": {}},
}
FLAT_FACTS = {k: Knowledge.model_validate(v).facts() for k, v in FACTS.items()}
TURN_VERDICTS = {A1: "no", A2: "Yes.", A3: "no", A4: "NO", A5: "yes"}


def convo(*pairs: tuple[str, str]) -> ConversationalTestCase:
    return ConversationalTestCase(turns=[Turn(role=r, content=c) for r, c in pairs])


FULL = convo(
    ("user", U1),
    ("assistant", A1),
    ("user", U2),
    ("assistant", A2),
    ("user", U3),
    ("assistant", A3),
    ("user", U4),
    ("assistant", A4),
    ("assistant", A5),
)


def make_llm() -> ScriptedLLM:
    return ScriptedLLM(router(facts=FACTS, turn_verdicts=TURN_VERDICTS, reason="kr reason"))


def test_is_conversational() -> None:
    assert isinstance(KnowledgeRetentionMetric(), BaseConversationalMetric)


def test_llm_score_no_verdicts_over_verdicts() -> None:
    llm = make_llm()
    metric = KnowledgeRetentionMetric(model=llm, eval_mode="llm")
    assert metric.measure(FULL) == pytest.approx(3 / 5)  # A2 and A5 are attritions
    assert metric.reason == "kr reason"
    assert calls_by_schema(llm) == {
        "Knowledge": 4,
        "KnowledgeRetentionVerdict": 5,
        "KnowledgeRetentionScoreReason": 1,
    }
    assert metric.score_breakdown == {
        "user_turns": 4,
        "facts": 5,
        "superseded": 1,
        "assistant_turns": 5,
        "checked_turns": 5,
        "attritions": 2,
        "retained": 3,
        "decided_by_system_one": 0,
        "decided_by_llm": 5,
    }


def test_one_user_one_assistant_scores_one() -> None:
    """deepeval scores this 0; there is nothing to check, so ours is 1.0."""
    llm = ScriptedLLM(router(facts={"Hello there": []}))
    metric = KnowledgeRetentionMetric(model=llm, eval_mode="llm")
    assert metric.measure(convo(("user", "Hello there"), ("assistant", "Hi! How can I help?"))) == 1.0
    assert metric.success is True
    assert calls_by_schema(llm) == {"Knowledge": 1}
    # with facts but no assistant turn after them: nothing to check, known without extracting them
    llm = make_llm()
    metric = KnowledgeRetentionMetric(model=llm, eval_mode="llm")
    assert metric.measure(convo(("assistant", "Welcome!"), ("user", U1))) == 1.0
    assert llm.call_count == 0 and metric.score_breakdown is not None
    assert metric.score_breakdown["checked_turns"] == 0 and metric.score_breakdown["judge_calls"] == 0


def test_verdict_sees_earlier_facts_oldest_first_and_corrections_replace() -> None:
    llm = make_llm()
    KnowledgeRetentionMetric(model=llm, eval_mode="llm").measure(FULL)
    a2_prompt = next(p for p in llm.prompts if A2 in p and "The assistant's message to check" in p)
    facts_part = a2_prompt.split("The assistant's message to check")[0]
    assert facts_part.index("Lisbon on 3 May") < facts_part.index("120 euros")
    a3_prompt = next(p for p in llm.prompts if A3 in p and "The assistant's message to check" in p)
    facts_part = a3_prompt.split("The assistant's message to check")[0]
    assert (
        "150 euros a night" in facts_part and "120 euros" not in facts_part
    )  # superseded by U3 (reworded match)
    assert "the later fact is what the user now holds true" in a3_prompt
    a1_prompt = next(p for p in llm.prompts if A1 in p and "The assistant's message to check" in p)
    assert (
        "Alfama" not in a1_prompt.split("The assistant's message to check")[0]
    )  # only facts stated before A1
    # fact extraction of U3 sees the assistant message it answers (not the whole history) and asks for the topics
    # it corrects
    u3_prompt = next(
        p
        for p in llm.prompts
        if "The user's newest message" in p and U3 in p.split("The user's newest message")[1]
    )
    assert A2 in u3_prompt and U1 not in u3_prompt and '"supersedes"' in u3_prompt


def test_deterministic_style_extractor_with_sync_fact_updates() -> None:
    from deepeval.metrics._engine.extractor import FactChanges

    sentences = {
        U1: ["The user's name is Ann.", "The user flies to Lisbon on 3 May."],
        U2: ["The user wants to stay near Alfama.", "The user's budget is 120 euros a night."],
        U4: [],
    }

    class Extractor(FakeExtractor):
        def fact_updates(self, user_message: str, previous: object) -> FactChanges:
            if user_message == U3:
                return FactChanges(
                    ["The user's budget is 150 euros a night."], ["The user's budget is 120 euros a night."]
                )
            return FactChanges(sentences[user_message], [])

    s1 = ScriptedSystemOne(lambda state, qs: dict.fromkeys(qs, 0.2))
    metric = KnowledgeRetentionMetric(system_one_model=s1, eval_mode="hybrid", extractor=Extractor())
    assert metric.measure(FULL) == 1.0
    a3q = next(q for q in s1.calls[0].questions.values() if q.data["assistant_message"] == A3)
    assert a3q.data["facts"] == [
        *sentences[U1],
        "The user wants to stay near Alfama.",
        "The user's budget is 150 euros a night.",
    ]
    # deepeval's per-turn attribute numbers the sentence facts of an extractor that gives no Knowledge
    assert metric.knowledges[0] is not None and metric.knowledges[0].data == {
        "fact 1": "The user's name is Ann.",
        "fact 2": "The user flies to Lisbon on 3 May.",
    }


def test_same_fact_matching() -> None:
    from deepeval.metrics._engine.extractor import FactChanges
    from deepeval.metrics._engine.facts import apply_changes, same_fact

    assert same_fact("The user's budget is 120 euros a night.", "the user's budget is 120 euros per night")
    assert not same_fact("The user's budget is 120 euros a night.", "The user flies to Lisbon on 3 May.")
    known = ["A is 1.", "B is 2."]
    assert apply_changes(known, FactChanges(["A is 3."], ["A is 1."])) == ["B is 2.", "A is 3."]
    assert apply_changes(known, FactChanges(["B is 2."], [])) == known


def test_knowledge_values_are_read_leniently_and_each_entry_is_one_fact() -> None:
    """A small model writes numbers, nulls and nested lists into ``data``; deepeval's Knowledge rejects them, ours
    keeps the usable values (no re-ask for an otherwise good reply)."""
    k = Knowledge.model_validate(
        {"data": {"age": 11, "pet": None, "allergies": ["nuts", None, " "], "indoor": True, " ": "x"}}
    )
    assert k.facts() == ["age: 11", "allergies: nuts", "indoor: true", "x"]
    assert Knowledge.model_validate({"data": None, "supersedes": "budget"}).supersedes == ["budget"]
    with pytest.raises(ValueError):
        Knowledge.model_validate({})  # ``data`` must be there: a judge replying {} to everything fails
    with pytest.raises(ValueError):
        Knowledge.model_validate({"data": {}, "facts": []})  # other fields are refused, as deepeval does


def test_a_superseded_fact_is_matched_by_its_topic() -> None:
    from deepeval.metrics._engine.extractor import FactChanges, same_topic
    from deepeval.metrics._engine.facts import apply_changes

    assert same_topic("Budget", "monthly budget: 40 pounds") and same_topic("data_size", "data size")
    assert not same_topic("flight date", "hotel date") and not same_topic("", "budget")
    known = ["budget: 120 euros a night", "name: Ann", "hotel date: 3 May"]
    assert apply_changes(known, FactChanges(["budget: 150 euros a night"], ["Budget"])) == [
        "name: Ann",
        "hotel date: 3 May",
        "budget: 150 euros a night",
    ]
    # an entry written as the whole earlier fact matches by its topic too; another topic's date is kept
    assert apply_changes(known, FactChanges([], ["flight date: 4 May"])) == known


def test_a_correction_only_replaces_topics_it_gives_a_new_value_for() -> None:
    """Qwen2.5-Coder-1.5B's actual reply to "Same as I told you at the start. Anyway, how do I get the PAC code?"
    (blind-dev kr-blind-001): a made-up value and a supersedes entry naming no topic of its data. Honoured, the entry
    would delete nothing here, but such entries deleted true facts elsewhere: only topics with a new value count."""
    reply = Knowledge.model_validate(
        {"data": {"pac_code": "XXXXX"}, "supersedes": ["number moves across with a PAC code"]}
    )
    assert reply.restated() == []
    # the reply to "Out of contract since March. And I want to keep my number.": it re-listed earlier topics and
    # marked them superseded; they carry their (same) new values, so replacing them loses nothing
    relisted = Knowledge.model_validate(
        {
            "data": {
                "budget": "under £25 a month",
                "data usage": "18GB",
                "contract status": "out of contract",
            },
            "supersedes": ["budget", "data usage", "number"],
        }
    )
    assert relisted.restated() == ["budget", "data usage"]


def test_user_turns_and_assistant_turns_run_concurrently() -> None:
    llm = SlowLLM(router(facts=FACTS, turn_verdicts=TURN_VERDICTS))
    metric = KnowledgeRetentionMetric(model=llm, eval_mode="llm", include_reason=False)
    assert metric.measure(FULL) == pytest.approx(3 / 5)
    assert llm.peak == 5 and llm.calls == 9  # 4 fact calls at once, then 5 verdict calls at once


def test_hybrid_five_assistant_turns_one_request() -> None:
    probs = {A1: 0.1, A2: 0.8, A3: 0.3, A4: 0.45, A5: 0.99}
    s1 = ScriptedSystemOne(
        lambda state, qs: {qid: probs[q.data["assistant_message"]] for qid, q in qs.items()}
    )
    llm = make_llm()
    metric = KnowledgeRetentionMetric(model=llm, system_one_model=s1, eval_mode="hybrid")
    assert metric.measure(FULL) == pytest.approx(3 / 5)
    assert s1.call_count == 1
    qs = s1.calls[0].questions
    assert len(qs) == 5 and {q.kind for q in qs.values()} == {"turn_attrition"}
    a3q = next(q for q in qs.values() if q.data["assistant_message"] == A3)
    assert a3q.data["facts"] == [*FLAT_FACTS[U1], "stay: near Alfama", "budget: 150 euros a night"]
    assert a3q.data["user_message"] == U3
    # the rules, the data notice and every fact travel once, in the state; each question names the facts known by
    # its turn (by position in the state's ``facts``) and quotes only its own messages
    state = s1.calls[0].state
    assert state == {
        "note": DECISION_NOTE,
        "facts": [  # in the order they were first stated; the corrected budget is kept for the turn before it
            *FLAT_FACTS[U1],
            *FLAT_FACTS[U2],
            "budget: 150 euros a night",
        ],
    }
    assert DECISION_NOTE.startswith(STATE_NOTE)
    assert "asking to clarify or confirm something does not count" in DECISION_NOTE
    named = re.search(r"Facts: `facts` ([0-9, ]+)\n", a3q.instructions)
    assert named is not None and "<<<BEGIN FACTS" not in a3q.instructions
    assert [state["facts"][int(i)] for i in named.group(1).split(", ")] == a3q.data["facts"]
    assert all(f not in a3q.instructions for f in a3q.data["facts"])
    assert block(a3q.instructions, "USER") == U3
    assert block(a3q.instructions, "ASSISTANT") == A3
    assert "material under evaluation" not in a3q.instructions and "clarify" not in a3q.instructions
    assert calls_by_schema(llm) == {"Knowledge": 4, "KnowledgeRetentionScoreReason": 1}
    assert metric.confidence == pytest.approx(0.1)  # |2*0.45-1|
    reason_prompt = llm.prompts[-1]
    assert '"p_yes": 0.99' in reason_prompt and "Madrid" in reason_prompt


def test_hybrid_fallback_per_turn() -> None:
    llm = make_llm()
    s1 = ScriptedSystemOne([SystemOneError("connect failed", kind="connection", retryable=True)])
    metric = KnowledgeRetentionMetric(model=llm, system_one_model=s1, eval_mode="hybrid")
    assert metric.measure(FULL) == pytest.approx(3 / 5)
    assert calls_by_schema(llm)["KnowledgeRetentionVerdict"] == 5
    assert metric.system_one_fallback_reason == (
        "System One model scripted-system-one: connection: connect failed; 5 of 5 decision(s) made by the LLM "
        "(scripted-llm) instead"
    )


def test_hybrid_without_llm_uses_extractor_and_deterministic_reason() -> None:
    extractor = FakeExtractor(facts=FLAT_FACTS)
    probs = {A1: 0.1, A2: 0.8, A3: 0.3, A4: 0.45, A5: 0.99}
    s1 = ScriptedSystemOne(
        lambda state, qs: {qid: probs[q.data["assistant_message"]] for qid, q in qs.items()}
    )
    metric = KnowledgeRetentionMetric(system_one_model=s1, eval_mode="hybrid", extractor=extractor)
    assert metric.measure(FULL) == pytest.approx(3 / 5)
    assert extractor.calls == 4
    assert metric.evaluation_model == "fake-extractor + scripted-system-one"
    assert metric.reason is not None
    assert metric.reason.startswith(
        "The score is 0.60: 3 of 5 checked assistant turns keep the user's facts."
    )
    assert "(P(attrition)=0.80)" in metric.reason and "(P(attrition)=0.99)" in metric.reason


def test_hybrid_without_llm_cannot_fall_back() -> None:
    s1 = ScriptedSystemOne([SystemOneError("read timed out", kind="timeout", retryable=True)])
    metric = KnowledgeRetentionMetric(
        system_one_model=s1, eval_mode="hybrid", extractor=FakeExtractor(facts=FLAT_FACTS)
    )
    with pytest.raises(SystemOneError) as info:
        metric.measure(FULL)
    msg = str(info.value)
    assert "timeout: read timed out" in msg and "fallback is impossible" in msg and "OPENAI_API_KEY" in msg
    assert info.value.kind == "timeout"
    assert (metric.success, metric.error) == (None, None)


def test_system_one_formula_example() -> None:
    """REFERENCE §3 example: P1=0.8, P2=0.8, E=1.7 -> (2*0.8 + 0.8 + 1.7/3) / 4 = 0.7417."""
    s1 = ScriptedSystemOne(
        lambda state, qs: {"no_forgetting": 0.8, "no_reasking": 0.8, "retention_level": 1.7}
    )
    metric = KnowledgeRetentionMetric(system_one_model=s1, eval_mode="system_one")
    assert round(metric.measure(FULL), 4) == 0.7417
    call = s1.calls[0]
    assert call.state["turns"][1] == {"role": "assistant", "content": A1}
    q = call.questions
    assert q["no_forgetting"].kind == "knowledge_retention.no_forgetting"
    assert "yes" not in (q["no_forgetting"].false or "")  # yes means good for every KR whole-metric question
    assert "consistent with the facts the user stated" in q["no_forgetting"].instructions
    assert q["retention_level"].levels[-1] == "keeps every fact"
    assert metric.reason is not None and metric.reason.count("\n- [weight") == 3


def test_wrong_test_case_type() -> None:
    metric = KnowledgeRetentionMetric(model=make_llm(), eval_mode="llm")
    with pytest.raises(TypeError, match="ConversationalTestCase"):
        metric.measure(LLMTestCase(input="q", actual_output="a"))  # type: ignore[arg-type]


def test_sync_equals_async() -> None:
    a = KnowledgeRetentionMetric(model=make_llm(), eval_mode="llm")
    s = KnowledgeRetentionMetric(model=make_llm(), eval_mode="llm", async_mode=False)
    assert a.measure(FULL) == s.measure(FULL)
    assert (a.reason, a.score_breakdown, a.verbose_logs) == (s.reason, s.score_breakdown, s.verbose_logs)


def test_a_template_written_for_deepeval_gets_its_keywords_extract_data_and_generate_verdict() -> None:
    """deepeval 4.3.1 calls extract_data(user_message, previous_turns) and generate_verdict(llm_message,
    accumulated_knowledge) by keyword; an override declaring only those must be used, with those values."""
    from deepeval.metrics.knowledge_retention import KnowledgeRetentionTemplate

    seen: list[tuple[str, object]] = []

    class DeepevalStyle(KnowledgeRetentionTemplate):
        @staticmethod
        def extract_data(user_message, previous_turns):  # type: ignore[no-untyped-def]
            seen.append(("extract", (user_message, previous_turns)))
            return f"MY_EXTRACT {user_message}"

        @staticmethod
        def generate_verdict(llm_message, accumulated_knowledge):  # type: ignore[no-untyped-def]
            seen.append(("verdict", (llm_message, list(accumulated_knowledge))))
            return f"MY_VERDICT {llm_message}"

        @staticmethod
        def generate_reason(attritions, score):  # type: ignore[no-untyped-def]
            seen.append(("reason", (list(attritions), score)))
            return "MY_REASON"

    def respond(prompt: str, schema: object) -> object:
        name = getattr(schema, "__name__", None)
        if name == "Knowledge":
            return {"data": {"name": "Maya"}} if "Maya" in prompt else {"data": {}}
        if name == "KnowledgeRetentionVerdict":
            return {"verdict": "yes" if "Who are you" in prompt else "no", "reason": "forgot the name"}
        return {"reason": "custom reason"}

    llm = ScriptedLLM(respond)
    metric = KnowledgeRetentionMetric(model=llm, eval_mode="llm", evaluation_template=DeepevalStyle)
    tc = convo(
        ("user", "I'm Maya"), ("assistant", "Hi Maya"), ("user", "Help me"), ("assistant", "Who are you?")
    )
    assert metric.measure(tc) == pytest.approx(0.5)
    assert metric.reason == "custom reason"
    assert ("extract", ("I'm Maya", [])) in seen
    assert (
        "extract",
        ("Help me", [{"role": "user", "content": "I'm Maya"}, {"role": "assistant", "content": "Hi Maya"}]),
    ) in seen
    assert ("verdict", ("Hi Maya", ["name: Maya"])) in seen
    assert ("reason", (["forgot the name"], "0.50")) in seen
    assert all(c.prompt.startswith("MY_") for c in llm.calls)


def test_knowledges_and_verdicts_are_set_after_a_measure_as_deepeval_does() -> None:
    metric = KnowledgeRetentionMetric(model=make_llm(), eval_mode="llm")
    metric.measure(FULL)
    assert len(metric.knowledges) == len(FULL.turns)
    assert [k.data if k is not None else None for k in metric.knowledges] == [
        FACTS[U1]["data"],
        None,
        FACTS[U2]["data"],
        None,
        FACTS[U3]["data"],
        None,
        {},
        None,
        None,
    ]
    assert metric.knowledges[4].supersedes == ["budget"]
    assert [v.verdict for v in metric.verdicts or []] == ["no", "yes", "no", "no", "yes"]


class _GatedLLM(SlowLLM):
    """Holds the extraction of the LAST user turn until a verdict has been asked: only a metric that asks each
    turn's verdict as soon as its own facts exist gets past the gate (one that waits for every extraction first
    would time out here)."""

    def __init__(self, last_user: str) -> None:
        super().__init__(router(facts=FACTS, turn_verdicts=TURN_VERDICTS, reason="kr reason"), delay=0.0)
        self.last_user = last_user
        self.order: list[str] = []
        self.verdict_asked: asyncio.Event | None = None

    async def a_generate(self, prompt: str, schema: Any = None) -> Any:
        if self.verdict_asked is None:
            self.verdict_asked = asyncio.Event()
        name = getattr(schema, "__name__", None)
        if name == "KnowledgeRetentionVerdict":
            self.order.append("verdict")
            self.verdict_asked.set()
        elif name == "Knowledge" and self.last_user in block(prompt, "USER_MESSAGE"):
            self.order.append("last extraction waits")
            await asyncio.wait_for(self.verdict_asked.wait(), timeout=10)
        return await super().a_generate(prompt, schema)


def test_llm_mode_asks_each_verdict_as_soon_as_its_facts_are_extracted() -> None:
    llm = _GatedLLM(U4)
    metric = KnowledgeRetentionMetric(model=llm, eval_mode="llm")
    # the same result as when every extraction is awaited first
    assert asyncio.run(metric.a_measure(FULL)) == pytest.approx(3 / 5)
    assert metric.error is None
    assert llm.order[:2] == ["last extraction waits", "verdict"]
    assert llm.calls == 4 + 5 + 1


def test_llm_mode_extraction_failure_asks_no_verdict_that_needs_it() -> None:
    def responder(prompt: str, schema: Any) -> Any:
        if getattr(schema, "__name__", None) == "Knowledge" and U2 in block(prompt, "USER_MESSAGE"):
            raise RuntimeError("extraction broke")
        return router(facts=FACTS, turn_verdicts=TURN_VERDICTS)(prompt, schema)

    llm = SlowLLM(responder, delay=0.0)
    metric = KnowledgeRetentionMetric(model=llm, eval_mode="llm")
    with pytest.raises(RuntimeError, match="extraction broke"):
        asyncio.run(metric.a_measure(FULL))
    assert metric.error is None  # as deepeval 4.3.1: the exception carries the error
    # 4 extractions (one failed); only A1's verdict (its facts come from U1 alone) was asked
    assert llm.calls == 4 + 1


def test_knowledge_refuses_an_object_as_a_fact_value_as_deepeval_does() -> None:
    """deepeval 4.3.1's own test: ``Knowledge(**reply)`` unpacks, ``Knowledge(data=reply)`` (double-wrapped) raises."""
    reply = {"data": {"Full Name": "Emily Chen"}}
    assert Knowledge(**reply).data == {"Full Name": "Emily Chen"}
    with pytest.raises(ValueError, match=r"data\['data'\] is an object"):
        Knowledge(data=reply)
    with pytest.raises(ValueError):
        Knowledge.model_validate({"data": {"pets": [{"name": "Rex"}]}})


def test_turns_before_reads_the_earlier_turns_as_the_list_did() -> None:
    from deepeval.metrics._engine.facts import TurnsBefore

    turns = FULL.turns
    as_list = [(t.role, t.content) for t in turns[:5]]
    view = TurnsBefore(turns, 5)
    assert len(view) == 5 and list(view) == as_list
    assert view[-1] == ("user", U3) and view[0] == ("user", U1) and view[1:3] == as_list[1:3]
    assert view[::-2] == as_list[::-2] and not TurnsBefore(turns, 0)
    with pytest.raises(IndexError):
        view[5]


class _NoFactsLLM(DeepEvalBaseLLM):
    """Every user turn states nothing (the extraction runs; nothing to judge afterwards)."""

    def __init__(self) -> None:
        super().__init__("no-facts")

    def load_model(self, *args: Any, **kwargs: Any) -> None:
        return None

    def generate(self, prompt: str, schema: Any = None) -> str:
        return '{"data": {}}'

    async def a_generate(self, prompt: str, schema: Any = None) -> str:
        return self.generate(prompt, schema)

    def get_model_name(self) -> str:
        return "no-facts"


def _peak_bytes_of_measure(n_turns: int) -> tuple[int, float | None]:
    import tracemalloc

    case = ConversationalTestCase(
        turns=[
            Turn(role="user" if i % 2 == 0 else "assistant", content=f"Message {i}: my number is {i}.")
            for i in range(n_turns)
        ]
    )
    metric = KnowledgeRetentionMetric(model=_NoFactsLLM(), async_mode=True, include_reason=False)
    tracemalloc.start()
    try:
        metric.measure(case)
        return tracemalloc.get_traced_memory()[1], metric.score
    finally:
        tracemalloc.stop()


def test_peak_memory_of_a_measure_grows_linearly_with_the_turns() -> None:
    # each user turn's extraction got a fresh list of every earlier turn, all alive at once: 10,000 turns held 1.6 GB
    small, score_small = _peak_bytes_of_measure(400)
    large, score_large = _peak_bytes_of_measure(1600)
    assert score_small == score_large == 1.0
    assert large < 8 * small  # 4x the turns: ~4x linear, ~16x quadratic
