"""TurnRelevancyMetric, ConversationCompletenessMetric and RoleAdherenceMetric (deepeval 4.3.1's algorithms; parity
in test_safety_parity.py).

* TurnRelevancy: exchanges (a user turn and the assistant turns answering it), a window of the last ``window_size``
  exchanges per exchange, one verdict on the window's last reply (yes = relevant); no exchange -> 1.0.
* ConversationCompleteness: the user's intentions, one verdict each over the whole conversation (yes = satisfied);
  none -> 1.0; ``window_size`` kept and unused, as in 4.3.1.
* RoleAdherence: ``chatbot_role`` required; the assistant turns out of character, listed by the LLM in one call;
  score = in-character assistant turns / assistant turns; none -> 1.0; a verdict naming no assistant turn is a
  judge error (one re-ask, then an error).
A 10,000-turn conversation stays linear: what the judges are sent grows linearly with the conversation.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from deepeval import evaluate
from deepeval.errors import ConfigurationError, MissingTestCaseParamsError, StructuredOutputError
from deepeval.metrics import ConversationCompletenessMetric, RoleAdherenceMetric, TurnRelevancyMetric
from deepeval.metrics._engine.turns import exchanges, windows
from deepeval.test_case import ConversationalTestCase, LLMTestCase, Turn
from deepeval.testing.scripted import ScriptedLLM, ScriptedSystemOne

from .helpers import schema_name


@pytest.fixture(autouse=True)
def _in_a_scratch_folder(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def talk(n: int, *, last_user: bool = False) -> ConversationalTestCase:
    turns = []
    for i in range(1, n + 1):
        turns += [
            Turn(role="user", content=f"Question {i} [u{i}]"),
            Turn(role="assistant", content=f"Answer [a{i}]"),
        ]
    if last_user:
        turns.append(Turn(role="user", content="Anything else?"))
    return ConversationalTestCase(turns=turns, chatbot_role="a patient maths tutor")


def tokens(prompt: str, kind: str = "a") -> list[str]:
    return re.findall(rf"\[{kind}\d+\]", prompt)


def relevancy_judge(bad: set[str]) -> ScriptedLLM:
    """Yes unless the window's last assistant message is in ``bad``."""

    def respond(prompt: str, schema: Any) -> Any:
        name = schema_name(schema)
        if name == "TurnRelevancyVerdict":
            last = tokens(prompt)[-1]
            return {"reason": f"judged {last}", "verdict": "no" if last in bad else "yes"}
        return {"reason": "scripted reason"}

    return ScriptedLLM(respond)


# -- exchanges and windows --------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("roles", "spans"),
    [
        ("ua", [(0, 2)]),
        ("uaua", [(0, 2), (2, 4)]),
        ("auaua", [(0, 3), (3, 5)]),  # a greeting before the first user turn joins the first exchange
        ("uauau", [(0, 2), (2, 4)]),  # an unanswered last user turn is no exchange
        ("uaauua", [(0, 3), (3, 6)]),
        ("a", []),
        ("uu", []),
        ("", []),
    ],
)
def test_exchanges(roles: str, spans: list[tuple[int, int]]) -> None:
    turns = [Turn(role="user" if r == "u" else "assistant", content=r) for r in roles]
    assert exchanges(turns) == spans


def test_windows_grow_at_the_start_and_slide_to_the_end() -> None:
    spans = [(0, 2), (2, 4), (4, 6), (6, 8)]
    assert list(windows(spans, 2)) == [(0, 2), (0, 4), (2, 6), (4, 8)]
    assert list(windows(spans, 10)) == [(0, 2), (0, 4), (0, 6), (0, 8)]


# -- TurnRelevancy -----------------------------------------------------------------------------------------------------
def test_turn_relevancy_one_verdict_per_window_on_its_last_reply() -> None:
    llm = relevancy_judge({"[a2]"})
    metric = TurnRelevancyMetric(model=llm, eval_mode="llm", window_size=2)
    assert metric.measure(talk(4)) == 0.75
    verdict_prompts = [c.prompt for c in llm.calls if schema_name(c.schema) == "TurnRelevancyVerdict"]
    assert [tokens(p) for p in verdict_prompts] == [
        ["[a1]"],
        ["[a1]", "[a2]"],
        ["[a2]", "[a3]"],
        ["[a3]", "[a4]"],
    ]
    assert metric.score_breakdown["windows"] == 4 and metric.score_breakdown["no"] == 1
    assert [v["turn"] for v in metric.verdicts] == [1, 3, 5, 7]


def test_turn_relevancy_with_no_exchange_scores_one_without_a_verdict() -> None:
    llm = relevancy_judge(set())
    metric = TurnRelevancyMetric(model=llm, eval_mode="llm")
    case = ConversationalTestCase(turns=[Turn(role="user", content="Hello?")])
    assert metric.measure(case) == 1.0 and llm.call_count == 0


@pytest.mark.parametrize("size", [0, -1, 2.5, True, "3"])
def test_turn_relevancy_window_size_must_be_a_positive_whole_number(size: Any) -> None:
    with pytest.raises(ValueError, match="window_size"):
        TurnRelevancyMetric(window_size=size)


def test_turn_relevancy_hybrid_sends_the_conversation_once_and_names_each_window() -> None:
    def respond(state: Any, qs: dict[str, Any]) -> dict[str, float]:
        return {q: 0.2 if f"turn {5}" in str(v.instructions) else 0.9 for q, v in qs.items()}

    s1 = ScriptedSystemOne(respond)
    llm = relevancy_judge(set())
    metric = TurnRelevancyMetric(model=llm, system_one_model=s1, eval_mode="hybrid", window_size=2)
    assert metric.measure(talk(4)) == 0.75
    (call,) = s1.calls
    assert len(call.state["turns"]) == 8 and len(call.questions) == 4
    assert "Read `turns` 2 to 5" in call.questions["w2"].instructions
    assert [schema_name(c.schema) for c in llm.calls] == ["TurnRelevancyScoreReason"]


def test_turn_relevancy_a_deepeval_style_reason_template_gets_irrelevancies() -> None:
    seen: dict[str, Any] = {}

    class Template:
        @staticmethod
        def generate_verdicts(sliding_window: list[dict[str, str]]) -> str:
            return "Judge the last reply. JSON please. " + json.dumps(sliding_window)

        @staticmethod
        def generate_reason(score: float, irrelevancies: list[dict[str, str]]) -> str:
            seen.update(score=score, irrelevancies=irrelevancies)
            return "Explain. JSON with a reason."

    metric = TurnRelevancyMetric(
        model=relevancy_judge({"[a2]"}), eval_mode="llm", evaluation_template=Template
    )
    metric.measure(talk(2))
    assert seen == {"score": 0.5, "irrelevancies": [{"message number": "2", "reason": "judged [a2]"}]}


def test_a_ten_thousand_turn_conversation_stays_linear() -> None:
    """What the judge reads grows linearly: with 10,000 turns and windows of 3 exchanges, every verdict prompt holds
    at most 3 replies, and the total sent for 10,000 turns is about ten times that for 1,000 (not a hundred)."""
    sizes: dict[int, int] = {}
    for n in (500, 5_000):  # exchanges: 1,000 and 10,000 turns
        llm = relevancy_judge(set())
        metric = TurnRelevancyMetric(model=llm, eval_mode="llm", window_size=3, include_reason=False)
        assert metric.measure(talk(n)) == 1.0
        prompts = [c.prompt for c in llm.calls]
        assert len(prompts) == n and max(len(tokens(p)) for p in prompts) == 3
        sizes[n] = sum(len(p) for p in prompts)
    assert 9.5 < sizes[5_000] / sizes[500] < 11.0


# -- ConversationCompleteness ------------------------------------------------------------------------------------------
def completeness_judge(intentions: list[str], unmet: set[str]) -> ScriptedLLM:
    def respond(prompt: str, schema: Any) -> Any:
        name = schema_name(schema)
        if name == "UserIntentions":
            return {"intentions": intentions}
        if name == "ConversationCompletenessVerdict":
            token = tokens(prompt, "i")[-1]
            return {"reason": f"judged {token}", "verdict": "no" if token in unmet else "yes"}
        return {"reason": "scripted reason"}

    return ScriptedLLM(respond)


def test_completeness_judges_each_intention_over_the_whole_conversation() -> None:
    intentions = ["Wants a refund [i1].", "Wants a receipt [i2].", "Wants a discount [i3]."]
    llm = completeness_judge(intentions, {"[i3]"})
    metric = ConversationCompletenessMetric(model=llm, eval_mode="llm", window_size=7)
    assert metric.measure(talk(3)) == pytest.approx(2 / 3)
    assert metric.user_intentions == intentions and metric.window_size == 7
    verdict_prompts = [
        c.prompt for c in llm.calls if schema_name(c.schema) == "ConversationCompletenessVerdict"
    ]
    assert all(
        tokens(p) == ["[a1]", "[a2]", "[a3]"] for p in verdict_prompts
    )  # the whole conversation each time
    assert schema_name(llm.calls[0].schema) == "UserIntentions"


def test_completeness_with_no_intention_scores_one_without_a_verdict() -> None:
    llm = completeness_judge([], set())
    metric = ConversationCompletenessMetric(model=llm, eval_mode="llm")
    assert metric.measure(talk(1)) == 1.0
    assert [schema_name(c.schema) for c in llm.calls] == ["UserIntentions"]


def test_completeness_hybrid_one_request_each_intention_quoted() -> None:
    intentions = ["Wants a refund [i1].", "Wants a receipt [i2]."]
    s1 = ScriptedSystemOne(
        lambda state, qs: {q: 0.8 if "[i1]" in v.instructions else 0.3 for q, v in qs.items()}
    )
    metric = ConversationCompletenessMetric(
        model=completeness_judge(intentions, set()), system_one_model=s1, eval_mode="hybrid"
    )
    assert metric.measure(talk(2)) == 0.5
    assert s1.call_count == 1 and len(s1.calls[0].state["turns"]) == 4


# -- RoleAdherence -----------------------------------------------------------------------------------------------------
def role_judge(out_of_character: list[int]) -> ScriptedLLM:
    def respond(prompt: str, schema: Any) -> Any:
        if schema_name(schema) == "OutOfCharacterResponseVerdicts":
            return {
                "verdicts": [{"index": i, "reason": f"turn {i} breaks the role"} for i in out_of_character]
            }
        return {"reason": "scripted reason"}

    return ScriptedLLM(respond)


def test_role_adherence_counts_assistant_turns_out_of_character() -> None:
    metric = RoleAdherenceMetric(model=role_judge([3, 3]), eval_mode="llm")
    # turn 3 is listed twice: ours counts one assistant turn out of character of four
    assert metric.measure(talk(4)) == 0.75
    assert [v.index for v in metric.out_of_character_verdicts.verdicts] == [3]
    assert metric.out_of_character_verdicts.verdicts[0].ai_message == "Answer [a2] (turn #4)"


@pytest.mark.parametrize("index", [0, 99, -1], ids=["user_turn", "past_the_end", "negative"])
def test_role_adherence_verdict_naming_no_assistant_turn_is_reasked_then_an_error(index: int) -> None:
    llm = role_judge([3, index])
    metric = RoleAdherenceMetric(model=llm, eval_mode="llm")
    with pytest.raises(
        StructuredOutputError, match=f"verdict index {index} names no assistant turn.*one of: 1, 3"
    ):
        metric.measure(talk(2))
    assert [schema_name(c.schema) for c in llm.calls] == ["OutOfCharacterResponseVerdicts"] * 2  # one re-ask
    assert metric.score != 1.0


def test_role_adherence_reasked_reply_that_names_assistant_turns_is_scored() -> None:
    replies = iter([[1, 0], [1]])

    def respond(prompt: str, schema: Any) -> Any:
        if schema_name(schema) == "OutOfCharacterResponseVerdicts":
            return {"verdicts": [{"index": i, "reason": "breaks the role"} for i in next(replies)]}
        return {"reason": "scripted reason"}

    metric = RoleAdherenceMetric(model=ScriptedLLM(respond), eval_mode="llm")
    assert metric.measure(talk(2)) == 0.5
    assert [v.index for v in metric.out_of_character_verdicts.verdicts] == [1]


def test_role_adherence_needs_the_chatbot_role() -> None:
    case = ConversationalTestCase(
        turns=[Turn(role="user", content="hi"), Turn(role="assistant", content="yo")]
    )
    with pytest.raises(MissingTestCaseParamsError, match="chatbot_role"):
        RoleAdherenceMetric(model=role_judge([]), eval_mode="llm").measure(case)


def test_role_adherence_system_one_state_holds_the_role() -> None:
    s1 = ScriptedSystemOne(lambda state, qs: dict.fromkeys(qs, 0.9))
    metric = RoleAdherenceMetric(system_one_model=s1, eval_mode="system_one")
    metric.measure(talk(1))
    assert s1.calls[0].state == {
        "turns": [
            {"role": "user", "content": "Question 1 [u1]"},
            {"role": "assistant", "content": "Answer [a1]"},
        ],
        "chatbot_role": "a patient maths tutor",
    }
    assert len(s1.calls[0].questions) == 3


# -- all three ---------------------------------------------------------------------------------------------------------
ALL = [TurnRelevancyMetric, ConversationCompletenessMetric, RoleAdherenceMetric]


@pytest.mark.parametrize("cls", ALL)
def test_a_single_turn_test_case_is_refused(cls: Any) -> None:
    with pytest.raises(TypeError, match="ConversationalTestCase"):
        cls(model=relevancy_judge(set()), eval_mode="llm").measure(LLMTestCase(input="q", actual_output="a"))


@pytest.mark.parametrize("cls", ALL)
def test_offline_with_no_judge_says_what_to_configure(cls: Any) -> None:
    with pytest.raises(ConfigurationError, match="OPENAI_API_KEY"):
        cls().measure(talk(2))


@pytest.mark.parametrize("cls", ALL)
def test_system_one_mode_three_questions_weights_two_one_one(cls: Any) -> None:
    def respond(state: Any, qs: dict[str, Any]) -> dict[str, float]:
        a, b, level = qs
        return {a: 0.9, b: 0.6, level: 2.4}

    metric = cls(system_one_model=ScriptedSystemOne(respond), eval_mode="system_one")
    assert metric.measure(talk(2)) == pytest.approx((2 * 0.9 + 0.6 + 2.4 / 3) / 4)


@pytest.mark.parametrize("cls", ALL)
def test_strict_mode_and_evaluate(cls: Any) -> None:
    judges = {
        TurnRelevancyMetric: relevancy_judge({"[a2]"}),
        ConversationCompletenessMetric: completeness_judge(["A [i1].", "B [i2]."], {"[i2]"}),
        RoleAdherenceMetric: role_judge([3]),
    }
    metric = cls(model=judges[cls], eval_mode="llm", strict_mode=True)
    assert metric.threshold == 1.0 and metric.measure(talk(2)) == 0.0 and metric.success is False
    row = evaluate([talk(2)], [cls(model=judges[cls], eval_mode="llm")]).test_results[0].metrics_data[0]
    assert (row.score, row.success) == (0.5, True)


@pytest.mark.parametrize("cls", ALL)
def test_hybrid_over_the_system_one_wire(cls: Any) -> None:
    """TypeSafeModel talking to the loopback /v1/systemone server: the conversation travels once in the state and
    every decision comes back over the wire (no fallback)."""
    servers = pytest.importorskip("deepeval.testing.servers")
    from deepeval.models.system_one.typesafe import TypeSafeModel

    seen: list[Any] = []

    def jev(state: Any, questions: dict[str, Any]) -> dict[str, float]:
        seen.append(state)
        return dict.fromkeys(questions, 0.9)

    judges = {
        TurnRelevancyMetric: relevancy_judge(set()),
        ConversationCompletenessMetric: completeness_judge(["A [i1].", "B [i2]."], set()),
        RoleAdherenceMetric: role_judge([]),
    }
    with servers.SystemOneServer(jev, api_key="ts-key") as srv:
        s1 = TypeSafeModel(model="jev-latest", api_key="ts-key", base_url=srv.base_url, max_retries=0)
        metric = cls(model=judges[cls], system_one_model=s1, eval_mode="hybrid")
        assert metric.measure(talk(3)) == 1.0
    assert metric.system_one_fallback_reason is None and len(seen) == 1
    assert [t["content"] for t in seen[0]["turns"]] == [t.content for t in talk(3).turns]
