"""Turn and ConversationalTestCase: aliases, roles, dict turns, non-empty turns."""

from __future__ import annotations

import pytest

from deepeval.test_case import ConversationalTestCase, RetrievedContextData, ToolCall, Turn

CONVO_FIELDS = [
    ("scenario", "scenario", "Customer asks about a refund."),
    ("context", "context", ["Store policy: 30 days."]),
    ("name", "name", "convo-1"),
    ("user_description", "userDescription", "A returning customer."),
    ("expected_outcome", "expectedOutcome", "The refund is explained."),
    ("chatbot_role", "chatbotRole", "a polite support agent"),
    ("metadata", "metadata", {"k": 1}),
    ("tags", "tags", ["support"]),
]
TURN_FIELDS = [
    ("retrieval_context", "retrievalContext", ["Refunds take 5 days."]),
    ("tools_called", "toolsCalled", [ToolCall(name="crm")]),
    ("metadata", "metadata", {"latency_ms": 120}),
]


def _turns() -> list[Turn]:
    return [Turn(role="user", content="My name is Ada."), Turn(role="assistant", content="Hello Ada.")]


@pytest.mark.parametrize(("snake", "camel", "value"), CONVO_FIELDS)
def test_conversation_fields_accept_both_spellings(snake: str, camel: str, value: object) -> None:
    a = ConversationalTestCase(turns=_turns(), **{snake: value})
    b = ConversationalTestCase(turns=_turns(), **{camel: value})
    assert getattr(a, snake) == getattr(b, snake) == value
    assert a.model_dump()[snake] == a.model_dump(by_alias=True)[camel] == value


@pytest.mark.parametrize(("snake", "camel", "value"), TURN_FIELDS)
def test_turn_fields_accept_both_spellings(snake: str, camel: str, value: object) -> None:
    a = Turn(role="user", content="x", **{snake: value})
    b = Turn(role="user", content="x", **{camel: value})
    assert getattr(a, snake) == getattr(b, snake) == value
    assert snake in a.model_dump() and camel in a.model_dump(by_alias=True)


def test_field_lists_cover_the_reference_fields() -> None:
    # the full lists (deepeval 4.3.1's) are checked in test_deepeval_fields.py
    assert set(ConversationalTestCase.model_fields) >= {"turns"} | {s for s, _, _ in CONVO_FIELDS}
    assert set(Turn.model_fields) >= {"role", "content"} | {s for s, _, _ in TURN_FIELDS}


def test_dict_turns_become_turn_objects() -> None:
    convo = ConversationalTestCase(
        turns=[
            {
                "role": "user",
                "content": "I live in Oslo.",
                "retrievalContext": [{"context": "c", "source": "s"}],
            },
            Turn(role="assistant", content="Noted."),
        ]
    )
    assert [type(t) for t in convo.turns] == [Turn, Turn]
    assert convo.turns[0].content == "I live in Oslo."
    assert convo.turns[0].retrieval_context == [RetrievedContextData(context="c", source="s")]
    assert convo.to_dict()["turns"][1] == {"role": "assistant", "content": "Noted."}


@pytest.mark.parametrize("turns", [[], ()])
def test_empty_turns_rejected(turns: object) -> None:
    with pytest.raises(TypeError, match=r"^ConversationalTestCase\.turns: turns must hold at least one Turn"):
        ConversationalTestCase(turns=turns)


def test_missing_or_wrong_turns() -> None:
    with pytest.raises(TypeError, match=r"^ConversationalTestCase\.turns is required$"):
        ConversationalTestCase(scenario="x")
    with pytest.raises(TypeError, match=r"^ConversationalTestCase\.turns: .*list.*\(got str\)$"):
        ConversationalTestCase(turns="user: hi")
    with pytest.raises(TypeError, match=r"^ConversationalTestCase\.turns\[0\]: .*Turn.*\(got str\)$"):
        ConversationalTestCase(turns=["hi"])


@pytest.mark.parametrize("role", ["system", "User", "ASSISTANT", "bot", ""])
def test_invalid_roles_list_user_and_assistant(role: str) -> None:
    with pytest.raises(TypeError) as info:
        Turn(role=role, content="x")
    msg = str(info.value)
    assert msg.startswith("Turn.role: ")
    assert "'user'" in msg and "'assistant'" in msg and repr(role) in msg


def test_invalid_role_inside_a_conversation_names_the_turn_index() -> None:
    with pytest.raises(
        TypeError,
        match=r"^ConversationalTestCase\.turns\[1\]\.role: role must be one of 'user', 'assistant', not 'tool'",
    ):
        ConversationalTestCase(turns=[{"role": "user", "content": "a"}, {"role": "tool", "content": "b"}])


def test_turn_requires_role_and_string_content() -> None:
    with pytest.raises(TypeError, match=r"^ConversationalTestCase\.turns\[0\]\.content is required$"):
        ConversationalTestCase(turns=[{"role": "user"}])
    with pytest.raises(TypeError, match=r"^Turn\.content: .*string.*\(got int\)$"):
        Turn(role="user", content=42)
    with pytest.raises(TypeError, match=r"^Turn\.role is required$"):
        Turn(content="x")


def test_turn_field_given_under_both_spellings_names_the_turn() -> None:
    with pytest.raises(TypeError) as info:
        ConversationalTestCase(
            turns=[
                {"role": "user", "content": "hi"},
                {"role": "assistant", "content": "yo", "retrieval_context": ["a"], "retrievalContext": ["b"]},
            ]
        )
    assert str(info.value) == (
        "ConversationalTestCase.turns[1].retrieval_context: given twice, as 'retrieval_context' and "
        "'retrievalContext' (two spellings of one field); pass it once"
    )
