"""llama.cpp run in this process by xllamacpp: one server per model file and configuration, shared by every
:class:`~deepeval.models.llms.gguf_model.GGUFModel` that asks for it, started and stopped here.

What this module guarantees, and why:

* **No open endpoint.** xllamacpp always starts llama.cpp's HTTP listener (its in-process ``handle_*`` calls exist,
  but the listener cannot be switched off). We bind it to a unix socket inside a folder only this user can enter
  (mode 0700, made by :func:`tempfile.mkdtemp`), never to a TCP port, and every request needs a random API key. llama.cpp
  answers ``/health`` without a key by design; through the private socket nobody else can reach it.
* **A close that ends.** xllamacpp's ``Server`` destructor terminates llama.cpp's task loop and joins its thread
  while holding the GIL. If it runs before the loop has started, the loop's start resets the "running" flag and the
  join waits forever (the hang seen when a server was opened and closed quickly: every Python thread stops at 0%
  CPU). :meth:`LlamaServer.start` therefore waits until the loop has answered one request (a ``/metrics`` call goes
  through the task queue). :meth:`LlamaServer.stop` only destroys a server that is idle (no request of ours in
  flight and llama.cpp reporting no request processing or deferred), waiting at most ``wait`` seconds for that;
  a server still busy then is left running, never destroyed, until the process exits, with a warning.
* **Quiet.** llama.cpp's own log (about 120 lines per start on stderr) is off unless ``verbose=True``; its
  threshold is process-wide, so the last server started decides.
* **No leftovers.** A process killed with SIGKILL cannot remove its folder; the folder's name carries the pid of
  the process that made it (``deepeval-gguf-<pid>-<random>``), and the next start in any process removes the
  folders of this user whose process is gone and whose socket nobody answers on (:func:`remove_stale_folders`).
* **Shared.** Judges on the same file with the same settings use one server (one copy of the weights in memory)
  and one concurrency limiter sized to its ``n_parallel`` sequences; the server stops when the last one closes.

The request-speed model (:class:`Speed`) also lives here: llama.cpp reports per-request timings, and a judge's
per-call deadline follows the prompt and output size at the speed measured on this machine.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import os
import re
import secrets
import shutil
import socket
import stat
import sys
import tempfile
import threading
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from deepeval._install import extra_install_command
from deepeval.errors import ConfigurationError
from deepeval.models.http.rate_limit import AdaptiveLimiter

#: llama.cpp's prompt-processing batch: also the largest unit of work its loop cannot interrupt (a cancelled
#: request stops at the next batch), so it bounds how long a close waits behind a long prompt
DEFAULT_N_BATCH = 512
#: MiB of RAM llama.cpp may use to keep the states of earlier prompts for reuse (its default is 8 GiB)
DEFAULT_CACHE_RAM_MIB = 512
#: most seconds :meth:`LlamaServer.stop` waits for requests in flight before leaving a busy server running
DEFAULT_CLOSE_WAIT = 30.0
#: the longest unix-socket path the kernel accepts is 107 bytes
_SOCKET_PATH_MAX = 100
#: llama.cpp's smallest context per sequence, in tokens: it rounds each sequence's share of ``n_ctx`` up to a
#: multiple of 256 (measured, xllamacpp 2026.10 with SmolLM2: n_ctx=10 and 255 ran with 256, 300 with 512, 512 with
#: n_parallel=4 with 256 per sequence), so a smaller value would silently become 256
MIN_N_CTX = 256


def import_xllamacpp() -> Any:
    """The ``xllamacpp`` module.

    Raises:
        ImportError: it is not installed (the message gives the pip command).
    """
    try:
        import xllamacpp
    except ImportError:
        raise ImportError(
            f"GGUFModel needs the optional 'xllamacpp' package: {extra_install_command('gguf')}"
        ) from None
    return xllamacpp


def default_threads(cpus: int | None = None) -> int:
    """llama.cpp threads for a judge on this machine: half the CPUs this process may use, at least 1 and at most 8.

    Generation is bound by memory bandwidth, so a few threads reach most of the speed, and llama.cpp's threads spin
    while they wait: on a loaded 2-core machine 2 threads measured 3-5x slower than 1 (the other processes' work
    and ours kept preempting each other). ``cpus``: the CPU count to use (default: this process's affinity)."""
    if cpus is None:
        try:
            cpus = len(os.sched_getaffinity(0))
        except (AttributeError, OSError):  # not on Linux
            cpus = os.cpu_count() or 1
    return max(1, min(8, cpus // 2))


def check_n_ctx(n_ctx: int, n_parallel: int = 1, *, name: str = "n_ctx") -> None:
    """Refuse a context llama.cpp would not run as asked: each of the ``n_parallel`` sequences gets
    ``n_ctx // n_parallel`` tokens, at least :data:`MIN_N_CTX` (a larger share is rounded up to a multiple of 256,
    which only adds room). ``name`` is how the caller's user gave the value (``n_ctx``, ``GGUF_MODEL_N_CTX``).

    Raises:
        ConfigurationError: a share below :data:`MIN_N_CTX`, naming the smallest value that works.
    """
    share = n_ctx // max(1, n_parallel)
    if share >= MIN_N_CTX:
        return
    shared = f" shared by {n_parallel} parallel sequences ({share} tokens each)" if n_parallel > 1 else ""
    raise ConfigurationError(
        f"{name}={n_ctx}{shared} is below llama.cpp's smallest context of {MIN_N_CTX} tokens per sequence, which "
        f"it would silently use instead; give {name} >= {MIN_N_CTX * max(1, n_parallel)}"
    )


@dataclass(frozen=True)
class ServerConfig:
    """Everything that makes two llama.cpp servers different; judges with equal configs share one server."""

    path: str
    n_ctx: int
    n_threads: int
    n_parallel: int = 1
    n_gpu_layers: int | None = None
    n_batch: int = DEFAULT_N_BATCH
    verbose: bool = False
    #: extra ``xllamacpp.CommonParams`` attributes, as sorted ``(name, value)`` pairs
    params: tuple[tuple[str, Any], ...] = ()


class Speed:
    """Milliseconds per prompt token and per generated token of one server, measured from llama.cpp's own
    ``timings`` of each reply (an exponentially weighted mean that moves a third of the way to each new
    measurement; replies with fewer than 16 prompt or 8 generated tokens do not count: fixed costs dominate them).

    The starting values are per-token times measured here for Qwen2.5-Coder-1.5B Q4_K_M (1.1 GB) on one thread of
    a loaded 2-core machine (43 ms per prompt token, 98 ms per generated token), scaled by the file size (compute
    per token follows the weights' size; files under 0.35 GB count as 0.35 GB, where fixed costs take over), so a
    first call is rather given too long than too short.
    """

    REFERENCE_BYTES = 1_117_320_768
    PROMPT_MS = 43.0
    GENERATED_MS = 98.0

    def __init__(self, model_bytes: int) -> None:
        scale = max(model_bytes, 350_000_000) / self.REFERENCE_BYTES
        self._lock = threading.Lock()
        self.prompt_ms = self.PROMPT_MS * scale
        self.generated_ms = self.GENERATED_MS * scale
        self.samples = 0

    def observe(self, timings: Any) -> None:
        """Fold in one reply's ``timings`` object (``prompt_n``, ``prompt_ms``, ``predicted_n``, ``predicted_ms``);
        anything malformed is ignored."""
        if not isinstance(timings, dict):
            return
        with self._lock:
            for n_key, ms_key, attr, least in (
                ("prompt_n", "prompt_ms", "prompt_ms", 16),
                ("predicted_n", "predicted_ms", "generated_ms", 8),
            ):
                n, ms = timings.get(n_key), timings.get(ms_key)
                if isinstance(n, (int, float)) and isinstance(ms, (int, float)) and n >= least and ms > 0:
                    setattr(self, attr, getattr(self, attr) + (ms / n - getattr(self, attr)) / 3.0)
                    self.samples += 1

    def seconds(self, prompt_tokens: int, output_tokens: int) -> float:
        """Expected seconds for one request at the current speed."""
        with self._lock:
            return (prompt_tokens * self.prompt_ms + output_tokens * self.generated_ms) / 1000.0


class PrefillTally:
    """What llama.cpp reported prefilling for one server: requests, prompt tokens it computed (``prompt_n``), prompt
    tokens it served from the KV cache of the slot or of its RAM prompt cache (``cache_n``), and the milliseconds
    the prefill took (``prompt_ms``); ``last`` is the newest reply's ``timings`` object. The reader's throughput is
    bound by the computed tokens: the bench (``bench/reader_prefill.py``) and the tests read them here."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.requests = 0
        self.prompt_tokens = 0
        self.cached_tokens = 0
        self.prompt_ms = 0.0
        self.last: dict[str, Any] | None = None

    def observe(self, timings: Any) -> None:
        """Add one reply's ``timings`` (anything without integer ``prompt_n`` is ignored)."""
        if not isinstance(timings, dict) or not isinstance(timings.get("prompt_n"), int):
            return
        cached, ms = timings.get("cache_n"), timings.get("prompt_ms")
        with self._lock:
            self.requests += 1
            self.prompt_tokens += timings["prompt_n"]
            self.cached_tokens += cached if isinstance(cached, int) else 0
            self.prompt_ms += float(ms) if isinstance(ms, (int, float)) else 0.0
            self.last = dict(timings)

    def totals(self) -> tuple[int, int, int, float]:
        """``(requests, computed prompt tokens, cached prompt tokens, prefill ms)`` so far."""
        with self._lock:
            return self.requests, self.prompt_tokens, self.cached_tokens, self.prompt_ms


#: what a per-call deadline adds to the expected time: a fixed allowance (grammar set-up, a first request's
#: warm-up) and a factor for a machine that slows down under other load
DEADLINE_FIXED_S = 15.0
DEADLINE_FACTOR = 3.0
DEADLINE_MIN_S = 30.0
DEADLINE_MAX_S = 3600.0


def deadline(speed: Speed, prompt_tokens: int, output_tokens: int) -> float:
    """Seconds one request may take: ``15 + 3 x`` the expected time at ``speed``, within 30 s .. 1 h."""
    expected = speed.seconds(prompt_tokens, output_tokens)
    return min(DEADLINE_MAX_S, max(DEADLINE_MIN_S, DEADLINE_FIXED_S + DEADLINE_FACTOR * expected))


def estimate_tokens(text: str) -> int:
    """Tokens of ``text``, over- rather than under-estimated: one per 3 characters (English prose runs about 4 per
    token; JSON, code and other scripts fewer), plus 32 for the chat template around a message."""
    return len(text) // 3 + 32


_METRIC = re.compile(r"^llamacpp:(requests_processing|requests_deferred)\s+([0-9.eE+-]+)\s*$", re.MULTILINE)


def busy_requests(metrics_text: str) -> int | None:
    """Requests llama.cpp is processing or has deferred, from its ``/metrics`` text; None when the text has
    neither figure."""
    found = {m.group(1): float(m.group(2)) for m in _METRIC.finditer(metrics_text)}
    if not found:
        return None
    return int(sum(found.values()))


class LlamaServer:
    """One running llama.cpp server (see the module docstring). Use :func:`open_server` / :meth:`release`."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.key = secrets.token_urlsafe(24)
        self.limiter = AdaptiveLimiter(config.n_parallel)
        self.speed = Speed(Path(config.path).stat().st_size)
        self.prefill = PrefillTally()
        self.users = 0
        self.folder = _private_folder()
        self.socket_path = str(self.folder / _SOCKET_NAME)
        self._server: Any = None
        self._inflight = 0
        self._cond = threading.Condition()
        self._stopped = False

    # -- life cycle ------------------------------------------------------------------------------------------------
    def start(self) -> None:
        """Load the model and start serving on the private socket; returns once the task loop has answered.

        Raises:
            ConfigurationError: an unknown extra parameter, or llama.cpp could not load the file.
        """
        try:
            xlc = import_xllamacpp()
            cp = self._params(xlc)
        except BaseException:
            shutil.rmtree(self.folder, ignore_errors=True)  # no server will use it
            raise
        name = Path(self.config.path).name
        size_gb = _size_gb(self.config.path)
        # loading takes seconds to a minute and the first judge call waits for it: say so, once per model
        print(
            f"deepeval: loading the GGUF model {name} ({size_gb:.1f} GB) into this process...",
            file=sys.stderr,
        )
        loading = time.perf_counter()
        try:
            self._server = xlc.Server(cp)
        except Exception as exc:
            shutil.rmtree(self.folder, ignore_errors=True)
            hint = (
                "" if self.config.verbose else " (verbose=True or GGUF_MODEL_VERBOSE=1 shows llama.cpp's log)"
            )
            raise ConfigurationError(
                f"llama.cpp could not load {Path(self.config.path).name}: {exc}{hint}"
            ) from None
        # The loop must be running before the server may be destroyed (see the module docstring): one request
        # through the task queue proves it.
        answered = self._busy_requests(timeout=120.0) is not None
        if answered:
            print(f"deepeval: {name} loaded in {time.perf_counter() - loading:.1f} s", file=sys.stderr)
        if not answered:
            warnings.warn(
                f"llama.cpp for {Path(self.config.path).name} did not answer its first request within 120 s; it "
                "will be left running when closed",
                RuntimeWarning,
                stacklevel=3,
            )
            self._leave_running()

    def _params(self, xlc: Any) -> Any:
        c = self.config
        cp = xlc.CommonParams()
        cp.model.path = c.path
        cp.n_ctx = c.n_ctx
        cp.n_parallel = c.n_parallel
        cp.n_batch = c.n_batch
        cp.n_ubatch = min(c.n_batch, cp.n_ubatch)
        cp.cache_ram_mib = DEFAULT_CACHE_RAM_MIB
        cp.hostnames = [self.socket_path]
        cp.port = 0
        cp.api_keys = [self.key]
        cp.endpoint_metrics = True
        if not c.verbose:  # llama.cpp's default (3) logs infos, warnings and errors; -1 logs nothing
            cp.verbosity = -1
        cp.cpuparams.n_threads = c.n_threads
        cp.cpuparams_batch.n_threads = c.n_threads
        if c.n_gpu_layers is not None:
            cp.n_gpu_layers = c.n_gpu_layers
        for name, value in c.params:
            if not hasattr(cp, name):
                raise ConfigurationError(f"xllamacpp.CommonParams has no attribute {name!r}")
            setattr(cp, name, value)
        return cp

    def stop(self, wait: float = DEFAULT_CLOSE_WAIT, *, quiet: bool = False) -> bool:
        """Destroy the server once it is idle, waiting at most ``wait`` seconds for that; True when it was
        destroyed, False when it was still busy and has been left running until the process exits (with a warning
        unless ``quiet``)."""
        with self._cond:
            if self._stopped:
                return True
            self._stopped = True
            end = time.monotonic() + wait
            while self._inflight and (left := end - time.monotonic()) > 0:
                self._cond.wait(left)
            ours = self._inflight
        if self._server is None:
            return True
        while True:
            busy = None if ours else self._busy_requests(timeout=max(0.5, min(5.0, end - time.monotonic())))
            if busy == 0:
                server, self._server = self._server, None
                del server  # terminates llama.cpp's loop and joins its threads (idle: well under a second)
                shutil.rmtree(self.folder, ignore_errors=True)
                return True
            if time.monotonic() >= end:
                break
            time.sleep(0.25)
        if quiet:
            self._leave_running()
            shutil.rmtree(self.folder, ignore_errors=True)  # nothing may connect to a server left to the exit
            return False
        warnings.warn(
            f"llama.cpp for {Path(self.config.path).name} was still busy {wait:g} s after close() "
            f"({ours} request(s) of ours in flight); it is left running until the process exits",
            RuntimeWarning,
            stacklevel=3,
        )
        self._leave_running()
        return False

    def _leave_running(self) -> None:
        """Keep the server object alive for good: its destructor must never run while llama.cpp is busy (it would
        block every thread of the process), and a plain reference could still be dropped at interpreter exit."""
        server, self._server = self._server, None
        if server is not None:
            ctypes.pythonapi.Py_IncRef(ctypes.py_object(server))
        self._stopped = True

    # -- requests --------------------------------------------------------------------------------------------------
    @contextlib.contextmanager
    def request(self) -> Iterator[None]:
        """Count one request of ours in flight while the block runs (``stop`` waits for them).

        Raises:
            ConfigurationError: the server has been stopped.
        """
        with self._cond:
            if self._stopped:
                raise ConfigurationError(
                    f"the GGUF judge for {Path(self.config.path).name} has been closed; make a new GGUFModel"
                )
            self._inflight += 1
        try:
            yield
        finally:
            with self._cond:
                self._inflight -= 1
                self._cond.notify_all()

    def _busy_requests(self, timeout: float) -> int | None:
        """llama.cpp's count of requests processing or deferred, asked through its task queue over the socket;
        None when it did not answer in ``timeout`` seconds."""
        try:
            with httpx.Client(transport=httpx.HTTPTransport(uds=self.socket_path), timeout=timeout) as client:
                reply = client.get(
                    "http://llama.cpp/metrics", headers={"Authorization": f"Bearer {self.key}"}
                )
        except httpx.HTTPError:
            return None
        return busy_requests(reply.text) if reply.status_code == 200 else None

    @property
    def listening_address(self) -> str | None:
        """Where llama.cpp listens (``unix://<socket>``), None once stopped."""
        return None if self._server is None else str(self._server.listening_address)


_FOLDER_PREFIX = "deepeval-gguf-"
_SOCKET_NAME = "llama.sock"
#: ``deepeval-gguf-<pid>-<mkdtemp's random part>``; a name without the pid was made before it was recorded
_FOLDER_NAME = re.compile(rf"{_FOLDER_PREFIX}(?:(\d+)-)?[a-z0-9_]+")


def _private_folder() -> Path:
    """A new folder only this user can enter (mode 0700), short enough for a unix-socket path inside it, named
    with this process's pid; the stale folders of killed processes are removed first."""
    prefix = f"{_FOLDER_PREFIX}{os.getpid()}-"
    remove_stale_folders()
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    if len(str(folder / _SOCKET_NAME)) > _SOCKET_PATH_MAX:  # a long TMPDIR
        folder.rmdir()
        folder = Path(tempfile.mkdtemp(prefix=prefix, dir="/tmp"))
    return folder


def remove_stale_folders(where: list[Path] | None = None) -> list[Path]:
    """Remove the socket folders (:func:`_private_folder`) that a killed process left in ``where`` (default: the
    temporary folder and ``/tmp``, where they are made); returns those removed.

    A folder is removed only when all of these hold: it is a real folder (not a link) of this user; it holds
    nothing but the socket; nobody answers on its socket (absent, or refusing connections); and its name's pid is
    not a running process. A folder named without a pid (made before the pid was recorded) is removed only when
    its socket is there and refuses connections: an empty one may belong to a process still loading its model.
    Never raises (a folder that cannot be read or removed is left).
    """
    folders = where if where is not None else sorted({Path(tempfile.gettempdir()), Path("/tmp")})
    removed: list[Path] = []
    for parent in folders:
        try:
            candidates = sorted(parent.glob(f"{_FOLDER_PREFIX}*"))
        except OSError:
            continue
        for folder in candidates:
            try:
                if _is_stale(folder):
                    (folder / _SOCKET_NAME).unlink(missing_ok=True)
                    folder.rmdir()
                    removed.append(folder)
            except OSError:
                continue
    return removed


def _is_stale(folder: Path) -> bool:
    match = _FOLDER_NAME.fullmatch(folder.name)
    info = folder.lstat()
    if match is None or not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
        return False
    if not set(os.listdir(folder)) <= {_SOCKET_NAME}:
        return False
    sock = folder / _SOCKET_NAME
    has_socket = sock.exists()
    if has_socket and (not stat.S_ISSOCK(sock.lstat().st_mode) or _answers(sock)):
        return False
    if match.group(1) is None:
        return has_socket
    return not _process_runs(int(match.group(1)))


def _answers(path: Path) -> bool:
    """Whether a server may be listening on the unix socket ``path``: False only when a connection is refused or
    the socket is gone (a connection that succeeds is closed at once; any other failure, e.g. a timeout on a full
    backlog, counts as listening)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
        client.settimeout(2.0)
        try:
            client.connect(str(path))
        except (ConnectionRefusedError, FileNotFoundError):
            return False
        except OSError:
            return True
    return True


def _process_runs(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # exists, but is not ours to signal
        return True
    return True


_SERVERS: dict[ServerConfig, LlamaServer] = {}
_LOCK = threading.Lock()


def _size_gb(path: str) -> float:
    try:
        return os.path.getsize(path) / 1e9
    except OSError:
        return 0.0


def open_server(config: ServerConfig) -> LlamaServer:
    """The running server for ``config``, started if there is none; the caller is counted as one more user and
    must call :func:`release` once.

    Raises:
        ImportError: ``xllamacpp`` is not installed.
        ConfigurationError: as :meth:`LlamaServer.start`.
    """
    with _LOCK:
        server = _SERVERS.get(config)
        if server is None:
            server = LlamaServer(config)
            server.start()
            _SERVERS[config] = server
        server.users += 1
        return server


def release(server: LlamaServer, wait: float = DEFAULT_CLOSE_WAIT) -> None:
    """One user fewer; the last one stops the server (:meth:`LlamaServer.stop`, at most ``wait`` seconds). When the
    process is exiting (the judge's finalizer runs at exit) or its run was stopped by a signal, a busy server is not
    waited for: the request it is still computing was cancelled and nobody reads its reply (Ctrl-C took up to 21 s
    while llama.cpp finished a cancelled generation)."""
    with _LOCK:
        server.users -= 1
        if server.users > 0:
            return
        if _SERVERS.get(server.config) is server:
            del _SERVERS[server.config]
    if _exiting():
        server.stop(0.0, quiet=True)
    else:
        server.stop(wait)


_AT_EXIT = False


@atexit.register
def _stop_at_exit() -> None:
    """At exit, every server still open is stopped without waiting: an idle one is destroyed, a busy one (a
    cancelled generation nobody will read) is left to the end of the process. The judges' own finalizers do not run
    at exit (``GGUFModel`` sets ``atexit=False``), so this is the one exit path whatever the hooks' order."""
    global _AT_EXIT
    _AT_EXIT = True
    for server in running_servers():
        server.stop(0.0, quiet=True)


def _exiting() -> bool:
    """The interpreter is exiting, or the last run was stopped by SIGINT/SIGTERM."""
    from deepeval._concurrency import stop_reason

    return _AT_EXIT or stop_reason() is not None


def running_servers() -> list[LlamaServer]:
    """The servers now open in this process."""
    with _LOCK:
        return list(_SERVERS.values())
