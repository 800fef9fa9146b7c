from __future__ import annotations

import warnings

import pytest

from deepeval.dataset import (
    BackgroundNoiseSettings,
    ConversationalGolden,
    Expectations,
    Golden,
    InterruptionBehavior,
    InvalidGoldenError,
    Persona,
)
from deepeval.test_case import LLMTestCase


def test_bad_golden_is_a_type_error_and_a_value_error_naming_the_field():
    with pytest.raises(InvalidGoldenError) as info:
        Golden(input="q", context=["ok", 3])
    assert str(info.value) == "Golden.context[1]: Input should be a valid string (got int)"
    assert isinstance(info.value, TypeError) and isinstance(info.value, ValueError)
    with pytest.raises(ValueError, match=r"Golden\.input is required"):
        Golden()  # type: ignore[call-arg]
    with pytest.raises(TypeError, match=r"ConversationalGolden\.scenario is required"):
        ConversationalGolden()  # type: ignore[call-arg]
    # test cases raise a pydantic ValidationError (a ValueError) that is also a TypeError, as goldens do
    with pytest.raises(TypeError) as tc_info:
        LLMTestCase(input=3)  # type: ignore[arg-type]
    assert isinstance(tc_info.value, ValueError)


def test_camel_case_in_and_out():
    g = Golden(input="q", expectedOutput="a", additionalMetadata={"k": 1})  # type: ignore[call-arg]
    assert g.expected_output == "a" and g.additional_metadata == {"k": 1}
    assert g.to_dict() == {"input": "q", "expectedOutput": "a", "additionalMetadata": {"k": 1}}


def test_persona_and_user_description_stay_in_step():
    with pytest.warns(DeprecationWarning, match="user_description"):
        g = ConversationalGolden(scenario="Refund", user_description="An impatient caller.")
    assert g.persona == Persona(characteristics="An impatient caller.")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        g2 = ConversationalGolden(scenario="Refund", persona=Persona(name="Dana", characteristics="Calm."))
    assert g2.user_description == "Calm."
    with pytest.raises(ValueError, match="conflicting text"):
        ConversationalGolden(scenario="R", persona=Persona(characteristics="a"), user_description="b")
    assert ConversationalGolden(scenario="R").persona is None


def test_persona_voice_data_is_validated():
    p = Persona(
        characteristics="x",
        voice="coral",
        interruption_behavior=InterruptionBehavior(frequency="rare"),
        background_noise=BackgroundNoiseSettings(audio="cafe.wav"),
    )
    assert p.tts_kwargs() == {"voice": "coral"} and Persona(characteristics="x").tts_kwargs() == {}
    assert p.background_noise is not None and p.background_noise.volume == 0.3
    with pytest.raises(
        ValueError, match="unknown interruption frequency 'always'; use one of rare, normal, frequent"
    ):
        InterruptionBehavior(frequency="always")
    with pytest.raises(ValueError, match="unknown overlap behavior 'shout'"):
        InterruptionBehavior(overlap="shout")
    with pytest.raises(ValueError, match="volume"):
        BackgroundNoiseSettings(audio="a.wav", volume=1.5)
    with pytest.raises(ValueError, match="hold_timeout"):
        Persona(characteristics="x", hold_timeout=0)


def test_expectations_conditions_are_stripped_and_non_empty():
    assert Expectations(must=["  be polite "]).must == ["be polite"]
    assert not Expectations() and Expectations(must_not=["swear"])
    with pytest.raises(ValueError, match="every condition must be non-empty"):
        Expectations(must=["  "])


def test_golden_numbers_from_csv_or_pandas_are_taken_as_deepeval_takes_them():
    # deepeval 4.3.1: Golden(token_cost="0.1").token_cost == 0.1, input_token_count=10.0 / "10" -> 10; 10.5 refused
    g = Golden(input="q", token_cost="0.1", input_token_count=10.0, output_token_count="10")
    assert (g.token_cost, g.input_token_count, g.output_token_count) == (0.1, 10, 10)
    with pytest.raises(
        InvalidGoldenError, match=r"^Golden\.input_token_count: Input should be a valid integer"
    ):
        Golden(input="q", input_token_count=10.5)
    with pytest.raises(InvalidGoldenError, match=r"^Golden\.token_cost: expected a number, not a bool"):
        Golden(input="q", token_cost=True)  # ours on purpose: deepeval takes True as 1.0
