"""The provider commands of deepeval 4.3.1: ``set-<provider>`` / ``unset-<provider>`` for Ollama, Azure OpenAI,
Gemini, Anthropic, LiteLLM, Portkey, OpenRouter, DeepSeek, Grok, Moonshot (Kimi), Amazon Bedrock, and the embedding
providers (``set-azure-openai-embedding``, ``set-ollama-embeddings``, ``set-local-embeddings``), with 4.3.1's
options and the dotenv keys it writes.

Each command is declared by one :class:`ProviderCommand` (options, the keys they write, the switch that selects the
provider) and built by :func:`_register`. The save rules are ``settings_cmds``': settings go to the ``--save`` target
(default ``.env.local``), API keys are read with a hidden prompt and written only where ``--save`` says. ``set-X``
writes ``USE_X=1`` (4.3.1's value) and removes the other providers' switches from the file (4.3.1's "switch provider"), and the
Ollama marker ``LOCAL_MODEL_API_KEY=ollama`` with them (ours: in 4.3.1 a stale marker keeps Ollama selected).
``unset-X`` removes X's settings (its secrets only with ``--clear-secrets``; the Ollama marker always, being no
secret). The model is required (``--model`` or already set), checked before anything is written.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import typer

from deepeval.cli._echo import echo
from deepeval.cli.app import app
from deepeval.cli.settings_cmds import (
    QuietOpt,
    SaveOpt,
    _cost,
    _err,
    _fail_cleanly,
    _name,
    _need_save_for_key,
    _not_saved_note,
    _prompt_key,
    _remove,
    _show_path,
    _target,
    _url,
    _write,
    clear_provider_switches,
)
from deepeval.config.dotenv_file import unset_keys
from deepeval.config.settings import get_settings

EMBEDDING_SWITCHES = ("USE_AZURE_OPENAI_EMBEDDING", "USE_LOCAL_EMBEDDINGS")
OLLAMA = "ollama"


@dataclass(frozen=True)
class Opt:
    """One option: ``flags`` as 4.3.1 spells them, the setting ``key`` it writes, how its value is checked
    (``kind``: ``name``, ``url``, ``cost``, ``float``, ``file``, ``prompt``: a flag that prompts for ``key``
    with a hidden prompt labelled ``label``)."""

    param: str
    flags: tuple[str, ...]
    key: str
    kind: str
    help: str
    default: Any = None
    label: str = ""


@dataclass(frozen=True)
class ProviderCommand:
    """A ``set-<name>`` / ``unset-<name>`` pair."""

    name: str
    title: str
    switch: str
    model_key: str
    options: tuple[Opt, ...]
    keys: tuple[str, ...]
    secrets: tuple[str, ...] = ()
    fixed: dict[str, str] = field(default_factory=dict)
    embedding: bool = False
    clear_secrets_option: bool = True


def _model(key: str, what: str = "Model identifier to use for this provider.") -> Opt:
    return Opt("model", ("-m", "--model"), key, "name", f"{what} ({key}).")


def _key(key: str, label: str) -> Opt:
    return Opt(
        "prompt_api_key",
        ("-k", "--prompt-api-key"),
        key,
        "prompt",
        f"Read {label} from a hidden prompt (needs --save).",
        label=label,
    )


def _costs(prefix: str) -> tuple[Opt, Opt]:
    return (
        Opt(
            "cost_per_input_token",
            ("-i", "--cost-per-input-token"),
            f"{prefix}_COST_PER_INPUT_TOKEN",
            "cost",
            "USD per input token.",
        ),
        Opt(
            "cost_per_output_token",
            ("-o", "--cost-per-output-token"),
            f"{prefix}_COST_PER_OUTPUT_TOKEN",
            "cost",
            "USD per output token.",
        ),
    )


def _url_opt(key: str, default: str | None = None) -> Opt:
    return Opt("base_url", ("-u", "--base-url"), key, "url", f"API endpoint / base URL ({key}).", default)


def _simple(name: str, title: str, prefix: str, switch: str) -> ProviderCommand:
    return ProviderCommand(
        name,
        title,
        switch,
        f"{prefix}_MODEL_NAME",
        (_model(f"{prefix}_MODEL_NAME"), _key(f"{prefix}_API_KEY", f"{title} API key"), *_costs(prefix)),
        (switch, f"{prefix}_MODEL_NAME", f"{prefix}_COST_PER_INPUT_TOKEN", f"{prefix}_COST_PER_OUTPUT_TOKEN"),
        (f"{prefix}_API_KEY",),
    )


COMMANDS: tuple[ProviderCommand, ...] = (
    ProviderCommand(
        "ollama",
        "Ollama",
        "USE_LOCAL_MODEL",
        "OLLAMA_MODEL_NAME",
        (_model("OLLAMA_MODEL_NAME"), _url_opt("LOCAL_MODEL_BASE_URL", "http://localhost:11434")),
        ("USE_LOCAL_MODEL", "OLLAMA_MODEL_NAME", "LOCAL_MODEL_BASE_URL"),
        ("LOCAL_MODEL_API_KEY",),
        fixed={"LOCAL_MODEL_API_KEY": OLLAMA},
    ),
    ProviderCommand(
        "ollama-embeddings",
        "Ollama embeddings",
        "USE_LOCAL_EMBEDDINGS",
        "LOCAL_EMBEDDING_MODEL_NAME",
        (
            _model("LOCAL_EMBEDDING_MODEL_NAME"),
            _url_opt("LOCAL_EMBEDDING_BASE_URL", "http://localhost:11434"),
        ),
        ("USE_LOCAL_EMBEDDINGS", "LOCAL_EMBEDDING_MODEL_NAME", "LOCAL_EMBEDDING_BASE_URL"),
        ("LOCAL_EMBEDDING_API_KEY",),
        fixed={"LOCAL_EMBEDDING_API_KEY": OLLAMA},
        embedding=True,
    ),
    ProviderCommand(
        "azure-openai",
        "Azure OpenAI",
        "USE_AZURE_OPENAI",
        "AZURE_MODEL_NAME",
        (
            _model("AZURE_MODEL_NAME"),
            _key("AZURE_OPENAI_API_KEY", "Azure OpenAI API key"),
            _url_opt("AZURE_OPENAI_ENDPOINT"),
            Opt(
                "api_version",
                ("-v", "--api-version"),
                "OPENAI_API_VERSION",
                "name",
                "Azure OpenAI API version.",
            ),
            Opt(
                "model_version",
                ("-V", "--model-version"),
                "AZURE_MODEL_VERSION",
                "name",
                "Azure model version.",
            ),
            Opt(
                "deployment_name",
                ("-d", "--deployment-name"),
                "AZURE_DEPLOYMENT_NAME",
                "name",
                "Azure OpenAI deployment name.",
            ),
        ),
        (
            "USE_AZURE_OPENAI",
            "AZURE_OPENAI_ENDPOINT",
            "OPENAI_API_VERSION",
            "AZURE_DEPLOYMENT_NAME",
            "AZURE_MODEL_NAME",
            "AZURE_MODEL_VERSION",
        ),
        ("AZURE_OPENAI_API_KEY",),
    ),
    ProviderCommand(
        "azure-openai-embedding",
        "Azure OpenAI embeddings",
        "USE_AZURE_OPENAI_EMBEDDING",
        "AZURE_EMBEDDING_MODEL_NAME",
        (
            _model("AZURE_EMBEDDING_MODEL_NAME"),
            Opt(
                "deployment_name",
                ("-d", "--deployment-name"),
                "AZURE_EMBEDDING_DEPLOYMENT_NAME",
                "name",
                "Azure OpenAI embedding deployment name.",
            ),
        ),
        ("USE_AZURE_OPENAI_EMBEDDING", "AZURE_EMBEDDING_MODEL_NAME", "AZURE_EMBEDDING_DEPLOYMENT_NAME"),
        embedding=True,
        clear_secrets_option=False,
    ),
    ProviderCommand(
        "gemini",
        "Gemini",
        "USE_GEMINI_MODEL",
        "GEMINI_MODEL_NAME",
        (
            _model("GEMINI_MODEL_NAME"),
            _key("GOOGLE_API_KEY", "Google API key"),
            Opt(
                "project",
                ("-p", "--project"),
                "GOOGLE_CLOUD_PROJECT",
                "name",
                "Google Cloud project (Vertex AI).",
            ),
            Opt("location", ("-l", "--location"), "GOOGLE_CLOUD_LOCATION", "name", "Google Cloud location."),
            Opt(
                "service_account_file",
                ("-S", "--service-account-file"),
                "GOOGLE_SERVICE_ACCOUNT_KEY",
                "file",
                "Service account key JSON file (Vertex AI; stored only with --save).",
            ),
        ),
        (
            "USE_GEMINI_MODEL",
            "GOOGLE_GENAI_USE_VERTEXAI",
            "GOOGLE_CLOUD_PROJECT",
            "GOOGLE_CLOUD_LOCATION",
            "GEMINI_MODEL_NAME",
        ),
        ("GOOGLE_API_KEY", "GOOGLE_SERVICE_ACCOUNT_KEY"),
    ),
    _simple("anthropic", "Anthropic", "ANTHROPIC", "USE_ANTHROPIC_MODEL"),
    ProviderCommand(
        "litellm",
        "LiteLLM",
        "USE_LITELLM",
        "LITELLM_MODEL_NAME",
        (
            _model("LITELLM_MODEL_NAME"),
            _key("LITELLM_API_KEY", "LiteLLM API key"),
            _url_opt("LITELLM_API_BASE"),
            Opt(
                "proxy_prompt_api_key",
                ("-K", "--proxy-prompt-api-key"),
                "LITELLM_PROXY_API_KEY",
                "prompt",
                "Read the LiteLLM proxy API key from a hidden prompt (needs --save).",
                label="LiteLLM proxy API key",
            ),
            Opt(
                "proxy_base_url",
                ("-U", "--proxy-base-url"),
                "LITELLM_PROXY_API_BASE",
                "url",
                "LiteLLM proxy base URL.",
            ),
        ),
        ("USE_LITELLM", "LITELLM_MODEL_NAME", "LITELLM_API_BASE", "LITELLM_PROXY_API_BASE"),
        ("LITELLM_API_KEY", "LITELLM_PROXY_API_KEY"),
    ),
    ProviderCommand(
        "portkey",
        "Portkey",
        "USE_PORTKEY_MODEL",
        "PORTKEY_MODEL_NAME",
        (
            _model("PORTKEY_MODEL_NAME"),
            _key("PORTKEY_API_KEY", "Portkey API key"),
            _url_opt("PORTKEY_BASE_URL"),
            Opt(
                "provider",
                ("-P", "--provider"),
                "PORTKEY_PROVIDER_NAME",
                "name",
                "Provider Portkey routes to.",
            ),
        ),
        ("USE_PORTKEY_MODEL", "PORTKEY_MODEL_NAME", "PORTKEY_BASE_URL", "PORTKEY_PROVIDER_NAME"),
        ("PORTKEY_API_KEY",),
    ),
    ProviderCommand(
        "openrouter",
        "OpenRouter",
        "USE_OPENROUTER_MODEL",
        "OPENROUTER_MODEL_NAME",
        (
            _model("OPENROUTER_MODEL_NAME"),
            _key("OPENROUTER_API_KEY", "OpenRouter API key"),
            _url_opt("OPENROUTER_BASE_URL"),
            Opt(
                "temperature",
                ("-t", "--temperature"),
                "TEMPERATURE",
                "float",
                "Judge temperature (TEMPERATURE).",
            ),
            *_costs("OPENROUTER"),
        ),
        (
            "USE_OPENROUTER_MODEL",
            "OPENROUTER_MODEL_NAME",
            "OPENROUTER_BASE_URL",
            "OPENROUTER_COST_PER_INPUT_TOKEN",
            "OPENROUTER_COST_PER_OUTPUT_TOKEN",
        ),
        ("OPENROUTER_API_KEY",),
    ),
    _simple("deepseek", "DeepSeek", "DEEPSEEK", "USE_DEEPSEEK_MODEL"),
    _simple("grok", "Grok", "GROK", "USE_GROK_MODEL"),
    _simple("moonshot", "Moonshot", "MOONSHOT", "USE_MOONSHOT_MODEL"),
    ProviderCommand(
        "bedrock",
        "AWS Bedrock",
        "USE_AWS_BEDROCK_MODEL",
        "AWS_BEDROCK_MODEL_NAME",
        (
            _model("AWS_BEDROCK_MODEL_NAME"),
            Opt(
                "prompt_credentials",
                ("-a", "--prompt-credentials"),
                "AWS_SECRET_ACCESS_KEY",
                "prompt",
                "Read the AWS access key id and secret access key from prompts (needs --save).",
                label="AWS Secret Access key",
            ),
            Opt("region", ("-r", "--region"), "AWS_BEDROCK_REGION", "name", "AWS region of Bedrock."),
            *_costs("AWS_BEDROCK"),
        ),
        (
            "USE_AWS_BEDROCK_MODEL",
            "AWS_BEDROCK_MODEL_NAME",
            "AWS_BEDROCK_REGION",
            "AWS_BEDROCK_COST_PER_INPUT_TOKEN",
            "AWS_BEDROCK_COST_PER_OUTPUT_TOKEN",
        ),
        ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"),
    ),
    ProviderCommand(
        "local-embeddings",
        "Local embeddings",
        "USE_LOCAL_EMBEDDINGS",
        "LOCAL_EMBEDDING_MODEL_NAME",
        (
            _model("LOCAL_EMBEDDING_MODEL_NAME"),
            _key("LOCAL_EMBEDDING_API_KEY", "the embedding server's API key"),
            _url_opt("LOCAL_EMBEDDING_BASE_URL"),
        ),
        ("USE_LOCAL_EMBEDDINGS", "LOCAL_EMBEDDING_MODEL_NAME", "LOCAL_EMBEDDING_BASE_URL"),
        ("LOCAL_EMBEDDING_API_KEY",),
        embedding=True,
    ),
)


# ---------------------------------------------------------------------------------------------------------------
# checks of option values


def _float(value: float | None, option: str) -> str | None:
    if value is None:
        return None
    if not value >= 0:
        raise typer.BadParameter(f"must be >= 0, got {value}", param_hint=option)
    return repr(float(value))


def _service_account(value: str | None, option: str) -> str | None:
    """The JSON of a service account key file, on one line."""
    if value is None:
        return None
    path = Path(value).expanduser()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise typer.BadParameter(
            f"{value} is not a readable JSON key file ({type(exc).__name__})", param_hint=option
        ) from None
    return json.dumps(data, separators=(",", ":"))


_CHECKS: dict[str, Callable[[Any, str], str | None]] = {
    "name": _name,
    "url": _url,
    "cost": _cost,
    "float": _float,
    "file": _service_account,
}


# ---------------------------------------------------------------------------------------------------------------
# set / unset


def _values(cmd: ProviderCommand, given: dict[str, Any]) -> tuple[dict[str, str], dict[str, str]]:
    """(settings to write, secrets to write) from the options given, checked."""
    values: dict[str, str] = {}
    secrets: dict[str, str] = {}
    for opt in cmd.options:
        if opt.kind == "prompt":
            continue
        checked = _CHECKS[opt.kind](given.get(opt.param), opt.flags[-1])
        if checked is None:
            continue
        (secrets if opt.key in cmd.secrets else values)[opt.key] = checked
    if (
        cmd.name == "gemini"
    ):  # 4.3.1: a key selects the Gemini API, project/location/service account Vertex AI
        if given.get("prompt_api_key"):
            values["GOOGLE_GENAI_USE_VERTEXAI"] = "0"
        elif any(given.get(p) is not None for p in ("project", "location", "service_account_file")):
            values["GOOGLE_GENAI_USE_VERTEXAI"] = "1"
    return values, secrets


def _prompts(cmd: ProviderCommand, given: dict[str, Any]) -> dict[str, str]:
    out: dict[str, str] = {}
    for opt in cmd.options:
        if opt.kind != "prompt" or not given.get(opt.param):
            continue
        if cmd.name == "bedrock":
            out["AWS_ACCESS_KEY_ID"] = _prompt_key("AWS Access key Id")
        out[opt.key] = _prompt_key(opt.label)
    return out


def _switch_provider(path: Path, cmd: ProviderCommand, quiet: bool) -> None:
    """Remove the other providers' switches (and a stale Ollama marker) from ``path``."""
    from deepeval.config.dotenv_read import read_dotenv

    if not cmd.embedding:
        removed = clear_provider_switches(
            path, cmd.switch, keep_ollama_marker="LOCAL_MODEL_API_KEY" in cmd.fixed
        )
    else:
        stale = [k for k in EMBEDDING_SWITCHES if k != cmd.switch]
        marker = "LOCAL_EMBEDDING_API_KEY"
        if (
            marker not in cmd.fixed
            and path.is_file()
            and (read_dotenv(path).get(marker) or "").strip() == OLLAMA
        ):
            stale.append(marker)
        removed = unset_keys(path, stale)
    if removed and not quiet:
        echo(f"Removed {', '.join(removed)} from {_show_path(path)}: {cmd.title} is now selected.")


def _set(cmd: ProviderCommand, given: dict[str, Any]) -> None:
    save: str | None = given.get("save")
    quiet = bool(given.get("quiet"))
    prompting = any(given.get(o.param) for o in cmd.options if o.kind == "prompt")
    values, secrets = _values(cmd, given)
    if secrets and save is None:  # a service account key file is a secret too
        raise typer.BadParameter(
            "it holds a secret, and secrets are only written where --save says (--save dotenv)",
            param_hint=next(o.flags[-1] for o in cmd.options if o.key in secrets),
        )
    _need_save_for_key(prompting, save)
    if cmd.model_key not in values and not get_settings().get(cmd.model_key):
        raise typer.BadParameter(
            f"{cmd.title} model name is not set. Pass --model (or set {cmd.model_key}).", param_hint="--model"
        )
    with _fail_cleanly():
        path = _target(save)
        assert path is not None
        secrets.update(_prompts(cmd, given))
        _write(path, {cmd.switch: "1", **cmd.fixed, **values, **secrets}, quiet)
        _switch_provider(path, cmd, quiet)
        if not prompting and not secrets and any(o.kind == "prompt" for o in cmd.options):
            _not_saved_note(quiet, " / ".join(o.key for o in cmd.options if o.kind == "prompt"))


def _unset(cmd: ProviderCommand, given: dict[str, Any]) -> None:
    quiet = bool(given.get("quiet"))
    with _fail_cleanly():
        path = _target(given.get("save"))
        assert path is not None
        keys = list(cmd.keys)
        if given.get("clear_secrets"):
            keys += list(cmd.secrets)
        else:
            keys += list(cmd.fixed)  # the Ollama marker is no secret: it goes with the provider
        _remove(path, keys, quiet)
    if not quiet and get_settings().get(cmd.switch) is None:
        from deepeval.cli.settings_cmds import _llm_judge

        if not cmd.embedding:
            _err(f"LLM judge now: {_llm_judge(get_settings())}")


# ---------------------------------------------------------------------------------------------------------------
# registration: one typer command per declaration, with 4.3.1's options


def _option(opt: Opt) -> inspect.Parameter:
    annotation: Any
    if opt.kind == "prompt":
        default, annotation = typer.Option(False, *opt.flags, help=opt.help), bool
    elif opt.kind in ("cost", "float"):
        default, annotation = typer.Option(opt.default, *opt.flags, help=opt.help), float | None
    else:
        default, annotation = typer.Option(opt.default, *opt.flags, help=opt.help), str | None
    return inspect.Parameter(
        opt.param, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation
    )


def _common(*, clear_secrets: bool, secrets: tuple[str, ...]) -> list[inspect.Parameter]:
    params = [
        inspect.Parameter("save", inspect.Parameter.KEYWORD_ONLY, default=SaveOpt, annotation=str | None)
    ]
    if clear_secrets:
        help_text = f"Also remove {', '.join(secrets) or 'the secrets'} from the dotenv file."
        params.append(
            inspect.Parameter(
                "clear_secrets",
                inspect.Parameter.KEYWORD_ONLY,
                default=typer.Option(False, "--clear-secrets", "-x", help=help_text),
                annotation=bool,
            )
        )
    params.append(
        inspect.Parameter("quiet", inspect.Parameter.KEYWORD_ONLY, default=QuietOpt, annotation=bool)
    )
    return params


def _register(cmd: ProviderCommand) -> None:
    def set_command(**given: Any) -> None:
        _set(cmd, given)

    def unset_command(**given: Any) -> None:
        _unset(cmd, given)

    set_params = [_option(o) for o in cmd.options] + _common(clear_secrets=False, secrets=())
    set_command.__signature__ = inspect.Signature(set_params)  # type: ignore[attr-defined]
    set_command.__doc__ = (
        f"Use {cmd.title} ({cmd.switch}=1; the other providers' switches are removed from the file). "
        "API keys are written only where --save says."
    )
    unset_params = _common(clear_secrets=cmd.clear_secrets_option, secrets=cmd.secrets)
    unset_command.__signature__ = inspect.Signature(unset_params)  # type: ignore[attr-defined]
    unset_command.__doc__ = (
        f"Remove the {cmd.title} settings from the dotenv file (default: .env.local); secrets stay unless "
        "--clear-secrets."
    )
    app.command(f"set-{cmd.name}")(set_command)
    app.command(f"unset-{cmd.name}")(unset_command)


for _cmd in COMMANDS:
    _register(_cmd)
