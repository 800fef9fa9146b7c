"""Composition helpers: Poisson-binomial counts and level folding."""

from __future__ import annotations

import pytest

from deepeval.models.embedded.composite import poisson_binomial, retention_levels, share_levels
from deepeval.models.embedded.judge import binomial_levels


def test_poisson_binomial_matches_hand_computation() -> None:
    assert poisson_binomial([0.5, 0.5]) == pytest.approx([0.25, 0.5, 0.25])
    assert poisson_binomial([1.0, 0.0, 0.2]) == pytest.approx([0.0, 0.8, 0.2, 0.0])
    assert poisson_binomial([]) == [1.0]


def test_share_levels() -> None:
    assert share_levels([1.0, 1.0, 1.0]) == pytest.approx([0, 0, 0, 1])
    assert share_levels([1.0, 1.0, 0.0]) == pytest.approx([0, 0, 1, 0])  # 2/3 = most
    assert share_levels([1.0, 0.0, 0.0]) == pytest.approx([0, 1, 0, 0])  # 1/3 = under half
    assert share_levels([0.0, 0.0]) == pytest.approx([1, 0, 0, 0])


def test_retention_levels() -> None:
    assert retention_levels([]) == pytest.approx([0, 0, 0, 1])
    assert retention_levels([1.0, 0.0, 0.0, 0.0, 0.0]) == pytest.approx([0, 0, 1, 0])
    assert retention_levels([1.0, 1.0, 0.0, 0.0, 0.0]) == pytest.approx([0, 1, 0, 0])
    assert retention_levels([1.0, 1.0, 1.0, 0.0]) == pytest.approx([1, 0, 0, 0])


def test_binomial_levels() -> None:
    dist = binomial_levels(0.75, 5)
    assert sum(dist) == pytest.approx(1.0)
    assert sum(i * q for i, q in enumerate(dist)) == pytest.approx(3.0)
    assert binomial_levels(1.0, 4) == pytest.approx([0, 0, 0, 1])
