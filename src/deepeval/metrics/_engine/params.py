"""Checks of the test-case fields a metric needs (REFERENCE §1: ``None`` or an empty ``actual_output`` raises)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from deepeval.errors import MissingTestCaseParamsError, WrongTestCaseTypeError
from deepeval.test_case import ConversationalTestCase, LLMTestCase


def require_fields(test_case: Any, fields: Sequence[str], metric_name: str) -> None:
    """Check that ``test_case`` is an :class:`LLMTestCase` with every field in ``fields`` set.

    Raises:
        WrongTestCaseTypeError: (a ``ValueError`` and a ``TypeError``) not an ``LLMTestCase``.
        MissingTestCaseParamsError: a field is ``None``, or ``actual_output`` is ``""``; names field and metric.
    """
    if not isinstance(test_case, LLMTestCase):
        raise WrongTestCaseTypeError(
            f"{metric_name} evaluates an LLMTestCase, not {type(test_case).__name__}"
        )
    missing = [f for f in fields if getattr(test_case, f) is None]
    if missing:
        raise MissingTestCaseParamsError(
            f"{metric_name} needs the test-case field(s) {', '.join(missing)}, which are None"
        )
    if "actual_output" in fields and test_case.actual_output == "":
        raise MissingTestCaseParamsError(
            f"{metric_name} needs a non-empty actual_output; it is the empty string"
        )


def require_turns(test_case: Any, metric_name: str) -> None:
    """Check that ``test_case`` is a :class:`ConversationalTestCase` (its ``turns`` are non-empty by construction).

    Raises:
        WrongTestCaseTypeError: (a ``ValueError`` and a ``TypeError``) not a ``ConversationalTestCase``.
        MissingTestCaseParamsError: ``turns`` is missing or empty.
    """
    if not isinstance(test_case, ConversationalTestCase):
        raise WrongTestCaseTypeError(
            f"{metric_name} evaluates a ConversationalTestCase, not {type(test_case).__name__}"
        )
    if not test_case.turns:
        raise MissingTestCaseParamsError(f"{metric_name} needs the test-case field turns, which is empty")


def has_words(text: str) -> bool:
    """True when ``text`` holds at least one letter or digit of any script (``str.isalnum``); False for text made
    only of whitespace, punctuation, symbols or emoji (``"..."``, ``"-"``, ``"👍"``), which states nothing to judge."""
    return any(ch.isalnum() for ch in text)
