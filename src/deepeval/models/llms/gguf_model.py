"""A user-supplied GGUF model run in-process as a judge (``GGUFModel``; extra ``gguf``: ``xllamacpp``).

xllamacpp embeds llama.cpp's C++ server. We start it bound to 127.0.0.1 on a free port with a random API key
(no other process can use it) and talk to it with the same OpenAI-compatible client as :class:`LocalModel`, so the
structured-output ladder (llama.cpp constrains decoding to the JSON schema: ``format="json_schema"`` by default),
logprobs, retries and usage work unchanged. Every call carries a token cap (``max_tokens``, default
:data:`DEFAULT_MAX_TOKENS`; also the server's own ``n_predict``), so a small model that never closes its JSON stops
there instead of generating until the context is full. Costs are 0 (the hardware is yours).
"""

from __future__ import annotations

import os
import secrets
import threading
from typing import Any

from deepeval._files import user_path
from deepeval.errors import ConfigurationError
from deepeval.models.http.retry import RetryPolicy
from deepeval.models.llms.local_model import LocalModel

#: tokens a GGUF judge generates per call at most, unless ``max_tokens=`` says otherwise: enough for the longest
#: structured replies of our metrics (statement lists, verdict lists with reasons), far below a full context
DEFAULT_MAX_TOKENS = 512


def _import_xllamacpp() -> Any:
    try:
        import xllamacpp
    except ImportError:
        raise ImportError(
            "GGUFModel needs the optional 'xllamacpp' package: pip install 'deepeval-oss[gguf]'"
        ) from None
    return xllamacpp


def gguf_model_name(path: str | os.PathLike[str], model: str | None = None) -> str:
    """The name a :class:`GGUFModel` for ``path`` reports: ``model``, else ``gguf:<file stem>`` (named without
    loading the file)."""
    return model or f"gguf:{user_path(path).stem}"


class GGUFModel(LocalModel):
    """Run the GGUF file at ``path`` in this process and use it as an LLM judge.

    Args:
        path: a ``.gguf`` file.
        model: name shown in results; default ``gguf:<file stem>``.
        n_ctx: context window in tokens (default 4096).
        n_threads: CPU threads (default: llama.cpp's choice).
        n_gpu_layers: layers offloaded to a GPU when the wheel has GPU support (default: llama.cpp's choice).
        n_parallel: concurrent sequences the server decodes (default 1); the client's concurrency cap follows.
        max_tokens: most tokens generated per call (default :data:`DEFAULT_MAX_TOKENS`; None: no cap, the server
            generates until the reply ends or the context is full). ``generation_kwargs={"max_tokens": n}`` wins.
        temperature, format, generation_kwargs, timeout, max_retries, retry_policy: as :class:`LocalModel`.
        **params: extra ``xllamacpp.CommonParams`` attributes set before start (e.g. ``n_batch=256``).

    Raises:
        FileNotFoundError: ``path`` does not exist.
        ImportError: ``xllamacpp`` is not installed.
        ConfigurationError: an unknown ``params`` attribute, or the server did not start.

    Call :meth:`close` (or use ``with GGUFModel(...) as judge``) to free the weights early; they are freed when
    the object is collected otherwise.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        model: str | None = None,
        *,
        n_ctx: int = 4096,
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
        **params: Any,
    ) -> None:
        file = user_path(path)
        if not file.is_file():
            raise FileNotFoundError(f"GGUF model file not found: {file}")
        if n_ctx < 1 or n_parallel < 1:
            raise ValueError("n_ctx and n_parallel must be >= 1")
        if max_tokens is not None and (isinstance(max_tokens, bool) or int(max_tokens) < 1):
            raise ValueError(f"max_tokens must be >= 1 or None, got {max_tokens!r}")
        xlc = _import_xllamacpp()
        self.path = file
        self._server_lock = threading.Lock()
        key = secrets.token_urlsafe(24)
        cp = xlc.CommonParams()
        cp.model.path = str(file)
        cp.n_ctx = n_ctx
        cp.n_parallel = n_parallel
        cp.port = 0  # a free port
        cp.hostnames = ["127.0.0.1"]
        cp.api_keys = [key]
        if n_threads is not None:
            cp.cpuparams.n_threads = n_threads
            cp.cpuparams_batch.n_threads = n_threads
        if n_gpu_layers is not None:
            cp.n_gpu_layers = n_gpu_layers
        if max_tokens is not None:
            cp.n_predict = int(max_tokens)  # the server's own cap, behind the per-request one
        for name, value in params.items():
            if not hasattr(cp, name):
                raise ConfigurationError(f"xllamacpp.CommonParams has no attribute {name!r}")
            setattr(cp, name, value)
        try:
            self._server: Any = xlc.Server(cp)
            address = str(self._server.listening_address)
        except Exception as exc:
            raise ConfigurationError(f"could not start llama.cpp for {file.name}: {exc}") from None
        if not address.startswith("http"):
            address = f"http://{address}"
        super().__init__(
            model=gguf_model_name(file, model),
            api_key=key,
            base_url=f"{address.rstrip('/')}/v1",
            temperature=temperature,
            format=format,
            generation_kwargs=generation_kwargs,
            cost_per_input_token=0.0,
            cost_per_output_token=0.0,
            timeout=timeout,
            max_retries=max_retries,
            max_concurrency=n_parallel,
            retry_policy=retry_policy,
        )
        self.max_tokens = None if max_tokens is None else int(max_tokens)

    def close(self) -> None:
        """Stop the embedded server and free the weights (idempotent)."""
        with self._server_lock:
            server, self._server = self._server, None
        del server

    def __enter__(self) -> GGUFModel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"GGUFModel(model={self.name!r}, path={str(self.path)!r})"
