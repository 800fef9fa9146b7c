"""Which judge a metric uses when the user does not say (DESIGN: an explicit argument wins, then settings, then the
embedded offline judge). Metrics never call the network by surprise: with nothing configured they get no LLM and
the embedded System One model, and one line on stderr says so."""

from __future__ import annotations

import hashlib
import sys
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from deepeval.config.settings import Settings, get_settings
from deepeval.models.base_model import DeepEvalBaseLLM, DeepEvalBaseSystemOneModel

_announced = threading.Event()
_notice: str | None = None
_shared: dict[tuple[str, ...], Any] = {}
_shared_lock = threading.Lock()
M = TypeVar("M")


def _shared_client(
    kind: str, settings: Settings, keys: tuple[str, ...], name: str | None, make: Callable[[], M]
) -> M:
    """One client per judge configuration, shared by every metric that did not pass its own: metrics on the same
    test case then hold the *same* System One object (so the runner merges their requests), and one adaptive
    rate limiter and connection pool serve the whole process. The key holds a digest of secrets, never a secret."""
    parts = [kind, name or ""]
    for k in keys:
        value = settings.get(k) or ""
        parts.append(hashlib.sha256(value.encode()).hexdigest()[:16] if "KEY" in k else value)
    key = tuple(parts)
    with _shared_lock:
        client = _shared.get(key)
        if client is None:
            client = make()
            _shared[key] = client
        return client  # type: ignore[no-any-return]


def resolve_llm(
    model: str | DeepEvalBaseLLM | None, settings: Settings | None = None
) -> DeepEvalBaseLLM | None:
    """The LLM judge: ``model`` if it is a client; a string is an OpenAI model name; ``None`` picks a configured
    local model (``USE_LOCAL_MODEL``), else a GGUF file (``GGUF_MODEL_PATH``), else OpenAI when ``OPENAI_API_KEY`` is
    set, else no LLM (returns None); :func:`~deepeval.config.eval_mode.configured_llm` is the rule."""
    if isinstance(model, DeepEvalBaseLLM):
        return model
    s = settings or get_settings()
    if model is not None and not isinstance(model, str):
        raise TypeError(f"model must be a model name or a DeepEvalBaseLLM, not {type(model).__name__}")
    openai_keys = (
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
        "OPENAI_MODEL_NAME",
        "OPENAI_COST_PER_INPUT_TOKEN",
        "OPENAI_COST_PER_OUTPUT_TOKEN",
        "DEEPEVAL_JUDGE_TIMEOUT",
        "DEEPEVAL_JUDGE_MAX_RETRIES",
    )
    if isinstance(model, str):
        from deepeval.models.llms.openai_model import OpenAIModel

        name = model
        return _shared_client("openai", s, openai_keys, name, lambda: OpenAIModel(model=name))
    from deepeval.config.eval_mode import configured_llm

    kind = configured_llm(s)
    if kind == "local":
        from deepeval.models.llms.local_model import LocalModel

        local_keys = (
            "LOCAL_MODEL_NAME",
            "LOCAL_MODEL_BASE_URL",
            "LOCAL_MODEL_API_KEY",
            "LOCAL_MODEL_FORMAT",
            "DEEPEVAL_JUDGE_TIMEOUT",
            "DEEPEVAL_JUDGE_MAX_RETRIES",
        )
        return _shared_client("local", s, local_keys, None, LocalModel)
    if kind == "gguf":
        gguf_keys = ("GGUF_MODEL_PATH", "GGUF_MODEL_N_CTX", "GGUF_MODEL_MAX_TOKENS", "DEEPEVAL_JUDGE_TIMEOUT")
        return _shared_client("gguf", s, gguf_keys, None, lambda: gguf_from_settings(s))
    if kind == "openai":
        from deepeval.models.llms.openai_model import OpenAIModel

        return _shared_client("openai", s, openai_keys, None, OpenAIModel)
    return None


def gguf_from_settings(s: Settings) -> DeepEvalBaseLLM:
    """The ``GGUF_MODEL_PATH`` judge (loaded once per process through the shared-client cache).

    Raises:
        ConfigurationError: a GGUF_MODEL_* value is not a positive integer, or the file cannot be served.
        FileNotFoundError / ImportError: as :class:`~deepeval.models.llms.gguf_model.GGUFModel`.
    """
    from deepeval.errors import ConfigurationError
    from deepeval.models.llms.gguf_model import DEFAULT_MAX_TOKENS, GGUFModel

    def positive(key: str, default: int) -> int:
        raw = s.get(key)
        if raw is None:
            return default
        try:
            value = int(raw)
        except ValueError:
            value = 0
        if value < 1:
            raise ConfigurationError(f"{key} must be a positive integer, got {raw!r}")
        return value

    path = str(s.get("GGUF_MODEL_PATH"))
    return GGUFModel(
        path,
        n_ctx=positive("GGUF_MODEL_N_CTX", 4096),
        max_tokens=positive("GGUF_MODEL_MAX_TOKENS", DEFAULT_MAX_TOKENS),
    )


def resolve_system_one(
    model: str | DeepEvalBaseSystemOneModel | None, settings: Settings | None = None
) -> DeepEvalBaseSystemOneModel:
    """The System One judge: a client as given; a string is a TypeSafe model name (``"embedded"`` or
    ``"deepeval-local"`` selects the embedded judge); ``None`` picks TypeSafe when ``TYPESAFE_API_KEY`` is set, else
    the embedded judge."""
    if isinstance(model, DeepEvalBaseSystemOneModel):
        return model
    if model is not None and not isinstance(model, str):
        raise TypeError(
            f"system_one_model must be a model name or a DeepEvalBaseSystemOneModel, not {type(model).__name__}"
        )
    s = settings or get_settings()
    if isinstance(model, str) and model.lower() in {
        "embedded",
        "local",
        "deepeval-local",
        "deepeval-local-1",
    }:
        return embedded_judge()
    if isinstance(model, str) or s.get("TYPESAFE_API_KEY"):
        from deepeval.models.system_one.typesafe import TypeSafeModel

        keys = (
            "TYPESAFE_API_KEY",
            "TYPESAFE_BASE_URL",
            "TYPESAFE_MODEL_NAME",
            "TYPESAFE_COST_PER_INPUT_TOKEN",
            "DEEPEVAL_JUDGE_TIMEOUT",
            "DEEPEVAL_JUDGE_MAX_RETRIES",
        )
        name = model
        return _shared_client("typesafe", s, keys, name, lambda: TypeSafeModel(model=name))
    return embedded_judge()


def clear_shared_clients() -> None:
    """Forget the shared clients (tests that change settings between runs)."""
    with _shared_lock:
        _shared.clear()


def embedded_judge() -> DeepEvalBaseSystemOneModel:
    """The process-wide embedded judge (loaded once); announces itself once on stderr."""
    from deepeval.models.embedded import get_embedded_judge

    global _notice
    judge = get_embedded_judge()
    if not _announced.is_set():
        _announced.set()
        _notice = _notice_text(judge.get_model_name())
        print(_notice, file=sys.stderr)
    return judge


def _notice_text(name: str) -> str:
    """The announcement, true to the configuration: with an LLM judge configured, only System One is missing."""
    try:
        from deepeval.config.eval_mode import llm_configured

        has_llm = llm_configured(get_settings())
    except Exception:  # unreadable settings: the resolution itself reports them; the notice stays generic
        has_llm = False
    if has_llm:
        return (
            f"deepeval: no System One judge configured; using the embedded offline judge {name} for System One "
            "decisions (low fidelity; set TYPESAFE_API_KEY or pass system_one_model= for a stronger one)"
        )
    return (
        f"deepeval: no judge configured; using the embedded offline judge {name} "
        "(low fidelity; set OPENAI_API_KEY or TYPESAFE_API_KEY, or pass model=, for a stronger judge)"
    )


def embedded_notice() -> str | None:
    """The stderr line :func:`embedded_judge` printed in this process, or None (for reporters that capture
    stderr, such as the pytest plugin, to repeat it where the user sees it)."""
    return _notice


def describe(obj: Any) -> str | None:
    """Judge name for results, or None."""
    if obj is None:
        return None
    try:
        return str(obj.get_model_name())
    except Exception:
        return type(obj).__name__
