"""Eval-mode resolution: argument > DEEPEVAL_EVAL_MODE > default; case-insensitive; clear errors from both sources."""

from __future__ import annotations

from pathlib import Path

import pytest

from deepeval.config import EVAL_MODES, EvalMode, resolve_eval_mode
from deepeval.config.eval_mode import parse_eval_mode
from deepeval.errors import InvalidEvalModeError


def test_modes() -> None:
    assert EVAL_MODES == ("llm", "hybrid", "system_one")


@pytest.mark.parametrize(
    ("raw", "mode"),
    [
        ("llm", EvalMode.LLM),
        ("HYBRID", EvalMode.HYBRID),
        (" System_One ", EvalMode.SYSTEM_ONE),
        ("system-one", EvalMode.SYSTEM_ONE),
        (EvalMode.HYBRID, EvalMode.HYBRID),
    ],
)
def test_argument_is_case_insensitive(raw: str, mode: EvalMode) -> None:
    assert resolve_eval_mode(raw) is mode


def test_argument_beats_environment(isolated: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEEPEVAL_EVAL_MODE", "system_one")
    assert resolve_eval_mode("llm") is EvalMode.LLM
    assert resolve_eval_mode() is EvalMode.SYSTEM_ONE


def test_environment_from_dotenv_is_case_insensitive(isolated: Path) -> None:
    (isolated / ".env.local").write_text("DEEPEVAL_EVAL_MODE=Hybrid\n")
    assert resolve_eval_mode() is EvalMode.HYBRID


def test_default_depends_on_an_llm_being_configured(isolated: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert resolve_eval_mode() is EvalMode.HYBRID
    assert resolve_eval_mode(has_llm=True) is EvalMode.LLM
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-000000000000")
    assert resolve_eval_mode() is EvalMode.LLM
    assert resolve_eval_mode(has_llm=False) is EvalMode.HYBRID
    monkeypatch.delenv("OPENAI_API_KEY")
    (isolated / ".env").write_text("USE_LOCAL_MODEL=YES\nLOCAL_MODEL_BASE_URL=http://127.0.0.1:1/v1\n")
    assert resolve_eval_mode() is EvalMode.LLM


@pytest.mark.parametrize("bad", ["gpt", "", "llm,hybrid", "system one"])
def test_invalid_argument_lists_valid_modes(bad: str) -> None:
    with pytest.raises(InvalidEvalModeError) as info:
        resolve_eval_mode(bad)
    msg = str(info.value)
    assert isinstance(info.value, ValueError)
    assert f"invalid eval mode {bad!r} from the eval_mode argument" in msg
    assert "valid modes are: llm, hybrid, system_one" in msg


def test_non_string_argument() -> None:
    with pytest.raises(
        InvalidEvalModeError,
        match=r"the eval_mode argument must be a string, one of llm, hybrid, system_one; got 3",
    ):
        parse_eval_mode(3, "the eval_mode argument")  # type: ignore[arg-type]


def test_invalid_value_in_process_environment(isolated: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEEPEVAL_EVAL_MODE", "fast")
    with pytest.raises(InvalidEvalModeError) as info:
        resolve_eval_mode()
    msg = str(info.value)
    assert "invalid eval mode 'fast' from DEEPEVAL_EVAL_MODE (set in environment)" in msg
    assert "valid modes are: llm, hybrid, system_one" in msg
    assert "unset the environment variable" in msg


def test_invalid_value_in_dotenv_names_the_file(isolated: Path) -> None:
    (isolated / ".env.local").write_text("DEEPEVAL_EVAL_MODE=turbo\n")
    with pytest.raises(InvalidEvalModeError) as info:
        resolve_eval_mode()
    msg = str(info.value)
    assert f"invalid eval mode 'turbo' from DEEPEVAL_EVAL_MODE (set in {isolated / '.env.local'})" in msg
    assert "valid modes are: llm, hybrid, system_one" in msg
    assert "deepeval unset-eval-mode" in msg
    # an explicit argument still wins over the broken file
    assert resolve_eval_mode("llm") is EvalMode.LLM
