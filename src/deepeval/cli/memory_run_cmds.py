"""``deepeval memory short-term`` and ``deepeval memory long-term``: run a model under test behind an
OpenAI-compatible endpoint through the short-term condition (the conversation in its context) or the long-term
condition (it keeps a wiki through tool calls), optionally ``--live`` (it writes the assistant turns itself).

Usage errors (bad numbers, URLs or files) exit 2 with one ``error:`` line before any request is sent; a failing
endpoint exits 1 with one line naming it; warnings (a keeper that never wrote a page or never called a tool, facts
live mode cannot see) go to stderr as ``warning:`` lines and into the reports.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from deepeval.cli._echo import echo
from deepeval.cli.memory_cmds import (
    _check_reports,
    _fail,
    _load_conversation,
    _read_text,
    _write_reports,
    echo_recall,
    memory_app,
)
from deepeval.config.settings import redact

if TYPE_CHECKING:
    from deepeval.errors import JudgeError
    from deepeval.memory.conditions import MemoryReport
    from deepeval.memory.manifest import FactManifest
    from deepeval.memory.subjects import EndpointChatModel
    from deepeval.test_case import Turn


def _check_base_url(url: str) -> None:
    """Exit 2 unless ``url`` is an absolute http(s) URL with a host (quoted with its credentials hidden)."""
    import httpx

    from deepeval.config.redaction import safe_url

    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, TypeError, ValueError) as err:
        _fail(f"--base-url {safe_url(url)!r} is not a valid URL ({redact(str(err))})")
    if parsed.scheme not in ("http", "https") or not parsed.host:
        _fail(
            f"--base-url {safe_url(url)!r} must be an http:// or https:// URL with a host, "
            "e.g. http://127.0.0.1:8000/v1"
        )


def _check_numbers(**values: tuple[float, float, float | None]) -> None:
    """Exit 2 for the first option outside its range: ``name=(value, low, high)`` (``high`` None = unbounded;
    ``low`` inclusive). Option names use ``_`` for ``-``."""
    for name, (value, low, high) in values.items():
        option = "--" + name.replace("_", "-")
        if value < low or (high is not None and value > high):
            bound = f"between {low:g} and {high:g}" if high is not None else f">= {low:g}"
            _fail(f"{option} must be {bound}, got {value:g}")


def _system_prompt(text: str | None, path: Path | None) -> str | None:
    if text is not None and path is not None:
        _fail("--system-prompt and --system-prompt-file are exclusive; give one")
    if path is not None:
        return _read_text(path, "system prompt")
    return text


def _inputs(manifest: Path, transcript: Path) -> tuple[FactManifest, list[Turn], dict[str, int]]:
    """The manifest, the conversation's turns and each stated fact's turn (the conversation's ``introduced``,
    else the manifest's ``introduced_at``, else turn 0); exits 2 on any problem."""
    from deepeval.memory.manifest import ManifestError, load_manifest

    try:
        m = load_manifest(manifest)
    except ManifestError as err:
        _fail(str(err))
    turns, introduced = _load_conversation(transcript)
    if not turns:
        _fail(f"{transcript}: the conversation has no turns")
    intro = introduced or {f.id: f.introduced_at or 0 for f in m.stated()}
    return m, turns, intro


#: the one host that gets $OPENAI_API_KEY without --api-key-env: any other endpoint is sent no key unless named
_OPENAI_HOST = "api.openai.com"


def _endpoint(
    base_url: str, model: str, api_key_env: str | None, temperature: float, timeout: float
) -> EndpointChatModel:
    """The model under test. Its key: ``$<api_key_env>`` when named, else ``$OPENAI_API_KEY`` for OpenAI's own API
    only (a key meant for OpenAI is never sent to whatever ``--base-url`` points at), else none."""
    import urllib.parse

    from deepeval.config.environment import process_env
    from deepeval.memory.subjects import EndpointChatModel

    _check_base_url(base_url)
    url = urllib.parse.urlsplit(base_url)
    try:
        port = url.port
    except ValueError:  # a malformed port: not OpenAI's API
        port = -1
    # https on the default port only: a key sent over http, or to another port, is readable by whoever listens there
    if api_key_env is None and url.scheme == "https" and url.hostname == _OPENAI_HOST and port in (None, 443):
        api_key_env = "OPENAI_API_KEY"
    key = process_env(api_key_env) if api_key_env else None
    return EndpointChatModel(base_url, model, api_key=key, temperature=temperature, timeout=timeout)


def _run(
    make: Callable[[Any], Coroutine[Any, Any, MemoryReport]], quiet: bool, subject: EndpointChatModel
) -> MemoryReport:
    """Run the condition under a progress bar; a usage problem found by the run exits 2, an endpoint failure 1."""
    from deepeval._concurrency import run_sync
    from deepeval.cli.memory_progress import MemoryProgress
    from deepeval.config.redaction import display_url
    from deepeval.errors import JudgeError
    from deepeval.memory.subjects import raised_by_subject

    try:
        with MemoryProgress(quiet) as progress:
            return run_sync(make(progress))
    except JudgeError as err:
        # the endpoint is named (without credentials) so the user can check it; the message is redacted
        if raised_by_subject(err):
            echo(
                f"error: the model under test at {display_url(subject.base_url)} (model {subject.name!r}) failed: "
                f"{_failure(err, subject.timeout)}",
                err=True,
            )
        else:  # the grader (the memory judge), not the model under test
            echo(f"error: the grader failed (not the model under test): {err}", err=True)
        raise typer.Exit(1) from None
    except ValueError as err:
        _fail(str(err))
    except KeyboardInterrupt:
        _say_stopped("SIGINT")
        raise
    except SystemExit as stop:
        if stop.code == 143:  # SIGTERM, raised by deepeval._concurrency
            _say_stopped("SIGTERM")
        raise


def _say_stopped(signal_name: str) -> None:
    """A stopped memory run writes nothing (its reports hold whole runs: a recall curve, every probe graded), so
    the stop says so instead of ending silently (outside attack 5, M7)."""
    echo(
        f"deepeval memory: stopped by {signal_name} before the run finished; no report was written (--json and "
        "--html hold whole runs only)",
        err=True,
    )


def _failure(err: JudgeError, timeout: float) -> str:
    """What went wrong, in the command's terms: a timeout names ``--timeout`` (the error itself names the judges'
    setting); anything else is the error's own redacted message."""
    from deepeval.errors import ErrorKind

    if err.kind == ErrorKind.timeout:
        attempts = err.attempts or 1
        return f"no reply within {timeout:g} s (--timeout), {attempts} attempt{'s' if attempts > 1 else ''}"
    # the client names its model "judge m: ..."; here the model is the one under test, already named by the line
    return re.sub(r"^judge [^:]*: ", "", str(err))


def _print_common(report: MemoryReport) -> None:
    if report.live and report.transcript is not None:
        n = sum(t["role"] == "assistant" for t in report.transcript)
        echo(f"live: the model wrote {n} assistant turns (kept in the JSON/HTML report)")
    for w in report.warnings:
        echo(f"warning: {w}", err=True)


_BASE_URL = typer.Option(
    ..., help="OpenAI-compatible base URL of the model under test (e.g. http://127.0.0.1:8000/v1)."
)
_MODEL = typer.Option(..., help="Model name at that endpoint.")
_KEY_ENV = typer.Option(
    None,
    help="Environment variable holding the endpoint's key (never printed). Default: OPENAI_API_KEY for "
    "https://api.openai.com only; no key for any other --base-url.",
)
_TEMPERATURE = typer.Option(0.0, help="Sampling temperature of the model under test (0 to 2).")
_TIMEOUT = typer.Option(120.0, help="Seconds per request to the model under test (> 0).")
_LIVE = typer.Option(
    False,
    "--live",
    help="The model writes the assistant turns itself (user turns from the conversation), then is probed. "
    "Every fact must be stated in a user turn.",
)
_SYSTEM = typer.Option(None, "--system-prompt", help="System prompt of the model under test.")
_SYSTEM_FILE = typer.Option(None, "--system-prompt-file", help="Read the system prompt from this UTF-8 file.")
_JSON = typer.Option(None, "--json", help="Write the JSON report here.")
_HTML = typer.Option(None, "--html", help="Write the HTML report here.")
_OFFLINE = typer.Option(False, help="Grade with the embedded offline judge even if an LLM is configured.")
_QUIET = typer.Option(
    False, "--quiet", "-q", help="No progress bar (it is off anyway when stderr is not a terminal)."
)


@memory_app.command("short-term")
def short_term_cmd(
    manifest: Path,
    transcript: Path = typer.Option(..., help="Conversation JSON (from `generate`)."),
    base_url: str = _BASE_URL,
    model: str = _MODEL,
    api_key_env: str | None = _KEY_ENV,
    checkpoints: int = typer.Option(4, help="Number of probe points (>= 1), evenly spaced."),
    system_prompt: str | None = _SYSTEM,
    system_prompt_file: Path | None = _SYSTEM_FILE,
    temperature: float = _TEMPERATURE,
    concurrency: int = typer.Option(4, help="Probe requests in flight at once (>= 1)."),
    timeout: float = _TIMEOUT,
    live: bool = _LIVE,
    json_out: Path | None = _JSON,
    html_out: Path | None = _HTML,
    offline: bool = _OFFLINE,
    quiet: bool = _QUIET,
) -> None:
    """Short-term condition: the model answers each probe with the conversation so far in its context, at several
    checkpoints (recall-vs-turn curve)."""
    from deepeval.memory.conditions import DEFAULT_SYSTEM_PROMPT, run_short_term
    from deepeval.memory.judges import EmbeddedMemoryJudge

    _check_numbers(checkpoints=(checkpoints, 1, None), concurrency=(concurrency, 1, None),
                   temperature=(temperature, 0, 2), timeout=(timeout, 1e-3, None))  # fmt: skip
    prompt = _system_prompt(system_prompt, system_prompt_file) or DEFAULT_SYSTEM_PROMPT
    subject = _endpoint(base_url, model, api_key_env, temperature, timeout)
    _check_reports(json_out, html_out)
    m, turns, intro = _inputs(manifest, transcript)
    judge = EmbeddedMemoryJudge() if offline else None
    report = _run(lambda progress: run_short_term(m, turns, intro, subject, judge=judge, checkpoints=checkpoints,
                                                  system_prompt=prompt, concurrency=concurrency, live=live,
                                                  progress=progress), quiet, subject)  # fmt: skip
    for c in report.curve:
        echo(f"turn {c.turn}: {c.recall.n} facts, normalised recall {c.recall.normalised or 0:.3f}")
    _print_common(report)
    _write_reports(report, json_out, html_out)


@memory_app.command("long-term")
def long_term_cmd(
    manifest: Path,
    transcript: Path = typer.Option(..., help="Conversation JSON (from `generate`)."),
    base_url: str = _BASE_URL,
    model: str = _MODEL,
    api_key_env: str | None = _KEY_ENV,
    update_every: int = typer.Option(
        2, help="Turns per wiki update (>= 1): the model sees them and edits its wiki."
    ),
    max_steps: int = typer.Option(8, help="Tool-call rounds per update at most (>= 1)."),
    system_prompt: str | None = _SYSTEM,
    system_prompt_file: Path | None = _SYSTEM_FILE,
    temperature: float = _TEMPERATURE,
    concurrency: int = typer.Option(8, help="Grading requests in flight at once (>= 1)."),
    timeout: float = _TIMEOUT,
    live: bool = _LIVE,
    save_wiki: Path | None = typer.Option(
        None, help="Save the wiki the model wrote here (one .md file per page)."
    ),
    json_out: Path | None = _JSON,
    html_out: Path | None = _HTML,
    offline: bool = _OFFLINE,
    quiet: bool = _QUIET,
) -> None:
    """Long-term (wiki) condition: after each exchange the model edits a markdown wiki with tool calls
    (wiki_list_pages, wiki_read_page, wiki_write_page, wiki_append_to_page); the wiki is then probed (recall) and
    its claims checked against the conversation (precision). --system-prompt is the model's prompt for its live
    replies, so it needs --live (the wiki keeper has its own instructions)."""
    from deepeval.memory.conditions import DEFAULT_SYSTEM_PROMPT, run_long_term
    from deepeval.memory.judges import EmbeddedMemoryJudge
    from deepeval.memory.subjects import EndpointWikiKeeper

    _check_numbers(update_every=(update_every, 1, None), max_steps=(max_steps, 1, None),
                   concurrency=(concurrency, 1, None), temperature=(temperature, 0, 2),
                   timeout=(timeout, 1e-3, None))  # fmt: skip
    prompt = _system_prompt(system_prompt, system_prompt_file)
    if prompt is not None and not live:
        _fail(
            "--system-prompt is the prompt of the model's live replies; add --live (the wiki keeper has its own)"
        )
    subject = _endpoint(base_url, model, api_key_env, temperature, timeout)
    _check_reports(json_out, html_out)
    if save_wiki is not None and save_wiki.exists() and not save_wiki.is_dir():
        _fail(f"--save-wiki {save_wiki} is a file; give a directory")
    m, turns, intro = _inputs(manifest, transcript)
    judge = EmbeddedMemoryJudge() if offline else None
    keeper = EndpointWikiKeeper(subject, max_steps=max_steps)
    report = _run(lambda progress: run_long_term(m, turns, intro, keeper, judge=judge, update_every=update_every,
                                                 live=live, system_prompt=prompt or DEFAULT_SYSTEM_PROMPT,
                                                 concurrency=concurrency, progress=progress),
                  quiet, subject)  # fmt: skip
    pages = report.wiki_pages or {}
    echo(f"wiki: {len(pages)} pages, {sum(len(v) for v in pages.values())} characters; "
               f"{keeper.n_tool_calls} tool calls in {keeper.n_requests} requests")  # fmt: skip
    echo_recall(report)
    p = report.precision
    if p is not None and p.precision is not None:
        echo(
            f"precision ({p.n_claims} claims): {p.precision:.3f}, hallucination rate {p.hallucination_rate:.3f}"
        )
    _print_common(report)
    saved = save_wiki is None or _save_wiki(pages, save_wiki)
    _write_reports(report, json_out, html_out)  # written even when the wiki could not be saved
    if not saved:
        raise typer.Exit(1)


def _save_wiki(pages: dict[str, str], directory: Path) -> bool:
    """Save the wiki; False (one error line) when it cannot be, so the reports are still written."""
    from deepeval.memory.wiki import Wiki, WikiError

    try:
        Wiki.from_pages(pages).save(directory)
    except (OSError, WikiError) as err:
        echo(
            f"error: could not save the wiki to {directory} ({err}); the results above are complete", err=True
        )
        return False
    echo(f"wiki saved to {directory} ({len(pages)} pages; grade it again with `memory grade --wiki`)")
    return True
