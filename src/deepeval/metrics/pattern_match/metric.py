"""PatternMatchMetric: 1.0 when the whole ``actual_output`` (stripped) matches ``pattern`` (``fullmatch``), else
0.0, as deepeval 4.3.1. No judge, in any eval mode.

deepeval 4.3.1's constructor: ``pattern`` (required; stripped of surrounding whitespace), ``ignore_case=False``,
``threshold=1.0``, ``verbose_mode=False``, ``flaky=False``; an invalid pattern is a ``ValueError`` at construction;
required fields ``input`` and ``actual_output``.

ours: the match is bounded in time. A pattern with catastrophic backtracking (``(a+)+$`` on a long run of ``a``
followed by ``b``) would hold Python's ``re`` (and the whole process: it never releases the GIL) for hours; here the
pattern is checked by ``re`` (the same syntax and errors as deepeval) and matched by the ``regex`` engine, whose
match gives up after ``match_timeout`` seconds (default 1) and releases the GIL meanwhile. A match that times out
is the measure's error (:class:`PatternMatchTimeoutError`), never a score.
"""

from __future__ import annotations

import math
import re
from typing import Any

import regex

from deepeval.errors import DeepEvalError
from deepeval.metrics._engine.judge_free import Computed, JudgeFreeMetric, checked_threshold
from deepeval.metrics._engine.params import require_fields
from deepeval.metrics.pattern_match.names import REQUIRED_PARAMS

MATCH_REASON = "The whole actual output matches the pattern."
NO_MATCH_REASON = "The actual output does not match the pattern as a whole."
#: seconds a match may take by default
DEFAULT_MATCH_TIMEOUT = 1.0


class PatternMatchTimeoutError(DeepEvalError):
    """Matching the pattern took longer than the metric's ``match_timeout`` (catastrophic backtracking)."""


class PatternMatchMetric(JudgeFreeMetric):
    """1.0 when ``pattern`` matches the whole stripped output, else 0.0. Higher is better; ``threshold`` is a minimum.

    Args:
        pattern: a Python regular expression (``re`` syntax), stripped of surrounding whitespace.
        ignore_case: match case-insensitively.
        threshold: minimum passing score, or None (score-only mode).
        verbose_mode: print the steps (also kept in ``verbose_logs``).
        flaky: a failure does not fail the test case.
        match_timeout: ours: seconds one match may take before the measure errors (a positive number).

    Raises:
        TypeError: ``pattern`` is not a string.
        ValueError: ``pattern`` is not a valid regular expression, or ``match_timeout`` is not positive.
    """

    score_digits = 2
    costs_nothing = False  # evaluation_cost stays unknown unless a judge reports one, as in deepeval 4.3.1

    def __init__(
        self,
        pattern: str,
        ignore_case: bool = False,
        threshold: float | None = 1.0,
        verbose_mode: bool = False,
        flaky: bool = False,
        *,
        match_timeout: float = DEFAULT_MATCH_TIMEOUT,
    ) -> None:
        if not isinstance(pattern, str):
            raise TypeError(f"pattern must be a string (a regular expression), not {type(pattern).__name__}")
        if (
            isinstance(match_timeout, bool)
            or not isinstance(match_timeout, (int, float))
            or not math.isfinite(match_timeout)
            or match_timeout <= 0
        ):
            raise ValueError(f"match_timeout must be a positive number of seconds, got {match_timeout!r}")
        self.pattern = pattern.strip()
        self.ignore_case = ignore_case
        self.threshold = checked_threshold(threshold)
        self.verbose_mode = verbose_mode
        self.flaky = flaky
        self.match_timeout = float(match_timeout)
        self.include_reason = True
        self.strict_mode = False
        try:
            re.compile(self.pattern, re.IGNORECASE if ignore_case else 0)
        except re.error as err:
            raise ValueError(f"invalid regular expression {self.pattern!r}: {err}") from None
        try:
            self._compiled = regex.compile(self.pattern, regex.IGNORECASE if ignore_case else 0)
        except (
            regex.error
        ) as err:  # re accepts it, regex does not (not seen; said plainly rather than guessed)
            raise ValueError(f"regular expression {self.pattern!r} is not supported here: {err}") from None
        self.reset_result()

    @property
    def __name__(self) -> str:
        return "Pattern Match"

    def cache_config(self) -> dict[str, Any]:
        return {**super().cache_config(), "pattern": self.pattern, "ignore_case": self.ignore_case}

    def _compute(self, test_case: Any) -> Computed:
        require_fields(test_case, REQUIRED_PARAMS, self.__name__)
        actual = test_case.actual_output.strip()
        try:
            matched = (
                self._compiled.fullmatch(actual, timeout=self.match_timeout, concurrent=True) is not None
            )
        except TimeoutError:
            raise PatternMatchTimeoutError(
                f"{self.__name__}: matching the pattern {self.pattern!r} against an output of {len(actual)} "
                f"characters took longer than {self.match_timeout:g} s (catastrophic backtracking?); rewrite the "
                "pattern or raise match_timeout"
            ) from None
        return Computed(
            1.0 if matched else 0.0,
            MATCH_REASON if matched else NO_MATCH_REASON,
            steps=[("Pattern", self.pattern), ("Actual output (stripped)", actual)],
            breakdown={"full_match": matched, "ignore_case": self.ignore_case},
            judge_calls=0,
        )
