"""deepeval's module path for the multi-turn types (``from deepeval.test_case.conversational_test_case import
...``); ``TurnParams`` is the deprecated name of ``MultiTurnParams`` here too."""

from __future__ import annotations

from typing import Any

from deepeval.test_case._conversational import ConversationalTestCase, MultiTurnParams, Turn

__all__ = ["ConversationalTestCase", "MultiTurnParams", "Turn"]


def __getattr__(name: str) -> Any:
    if name == "TurnParams":
        from deepeval.test_case import __getattr__ as deprecated

        return deprecated(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
