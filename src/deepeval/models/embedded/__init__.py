"""The embedded offline judge: ``deepeval-local-1`` (bundled encoder + explicit checks + calibrated per-kind models).

Public names: :class:`EmbeddedJudge`, :func:`get_embedded_judge` (process-wide singleton),
:class:`DeterministicExtractor`, and the encoder helpers in :mod:`deepeval.models.embedded.encoder`.
Imports are lazy so that ``import deepeval`` stays fast.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from deepeval.models.embedded.extraction import DeterministicExtractor
    from deepeval.models.embedded.judge import MODEL_NAME, EmbeddedJudge, get_embedded_judge

_LAZY = {
    "EmbeddedJudge": "deepeval.models.embedded.judge",
    "get_embedded_judge": "deepeval.models.embedded.judge",
    "MODEL_NAME": "deepeval.models.embedded.judge",
    "DeterministicExtractor": "deepeval.models.embedded.extraction",
}

__all__ = ["MODEL_NAME", "DeterministicExtractor", "EmbeddedJudge", "get_embedded_judge"]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'deepeval.models.embedded' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
