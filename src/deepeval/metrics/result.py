"""The value one measure produces: :class:`MeasureResult` (score, reason, verdicts, usage, or the error with its
kind), made by :func:`deepeval.metrics.flow.run_measure` and read by ``measure()``/``a_measure()`` of our metrics,
``evaluate()``'s result rows (:mod:`deepeval.evaluate.rows`) and ``assert_test``.

A failure is a value here, not a mutated metric: :class:`MeasureError` holds its kind (an
:class:`~deepeval.errors.ErrorKind` from the one mapping :func:`deepeval.errors.error_kind`), the exception's type
name and its message (redacted once, when the value is made). ``measure()`` still raises (deepeval raises from
``measure``): the original exception travels with the value for that (``MeasureError.exception``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from deepeval.errors import ErrorKind

__all__ = ["MeasureError", "MeasureResult", "Usage"]


@dataclass(frozen=True)
class MeasureError:
    """Why a measure has no result.

    ``kind``: an :class:`~deepeval.errors.ErrorKind` (a judge error keeps its own kind; a caller's own kind that is
    not one of them stays the string given). ``type``: the exception's class name, ``""`` for an error that the
    metric reported without raising (its ``error`` attribute, a score that is no number) or that the runner words
    itself. ``message``: redacted. ``retryable``: the judge said the failure was transient (``JudgeError.retryable``).
    ``exception``: the exception itself, which ``measure()`` re-raises (None when nothing was raised; not compared).
    """

    kind: ErrorKind | str
    type: str
    message: str
    retryable: bool = False
    exception: BaseException | None = field(default=None, compare=False, repr=False)

    def display(self) -> str:
        """The text of a result row's ``error``: ``"Type: message"``, the type alone when the message is empty, the
        message alone when there is no type."""
        if not self.type:
            return self.message
        return f"{self.type}: {self.message}" if self.message else self.type


@dataclass(frozen=True)
class Usage:
    """What the measure's judge calls used. ``cost`` (USD) and the token counts are None when nothing reported
    them; the counts are 0 when nothing was called."""

    input_tokens: int | None = None
    output_tokens: int | None = None
    cost: float | None = None
    llm_calls: int = 0
    system_one_requests: int = 0
    retries: int = 0


@dataclass(frozen=True)
class MeasureResult:
    """One measure's outcome.

    ``score`` (None after an error or when the metric set none), ``reason``, ``success`` (the rule of
    :func:`~deepeval.metrics.scoring.success_of`, refined by a metric's own ``is_successful()`` when it has a score
    and no error; None when skipped or in score-only mode), ``verdicts`` (our metrics' per-item verdicts),
    ``breakdown`` (``score_breakdown``), ``confidence``, ``fallback_reason`` (``system_one_fallback_reason``),
    ``evaluation_model``, ``verbose_logs``, ``usage``, ``attributes`` (a metric's own result attributes, set by
    ``measure()`` under their names: deepeval's ``claims``, ``truths``, ``statements``, ``knowledges``); ``error``
    when it failed; ``skipped`` when it was skipped:
    the reason (``"skipped: ..."`` for a missing test-case field under ``skip_on_missing_params``), ``""`` when the
    metric marked itself skipped (its own reason, if any, is ``reason``).

    Texts are as the metric wrote them (a result row redacts them); only ``error.message`` is redacted here.
    """

    score: float | None = None
    reason: str | None = None
    success: bool | None = None
    verdicts: tuple[dict[str, Any], ...] | None = None
    breakdown: Any = None  # a dict for our metrics; a user metric's own value as it set it
    confidence: float | None = None
    fallback_reason: str | None = None
    evaluation_model: str | None = None
    verbose_logs: str | None = None
    usage: Usage = field(default_factory=Usage)
    error: MeasureError | None = None
    skipped: str | None = None
    attributes: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
