"""`deepeval memory short-term` and `deepeval memory long-term` against a loopback OpenAI-compatible server: options
reach the wire, reports hold what the run did, usage errors are one line and exit 2 before any request."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from _memory_models import chatbot, tool_names
from _memory_paths import EXAMPLE
from typer.testing import CliRunner

from deepeval.cli.main import app
from deepeval.memory.generator import GeneratedConversation
from deepeval.memory.manifest import FactManifest
from deepeval.testing.servers import Fault, OpenAIChatServer


@pytest.fixture
def conv_file(conversation: GeneratedConversation, tmp_path: Path) -> Path:
    path = tmp_path / "conv.json"
    path.write_text(json.dumps(conversation.to_dict()), encoding="utf-8")
    return path


def _invoke(args: list[str], env: dict[str, str] | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["memory", *args], env=env)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, result.output


def test_long_term_cli_runs_the_wiki_condition(
    manifest: FactManifest, conv_file: Path, tmp_path: Path
) -> None:
    out_json, out_html, wiki_dir = tmp_path / "lt.json", tmp_path / "lt.html", tmp_path / "wiki"
    with OpenAIChatServer(chatbot(manifest)) as srv:
        code, out = _invoke(["long-term", str(EXAMPLE), "--transcript", str(conv_file), "--base-url", srv.base_url,
                             "--model", "keeper", "--offline", "--temperature", "0.2", "--update-every", "4",
                             "--json", str(out_json), "--html", str(out_html), "--save-wiki", str(wiki_dir),
                             "--api-key-env", "H18_KEY"], env={"H18_KEY": "sk-h18-secret"})  # fmt: skip
        bodies = srv.counters.bodies
        auth = set(srv.counters.authorization)
    assert code == 0, out
    lines = out.splitlines()
    assert lines[0] == "wiki: 1 pages, " + lines[0].split(", ", 1)[1]
    assert lines[0].endswith("10 tool calls in 20 requests")  # 40 turns / 4 per update = 10 updates
    assert lines[1].startswith("recall (10 facts): normalised 1.000, weighted 1.000, strict 1.000")
    assert lines[2].startswith("  normalised: 0 = nothing recalled")
    assert lines[3].startswith("precision (") and "hallucination rate 0.000" in lines[3]
    assert lines[4] == f"wiki saved to {wiki_dir} (1 pages; grade it again with `memory grade --wiki`)"
    assert all(b["model"] == "keeper" and b["temperature"] == 0.2 for b in bodies)
    assert tool_names(bodies[0])[2:] == ["wiki_write_page", "wiki_append_to_page"]
    assert auth == {"Bearer sk-h18-secret"}  # the key named by --api-key-env is sent, and shown nowhere
    report = json.loads(out_json.read_text(encoding="utf-8"))
    assert report["condition"] == "long_term" and report["live"] is False and report["transcript"] is None
    assert len(report["tool_calls"]) == 10 and report["warnings"] == []
    assert (wiki_dir / "Notes.md").read_text(encoding="utf-8") == report["wiki_pages"]["Notes"]
    html = out_html.read_text(encoding="utf-8")
    assert "Tool calls of the model (10)" in html and "Wiki pages (1)" in html
    assert "sk-h18-secret" not in out + out_json.read_text(encoding="utf-8") + html


@pytest.mark.regression
def test_long_term_save_wiki_refuses_a_link_planted_in_the_folder_and_still_writes_the_report(
    manifest: FactManifest, conv_file: Path, tmp_path: Path
) -> None:
    outside, wiki_dir, out_json = tmp_path / "outside.txt", tmp_path / "wiki", tmp_path / "lt.json"
    outside.write_text("keep me", encoding="utf-8")
    wiki_dir.mkdir()
    (wiki_dir / "Notes.md").symlink_to(outside)  # the page the scripted model writes
    with OpenAIChatServer(chatbot(manifest)) as srv:
        code, out = _invoke(["long-term", str(EXAMPLE), "--transcript", str(conv_file), "--base-url", srv.base_url,
                             "--model", "keeper", "--offline", "--update-every", "10", "--json", str(out_json),
                             "--save-wiki", str(wiki_dir)])  # fmt: skip
    assert code == 1, out
    assert (
        f"error: could not save the wiki to {wiki_dir} (wiki page file {wiki_dir / 'Notes.md'} is a symbolic "
        in out
    )
    assert outside.read_text(encoding="utf-8") == "keep me" and (wiki_dir / "Notes.md").is_symlink()
    assert json.loads(out_json.read_text(encoding="utf-8"))["condition"] == "long_term"


def test_long_term_cli_warns_when_the_model_never_calls_a_tool(conv_file: Path, tmp_path: Path) -> None:
    with OpenAIChatServer(lambda body: "Sure, I'll remember.") as srv:
        code, out = _invoke(["long-term", str(EXAMPLE), "--transcript", str(conv_file), "--base-url", srv.base_url,
                             "--model", "m", "--offline", "--update-every", "10"])  # fmt: skip
    assert code == 0, out
    assert "wiki: 0 pages, 0 characters; 0 tool calls in 4 requests" in out
    assert "warning: the model never called a wiki tool in 4 requests" in out
    assert "warning: the model never wrote a wiki page in 4 updates" in out


def test_short_term_cli_options_reach_the_wire(
    manifest: FactManifest, conv_file: Path, tmp_path: Path
) -> None:
    prompt_file = tmp_path / "prompt.txt"
    prompt_file.write_text("You are Harbor's planning assistant.", encoding="utf-8")
    out_json = tmp_path / "st.json"
    with OpenAIChatServer(chatbot(manifest), latency=0.05) as srv:
        code, out = _invoke(["short-term", str(EXAMPLE), "--transcript", str(conv_file), "--base-url", srv.base_url,
                             "--model", "bot", "--offline", "--checkpoints", "2", "--system-prompt-file",
                             str(prompt_file), "--temperature", "0.7", "--concurrency", "3", "--timeout", "30",
                             "--json", str(out_json)])  # fmt: skip
        bodies, peak = srv.counters.bodies, srv.counters.max_in_flight
    assert code == 0, out
    assert out.splitlines() == ["turn 19: 5 facts, normalised recall 1.000",
                                "turn 39: 10 facts, normalised recall 1.000"]  # fmt: skip
    assert len(bodies) == (5 + 1) + (10 + 1)  # live facts + the never-stated probe, per checkpoint
    assert all(b["messages"][0]["content"] == "You are Harbor's planning assistant." for b in bodies)
    assert all(b["temperature"] == 0.7 for b in bodies)
    assert peak == 3
    report = json.loads(out_json.read_text(encoding="utf-8"))
    assert report["system_prompt"] == "You are Harbor's planning assistant."
    assert [f["checkpoint"] for f in report["checkpoint_facts"]].count(19) == 6


def test_short_term_cli_live(manifest: FactManifest, conv_file: Path, tmp_path: Path) -> None:
    out_html, out_json = tmp_path / "live.html", tmp_path / "live.json"
    with OpenAIChatServer(chatbot(manifest)) as srv:
        code, out = _invoke(["short-term", str(EXAMPLE), "--transcript", str(conv_file), "--base-url", srv.base_url,
                             "--model", "bot", "--offline", "--checkpoints", "1", "--live", "--html", str(out_html),
                             "--json", str(out_json)])  # fmt: skip
    assert code == 0, out
    assert "live: the model wrote 20 assistant turns (kept in the JSON/HTML report)" in out
    report = json.loads(out_json.read_text(encoding="utf-8"))
    assert report["live"] is True and report["transcript"][39] == {
        "role": "assistant",
        "content": "Reply 20: noted.",
    }
    html = out_html.read_text(encoding="utf-8")
    assert "Live transcript (40 turns" in html and "Reply 20: noted." in html and "<b>live</b>" in html


def test_endpoint_timeout_is_one_line_and_exit_1(conv_file: Path) -> None:
    def stuck(body: dict[str, Any]) -> str:
        time.sleep(1.5)
        return "late"

    with OpenAIChatServer(stuck) as srv:
        url = srv.base_url
        code, out = _invoke(["short-term", str(EXAMPLE), "--transcript", str(conv_file), "--base-url", url,
                             "--model", "slow", "--offline", "--checkpoints", "1", "--timeout", "0.2"])  # fmt: skip
    assert code == 1
    assert out.strip().splitlines() == [  # the first attempt and its 2 retries
        f"error: the model under test at {url} (model 'slow') failed: no reply within 0.2 s (--timeout), 3 attempts"
    ]


def test_endpoint_failure_never_shows_the_key_or_the_base_urls_credentials(
    conv_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The model under test goes through the judges' client: its key and the URL's user-info and query token are
    secrets, so the one error line names the endpoint without them."""
    key, password, token = "sk-subject-KEY-0123456789", "pw-subject-98765", "tok-subject-13579"
    monkeypatch.setenv("SUBJECT_KEY", key)
    deny = {"error": {"message": f"Incorrect API key provided: {key} (token {token}, password {password})"}}
    with OpenAIChatServer(faults=[Fault.http_status(401, deny)] * 50) as srv:  # every request is refused
        port = srv.port
        url = f"http://user:{password}@127.0.0.1:{port}/v1?token={token}"
        code, out = _invoke(["short-term", str(EXAMPLE), "--transcript", str(conv_file), "--base-url", url,
                             "--model", "m", "--api-key-env", "SUBJECT_KEY", "--offline", "--checkpoints", "1"])  # fmt: skip
        assert srv.counters.faults_served >= 1  # replies that quote every secret were sent
    assert code == 1
    lines = out.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        f"error: the model under test at http://127.0.0.1:{port}/v1 "
    )
    assert "HTTP 401" in lines[0]
    for secret in (key, password, token):
        assert secret not in out


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--checkpoints", "0"], "error: --checkpoints must be >= 1, got 0"),
        (["--concurrency", "-2"], "error: --concurrency must be >= 1, got -2"),
        (["--temperature", "2.5"], "error: --temperature must be between 0 and 2, got 2.5"),
        (["--timeout", "0"], "error: --timeout must be >= 0.001, got 0"),
        (
            ["--base-url", "localhost:8000/v1"],
            "error: --base-url 'localhost:8000/v1' must be an http:// or https://",
        ),
        (
            ["--base-url", "http://"],
            "error: --base-url 'http://' must be an http:// or https:// URL with a host",
        ),
        (
            ["--system-prompt", "a", "--system-prompt-file", "p.txt"],
            "error: --system-prompt and --system-prompt-file",
        ),
        (
            ["--system-prompt-file", "/nonexistent/p.txt"],
            "error: /nonexistent/p.txt: cannot read the system prompt",
        ),
        (["--transcript", "/nonexistent/c.json"], "error: /nonexistent/c.json: cannot read the transcript"),
        (["--manifest-missing"], "error: /nonexistent/m.yaml: cannot read the manifest"),
    ],
)
def test_short_term_usage_errors(conv_file: Path, extra: list[str], message: str) -> None:
    with OpenAIChatServer() as srv:
        manifest = "/nonexistent/m.yaml" if extra == ["--manifest-missing"] else str(EXAMPLE)
        extra = [] if extra == ["--manifest-missing"] else extra
        args = ["short-term", manifest, "--transcript", str(conv_file), "--base-url", srv.base_url, "--model", "m",
                *extra]  # fmt: skip
        code, out = _invoke(args)
        sent = srv.counters.bodies
    assert code == 2
    assert len(out.strip().splitlines()) == 1 and out.startswith(message), out
    assert "Traceback" not in out and sent == []


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--update-every", "0"], "error: --update-every must be >= 1, got 0"),
        (["--max-steps", "-1"], "error: --max-steps must be >= 1, got -1"),
        (["--concurrency", "0"], "error: --concurrency must be >= 1, got 0"),
        (
            ["--system-prompt", "Be nice."],
            "error: --system-prompt is the prompt of the model's live replies; add --live",
        ),
    ],
)
def test_long_term_usage_errors(conv_file: Path, extra: list[str], message: str) -> None:
    with OpenAIChatServer() as srv:
        code, out = _invoke(["long-term", str(EXAMPLE), "--transcript", str(conv_file), "--base-url", srv.base_url,
                             "--model", "m", *extra])  # fmt: skip
        sent = srv.counters.bodies
    assert code == 2 and sent == []
    assert len(out.strip().splitlines()) == 1 and out.startswith(message), out


def test_live_with_a_fact_in_an_assistant_turn_is_a_usage_error(tmp_path: Path) -> None:
    conv = tmp_path / "c.json"
    turns = [{"role": "user", "content": "Who owns auth?"},
             {"role": "assistant", "content": "Alice Moreau owns the authentication service."}]  # fmt: skip
    conv.write_text(json.dumps({"turns": turns, "introduced": {"auth_owner": 1}}), encoding="utf-8")
    with OpenAIChatServer() as srv:
        code, out = _invoke(["short-term", str(EXAMPLE), "--transcript", str(conv), "--base-url", srv.base_url,
                             "--model", "m", "--live", "--offline"])  # fmt: skip
        sent = srv.counters.bodies
    assert code == 2 and sent == []
    assert (
        out.startswith("error: live mode replaces the assistant turns")
        and "auth_owner (turn 1, assistant)" in out
    )


@pytest.mark.regression
def test_short_term_sends_no_openai_key_to_another_endpoint(
    manifest: FactManifest, conv_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """$OPENAI_API_KEY is for OpenAI's API: without --api-key-env, another --base-url gets no key at all (it was
    sent to whatever the URL pointed at: issue 42 item 8)."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-openai-not-for-you")
    with OpenAIChatServer(chatbot(manifest)) as srv:
        code, out = _invoke(["short-term", str(EXAMPLE), "--transcript", str(conv_file), "--base-url", srv.base_url,
                             "--model", "m", "--offline", "--checkpoints", "1"])  # fmt: skip
        auth = set(srv.counters.authorization)
    assert code == 0, out
    assert auth and not any("sk-openai-not-for-you" in (a or "") for a in auth), auth


@pytest.mark.regression
def test_a_grader_failure_is_not_blamed_on_the_model_under_test(
    manifest: FactManifest, conv_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The model under test answers; the LLM grader's server refuses every request: the error line names the
    grader, not the model under test (issue 42 item 8)."""
    with (
        OpenAIChatServer(chatbot(manifest)) as subject,
        OpenAIChatServer(faults=[Fault.http_status(401)] * 200) as grader,
    ):
        monkeypatch.setenv("USE_LOCAL_MODEL", "YES")
        monkeypatch.setenv("LOCAL_MODEL_BASE_URL", grader.base_url)
        monkeypatch.setenv("LOCAL_MODEL_NAME", "grader-llm")
        code, out = _invoke(["short-term", str(EXAMPLE), "--transcript", str(conv_file), "--base-url",
                             subject.base_url, "--model", "m", "--checkpoints", "1", "-q"])  # fmt: skip
        assert grader.counters.faults_served >= 1
    assert code == 1, out
    assert "the grader failed (not the model under test)" in out
    assert "error: the model under test" not in out


@pytest.mark.parametrize(
    ("base_url", "gets_key"),
    [
        ("https://api.openai.com/v1", True),
        ("https://api.openai.com:443/v1", True),
        ("http://api.openai.com/v1", False),  # clear text
        ("https://api.openai.com:8080/v1", False),  # another port, another listener
        ("http://api.openai.com@127.0.0.1:9/v1", False),
    ],
)
def test_openai_key_goes_to_openais_https_api_only(
    base_url: str, gets_key: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """$OPENAI_API_KEY without --api-key-env: only https://api.openai.com on its default port (outside attack 5, L7:
    http:// and :8080 on the same host got it)."""
    import deepeval.memory.subjects as subjects
    from deepeval.cli.memory_run_cmds import _endpoint

    seen: list[str | None] = []
    monkeypatch.setattr(subjects, "EndpointChatModel", lambda *a, api_key=None, **kw: seen.append(api_key))
    monkeypatch.setenv("OPENAI_API_KEY", "sk-openai-only")
    _endpoint(base_url, "m", None, 0.0, 5.0)
    assert seen == (["sk-openai-only"] if gets_key else [None])


@pytest.mark.parametrize(("sig", "code"), [("SIGINT", 130), ("SIGTERM", 143)])
def test_a_stopped_memory_run_says_no_report_was_written(
    conv_file: Path, tmp_path: Path, sig: str, code: int
) -> None:
    """Ctrl-C / SIGTERM during `memory short-term` ended it silently with no --json written (outside attack 5,
    M7): the stop is now said. A real subprocess and signal against a slow loopback model."""
    import os
    import signal
    import subprocess
    import sys
    import textwrap

    script = tmp_path / "run.py"
    script.write_text(
        textwrap.dedent(f"""
        import sys
        from deepeval.cli.main import app
        from deepeval.testing.servers import OpenAIChatServer
        with OpenAIChatServer(lambda r: "I do not know.", latency=1.0) as srv:
            print("ready", flush=True)
            sys.argv = ["deepeval", "memory", "short-term", {str(EXAMPLE)!r}, "--transcript", {str(conv_file)!r},
                        "--base-url", srv.base_url, "--model", "m", "--offline", "-q",
                        "--json", {str(tmp_path / "out.json")!r}]
            app()
    """),
        encoding="utf-8",
    )
    env = {**os.environ, "DEEPEVAL_READER": "off"}
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env, cwd=tmp_path)  # fmt: skip
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    time.sleep(1.5)  # inside the first probes (each reply takes 1 s)
    proc.send_signal(getattr(signal, sig))
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode in (code, -getattr(signal, sig)), err
    assert f"deepeval memory: stopped by {sig} before the run finished; no report was written" in err, err
    assert not (tmp_path / "out.json").exists()


def test_long_term_carries_out_at_most_32_tool_calls_a_reply_and_says_so(
    conv_file: Path, tmp_path: Path
) -> None:
    """A model that answers each exchange with 100 appends of 20,000 characters took the run past 2 GB (outside
    attack 5, L19): the first 32 calls of a reply are carried out, the rest dropped with a warning, and the report
    keeps 2,000 characters of each call's arguments."""
    flood = "x" * 20_000

    def respond(body: dict[str, Any]) -> Any:
        if body["messages"][-1]["role"] == "tool":
            return "done"
        calls = [
            {"name": "wiki_append_to_page", "arguments": {"name": f"P{i % 3}", "content": flood}}
            for i in range(100)
        ]
        return {"tool_calls": calls}

    out_json = tmp_path / "lt.json"
    with OpenAIChatServer(respond) as srv:
        code, out = _invoke(["long-term", str(EXAMPLE), "--transcript", str(conv_file), "--base-url", srv.base_url,
                             "--model", "m", "--offline", "--update-every", "20", "--json", str(out_json)])  # fmt: skip
    assert code == 0, out
    calls = json.loads(out_json.read_text(encoding="utf-8"))["tool_calls"]
    assert calls and len(calls) % 32 == 0  # 32 of each reply's 100
    assert all(
        c["arguments"].endswith("characters in all]") and "[... 20,0" in c["arguments"] for c in calls
    ), calls[0]["arguments"][-60:]
    assert all(len(c["arguments"]) < 2100 for c in calls)
    said = " ".join(out.split())
    assert (
        f"warning: {len(calls) // 32 * 68} tool calls were not carried out: a reply may make at most 32"
        in said
    )
