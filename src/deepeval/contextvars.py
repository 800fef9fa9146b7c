"""The golden being evaluated: ``EvaluationDataset.evals_iterator()`` sets it for the body of the loop, so code run
for that golden (and tasks created there, which copy the context) can read it with :func:`get_current_golden`
(public as ``deepeval.dataset.get_current_golden``, as in deepeval 4.3.1)."""

from __future__ import annotations

from contextvars import ContextVar, Token
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from deepeval.dataset.golden import Golden

CURRENT_GOLDEN: ContextVar[Golden | None] = ContextVar("CURRENT_GOLDEN", default=None)


def set_current_golden(golden: Golden | None) -> Token[Any]:
    """Make ``golden`` the current golden; returns the token for :func:`reset_current_golden`."""
    return CURRENT_GOLDEN.set(golden)


def get_current_golden() -> Golden | None:
    """The golden of the ``evals_iterator()`` iteration this code runs in, else None."""
    return CURRENT_GOLDEN.get()


def reset_current_golden(token: Token[Any]) -> None:
    """Restore the current golden from before the :func:`set_current_golden` that returned ``token``."""
    CURRENT_GOLDEN.reset(token)


__all__ = ["CURRENT_GOLDEN", "get_current_golden", "reset_current_golden", "set_current_golden"]
