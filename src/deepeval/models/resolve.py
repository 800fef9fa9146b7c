"""Which judge a metric uses when the user does not say (DESIGN: an explicit argument wins, then settings, then the
embedded offline judge). Metrics never call the network by surprise: with nothing configured they get no LLM and
the embedded System One model, and one line on stderr says so."""

from __future__ import annotations

import hashlib
import sys
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from deepeval.config.eval_mode import EvalMode, configured_llm
from deepeval.config.settings import Settings, get_settings
from deepeval.models.base_model import DeepEvalBaseLLM, DeepEvalBaseSystemOneModel
from deepeval.models.extraction import Extractor

#: ``system_one_model`` strings that select the embedded judge
EMBEDDED_NAMES = frozenset({"embedded", "local", "deepeval-local", "deepeval-local-1"})

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
        return client


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
        gguf_keys = (
            "GGUF_MODEL_PATH",
            "GGUF_MODEL_N_CTX",
            "GGUF_MODEL_MAX_TOKENS",
            "GGUF_MODEL_N_THREADS",
            "GGUF_MODEL_VERBOSE",
            "DEEPEVAL_JUDGE_TIMEOUT",
            "DEEPEVAL_JUDGE_MAX_RETRIES",
        )
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
    from deepeval.models.llms.gguf_model import DEFAULT_MAX_TOKENS, DEFAULT_N_CTX, GGUFModel

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
    threads = positive("GGUF_MODEL_N_THREADS", 0) if s.get("GGUF_MODEL_N_THREADS") is not None else None
    return GGUFModel(
        path,
        n_ctx=positive("GGUF_MODEL_N_CTX", DEFAULT_N_CTX),
        max_tokens=positive("GGUF_MODEL_MAX_TOKENS", DEFAULT_MAX_TOKENS),
        n_threads=threads,
        verbose=s.get_bool("GGUF_MODEL_VERBOSE"),
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
    if isinstance(model, str) and model.lower() in EMBEDDED_NAMES:
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


def is_embedded(obj: Any) -> bool:
    """Whether ``obj`` is the embedded offline judge (so results name it, not "System One", as the decider)."""
    return obj is not None and type(obj).__module__.startswith("deepeval.models.embedded")


def describe(obj: Any) -> str | None:
    """Judge name for results, or None."""
    if obj is None:
        return None
    try:
        return str(obj.get_model_name())
    except Exception:
        return type(obj).__name__


def key_names(
    mode: EvalMode,
    *,
    model: str | DeepEvalBaseLLM | None,
    system_one_model: str | DeepEvalBaseSystemOneModel | None,
    extractor: Extractor | None,
    settings: Settings | None = None,
) -> dict[str, str | None] | None:
    """Judge names for the cache key WITHOUT resolving the judges: no client is built, no embedded model is loaded,
    nothing touches the network; judges the settings would pick are named from the settings alone (``openai:<name>``,
    ``local:<name>``, ``typesafe:<name>``, ``embedded``; ``default`` when no name is set). Same keys as
    :meth:`Judges.names`, None for a judge the mode does not use. Returns None when ``mode`` is ``llm`` and no LLM is
    available (the measure will raise ``ConfigurationError``).
    """
    s = settings or get_settings()
    llm: str | None
    if isinstance(model, DeepEvalBaseLLM):
        llm = describe(model)
    elif isinstance(model, str):
        llm = f"openai:{model}"
    else:
        kind = configured_llm(s)
        if kind == "local":
            llm = f"local:{s.get('LOCAL_MODEL_NAME') or 'default'}"
        elif kind == "gguf":
            llm = f"gguf:{s.get('GGUF_MODEL_PATH')}|max_tokens={s.get('GGUF_MODEL_MAX_TOKENS') or 'default'}"
        elif kind == "openai":
            llm = f"openai:{s.get('OPENAI_MODEL_NAME') or 'default'}"
        else:
            llm = None
    s1: str | None
    if isinstance(system_one_model, DeepEvalBaseSystemOneModel):
        s1 = describe(system_one_model)
    elif isinstance(system_one_model, str):
        s1 = "embedded" if system_one_model.lower() in EMBEDDED_NAMES else f"typesafe:{system_one_model}"
    elif s.get("TYPESAFE_API_KEY"):
        s1 = f"typesafe:{s.get('TYPESAFE_MODEL_NAME') or 'default'}"
    else:
        s1 = "embedded"
    ext = describe(extractor)
    if mode is EvalMode.SYSTEM_ONE:
        return {"llm": None, "system_one": s1, "extractor": None}
    if mode is EvalMode.LLM:
        return None if llm is None else {"llm": llm, "system_one": None, "extractor": ext}
    if ext is None and llm is None:
        ext = "deterministic"
    return {"llm": llm, "system_one": s1, "extractor": ext}


def evaluation_model_name(
    mode: EvalMode, *, llm: str | None, extractor: str | None, system_one: str | None
) -> str | None:
    """The ``evaluation_model`` string of a metric, from its judges' names (``get_model_name()``): the LLM (else,
    outside ``system_one`` mode, the extractor that stood in for it), then the System One model outside ``llm``
    mode, joined by ``" + "``; None when no judge is named. The one rule for the name a metric shows at
    construction (:func:`expected_judge_names`) and the one a measure sets (the judges that took part)."""
    parts: list[str] = []
    if mode is not EvalMode.SYSTEM_ONE and (llm or extractor):
        parts.append(str(llm or extractor))
    if mode is not EvalMode.LLM and system_one:
        parts.append(system_one)
    return " + ".join(parts) or None


def _settings_llm_name(s: Settings) -> str | None:
    """``get_model_name()`` of the LLM judge the settings select (:func:`configured_llm`), without building it."""
    kind = configured_llm(s)
    if kind == "local":
        from deepeval.models.llms.local_model import local_model_name

        return local_model_name(None, s)
    if kind == "gguf":
        from deepeval.models.llms.gguf_model import gguf_model_name

        return gguf_model_name(str(s.get("GGUF_MODEL_PATH")))
    if kind == "openai":
        from deepeval.models.llms.openai_model import openai_model_name

        return openai_model_name(None, s)
    return None


def expected_judge_names(
    mode: EvalMode,
    *,
    model: str | DeepEvalBaseLLM | None,
    system_one_model: str | DeepEvalBaseSystemOneModel | None,
    extractor: Extractor | None,
    settings: Settings | None = None,
) -> dict[str, str | None]:
    """The names (``get_model_name()``) of the judges a measure in ``mode`` will resolve, from the arguments and
    the settings alone: no client is built, no model file or embedded model is loaded, nothing is contacted. Keys
    as :meth:`Judges.names`; None for a judge the mode does not use (or, in ``llm`` mode, when no LLM is
    available). A TypeSafe judge is named as before its first reply (the version it resolves to is only known
    then)."""
    from deepeval.models.embedded.names import EXTRACTOR_NAME, MODEL_NAME
    from deepeval.models.system_one.names import typesafe_model_name

    s = settings or get_settings()
    llm: str | None = None
    ext: str | None = None
    if mode is not EvalMode.SYSTEM_ONE:
        if isinstance(model, DeepEvalBaseLLM):
            llm = describe(model)
        elif isinstance(model, str):
            from deepeval.models.llms.openai_model import openai_model_name

            llm = openai_model_name(model, s)
        else:
            llm = _settings_llm_name(s)
        ext = describe(extractor)
        if ext is None and llm is None and mode is EvalMode.HYBRID:
            ext = EXTRACTOR_NAME
    s1: str | None = None
    if mode is not EvalMode.LLM:
        if isinstance(system_one_model, DeepEvalBaseSystemOneModel):
            s1 = describe(system_one_model)
        elif isinstance(system_one_model, str) and system_one_model.lower() in EMBEDDED_NAMES:
            s1 = MODEL_NAME
        elif isinstance(system_one_model, str) or s.get("TYPESAFE_API_KEY"):
            s1 = typesafe_model_name(system_one_model, s)
        else:
            s1 = MODEL_NAME
    return {"llm": llm, "system_one": s1, "extractor": ext}


def judge_names_of(metric: Any) -> dict[str, Any]:
    """Judge names of any metric for the cache key (ours and users'): the judges it was given (``model=`` /
    ``system_one_model=``, kept by our metrics as ``model_argument`` / ``system_one_model_argument`` and by
    deepeval-style custom metrics as ``model`` / ``system_one_model``) and its eval mode. Nothing is resolved."""
    out: dict[str, Any] = {}
    for attr in ("model", "system_one_model"):
        judge = getattr(metric, f"{attr}_argument", None)
        if judge is None:
            judge = getattr(metric, attr, None)
        if isinstance(judge, str):
            out[attr] = judge
            continue
        getter = getattr(judge, "get_model_name", None)
        if callable(getter):
            try:
                out[attr] = f"{type(judge).__qualname__}:{getter()}"
            except Exception:  # a judge that cannot name itself: keep the class only
                out[attr] = type(judge).__qualname__
    mode = getattr(metric, "eval_mode_argument", None) or getattr(metric, "eval_mode", None)
    if mode is not None:
        out["eval_mode"] = getattr(mode, "value", mode)
    return out
