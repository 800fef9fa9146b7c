"""Building the judges a plan chooses (:mod:`deepeval.models.plan` decides which: an explicit argument wins, then
settings, then the embedded offline judge). :func:`build_llm` and :func:`build_system_one` are the only steps that
construct judge clients (shared per configuration). Metrics never call the network by surprise: with nothing
configured they get no LLM and the embedded System One model, and one line on stderr says so."""

from __future__ import annotations

import hashlib
import sys
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from deepeval.config.eval_mode import EvalMode
from deepeval.config.settings import Settings, get_settings
from deepeval.models.base_model import DeepEvalBaseLLM, DeepEvalBaseSystemOneModel, judge_endpoint
from deepeval.models.extraction import Extractor
from deepeval.models.plan import JudgeChoice, plan_judges, plan_llm, plan_system_one

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
    """The LLM judge the plan chooses (:func:`~deepeval.models.plan.plan_llm`): ``model`` if it is a client; a
    string is an OpenAI model name; ``None`` picks a configured local model (``USE_LOCAL_MODEL``), else a GGUF file
    (``GGUF_MODEL_PATH``), else OpenAI when ``OPENAI_API_KEY`` is set, else no LLM (returns None).

    Raises:
        TypeError: ``model`` is neither a name nor a ``DeepEvalBaseLLM``.
    """
    s = settings or get_settings()
    choice = plan_llm(model, s)
    return None if choice is None else build_llm(choice, s)


def build_llm(choice: JudgeChoice, settings: Settings) -> DeepEvalBaseLLM:
    """Build (or take from the shared-client cache) the LLM judge of ``choice``.

    Raises:
        TypeError: an ``invalid`` choice (an argument of the wrong type).
        ConfigurationError: as the client's constructor (e.g. a bad GGUF_MODEL_* value).
    """
    s = settings
    if choice.source == "object":
        llm: DeepEvalBaseLLM = choice.given
        return llm
    if choice.source == "invalid":
        raise TypeError(choice.problem)
    keys = choice.settings_keys
    if choice.client == "openai":
        from deepeval.models.llms.openai_model import OpenAIModel

        name = choice.argument
        return _shared_client("openai", s, keys, name, lambda: OpenAIModel(model=name))
    if choice.client == "local":
        from deepeval.models.llms.local_model import LocalModel

        return _shared_client("local", s, keys, None, LocalModel)
    if choice.client == "gguf":
        return _shared_client("gguf", s, keys, None, lambda: gguf_from_settings(s))
    raise ValueError(f"not an LLM judge choice: {choice.source}")


def gguf_from_settings(s: Settings) -> DeepEvalBaseLLM:
    """The ``GGUF_MODEL_PATH`` judge (loaded once per process through the shared-client cache).

    Raises:
        ConfigurationError: a GGUF_MODEL_* value is not a positive integer, GGUF_MODEL_N_CTX is below llama.cpp's
            smallest context (256), or the file cannot be served.
        FileNotFoundError / ImportError: as :class:`~deepeval.models.llms.gguf_model.GGUFModel`.
    """
    from deepeval.models.llms.gguf_model import DEFAULT_MAX_TOKENS, DEFAULT_N_CTX, GGUFModel
    from deepeval.models.llms.gguf_server import check_n_ctx

    path = str(s.get("GGUF_MODEL_PATH"))
    threads = (
        s.get_positive_int("GGUF_MODEL_N_THREADS", 0) if s.get("GGUF_MODEL_N_THREADS") is not None else None
    )
    n_ctx = s.get_positive_int("GGUF_MODEL_N_CTX", DEFAULT_N_CTX)
    check_n_ctx(n_ctx, name="GGUF_MODEL_N_CTX")
    return GGUFModel(
        path,
        n_ctx=n_ctx,
        max_tokens=s.get_positive_int("GGUF_MODEL_MAX_TOKENS", DEFAULT_MAX_TOKENS),
        n_threads=threads,
        verbose=s.get_bool("GGUF_MODEL_VERBOSE"),
    )


def resolve_system_one(
    model: str | DeepEvalBaseSystemOneModel | None, settings: Settings | None = None
) -> DeepEvalBaseSystemOneModel:
    """The System One judge the plan chooses (:func:`~deepeval.models.plan.plan_system_one`): a client as given; a
    string is a TypeSafe model name (``"embedded"`` or ``"deepeval-local"`` selects the embedded judge); ``None``
    picks TypeSafe when ``TYPESAFE_API_KEY`` is set, else the embedded judge.

    Raises:
        TypeError: ``model`` is neither a name nor a ``DeepEvalBaseSystemOneModel``.
    """
    s = settings or get_settings()
    return build_system_one(plan_system_one(model, s), s)


def build_system_one(choice: JudgeChoice, settings: Settings) -> DeepEvalBaseSystemOneModel:
    """Build (or take from the shared-client cache) the System One judge of ``choice``.

    Raises:
        TypeError: an ``invalid`` choice (an argument of the wrong type).
    """
    if choice.source == "object":
        s1: DeepEvalBaseSystemOneModel = choice.given
        return s1
    if choice.source == "invalid":
        raise TypeError(choice.problem)
    if choice.source == "embedded":
        return embedded_judge()
    if choice.client == "typesafe":
        from deepeval.models.system_one.typesafe import TypeSafeModel

        name = choice.argument
        return _shared_client(
            "typesafe", settings, choice.settings_keys, name, lambda: TypeSafeModel(model=name)
        )
    raise ValueError(f"not a System One judge choice: {choice.source}")


def clear_shared_clients() -> None:
    """Forget the shared clients (tests that change settings between runs)."""
    with _shared_lock:
        _shared.clear()


def embedded_judge() -> DeepEvalBaseSystemOneModel:
    """The process-wide embedded judge (loaded once); announces itself once on stderr."""
    from deepeval.models.embedded import get_embedded_judge
    from deepeval.models.embedded.names import MODEL_NAME

    global _notice
    judge = get_embedded_judge()
    if not _announced.is_set():
        _announced.set()
        reader = getattr(judge, "reader", None)
        _notice = _notice_text(MODEL_NAME, None if reader is None else reader.name)
        print(_notice, file=sys.stderr)
    return judge


def _notice_text(name: str, reader: str | None = None) -> str:
    """The announcement, true to the configuration: with an LLM judge configured, only System One is missing; it
    names the local reader when one is installed (asked where the encoder is unsure), else says that unsure
    answers are shown as unsure."""
    try:
        from deepeval.config.eval_mode import llm_configured

        settings = get_settings()
        has_llm, offline = llm_configured(settings), settings.get_bool("DEEPEVAL_OFFLINE")
    except Exception:  # unreadable settings: the resolution itself reports them; the notice stays generic
        has_llm, offline = False, False
    how = (
        f"with the local reader {reader} where its encoder is unsure (DEEPEVAL_READER=off: encoder only)"
        if reader is not None
        else "encoder only; unsure answers are marked unsure"
    )
    if offline:  # quickstart --offline: judges from the settings are switched off, not missing
        return (
            f"deepeval: offline (--offline, or DEEPEVAL_OFFLINE): using the embedded offline judge {name} ({how}; low "
            "fidelity); the judges the settings configure are not used"
        )
    if has_llm:
        return (
            f"deepeval: no System One judge configured; using the embedded offline judge {name} ({how}) for System "
            "One decisions (low fidelity; set TYPESAFE_API_KEY or pass system_one_model= for a stronger one)"
        )
    return (
        f"deepeval: no judge configured; using the embedded offline judge {name} ({how}; low fidelity: set "
        "OPENAI_API_KEY or TYPESAFE_API_KEY, or pass model=, for a stronger judge)"
    )


def embedded_notice() -> str | None:
    """The stderr line :func:`embedded_judge` printed in this process, or None (for reporters that capture
    stderr, such as the pytest plugin, to repeat it where the user sees it)."""
    return _notice


def is_embedded(obj: Any) -> bool:
    """Whether ``obj`` is the embedded offline judge (so results name it, not "System One", as the decider)."""
    return obj is not None and type(obj).__module__.startswith("deepeval.models.embedded")


def key_names(
    mode: EvalMode,
    *,
    model: str | DeepEvalBaseLLM | None,
    system_one_model: str | DeepEvalBaseSystemOneModel | None,
    extractor: Extractor | None,
    settings: Settings | None = None,
) -> dict[str, str | None] | None:
    """Judge names for the cache key in ``mode`` (:meth:`~deepeval.models.plan.JudgePlan.key_names`): nothing is
    built, loaded or contacted. None when ``mode`` is ``llm`` and no LLM is available."""
    plan = plan_judges(
        eval_mode=mode,
        model=model,
        system_one_model=system_one_model,
        extractor=extractor,
        settings=settings or get_settings(),
    )
    return plan.key_names()


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
                out[attr] = f"{type(judge).__qualname__}:{getter()}{judge_endpoint(judge)}"
            except Exception:  # a judge that cannot name itself: keep the class only
                out[attr] = type(judge).__qualname__
    mode = getattr(metric, "eval_mode_argument", None) or getattr(metric, "eval_mode", None)
    if mode is not None:
        out["eval_mode"] = getattr(mode, "value", mode)
    return out
