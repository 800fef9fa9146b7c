"""A GGUF model run in this process as a judge (``GGUFModel``; extra ``gguf``: ``xllamacpp``).

xllamacpp embeds llama.cpp's C++ server. :mod:`deepeval.models.llms.gguf_server` starts it on a unix socket in a
private folder with a random API key (no TCP port, nothing another user can reach), shares it between judges on the
same file, and stops it in bounded time. We talk to it with the same OpenAI-compatible client as
:class:`LocalModel`, over that socket, so the structured-output ladder (llama.cpp constrains decoding to the JSON
schema: ``format="json_schema"`` by default; list lengths the caller checks are constrained too), logprobs,
retries and usage work unchanged.

Every call carries a token cap (``max_tokens``, default :data:`DEFAULT_MAX_TOKENS`), so a small model that never
closes its JSON stops there instead of generating until the context is full, and a deadline sized to that call:
its prompt and output tokens at the speed llama.cpp measured on this machine (:func:`gguf_server.deadline`)
instead of one number for every call. Costs are 0 (the hardware is yours).
"""

from __future__ import annotations

import functools
import os
import threading
import weakref
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, ClassVar

import openai
from pydantic import BaseModel

from deepeval._files import user_path
from deepeval.config.settings import get_settings
from deepeval.errors import ConfigurationError
from deepeval.models.http.reply_limit import capped_event_hooks
from deepeval.models.http.retry import RetryPolicy
from deepeval.models.http.tls import library_of
from deepeval.models.llms import gguf_server
from deepeval.models.llms.gguf_server import (
    DEFAULT_CLOSE_WAIT,
    DEFAULT_N_BATCH,
    LlamaServer,
    ServerConfig,
    check_n_ctx,
    default_threads,
    estimate_tokens,
)
from deepeval.models.llms.local_model import LocalModel

#: tokens a GGUF judge generates per call at most, unless ``max_tokens=`` says otherwise: enough for the longest
#: structured replies of our metrics (statement lists, verdict lists with reasons), far below a full context
DEFAULT_MAX_TOKENS = 512
#: context window in tokens unless ``n_ctx=`` says otherwise
DEFAULT_N_CTX = 4096
#: retries after a failed attempt unless ``max_retries=`` or ``DEEPEVAL_JUDGE_MAX_RETRIES`` says otherwise: a model
#: on this machine that missed a deadline sized to the request will rarely meet it on a second try
DEFAULT_MAX_RETRIES = 1
#: tokens allowed per required list item when the cap is raised for them: Qwen2.5-Coder-1.5B wrote 3 verdicts with
#: reasons, pretty-printed, in 114 tokens (38 each)
TOKENS_PER_ITEM = 48
#: the base URL shown for the in-process server (requests go over its unix socket, whatever the host says)
SOCKET_BASE_URL = "http://llama-cpp.socket/v1"


def gguf_model_name(path: str | os.PathLike[str], model: str | None = None) -> str:
    """The name a :class:`GGUFModel` for ``path`` reports: ``model``, else ``gguf:<file stem>`` (named without
    loading the file)."""
    return model or f"gguf:{user_path(path).stem}"


@functools.lru_cache(maxsize=256)
def required_items(schema: type[BaseModel]) -> int:
    """How many list items ``schema``'s JSON schema requires (the sum of its ``minItems``)."""
    total = 0

    def walk(node: Any) -> None:
        nonlocal total
        if isinstance(node, dict):
            if node.get("type") == "array" and isinstance(node.get("minItems"), int):
                total += node["minItems"]
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema.model_json_schema())
    return total


def check_gguf_file(path: str | os.PathLike[str]) -> None:
    """Refuse a path that is not a readable, whole GGUF file: its first 4 bytes are ``GGUF`` and it is as long as
    its header says (:func:`~deepeval.models.llms.gguf_header.required_size`: a cut download is caught here, not
    at the first measure).

    Raises:
        FileNotFoundError: no file there.
        ConfigurationError: the file cannot be read, is not a GGUF file, or is truncated.
    """
    from deepeval.models.llms.gguf_header import HeaderError, required_size

    file = user_path(path)
    if not file.is_file():
        raise FileNotFoundError(f"GGUF model file not found: {file}")
    try:
        with file.open("rb") as fh:
            magic = fh.read(4)
            fh.seek(0)
            needed = required_size(fh) if magic == b"GGUF" else None
    except OSError as exc:
        raise ConfigurationError(f"cannot read the GGUF model file {file}: {exc}") from None
    except HeaderError as exc:
        raise ConfigurationError(f"{file} is not a usable GGUF model file: {exc}") from None
    if magic != b"GGUF":
        raise ConfigurationError(f"{file} is not a GGUF model file (it does not start with 'GGUF')")
    size = file.stat().st_size
    if needed is not None and size < needed:
        raise ConfigurationError(
            f"{file} is truncated: {size:,} bytes, its header needs at least {needed:,} (an interrupted download "
            "or copy?)"
        )


class GGUFModel(LocalModel):
    """Run the GGUF file at ``path`` in this process and use it as an LLM judge.

    Args:
        path: a ``.gguf`` file.
        model: name shown in results; default ``gguf:<file stem>``.
        n_ctx: context window in tokens (default :data:`DEFAULT_N_CTX`), shared by the ``n_parallel`` sequences;
            each needs at least :data:`~deepeval.models.llms.gguf_server.MIN_N_CTX` (256, llama.cpp's smallest;
            larger shares are rounded up to a multiple of 256).
        n_threads: CPU threads (default :func:`~deepeval.models.llms.gguf_server.default_threads`: half the CPUs
            this process may use, 1 to 8).
        n_gpu_layers: layers offloaded to a GPU when the wheel has GPU support (default: llama.cpp's choice).
        n_parallel: concurrent sequences the server decodes (default 1); the judges sharing the server send at
            most that many requests at once.
        max_tokens: most tokens generated per call (default :data:`DEFAULT_MAX_TOKENS`; raised for a structured
            reply that needs more, see :meth:`_max_tokens_for`; None: no cap, the server generates until the reply
            ends or the context is full). ``generation_kwargs={"max_tokens": n}`` wins.
        timeout: seconds per attempt, the same for every call. Default: ``DEEPEVAL_JUDGE_TIMEOUT`` when set, else a
            deadline per call from its prompt and output size at the speed measured on this machine.
        max_retries: retries after a failed attempt (default ``DEEPEVAL_JUDGE_MAX_RETRIES`` when set, else
            :data:`DEFAULT_MAX_RETRIES`).
        verbose: let llama.cpp write its own log to stderr (default off; process-wide: the last server started
            decides).
        close_wait: most seconds :meth:`close` waits for requests in flight (default 30).
        temperature, format, generation_kwargs, retry_policy: as :class:`LocalModel`.
        **params: extra ``xllamacpp.CommonParams`` attributes set before start (e.g. ``n_batch=256``).

    Judges built with the same file and the same server settings (``n_ctx``, ``n_threads``, ``n_gpu_layers``,
    ``n_parallel``, ``verbose``, ``params``) share one llama.cpp server, and one copy of the weights; the server
    stops when the last of them is closed or collected.

    Raises:
        FileNotFoundError: ``path`` does not exist.
        ImportError: ``xllamacpp`` is not installed.
        ConfigurationError: not a GGUF file, ``n_ctx`` below 256 tokens per sequence, an unknown ``params``
            attribute, or llama.cpp could not load it.

    Call :meth:`close` (or use ``with GGUFModel(...) as judge``) to free the weights early; otherwise they are freed
    when the object is collected, or at exit.
    """

    #: llama.cpp turns ``minItems``/``maxItems`` into its grammar: the structured layer may send exact list lengths
    constrains_item_counts: ClassVar[bool] = True
    #: error messages name llama.cpp's in-process server, not an HTTP status or the socket's stand-in URL
    server_name: ClassVar[str | None] = "the GGUF model server"

    def __init__(
        self,
        path: str | os.PathLike[str],
        model: str | None = None,
        *,
        n_ctx: int = DEFAULT_N_CTX,
        n_threads: int | None = None,
        n_gpu_layers: int | None = None,
        n_parallel: int = 1,
        max_tokens: int | None = DEFAULT_MAX_TOKENS,
        temperature: float | None = 0.0,
        format: str | None = "json_schema",
        generation_kwargs: dict[str, Any] | None = None,
        timeout: float | None = None,
        max_retries: int | None = None,
        retry_policy: RetryPolicy | None = None,
        verbose: bool = False,
        close_wait: float = DEFAULT_CLOSE_WAIT,
        **params: Any,
    ) -> None:
        file = user_path(path)
        check_gguf_file(file)
        if n_parallel < 1 or (n_threads is not None and n_threads < 1):
            raise ValueError("n_parallel and n_threads must be >= 1")
        check_n_ctx(int(n_ctx), int(n_parallel))
        if max_tokens is not None and (isinstance(max_tokens, bool) or int(max_tokens) < 1):
            raise ValueError(f"max_tokens must be >= 1 or None, got {max_tokens!r}")
        settings = get_settings()
        fixed = timeout if timeout is not None else settings.get_float("DEEPEVAL_JUDGE_TIMEOUT")
        if max_retries is None and settings.get("DEEPEVAL_JUDGE_MAX_RETRIES") is None:
            max_retries = DEFAULT_MAX_RETRIES
        params.setdefault("n_batch", DEFAULT_N_BATCH)
        n_batch = int(params.pop("n_batch"))
        config = ServerConfig(
            path=str(file.resolve()),
            n_ctx=int(n_ctx),
            n_threads=int(n_threads) if n_threads is not None else default_threads(),
            n_parallel=int(n_parallel),
            n_gpu_layers=n_gpu_layers,
            n_batch=n_batch,
            verbose=bool(verbose),
            params=tuple(sorted(params.items())),
        )
        try:
            hash(config)
        except TypeError:
            raise ConfigurationError(
                "GGUFModel's extra llama.cpp parameters must be plain values (numbers, strings, tuples)"
            ) from None
        self.path = file
        self.n_ctx = config.n_ctx
        self.n_threads = config.n_threads
        self.n_parallel = config.n_parallel
        self._server: LlamaServer = gguf_server.open_server(config)
        self._closed = threading.Event()
        self._release = weakref.finalize(self, gguf_server.release, self._server, close_wait)
        self._release.atexit = False  # gguf_server stops what is left at exit, without waiting
        try:
            super().__init__(
                model=gguf_model_name(file, model),
                api_key=self._server.key,
                base_url=SOCKET_BASE_URL,
                temperature=temperature,
                format=format,
                generation_kwargs=generation_kwargs,
                cost_per_input_token=0.0,
                cost_per_output_token=0.0,
                timeout=fixed,
                max_retries=max_retries,
                max_concurrency=n_parallel,
                retry_policy=retry_policy,
            )
        except BaseException:
            self.close()
            raise
        self.limiter = self._server.limiter  # one limit for every judge on this server
        self._adaptive = fixed is None and retry_policy is None
        if timeout is not None and retry_policy is None:
            self.retry_policy = replace(self.retry_policy, timeout_note="the timeout= of GGUFModel")
        self.max_tokens = None if max_tokens is None else int(max_tokens)

    # -- the socket ----------------------------------------------------------------------------------------------
    @property
    def socket_path(self) -> str:
        """The unix socket llama.cpp listens on (inside a folder only this user can enter)."""
        return self._server.socket_path

    def _async_sdk_client(self, kwargs: dict[str, Any]) -> openai.AsyncOpenAI:
        library = library_of(openai.DefaultAsyncHttpxClient)
        if library is None:  # pragma: no cover - every SDK version we support builds on httpx or httpx2
            raise ConfigurationError(
                "the openai SDK's HTTP client is not httpx-based; GGUFModel cannot reach llama.cpp"
            )
        client = openai.DefaultAsyncHttpxClient(
            transport=library.AsyncHTTPTransport(uds=self.socket_path), event_hooks=capped_event_hooks()
        )
        return openai.AsyncOpenAI(**{**kwargs, "http_client": client})

    def load_model(self, *args: Any, **kwargs: Any) -> openai.OpenAI:
        """A synchronous ``openai.OpenAI`` client connected to the in-process server's socket."""
        library = library_of(openai.DefaultHttpxClient)
        assert library is not None
        client = openai.DefaultHttpxClient(transport=library.HTTPTransport(uds=self.socket_path))
        return openai.OpenAI(**{**self._sdk_kwargs(self._server.key), "http_client": client})

    # -- per-call token cap, deadline and speed ---------------------------------------------------------------------
    def _max_tokens_for(self, schema: type[BaseModel] | None, prompt: str) -> int | None:
        """:attr:`max_tokens`, raised for a structured reply that may need more: to :data:`TOKENS_PER_ITEM` tokens
        per list item the schema requires (``minItems``, as the structured layer sends for one verdict per
        statement: llama.cpp's grammar will not let the reply end before them, so a lower cap guarantees a cut
        reply), and to the prompt's size (a statement list of a long text is as long as the text; a reply longer
        than its whole prompt is a model that does not stop, which the cap is for)."""
        if self.max_tokens is None or schema is None:
            return self.max_tokens
        items = required_items(schema)
        return max(self.max_tokens, 64 + TOKENS_PER_ITEM * items if items else 0, len(prompt) // 3)

    def _call_policy(self, body: Mapping[str, Any]) -> RetryPolicy:
        if not self._adaptive:
            return self.retry_policy
        prompt = sum(estimate_tokens(str(m.get("content", ""))) for m in body.get("messages", []))
        rf = body.get("response_format")
        if isinstance(rf, dict) and rf.get("type") == "json_schema":
            prompt += estimate_tokens(str(rf))  # llama.cpp builds a grammar from it; its size costs time too
        cap = body.get("max_tokens") or body.get("n_predict")
        output = int(cap) if isinstance(cap, (int, float)) and cap > 0 else max(1, self.n_ctx - prompt)
        seconds = round(gguf_server.deadline(self._server.speed, prompt, output))
        return replace(
            self.retry_policy,
            timeout=float(seconds),
            timeout_note=(
                f"the deadline for about {prompt} prompt and up to {output} output tokens at this machine's measured "
                "speed; pass timeout= or set DEEPEVAL_JUDGE_TIMEOUT for a fixed one"
            ),
        )

    def _on_reply(self, data: Mapping[str, Any]) -> None:
        self._server.speed.observe(data.get("timings"))
        self._server.prefill.observe(data.get("timings"))

    @property
    def prefill(self) -> gguf_server.PrefillTally:
        """What llama.cpp reported prefilling for the server this judge shares (computed and cached prompt
        tokens, see :class:`~deepeval.models.llms.gguf_server.PrefillTally`)."""
        return self._server.prefill

    async def _attempt(self, body: dict[str, Any], policy: RetryPolicy, *, tools: bool = False) -> Any:
        if self._closed.is_set():
            raise ConfigurationError(f"{self.get_model_name()} has been closed; make a new GGUFModel")
        with self._server.request():
            return await super()._attempt(body, policy, tools=tools)

    # -- life cycle ----------------------------------------------------------------------------------------------
    def close(self) -> None:
        """Stop using the server: the last judge on it stops it (after at most ``close_wait`` seconds of requests in
        flight; a server still busy then is left running until exit, with a warning). Idempotent; a call after it
        raises ``ConfigurationError``."""
        self._closed.set()
        self._release()

    def __enter__(self) -> GGUFModel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"GGUFModel(model={self.name!r}, path={str(self.path)!r})"
