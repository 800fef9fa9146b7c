"""Judge resolution for one metric instance, and sync adapters for ``async_mode=False``.

Resolution happens on the first measure (never in the constructor), so building a metric touches no network and
loads no embedded model; the result is cached on the instance and shared by :meth:`BaseMetric.fresh_copy` clones.

* ``llm``: an LLM is required; without one the metric raises :class:`deepeval.errors.ConfigurationError`.
* ``hybrid``: the LLM extracts and writes the reason; a System One model decides. With no LLM, extraction comes
  from the embedded judge's deterministic extractor (or the metric's ``extractor=``), reasons are built from the
  verdicts, and a failed System One call cannot fall back (the metric errors with both causes).
* ``system_one``: only the System One model.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from deepeval._concurrency import run_sync
from deepeval.config.eval_mode import EvalMode, resolve_eval_mode
from deepeval.errors import ConfigurationError
from deepeval.models.base_model import DeepEvalBaseLLM, DeepEvalBaseSystemOneModel
from deepeval.models.extraction import Extractor
from deepeval.models.resolve import EMBEDDED_NAMES, describe, key_names, resolve_llm, resolve_system_one

__all__ = ["EMBEDDED_NAMES", "NO_LLM_HELP", "Judges", "key_names", "resolve_judges"]
from deepeval.models.structured import StructuredAttempts
from deepeval.models.system_one.schema import Questions, SystemOneAnswers

NO_LLM_HELP = (
    "no LLM judge is available: set OPENAI_API_KEY, configure a local model (USE_LOCAL_MODEL=YES and "
    "LOCAL_MODEL_BASE_URL), or pass model= to the metric; or run it with eval_mode='hybrid' or 'system_one', "
    "which work without an LLM"
)


@dataclass
class Judges:
    """The judges of one metric instance in its resolved eval mode."""

    mode: EvalMode
    llm: DeepEvalBaseLLM | None
    system_one: DeepEvalBaseSystemOneModel | None
    extractor: Extractor | None

    def names(self) -> dict[str, str | None]:
        """Judge names for results and cache keys."""
        return {
            "llm": describe(self.llm),
            "system_one": describe(self.system_one),
            "extractor": describe(self.extractor),
        }


def deterministic_extractor() -> Extractor:
    """The embedded judge's deterministic extractor (imported lazily: it is optional at import time)."""
    from deepeval.models.embedded.extraction import DeterministicExtractor

    extractor: Extractor = DeterministicExtractor()
    return extractor


def resolve_judges(
    *,
    eval_mode: str | EvalMode | None,
    model: str | DeepEvalBaseLLM | None,
    system_one_model: str | DeepEvalBaseSystemOneModel | None,
    extractor: Extractor | None,
    metric_name: str,
) -> Judges:
    """Resolve mode and judges (see module docstring). ``Judges.extractor`` is the user's ``extractor=`` or, in
    hybrid mode without an LLM, the deterministic one; None means "build the LLM extractor from ``llm``".

    Raises:
        InvalidEvalModeError: bad ``DEEPEVAL_EVAL_MODE``.
        ConfigurationError: ``llm`` mode and no LLM available.
    """
    mode = resolve_eval_mode(eval_mode, has_llm=True if model is not None else None)
    if mode is EvalMode.SYSTEM_ONE:
        return Judges(mode, None, resolve_system_one(system_one_model), None)
    llm = resolve_llm(model)
    if mode is EvalMode.LLM:
        if llm is None:
            raise ConfigurationError(f"{metric_name} runs in eval mode 'llm' but {NO_LLM_HELP}")
        return Judges(mode, llm, None, extractor)
    s1 = resolve_system_one(system_one_model)
    if extractor is None and llm is None:
        extractor = deterministic_extractor()
    return Judges(mode, llm, s1, extractor)


def _takes_schema(fn: Callable[..., Any]) -> bool:
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return True
    positional = [p for p in params.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return "schema" in params or any(p.kind is p.VAR_KEYWORD for p in params.values()) or len(positional) >= 2


class SyncLLM(DeepEvalBaseLLM):
    """Routes ``a_generate`` to the wrapped model's sync ``generate`` (``async_mode=False``)."""

    def __init__(self, inner: DeepEvalBaseLLM) -> None:
        self._inner = inner
        self.name = inner.name
        self.model = inner

    def load_model(self, *args: Any, **kwargs: Any) -> Any:
        return self._inner

    def generate(self, prompt: str, schema: Any = None) -> Any:
        if _takes_schema(self._inner.generate):
            return self._inner.generate(prompt, schema)
        return self._inner.generate(prompt)

    async def a_generate(self, prompt: str, schema: Any = None) -> Any:
        return self.generate(prompt, schema)

    async def a_structured_attempt(self, prompt: str, schema: type[BaseModel]) -> Any:
        """One unvalidated request when the wrapped model offers that (the structured layer's only re-ask stays
        the only one), else its sync ``generate``."""
        if isinstance(self._inner, StructuredAttempts):
            return run_sync(self._inner.a_structured_attempt(prompt, schema))
        return self.generate(prompt, schema)

    def get_model_name(self) -> str:
        return self._inner.get_model_name()

    @property
    def constrains_item_counts(self) -> bool:
        """The wrapped model's (see :func:`deepeval.models.structured.a_generate_structured`)."""
        return bool(getattr(self._inner, "constrains_item_counts", False))


class SyncSystemOne(DeepEvalBaseSystemOneModel):
    """Routes ``a_decide`` to the wrapped model's sync ``decide`` (``async_mode=False``)."""

    def __init__(self, inner: DeepEvalBaseSystemOneModel) -> None:
        self._inner = inner
        self.name = inner.name
        self.model = inner

    def load_model(self, *args: Any, **kwargs: Any) -> Any:
        return self._inner

    def decide(self, state: Any, questions: Questions) -> tuple[SystemOneAnswers, float | None]:
        return self._inner.decide(state, questions)

    async def a_decide(self, state: Any, questions: Questions) -> tuple[SystemOneAnswers, float | None]:
        return self._inner.decide(state, questions)

    def get_model_name(self) -> str:
        return self._inner.get_model_name()


async def gather_all(*aws: Any, sequential: bool = False) -> list[Any]:
    """Await ``aws`` concurrently (or one after another when ``sequential``); every one finishes before the first
    exception, if any, is raised (no orphaned judge calls)."""
    if sequential:
        out: list[Any] = []
        pending = list(aws)
        try:
            while pending:
                out.append(await pending.pop(0))
        finally:
            for aw in pending:  # an earlier call failed: close the never-started ones
                if inspect.iscoroutine(aw):
                    aw.close()
        return out
    results = await asyncio.gather(*aws, return_exceptions=True)
    for r in results:
        if isinstance(r, BaseException):
            raise r
    return list(results)
