"""Every field deepeval 4.3.1 has on LLMTestCase, ConversationalTestCase, Turn and ToolCall is accepted with its
type and default; the deprecated ``additional_metadata`` and ``*Params`` aliases behave as there."""

from __future__ import annotations

import warnings

import pytest

import deepeval.test_case as tc_module
from deepeval.test_case import (
    Audio,
    ConversationalTestCase,
    Expectations,
    LLMTestCase,
    MCPPromptCall,
    MCPResourceCall,
    MCPServer,
    MCPToolCall,
    MultiTurnParams,
    SingleTurnParams,
    ToolCall,
    ToolCallParams,
    ToolCallType,
    Turn,
)

DEPRECATED = "'additional_metadata' is deprecated. Use 'metadata' instead."


def _turn(**extra: object) -> Turn:
    return Turn(role="user", content="My flight is on the 3rd.", **extra)  # type: ignore[arg-type]


# -- additional_metadata ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("spelling", ["additional_metadata", "additionalMetadata", "metadata"])
def test_additional_metadata_is_accepted_at_construction_as_metadata_without_a_warning(spelling: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # deepeval warns on the attribute, not at construction
        case = LLMTestCase(input="q", **{spelling: {"run": 3}})  # type: ignore[arg-type]
        conv = ConversationalTestCase(turns=[_turn(**{spelling: {"t": 1}})], **{spelling: {"run": 4}})  # type: ignore[arg-type]
    assert case.metadata == {"run": 3}
    assert conv.metadata == {"run": 4}
    assert conv.turns[0].metadata == {"t": 1}


def test_additional_metadata_attribute_reads_and_writes_metadata_with_a_deprecation_warning() -> None:
    case = LLMTestCase(input="q", metadata={"run": 3})
    with pytest.warns(
        DeprecationWarning, match="'additional_metadata' is deprecated. Use 'metadata' instead."
    ):
        assert case.additional_metadata == {"run": 3}
    with pytest.warns(DeprecationWarning, match="deprecated"):
        case.additional_metadata = {"run": 5}
    assert case.metadata == {"run": 5}
    for obj in (_turn(metadata={"a": 1}), ConversationalTestCase(turns=[_turn()], metadata={"a": 1})):
        with pytest.warns(DeprecationWarning, match="deprecated"):
            assert obj.additional_metadata == {"a": 1}


def test_metadata_given_twice_under_two_spellings_is_refused() -> None:
    with pytest.raises(TypeError, match="metadata"):
        LLMTestCase(input="q", metadata={"a": 1}, additional_metadata={"b": 2})  # type: ignore[call-arg]


# -- params enums ----------------------------------------------------------------------------------------------------
def test_params_enums_have_deepevals_members() -> None:
    assert [p.value for p in SingleTurnParams] == [
        "input",
        "actual_output",
        "expected_output",
        "context",
        "retrieval_context",
        "metadata",
        "tags",
        "tools_called",
        "expected_tools",
        "mcp_servers",
        "mcp_tools_called",
        "mcp_resources_called",
        "mcp_prompts_called",
    ]
    assert [p.name for p in MultiTurnParams] == [
        "ROLE",
        "CONTENT",
        "PROVIDER_TRANSCRIPT",
        "AUDIO",
        "METADATA",
        "TAGS",
        "SCENARIO",
        "EXPECTED_OUTCOME",
        "CONTEXT",
        "USER_DESCRIPTION",
        "RETRIEVAL_CONTEXT",
        "CHATBOT_ROLE",
        "TOOLS_CALLED",
        "MCP_TOOLS",
        "MCP_RESOURCES",
        "MCP_PROMPTS",
    ]
    assert MultiTurnParams.MCP_TOOLS.value == "mcp_tools_called"
    assert [(p.name, p.value) for p in ToolCallParams] == [
        ("INPUT_PARAMETERS", "input_parameters"),
        ("OUTPUT", "output"),
    ]


@pytest.mark.parametrize(
    ("old", "new"), [("LLMTestCaseParams", "SingleTurnParams"), ("TurnParams", "MultiTurnParams")]
)
def test_old_params_names_are_deprecated_aliases(old: str, new: str) -> None:
    with pytest.warns(DeprecationWarning, match=f"'{old}' is deprecated.*'{new}'"):
        alias = getattr(tc_module, old)
    assert alias is getattr(tc_module, new)
    with pytest.raises(AttributeError):
        tc_module.NoSuchParams  # noqa: B018


# -- fields and defaults ---------------------------------------------------------------------------------------------
def test_llm_test_case_new_fields_take_deepevals_types_and_defaults() -> None:
    case = LLMTestCase(input="q")
    assert (case.flaky, case.multimodal) == (False, False)
    for name in (
        "input_token_count",
        "output_token_count",
        "mcp_servers",
        "mcp_tools_called",
        "mcp_resources_called",
        "mcp_prompts_called",
        "custom_column_key_values",
        "expectations",
        "expected_labels",
    ):
        assert getattr(case, name) is None, name
    full = LLMTestCase(
        input="q",
        flaky=True,
        input_token_count=12,
        outputTokenCount=7,
        custom_column_key_values={"team": "billing"},
        expected_labels={"tone": "polite"},
        expectations=Expectations(must=[" cite the policy "], must_not=["promise a refund"]),
        mcp_servers=[MCPServer(server_name="files", transport="stdio", available_tools=[{"name": "read"}])],
        mcp_tools_called=[MCPToolCall(name="read", args={"path": "a"}, result={"ok": True})],
        mcp_resources_called=[MCPResourceCall(uri="file:///tmp/a.txt", result="text")],
        mcp_prompts_called=[MCPPromptCall(name="summarise", result="done")],
    )
    assert (full.flaky, full.input_token_count, full.output_token_count) == (True, 12, 7)
    assert full.expectations is not None and full.expectations.must == ["cite the policy"]
    assert full.mcp_servers is not None and full.mcp_servers[0].server_name == "files"
    assert full.mcp_tools_called is not None and full.mcp_tools_called[0].args == {"path": "a"}
    with pytest.raises(TypeError, match="custom_column_key_values"):
        LLMTestCase(input="q", custom_column_key_values={"a": 1})
    with pytest.raises(TypeError, match="flaky"):
        LLMTestCase(input="q", flaky="yes")
    with pytest.raises(ValueError, match="non-empty"):
        Expectations(must=["  "])


def test_turn_accepts_user_id_voice_and_mcp_fields() -> None:
    turn = Turn(
        role="assistant",
        content="Noted.",
        userId="u-7",
        latency_ms=320,
        interrupted=False,
        provider_transcript="noted",
        mcp_tools_called=[MCPToolCall(name="calendar", args={}, result=None)],
        mcp_resources_called=[MCPResourceCall(uri="https://example.com/r", result={"x": 1})],
        mcp_prompts_called=[MCPPromptCall(name="p", result="r")],
        audio=Audio.from_bytes(b"RIFF0000", mimeType="audio/wav"),
    )
    assert turn.user_id == "u-7"
    assert turn.latency_ms == 320.0
    assert turn.audio is not None and turn.audio.dataBase64 == "UklGRjAwMDA="
    assert _turn().user_id is None and _turn().audio is None and _turn().mcp_tools_called is None
    with pytest.raises(TypeError, match="user_id"):
        Turn(role="user", content="c", user_id=3)


def test_conversational_test_case_accepts_comments_flaky_and_the_rest() -> None:
    conv = ConversationalTestCase(turns=[_turn()])
    assert (conv.comments, conv.flaky, conv.multimodal, conv.voice) == (None, False, False, False)
    assert (conv.expectations, conv.expected_labels, conv.mcp_servers, conv.call_recording_path) == (
        None,
    ) * 4
    conv = ConversationalTestCase(
        turns=[_turn(audio=Audio.from_bytes(b"x", mimeType="audio/wav"))],
        comments="reviewed",
        flaky=True,
        call_recording_path="call.wav",
        expected_labels={"a": "b"},
    )
    assert (conv.comments, conv.flaky) == ("reviewed", True)
    assert conv.voice is True  # a turn with audio makes it a voice conversation, as in deepeval
    assert "call_recording_path" not in conv.model_dump() and "callRecordingPath" not in conv.model_dump()


# -- ToolCall --------------------------------------------------------------------------------------------------------
def test_tool_call_is_hashable_and_equal_by_name_input_and_output() -> None:
    a = ToolCall(
        name="search", description="one", input_parameters={"q": ["a", {"b": 1}]}, output={"hits": [1, 2]}
    )
    b = ToolCall(
        name="search", description="two", input_parameters={"q": ["a", {"b": 1}]}, output={"hits": [1, 2]}
    )
    c = ToolCall(name="search", input_parameters={"q": ["a"]}, output={"hits": [1, 2]})
    assert a == b and hash(a) == hash(b)
    assert a != c
    assert len({a, b, c}) == 2
    assert ToolCall(name="x").type is ToolCallType.FUNCTION
    mcp = ToolCall(name="x", type=ToolCallType.MCP)
    assert mcp.type is ToolCallType.MCP
    assert mcp.model_dump()["type"] == "MCP"
    assert ToolCall(name="x") != "x"


def test_field_lists_are_deepevals() -> None:
    # deepeval 4.3.1's model_fields
    assert set(LLMTestCase.model_fields) == {
        "input",
        "actual_output",
        "expected_output",
        "context",
        "retrieval_context",
        "metadata",
        "tools_called",
        "expected_tools",
        "comments",
        "token_cost",
        "input_token_count",
        "output_token_count",
        "completion_time",
        "flaky",
        "multimodal",
        "name",
        "tags",
        "mcp_servers",
        "mcp_tools_called",
        "mcp_resources_called",
        "mcp_prompts_called",
        "custom_column_key_values",
        "expectations",
        "expected_labels",
    }
    assert set(ConversationalTestCase.model_fields) == {
        "turns",
        "call_recording_path",
        "scenario",
        "context",
        "name",
        "user_description",
        "expected_outcome",
        "chatbot_role",
        "metadata",
        "comments",
        "tags",
        "flaky",
        "expectations",
        "expected_labels",
        "mcp_servers",
        "multimodal",
        "voice",
    }
    assert set(Turn.model_fields) == {
        "role",
        "content",
        "user_id",
        "audio",
        "latency_ms",
        "interrupted",
        "provider_transcript",
        "retrieval_context",
        "tools_called",
        "mcp_tools_called",
        "mcp_resources_called",
        "mcp_prompts_called",
        "metadata",
    }
    assert set(ToolCall.model_fields) == {
        "name",
        "type",
        "description",
        "reasoning",
        "output",
        "input_parameters",
    }


def test_deepevals_module_paths_import_the_same_types() -> None:
    from deepeval.test_case import conversational_test_case, llm_test_case, mcp

    assert llm_test_case.LLMTestCase is LLMTestCase and llm_test_case.ToolCallParams is ToolCallParams
    assert conversational_test_case.Turn is Turn and mcp.MCPServer is MCPServer
    with pytest.warns(DeprecationWarning, match="'LLMTestCaseParams' is deprecated"):
        assert llm_test_case.LLMTestCaseParams is SingleTurnParams
    with pytest.warns(DeprecationWarning, match="'TurnParams' is deprecated"):
        assert conversational_test_case.TurnParams is MultiTurnParams


def test_tool_call_repr_lists_the_fields_that_are_set() -> None:
    call = ToolCall(name="search", description="web", input_parameters={"q": "refund"}, output="ok")
    text = repr(call)
    assert text.startswith("ToolCall(\n") and 'name="search"' in text and 'description="web"' in text
    assert '"q": "refund"' in text and "output='ok'" in text and "reasoning=" not in text
    assert "description=" not in repr(ToolCall(name="bare"))


def test_conversation_copies_its_turns() -> None:
    original = Turn(role="user", content="Hello")
    conv = ConversationalTestCase(turns=[original])
    conv.turns[0].content = "Changed"
    assert original.content == "Hello"


def test_mcp_results_of_any_type_serialise_to_json() -> None:
    class Opaque:
        def __str__(self) -> str:
            return "opaque-result"

    case = LLMTestCase(
        input="q",
        mcp_tools_called=[MCPToolCall(name="t", args={}, result=Opaque())],
        mcp_prompts_called=[MCPPromptCall(name="p", result=Expectations(must=["x"]))],
        mcp_resources_called=[MCPResourceCall(uri="https://example.com/r", result={"k": [1]})],
    )
    dumped = case.to_dict()
    assert dumped["mcpToolsCalled"][0]["result"] == "opaque-result"
    assert dumped["mcpPromptsCalled"][0]["result"]["must"] == ["x"]
    assert dumped["mcpResourcesCalled"][0]["result"] == {"k": [1]}
