"""The known_limit helper: a strict xfail plus the marker, as a decorator and as pytest.param marks."""

from __future__ import annotations

import pytest

from _support.markers import REGRESSION, known_limit


def test_known_limit_is_a_strict_xfail_with_the_marker() -> None:
    marks = known_limit("P 0.48 on 'return policy' (expected > 0.5)")
    names = [m.mark.name for m in marks]
    assert names == ["xfail", "known_limit"]
    assert marks[0].mark.kwargs == {"strict": True, "reason": "P 0.48 on 'return policy' (expected > 0.5)"}

    @marks
    def probe() -> None: ...

    assert [m.name for m in probe.pytestmark] == ["xfail", "known_limit"]  # type: ignore[attr-defined]
    param = pytest.param(1, marks=marks)
    assert [m.name for m in param.marks] == ["xfail", "known_limit"]


def test_known_limit_needs_its_numbers() -> None:
    with pytest.raises(ValueError, match="measured numbers"):
        known_limit("  ")


def test_regression_files_are_marked_and_isolated() -> None:
    assert [m.mark.name for m in REGRESSION] == ["regression", "usefixtures"]
    assert REGRESSION[1].mark.args == ("regression_env",)
