"""Writing and removing dotenv keys: 0600 files, secrets, round trips, --save parsing."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from dotenv import dotenv_values

from deepeval.config import get_settings, parse_save_target, set_keys, unset_keys
from deepeval.errors import ConfigurationError


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_new_file_is_created_0600(isolated: Path) -> None:
    path = set_keys(isolated / ".env.local", {"DEEPEVAL_EVAL_MODE": "hybrid"})
    assert _mode(path) == 0o600
    assert dotenv_values(path) == {"DEEPEVAL_EVAL_MODE": "hybrid"}
    assert get_settings().get("DEEPEVAL_EVAL_MODE") == "hybrid"


def test_existing_file_gets_0600_when_a_secret_is_written(isolated: Path) -> None:
    path = isolated / ".env.local"
    path.write_text("# my settings\nOPENAI_MODEL_NAME=gpt-x\n")
    os.chmod(path, 0o644)
    set_keys(path, {"TYPESAFE_MODEL_NAME": "jev-1"})
    assert _mode(path) == 0o644  # no secret: mode left alone
    set_keys(path, {"TYPESAFE_API_KEY": "ts-secret-0123456789"})
    assert _mode(path) == 0o600
    text = path.read_text()
    assert text.startswith("# my settings\nOPENAI_MODEL_NAME=gpt-x\n")
    assert dotenv_values(path) == {
        "OPENAI_MODEL_NAME": "gpt-x",
        "TYPESAFE_MODEL_NAME": "jev-1",
        "TYPESAFE_API_KEY": "ts-secret-0123456789",
    }


def test_existing_key_is_replaced_in_place(isolated: Path) -> None:
    path = isolated / ".env"
    path.write_text("A=1\nDEEPEVAL_EVAL_MODE=llm\nB=2\n")
    set_keys(path, {"DEEPEVAL_EVAL_MODE": "system_one"})
    assert path.read_text() == "A=1\nDEEPEVAL_EVAL_MODE='system_one'\nB=2\n"


@pytest.mark.parametrize("value", ['it\'s "quoted"', "a b #not-a-comment", "back\\slash", "$HOME", "=x="])
def test_values_round_trip(isolated: Path, value: str) -> None:
    path = set_keys(isolated / ".env.local", {"OPENAI_MODEL_NAME": value})
    assert dotenv_values(path)["OPENAI_MODEL_NAME"] == value
    assert get_settings().get("OPENAI_MODEL_NAME") == value


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"OPENAI_API_KEY": "line1\nline2"}, "must be a single line"),
        ({"OPENAI_MODEL_NAME": "a${HOME}"}, "must not contain '${'"),
        ({"BAD KEY": "x"}, "invalid dotenv key 'BAD KEY'"),
        ({"1ABC": "x"}, "invalid dotenv key '1ABC'"),
    ],
)
def test_invalid_values_write_nothing(isolated: Path, values: dict[str, str], message: str) -> None:
    path = isolated / ".env.local"
    with pytest.raises(ConfigurationError, match=message.replace("$", r"\$")):
        set_keys(path, {"DEEPEVAL_EVAL_MODE": "llm", **values})
    assert not path.exists()


def test_missing_folder_and_directory_target(isolated: Path) -> None:
    with pytest.raises(ConfigurationError, match="does not exist"):
        set_keys(isolated / "nope" / ".env", {"A": "1"})
    (isolated / "dir").mkdir()
    with pytest.raises(ConfigurationError, match="not a regular file"):
        set_keys(isolated / "dir", {"A": "1"})


def test_unset_keys(isolated: Path) -> None:
    path = isolated / ".env.local"
    path.write_text("A=1\nTYPESAFE_API_KEY=x\nTYPESAFE_MODEL_NAME=y\n")
    assert unset_keys(path, ["TYPESAFE_API_KEY", "TYPESAFE_MODEL_NAME", "TYPESAFE_BASE_URL"]) == [
        "TYPESAFE_API_KEY",
        "TYPESAFE_MODEL_NAME",
    ]
    assert path.read_text() == "A=1\n"
    assert unset_keys(path, ["TYPESAFE_API_KEY"]) == []
    assert unset_keys(isolated / "absent.env", ["A"]) == []
    assert not (isolated / "absent.env").exists()


def test_parse_save_target(isolated: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert parse_save_target(None) == isolated / ".env.local"
    assert parse_save_target(None, default=False) is None
    assert parse_save_target("dotenv") == isolated / ".env.local"
    assert parse_save_target("DOTENV") == isolated / ".env.local"
    assert parse_save_target("dotenv:conf/my.env") == Path("conf/my.env")
    assert parse_save_target("dotenv:/abs/x.env") == Path("/abs/x.env")
    other = tmp_path / "other"
    other.mkdir()
    monkeypatch.setenv("ENV_DIR_PATH", str(other))
    assert parse_save_target("dotenv") == other / ".env.local"
    for bad in ["json", "s3://bucket", "keyring", "", "dotenvx:a"]:
        with pytest.raises(ConfigurationError, match="use 'dotenv'"):
            parse_save_target(bad)
    with pytest.raises(ConfigurationError, match="names no file"):
        parse_save_target("dotenv:")
    with pytest.raises(ConfigurationError, match="names a directory"):
        parse_save_target(f"dotenv:{other}")


@pytest.mark.regression
def test_a_linked_dotenv_file_is_neither_written_through_nor_replaced(isolated: Path) -> None:
    """Deliberate (docs: deepeval._safe_path): a symbolic link where we would write is refused; give the real
    path (``--save dotenv:PATH``) instead."""
    shared = isolated.parent / "shared.env"
    shared.write_text("OPENAI_MODEL_NAME=gpt-x\n")
    link = isolated / ".env.local"
    link.symlink_to(shared)
    with pytest.raises(ConfigurationError, match=r"\.env\.local is a symbolic link"):
        set_keys(link, {"DEEPEVAL_EVAL_MODE": "hybrid"})
    with pytest.raises(ConfigurationError, match=r"\.env\.local is a symbolic link"):
        unset_keys(link, ["OPENAI_MODEL_NAME"])
    assert link.is_symlink() and shared.read_text() == "OPENAI_MODEL_NAME=gpt-x\n"
    set_keys(shared, {"DEEPEVAL_EVAL_MODE": "hybrid"})  # the real path works
    assert dotenv_values(shared) == {"OPENAI_MODEL_NAME": "gpt-x", "DEEPEVAL_EVAL_MODE": "hybrid"}
