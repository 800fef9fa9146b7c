"""What stands in for the LLM's extraction step: the :class:`Extractor` protocol.

Two implementations: an LLM-backed one (in :mod:`deepeval.metrics._engine`, using each metric's prompts) and the
deterministic offline one of the embedded judge (:mod:`deepeval.models.embedded.extraction`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable


@runtime_checkable
class Extractor(Protocol):
    """Turns text into units that judges decide on. All methods are async and never return ``None``."""

    def get_model_name(self) -> str:
        """Name shown in results next to the judges."""
        ...

    async def statements(self, text: str) -> list[str]:
        """Self-contained statements of ``text`` (an output or one context node), in order."""
        ...

    async def facts(self, user_message: str, previous: Sequence[tuple[str, str]]) -> list[str]:
        """Facts about the user/world stated in ``user_message``; ``previous`` is the earlier (role, content)
        turns, for resolving references. Questions and greetings state no facts."""
        ...

    async def claims(self, text: str) -> list[str]:
        """Atomic claims of a memory artifact (e.g. a wiki page), one fact each."""
        ...
