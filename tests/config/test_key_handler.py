"""``deepeval.key_handler`` reads and writes through our settings: one place for settings, deepeval's names."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from deepeval.config import get_settings
from deepeval.key_handler import KEY_FILE_HANDLER, KeyValues, ModelKeyValues, setting_name


def test_fetch_data_reads_the_environment_and_dotenv_files(
    isolated: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (isolated / ".env").write_text("OPENAI_MODEL_NAME=gpt-4.1\nDEEPEVAL_EVAL_MODE=hybrid\n")
    assert KEY_FILE_HANDLER.fetch_data(ModelKeyValues.OPENAI_MODEL_NAME) == "gpt-4.1"
    assert (
        KEY_FILE_HANDLER.fetch_data(KeyValues.DEEPEVAL_EVAL_MODE) == "hybrid"
    )  # member value is "eval_mode"
    monkeypatch.setenv("OPENAI_MODEL_NAME", "gpt-4o-mini")  # the environment wins, read fresh
    assert KEY_FILE_HANDLER.fetch_data(ModelKeyValues.OPENAI_MODEL_NAME) == "gpt-4o-mini"
    assert KEY_FILE_HANDLER.fetch_data(ModelKeyValues.TYPESAFE_MODEL_NAME) is None


def test_write_key_goes_to_env_local_and_the_settings_see_it(isolated: Path) -> None:
    KEY_FILE_HANDLER.write_key(ModelKeyValues.LOCAL_MODEL_NAME, "qwen3:8b")
    assert (isolated / ".env.local").read_text().strip() == "LOCAL_MODEL_NAME='qwen3:8b'"
    assert get_settings().get("LOCAL_MODEL_NAME") == "qwen3:8b"
    KEY_FILE_HANDLER.remove_key(ModelKeyValues.LOCAL_MODEL_NAME)
    assert get_settings().get("LOCAL_MODEL_NAME") is None
    KEY_FILE_HANDLER.remove_key(ModelKeyValues.LOCAL_MODEL_NAME)  # nothing left to remove: no error


def test_write_key_refuses_a_secret_and_writes_nothing(
    isolated: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="deepeval.key_handler"):
        KEY_FILE_HANDLER.write_key(ModelKeyValues.OPENAI_API_KEY, "sk-never-on-disk-1234")
    assert not (isolated / ".env.local").exists()
    assert "OPENAI_API_KEY is a secret" in caplog.text and "sk-never" not in caplog.text


def test_member_names_and_values_follow_deepeval() -> None:
    assert KeyValues.DEEPEVAL_EVAL_MODE.value == "eval_mode"
    assert ModelKeyValues.OPENAI_API_KEY.value == "OPENAI_API_KEY"
    assert setting_name(KeyValues.CONFIDENT_API_KEY) == "CONFIDENT_API_KEY"
    with pytest.raises(TypeError, match="KeyValues/ModelKeyValues member or a str"):
        setting_name(3)
