"""The provider commands (``set-<provider>`` / ``unset-<provider>``): 4.3.1's options, the dotenv keys it writes,
secrets only where ``--save`` says, the switch that selects the provider (and the judge plan that follows it), and
``deepeval settings`` masking the secrets."""

from __future__ import annotations

import re
import stat
from pathlib import Path

import pytest
from dotenv import dotenv_values
from typer.testing import CliRunner

from deepeval.cli.main import app
from deepeval.cli.provider_cmds import COMMANDS
from deepeval.config.settings import get_settings, is_secret_key
from deepeval.models.plan import plan_llm

runner = CliRunner()
SECRET = "sk-prov-SECRET-0123456789abcdef"


def _run(*args: str, input: str | None = None) -> tuple[int, str]:
    result = runner.invoke(app, list(args), input=input)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


def _plain(text: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"[│╭╮╰╯─]", " ", text)).strip()


ALL = [
    "ollama",
    "ollama-embeddings",
    "azure-openai",
    "azure-openai-embedding",
    "gemini",
    "anthropic",
    "litellm",
    "portkey",
    "openrouter",
    "deepseek",
    "grok",
    "moonshot",
    "bedrock",
    "local-embeddings",
]


def test_every_pair_of_4_3_1_exists_with_its_options() -> None:
    assert sorted(c.name for c in COMMANDS) == sorted(ALL)
    for name in ALL:
        code, out = _run(f"set-{name}", "--help")
        assert code == 0, out
        assert "--model" in out and "-m" in out and "--save" in out and "--quiet" in out
        code, out = _run(f"unset-{name}", "--help")
        assert code == 0 and "--save" in out
    flags = {
        "set-azure-openai": [
            "--prompt-api-key",
            "--base-url",
            "--api-version",
            "--model-version",
            "--deployment-name",
        ],
        "set-gemini": ["--prompt-api-key", "--project", "--location", "--service-account-file"],
        "set-litellm": ["--prompt-api-key", "--base-url", "--proxy-prompt-api-key", "--proxy-base-url"],
        "set-portkey": ["--prompt-api-key", "--base-url", "--provider"],
        "set-openrouter": [
            "--base-url",
            "--temperature",
            "--cost-per-input-token",
            "--cost-per-output-token",
        ],
        "set-bedrock": ["--prompt-credentials", "--region", "--cost-per-input-token"],
        "set-azure-openai-embedding": ["--deployment-name"],
        "unset-anthropic": ["--clear-secrets"],
    }
    for command, expected in flags.items():
        out = _plain(_run(command, "--help")[1])
        for flag in expected:
            assert flag in out, (command, flag)


def test_set_ollama_writes_4_3_1_keys_and_values_and_selects_ollama(isolated: Path) -> None:
    code, out = _run("set-ollama", "--model", "llama3.1")
    assert code == 0, out
    assert dotenv_values(isolated / ".env.local") == {
        "USE_LOCAL_MODEL": "1",
        "LOCAL_MODEL_API_KEY": "ollama",
        "OLLAMA_MODEL_NAME": "llama3.1",
        "LOCAL_MODEL_BASE_URL": "http://localhost:11434",
    }
    choice = plan_llm(None, get_settings())
    assert (choice.provider, choice.name) == ("ollama", "llama3.1 (Ollama)")
    # the marker is no secret: it does not mask the word everywhere
    assert "ollama" not in get_settings().secrets().values()
    code, out = _run("unset-ollama")
    assert code == 0
    assert dotenv_values(isolated / ".env.local") == {}
    assert plan_llm(None, get_settings()) is None


def test_switching_provider_clears_the_others_switches(isolated: Path) -> None:
    assert _run("set-ollama", "-m", "llama3.1")[0] == 0
    assert _run("set-anthropic", "-m", "claude-opus-5", "-i", "0.000005")[0] == 0
    values = dotenv_values(isolated / ".env.local")
    assert values["USE_ANTHROPIC_MODEL"] == "1" and "USE_LOCAL_MODEL" not in values
    assert "LOCAL_MODEL_API_KEY" not in values  # the stale Ollama marker would keep Ollama selected
    assert values["ANTHROPIC_COST_PER_INPUT_TOKEN"] == "5e-06"
    assert plan_llm(None, get_settings()).name == "claude-opus-5 (Anthropic)"
    assert _run("set-grok", "-m", "grok-4")[0] == 0
    values = dotenv_values(isolated / ".env.local")
    assert "USE_ANTHROPIC_MODEL" not in values and values["USE_GROK_MODEL"] == "1"
    assert plan_llm(None, get_settings()).name == "grok-4 (Grok)"


@pytest.mark.parametrize(
    ("command", "key_env", "extra"),
    [
        ("set-anthropic", "ANTHROPIC_API_KEY", ["-m", "claude-opus-5"]),
        ("set-gemini", "GOOGLE_API_KEY", ["-m", "gemini-2.5-flash"]),
        (
            "set-azure-openai",
            "AZURE_OPENAI_API_KEY",
            ["-m", "gpt-4.1", "-u", "https://r.openai.azure.com", "-v", "2024-10-21", "-d", "judge"],
        ),
        ("set-deepseek", "DEEPSEEK_API_KEY", ["-m", "deepseek-chat"]),
        ("set-grok", "GROK_API_KEY", ["-m", "grok-4"]),
        ("set-moonshot", "MOONSHOT_API_KEY", ["-m", "kimi-k2"]),
        ("set-openrouter", "OPENROUTER_API_KEY", ["-m", "openai/gpt-5.4"]),
        ("set-portkey", "PORTKEY_API_KEY", ["-m", "gpt-4.1", "-u", "https://gw.example/v1", "-P", "openai"]),
        ("set-litellm", "LITELLM_API_KEY", ["-m", "anthropic/claude-opus-5"]),
        (
            "set-local-embeddings",
            "LOCAL_EMBEDDING_API_KEY",
            ["-m", "bge-m3", "-u", "http://127.0.0.1:8000/v1"],
        ),
    ],
)
def test_api_keys_only_where_save_says(isolated: Path, command: str, key_env: str, extra: list[str]) -> None:
    code, out = _run(command, *extra, "--prompt-api-key", input=SECRET + "\n")
    assert code == 2 and "would not be persisted" in _plain(out)
    assert list(isolated.iterdir()) == []
    code, out = _run(command, *extra, "--prompt-api-key", "--save", "dotenv", input=SECRET + "\n")
    assert code == 0, out
    assert SECRET not in out
    path = isolated / ".env.local"
    assert dotenv_values(path)[key_env] == SECRET
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert is_secret_key(key_env)
    code, shown = _run("settings")
    assert code == 0 and SECRET not in shown and "***" in shown
    unset = command.replace("set-", "unset-")
    assert _run(unset)[0] == 0
    assert dotenv_values(path) == {key_env: SECRET}  # secrets stay unless --clear-secrets
    assert _run(unset, "--clear-secrets")[0] == 0
    assert dotenv_values(path) == {}


def test_bedrock_prompts_both_credentials(isolated: Path) -> None:
    code, out = _run(
        "set-bedrock",
        "-m",
        "amazon.nova-pro-v1:0",
        "-r",
        "us-east-1",
        "-a",
        "--save",
        "dotenv",
        input="AKIAEXAMPLE12345\n" + SECRET + "\n",
    )
    assert code == 0, out
    values = dotenv_values(isolated / ".env.local")
    assert values["AWS_ACCESS_KEY_ID"] == "AKIAEXAMPLE12345" and values["AWS_SECRET_ACCESS_KEY"] == SECRET
    assert values["USE_AWS_BEDROCK_MODEL"] == "1" and values["AWS_BEDROCK_REGION"] == "us-east-1"
    assert plan_llm(None, get_settings()).name == "amazon.nova-pro-v1:0"
    assert SECRET not in out


def test_model_is_required_and_nothing_is_written_without_it(isolated: Path) -> None:
    for name in ("anthropic", "gemini", "ollama", "azure-openai", "bedrock"):
        code, out = _run(f"set-{name}")
        assert code == 2 and "model name is not set" in _plain(out), name
    assert list(isolated.iterdir()) == []


def test_gemini_vertex_switch_and_service_account_is_a_secret(isolated: Path, tmp_path: Path) -> None:
    key_file = tmp_path / "sa.json"
    key_file.write_text('{"type": "service_account", "private_key": "-----BEGIN KEY-----abc"}')
    code, out = _run(
        "set-gemini", "-m", "gemini-2.5-pro", "-p", "proj", "-l", "us-central1", "-S", str(key_file)
    )
    assert code == 2 and "secret" in _plain(out)
    code, out = _run(
        "set-gemini",
        "-m",
        "gemini-2.5-pro",
        "-p",
        "proj",
        "-l",
        "us-central1",
        "-S",
        str(key_file),
        "--save",
        "dotenv",
    )
    assert code == 0, out
    values = dotenv_values(isolated / ".env.local")
    assert values["GOOGLE_GENAI_USE_VERTEXAI"] == "1" and values["GOOGLE_CLOUD_PROJECT"] == "proj"
    assert "private_key" in values["GOOGLE_SERVICE_ACCOUNT_KEY"]


def test_azure_embedding_and_ollama_embeddings(isolated: Path) -> None:
    assert _run("set-azure-openai-embedding", "-m", "text-embedding-3-small", "-d", "emb")[0] == 0
    assert _run("set-ollama-embeddings", "-m", "nomic-embed-text")[0] == 0
    values = dotenv_values(isolated / ".env.local")
    assert values == {
        "AZURE_EMBEDDING_MODEL_NAME": "text-embedding-3-small",
        "AZURE_EMBEDDING_DEPLOYMENT_NAME": "emb",
        "USE_LOCAL_EMBEDDINGS": "1",
        "LOCAL_EMBEDDING_API_KEY": "ollama",
        "LOCAL_EMBEDDING_MODEL_NAME": "nomic-embed-text",
        "LOCAL_EMBEDDING_BASE_URL": "http://localhost:11434",
    }
    assert _run("unset-ollama-embeddings")[0] == 0
    assert _run("unset-azure-openai-embedding")[0] == 0
    assert dotenv_values(isolated / ".env.local") == {}


def test_bad_values_are_rejected_before_writing(isolated: Path) -> None:
    assert _run("set-ollama", "-m", "x", "-u", "ftp://nope")[0] == 2
    assert _run("set-anthropic", "-m", "x", "-i", "-1")[0] == 2
    assert _run("set-openrouter", "-m", "x", "-t", "-0.5")[0] == 2
    assert list(isolated.iterdir()) == []


def test_set_openai_and_set_local_model_take_over_from_a_provider(
    isolated: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-env-0123456789abcdef")
    assert _run("set-anthropic", "-m", "claude-opus-5")[0] == 0
    code, out = _run("set-openai", "--model", "gpt-5.4")
    assert code == 0 and "USE_ANTHROPIC_MODEL" in out
    assert "USE_ANTHROPIC_MODEL" not in dotenv_values(isolated / ".env.local")
    assert plan_llm(None, get_settings()).source == "settings_openai"
    assert _run("set-ollama", "-m", "llama3.1")[0] == 0
    assert plan_llm(None, get_settings()).provider == "ollama"
    assert _run("set-local-model", "-m", "qwen2.5", "-u", "http://127.0.0.1:8000/v1")[0] == 0
    values = dotenv_values(isolated / ".env.local")
    assert "LOCAL_MODEL_API_KEY" not in values  # the Ollama marker would keep Ollama ahead of the local model
    assert plan_llm(None, get_settings()).source == "settings_local"
