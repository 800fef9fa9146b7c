"""Synthetic goldens (deepeval 4.3.1's ``deepeval.synthesizer``): :class:`Synthesizer` writes goldens from
documents, contexts, goldens or a styling alone, with any LLM judge of this package.

``Synthesizer``, ``Evolution`` and ``PromptEvolution`` are imported on first use (as in 4.3.1); the configuration
classes are also importable from here (ours: 4.3.1 has them only in ``deepeval.synthesizer.config``)::

    from deepeval.synthesizer import Synthesizer, Evolution
    from deepeval.synthesizer.config import ContextConstructionConfig, EvolutionConfig
"""

from __future__ import annotations

import importlib
from typing import Any

_LAZY = {
    "Synthesizer": "deepeval.synthesizer.synthesizer",
    "Evolution": "deepeval.synthesizer.types",
    "PromptEvolution": "deepeval.synthesizer.types",
    "ContextConstructionConfig": "deepeval.synthesizer.config",
    "ConversationalStylingConfig": "deepeval.synthesizer.config",
    "EvolutionConfig": "deepeval.synthesizer.config",
    "FiltrationConfig": "deepeval.synthesizer.config",
    "StylingConfig": "deepeval.synthesizer.config",
}

__all__ = list(_LAZY)


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
