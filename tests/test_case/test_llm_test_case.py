"""LLMTestCase, ToolCall and RetrievedContextData: aliases in, camelCase out, TypeError naming the field."""

from __future__ import annotations

import json

import pydantic
import pytest

from deepeval.errors import MissingTestCaseParamsError as ErrorsMissing
from deepeval.test_case import (
    ConversationalTestCase,
    LLMTestCase,
    MissingTestCaseParamsError,
    RetrievedContextData,
    ToolCall,
    Turn,
)

# (snake name, camelCase alias, a valid value)
LLM_FIELDS = [
    ("input", "input", "What if these shoes don't fit?"),
    ("actual_output", "actualOutput", "We offer a 30-day full refund."),
    ("expected_output", "expectedOutput", "You can return them within 30 days."),
    ("context", "context", ["All customers get a 30 day refund."]),
    ("retrieval_context", "retrievalContext", ["Refunds take 5 days."]),
    ("metadata", "metadata", {"run": 3}),
    ("tools_called", "toolsCalled", [ToolCall(name="search")]),
    ("expected_tools", "expectedTools", [ToolCall(name="lookup")]),
    ("comments", "comments", "checked by hand"),
    ("token_cost", "tokenCost", 0.0012),
    ("completion_time", "completionTime", 2),
    ("name", "name", "refund-1"),
    ("tags", "tags", ["refunds", "shoes"]),
]


def _base(**extra: object) -> dict[str, object]:
    return {"input": "q", **extra}


@pytest.mark.parametrize(("snake", "camel", "value"), LLM_FIELDS)
def test_every_field_accepts_snake_and_camel_and_dumps_by_field_name(
    snake: str, camel: str, value: object
) -> None:
    by_snake = LLMTestCase(**{**_base(), snake: value})
    by_camel = LLMTestCase(**{**_base(), camel: value})
    assert getattr(by_snake, snake) == value
    assert getattr(by_camel, snake) == value
    assert by_snake == by_camel
    dumped = by_snake.model_dump()  # field names, as deepeval's model_dump()
    assert snake in dumped
    if snake != camel:
        assert camel not in dumped
    camel_dump = by_snake.model_dump(by_alias=True)
    assert camel in camel_dump and (snake == camel or snake not in camel_dump)
    assert (
        by_snake.to_dict()[camel]
        == by_snake.model_dump(mode="json", by_alias=True, exclude_none=True, exclude_defaults=True)[camel]
    )


def test_field_list_covers_the_reference_fields() -> None:
    # the full list (deepeval 4.3.1's) and SingleTurnParams are checked in test_deepeval_fields.py
    assert set(LLMTestCase.model_fields) >= {snake for snake, _, _ in LLM_FIELDS}


def test_to_dict_drops_none_and_round_trips_through_json() -> None:
    tc = LLMTestCase(
        input="q",
        actual_output="a",
        retrieval_context=["plain", RetrievedContextData(context="c", source="doc.md")],
        tools_called=[ToolCall(name="t", input_parameters={"x": 1}, output={"ok": True})],
    )
    d = tc.to_dict()
    assert d == {
        "input": "q",
        "actualOutput": "a",
        "retrievalContext": ["plain", {"context": "c", "source": "doc.md"}],
        "toolsCalled": [{"name": "t", "output": {"ok": True}, "inputParameters": {"x": 1}}],
    }
    again = LLMTestCase.model_validate(json.loads(json.dumps(d)))
    assert again == tc
    assert isinstance(again.retrieval_context[1], RetrievedContextData)  # type: ignore[index]


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"input": 1}, "LLMTestCase.input"),
        (_base(actual_output=3.5), "LLMTestCase.actual_output"),
        (_base(expectedOutput=["x"]), "LLMTestCase.expectedOutput"),
        (_base(context="one string"), "LLMTestCase.context"),
        (_base(context=["ok", 2]), "LLMTestCase.context[1]"),
        (_base(retrieval_context="x"), "LLMTestCase.retrieval_context"),
        (_base(metadata=["not", "a", "dict"]), "LLMTestCase.metadata"),
        (_base(tools_called=["search"]), "LLMTestCase.tools_called[0]"),
        (_base(expected_tools={"name": "x"}), "LLMTestCase.expected_tools"),
        (_base(comments=1), "LLMTestCase.comments"),
        (_base(name=b"bytes"), "LLMTestCase.name"),
        (_base(tags="a"), "LLMTestCase.tags"),
    ],
)
def test_wrong_type_raises_type_error_naming_the_field(kwargs: dict[str, object], field: str) -> None:
    with pytest.raises(TypeError) as info:
        LLMTestCase(**kwargs)
    assert str(info.value).startswith(field + ":"), str(info.value)


def test_numbers_from_csv_or_pandas_are_taken_as_deepeval_takes_them() -> None:
    # deepeval 4.3.1 (pydantic, lax): "0.1" -> 0.1, 1 -> 1.0, 10.0 -> 10, "10" -> 10, "10.0" -> 10, " 10 " -> 10,
    # "1e-3" -> 0.001, "1.5" -> 1.5; "abc", 10.5, "1e3" and "" are refused
    import numpy as np

    tc = LLMTestCase(
        input="q", token_cost="0.1", input_token_count=10.0, output_token_count="7", completion_time="1.5"
    )
    assert (tc.token_cost, tc.input_token_count, tc.output_token_count, tc.completion_time) == (
        0.1,
        10,
        7,
        1.5,
    )
    assert type(tc.input_token_count) is int and type(tc.token_cost) is float
    assert LLMTestCase(input="q", token_cost=1).token_cost == 1.0
    assert LLMTestCase(input="q", token_cost="1e-3").token_cost == 0.001
    assert LLMTestCase(input="q", input_token_count="10.0").input_token_count == 10
    assert LLMTestCase(input="q", input_token_count=" 10 ").input_token_count == 10
    pandas_row = {
        "token_cost": np.float64(0.25),
        "input_token_count": np.float64(12.0),
        "output_token_count": np.int64(3),
    }
    tc = LLMTestCase(input="q", **pandas_row)
    assert (tc.token_cost, tc.input_token_count, tc.output_token_count) == (0.25, 12, 3)
    with pytest.raises(TypeError, match=r"^LLMTestCase\.token_cost: Input should be a valid number"):
        LLMTestCase(input="q", token_cost="abc")
    for bad in (10.5, "1e3", ""):
        with pytest.raises(
            TypeError, match=r"^LLMTestCase\.input_token_count: Input should be a valid integer"
        ):
            LLMTestCase(input="q", input_token_count=bad)


def test_a_bool_is_not_a_number() -> None:
    # ours on purpose: deepeval 4.3.1 stores True as 1 / 1.0
    with pytest.raises(
        TypeError, match=r"^LLMTestCase\.completionTime: expected a number, not a bool \(got bool\)$"
    ):
        LLMTestCase(input="q", completionTime=True)
    with pytest.raises(TypeError, match=r"^LLMTestCase\.input_token_count: expected a number, not a bool"):
        LLMTestCase(input="q", input_token_count=False)


def test_union_item_errors_name_the_index_and_the_alternatives() -> None:
    with pytest.raises(
        TypeError,
        match=r"^LLMTestCase\.retrieval_context\[1\]: expected str or RetrievedContextData, got int$",
    ):
        LLMTestCase(input="q", retrieval_context=["ok", 5])


def test_nested_errors_keep_the_full_path() -> None:
    with pytest.raises(
        TypeError, match=r"^LLMTestCase\.retrieval_context\[0\]\.context: .*string.*\(got int\)$"
    ):
        LLMTestCase(input="q", retrieval_context=[{"context": 1}])
    with pytest.raises(TypeError, match=r"^LLMTestCase\.tools_called\[0\]\.name: .*\(got int\)$"):
        LLMTestCase(input="q", tools_called=[{"name": 3}])
    with pytest.raises(TypeError, match=r"^LLMTestCase\.expected_tools\[1\]\.name is required$"):
        LLMTestCase(input="q", expected_tools=[{"name": "a"}, {"description": "no name"}])


def test_missing_input_is_a_pydantic_validation_error_and_a_type_error() -> None:
    with pytest.raises(pydantic.ValidationError, match=r"^LLMTestCase\.input is required$") as info:
        LLMTestCase(actual_output="a")
    assert isinstance(info.value, ValueError) and isinstance(info.value, TypeError)
    assert [(e["type"], e["loc"]) for e in info.value.errors()] == [("missing", ("input",))]


def test_unknown_keywords_are_ignored_as_deepeval_does() -> None:
    tc = LLMTestCase(input="q", retrival_context=["typo"], foo=1)
    assert tc.retrieval_context is None and not hasattr(tc, "foo")
    assert "foo" not in tc.to_dict() and "retrivalContext" not in tc.to_dict()


@pytest.mark.parametrize(
    ("build", "owner", "types"),
    [
        (lambda: Turn(role="system", content="x"), "Turn", [("value_error", ("role",))]),
        (lambda: Turn(role="user"), "Turn", [("missing", ("content",))]),
        (lambda: ToolCall(), "ToolCall", [("missing", ("name",))]),
        (
            lambda: ConversationalTestCase(turns=[{"role": "bad", "content": "x"}]),
            "ConversationalTestCase",
            [("value_error", ("turns", 0, "role"))],
        ),
    ],
)
def test_turn_tool_call_and_conversation_errors_are_validation_errors(build, owner, types) -> None:
    with pytest.raises(pydantic.ValidationError) as info:
        build()
    assert str(info.value).startswith(f"{owner}.")
    assert [(e["type"], e["loc"]) for e in info.value.errors()] == types


def test_unknown_keywords_on_turn_tool_call_and_conversation_are_ignored() -> None:
    turn = Turn(role="user", content="x", foo=2)
    call = ToolCall(name="n", foo=3)
    conv = ConversationalTestCase(turns=[turn], foo=4)
    assert not any(hasattr(o, "foo") for o in (turn, call, conv))


def test_several_errors_are_all_reported() -> None:
    with pytest.raises(TypeError) as info:
        LLMTestCase(input=1, comments=2)
    assert str(info.value).split("; ") == [
        "LLMTestCase.input: Input should be a valid string (got int)",
        "LLMTestCase.comments: Input should be a valid string (got int)",
    ]


def test_model_validate_and_assignment_raise_type_error_too() -> None:
    with pytest.raises(TypeError, match=r"^LLMTestCase\.input: "):
        LLMTestCase.model_validate({"input": 3})
    with pytest.raises(
        TypeError, match=r"^LLMTestCase\.retrievalContext\[0\]: expected str or RetrievedContextData"
    ):
        LLMTestCase.model_validate_json('{"input": "q", "retrievalContext": [7]}')
    assert LLMTestCase.model_validate_json('{"input": "q", "actualOutput": "a"}').actual_output == "a"
    tc = LLMTestCase(input="q")
    tc.actual_output = "fine"
    assert tc.actual_output == "fine"
    with pytest.raises(TypeError, match=r"^LLMTestCase\.actual_output: .*\(got int\)$"):
        tc.actual_output = 5  # type: ignore[assignment]
    assert tc.actual_output == "fine"


def test_retrieved_context_data_rendering() -> None:
    assert (
        str(RetrievedContextData(context="Refunds take 5 days.", source="faq.md"))
        == "faq.md: Refunds take 5 days."
    )
    assert str(RetrievedContextData(context="No source here.")) == "No source here."
    assert str(RetrievedContextData(context="Empty source.", source="")) == "Empty source."
    tc = LLMTestCase(
        input="q",
        retrieval_context=[
            "plain",
            RetrievedContextData(context="c", source="s"),
            {"context": "d", "source": "t"},
        ],
    )
    assert tc.retrieval_context_texts() == ["plain", "s: c", "t: d"]
    assert LLMTestCase(input="q").retrieval_context_texts() is None
    with pytest.raises(TypeError, match=r"^RetrievedContextData\.context is required$"):
        RetrievedContextData(source="s")


def test_tool_call_fields_and_aliases() -> None:
    call = ToolCall(
        name="search", description="web", reasoning="need facts", output=[1, 2], inputParameters={"q": "x"}
    )
    assert call.input_parameters == {"q": "x"}
    assert call.model_dump() == {
        "name": "search",
        "type": "FUNCTION",
        "description": "web",
        "reasoning": "need facts",
        "output": [1, 2],
        "input_parameters": {"q": "x"},
    }
    assert call.model_dump(by_alias=True)["inputParameters"] == {"q": "x"}
    with pytest.raises(TypeError, match=r"^ToolCall\.input_parameters: .*dictionary.*\(got list\)$"):
        ToolCall(name="x", input_parameters=[1])


def test_missing_params_error_is_the_same_class_everywhere() -> None:
    assert MissingTestCaseParamsError is ErrorsMissing


def test_non_string_dict_keys_are_named() -> None:
    with pytest.raises(TypeError, match=r"^LLMTestCase\.metadata\[1\] \(key\): .*string.*\(got int\)$"):
        LLMTestCase(input="q", metadata={1: "x"})
    with pytest.raises(TypeError, match=r"^LLMTestCase\.tools_called\[0\]\.input_parameters\[2\] \(key\): "):
        LLMTestCase(input="q", tools_called=[{"name": "a", "input_parameters": {2: 3}}])
