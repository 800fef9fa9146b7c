"""Settings precedence: process env > .env.local > .env, in cwd or ENV_DIR_PATH; DEEPEVAL_DISABLE_DOTENV; masking."""

from __future__ import annotations

from pathlib import Path

import pytest

from deepeval.config import get_settings, is_secret_key, mask, redact
from deepeval.errors import ConfigurationError


def _write(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")


def test_nothing_configured(isolated: Path) -> None:
    s = get_settings()
    assert s.get("DEEPEVAL_EVAL_MODE") is None
    assert s.get("OPENAI_MODEL_NAME", "gpt-5.4") == "gpt-5.4"
    assert s.values == {}


def test_dotenv_alone_is_read(isolated: Path) -> None:
    _write(isolated / ".env", "OPENAI_MODEL_NAME=from-env-file\n")
    s = get_settings()
    assert s.get("OPENAI_MODEL_NAME") == "from-env-file"
    assert s.sources["OPENAI_MODEL_NAME"] == str(isolated / ".env")


def test_env_local_beats_env_and_process_env_beats_both(
    isolated: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write(
        isolated / ".env", "OPENAI_MODEL_NAME=dotenv\nTYPESAFE_MODEL_NAME=dotenv\nDEEPEVAL_EVAL_MODE=llm\n"
    )
    _write(isolated / ".env.local", "OPENAI_MODEL_NAME=local\nDEEPEVAL_EVAL_MODE=hybrid\n")
    monkeypatch.setenv("DEEPEVAL_EVAL_MODE", "system_one")
    s = get_settings()
    assert s.get("DEEPEVAL_EVAL_MODE") == "system_one"
    assert s.sources["DEEPEVAL_EVAL_MODE"] == "environment"
    assert s.get("OPENAI_MODEL_NAME") == "local"
    assert s.sources["OPENAI_MODEL_NAME"] == str(isolated / ".env.local")
    assert s.get("TYPESAFE_MODEL_NAME") == "dotenv"
    assert s.sources["TYPESAFE_MODEL_NAME"] == str(isolated / ".env")


def test_env_dir_path_replaces_cwd(isolated: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    other = tmp_path / "elsewhere"
    other.mkdir()
    _write(isolated / ".env.local", "OPENAI_MODEL_NAME=cwd\n")
    _write(other / ".env", "OPENAI_MODEL_NAME=elsewhere\n")
    monkeypatch.setenv("ENV_DIR_PATH", str(other))
    s = get_settings()
    assert s.get("OPENAI_MODEL_NAME") == "elsewhere"
    assert s.sources["OPENAI_MODEL_NAME"] == str(other / ".env")


def test_invalid_env_dir_path_is_a_clear_error(isolated: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENV_DIR_PATH", str(isolated / "missing"))
    with pytest.raises(ConfigurationError, match=r"ENV_DIR_PATH=.*missing.* is not a directory"):
        get_settings()


@pytest.mark.parametrize("flag", ["1", "true", "YES"])
def test_disable_dotenv_skips_both_files(isolated: Path, monkeypatch: pytest.MonkeyPatch, flag: str) -> None:
    _write(isolated / ".env", "OPENAI_MODEL_NAME=a\n")
    _write(isolated / ".env.local", "TYPESAFE_MODEL_NAME=b\n")
    monkeypatch.setenv("DEEPEVAL_DISABLE_DOTENV", flag)
    monkeypatch.setenv("TYPESAFE_BASE_URL", "http://127.0.0.1:9")
    s = get_settings()
    assert s.get("OPENAI_MODEL_NAME") is None
    assert s.get("TYPESAFE_MODEL_NAME") is None
    assert s.get("TYPESAFE_BASE_URL") == "http://127.0.0.1:9"


def test_disable_dotenv_zero_still_reads_files(isolated: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _write(isolated / ".env", "OPENAI_MODEL_NAME=a\n")
    monkeypatch.setenv("DEEPEVAL_DISABLE_DOTENV", "0")
    assert get_settings().get("OPENAI_MODEL_NAME") == "a"


def test_settings_are_read_fresh(isolated: Path) -> None:
    assert get_settings().get("OPENAI_MODEL_NAME") is None
    _write(isolated / ".env.local", "OPENAI_MODEL_NAME=later\n")
    assert get_settings().get("OPENAI_MODEL_NAME") == "later"


def test_unrelated_process_variables_are_not_collected(
    isolated: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOME_OTHER_TOKEN", "abcdefgh")
    monkeypatch.setenv("OPENAI_ORG", "org-1")
    s = get_settings()
    assert "SOME_OTHER_TOKEN" not in s.values
    assert s.get("OPENAI_ORG") == "org-1"


def test_typed_getters(isolated: Path) -> None:
    _write(
        isolated / ".env",
        "OPENAI_COST_PER_INPUT_TOKEN=2.5e-06\nUSE_LOCAL_MODEL=Yes\nDEEPEVAL_JUDGE_TIMEOUT=soon\n",
    )
    s = get_settings()
    assert s.get_float("OPENAI_COST_PER_INPUT_TOKEN") == 2.5e-06
    assert s.get_bool("USE_LOCAL_MODEL") is True
    assert s.get_bool("MISSING", default=True) is True
    with pytest.raises(ConfigurationError, match=r"DEEPEVAL_JUDGE_TIMEOUT must be a number, got 'soon'"):
        s.get_float("DEEPEVAL_JUDGE_TIMEOUT")


def test_secret_keys_mask_and_redact(isolated: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert is_secret_key("OPENAI_API_KEY") and is_secret_key("typesafe_api_key") and is_secret_key("X_TOKEN")
    assert not is_secret_key("OPENAI_MODEL_NAME")
    assert mask("sk-1234567890abcdef") == "***cdef"
    assert mask("short-key") == "***"
    assert mask(None) == "<unset>" and mask("") == "<unset>"
    monkeypatch.setenv("OPENAI_API_KEY", "sk-live-0123456789")
    s = get_settings()
    assert s.secrets() == {"OPENAI_API_KEY": "sk-live-0123456789"}
    assert redact("failed with key sk-live-0123456789!") == "failed with key ***!"
    assert redact("abc sk-x", {"K": "abc"}) == "abc sk-x"  # too short to mask safely


def test_redact_never_fails_even_with_broken_settings(
    isolated: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ENV_DIR_PATH", str(isolated / "missing"))
    monkeypatch.setenv("TYPESAFE_API_KEY", "ts-key-987654321")
    assert redact("auth failed for ts-key-987654321") == "auth failed for ***"


def test_empty_process_value_wins_and_counts_as_unset(
    isolated: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write(isolated / ".env", "OPENAI_API_KEY=sk-file-0123456789\n")
    monkeypatch.setenv("OPENAI_API_KEY", "")
    s = get_settings()
    assert s.get("OPENAI_API_KEY") is None
    assert s.sources["OPENAI_API_KEY"] == "environment"
    assert s.secrets() == {}


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("http://admin:PW123456@127.0.0.1:9/v1?api_key=Q1234567", "http://***@127.0.0.1:9/v1?api_key=***"),
        ("https://api.typesafe.ai", "https://api.typesafe.ai"),
        ("http://[::1]:8000/v1", "http://[::1]:8000/v1"),
        ("http://tok_123@host/p?a=1&b=", "http://***@host/p?a=***&b=***"),
        ("not a url", "not a url"),
        # URLs that do not parse (port out of range, unclosed bracket) still lose their credentials, even when the
        # password was never registered as a secret
        (
            "http://u:NEVERSEEN99@127.0.0.1:99999/v1?api_key=Q7654321",
            "http://***@127.0.0.1:99999/v1?api_key=***",
        ),
        ("http://[::1/v1?k=abc#frag", "http://[::1/v1?k=***"),
    ],
)
def test_safe_url_hides_password_and_query_values(url: str, shown: str) -> None:
    from deepeval.config.settings import safe_url

    assert safe_url(url) == shown


def test_display_url_of_a_url_that_does_not_parse_drops_credentials_and_query() -> None:
    from deepeval.config.redaction import display_url

    assert (
        display_url("http://u:NEVERSEEN99@127.0.0.1:99999/v1?api_key=Q7654321")
        == "http://***@127.0.0.1:99999/v1"
    )
