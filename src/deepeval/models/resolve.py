"""Which judge a metric uses when the user does not say (DESIGN: an explicit argument wins, then settings, then the
embedded offline judge). Metrics never call the network by surprise: with nothing configured they get no LLM and
the embedded System One model, and one line on stderr says so."""

from __future__ import annotations

import sys
import threading
from typing import Any

from deepeval.config.settings import Settings, get_settings
from deepeval.models.base_model import DeepEvalBaseLLM, DeepEvalBaseSystemOneModel

_announced = threading.Event()


def resolve_llm(
    model: str | DeepEvalBaseLLM | None, settings: Settings | None = None
) -> DeepEvalBaseLLM | None:
    """The LLM judge: ``model`` if it is a client; a string is an OpenAI model name; ``None`` picks a configured
    local model (``USE_LOCAL_MODEL``), else OpenAI when ``OPENAI_API_KEY`` is set, else no LLM (returns None)."""
    if isinstance(model, DeepEvalBaseLLM):
        return model
    s = settings or get_settings()
    if isinstance(model, str):
        from deepeval.models.llms.openai_model import OpenAIModel

        return OpenAIModel(model=model)
    if model is not None:
        raise TypeError(f"model must be a model name or a DeepEvalBaseLLM, not {type(model).__name__}")
    if s.get_bool("USE_LOCAL_MODEL") and s.get("LOCAL_MODEL_BASE_URL"):
        from deepeval.models.llms.local_model import LocalModel

        return LocalModel()
    if s.get("OPENAI_API_KEY"):
        from deepeval.models.llms.openai_model import OpenAIModel

        return OpenAIModel()
    return None


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

        return TypeSafeModel(model=model)
    return embedded_judge()


def embedded_judge() -> DeepEvalBaseSystemOneModel:
    """The process-wide embedded judge (loaded once); announces itself once on stderr."""
    from deepeval.models.embedded import get_embedded_judge

    judge = get_embedded_judge()
    if not _announced.is_set():
        _announced.set()
        print(
            f"deepeval: no judge configured; using the embedded offline judge {judge.get_model_name()} "
            "(low fidelity; set OPENAI_API_KEY or TYPESAFE_API_KEY, or pass model=, for a stronger judge)",
            file=sys.stderr,
        )
    return judge


def describe(obj: Any) -> str | None:
    """Judge name for results, or None."""
    if obj is None:
        return None
    try:
        return str(obj.get_model_name())
    except Exception:
        return type(obj).__name__
