"""Paths shared by the memory tests."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "memory" / "manifest.yaml"
DATASETS = REPO.parent / "shared" / "datasets"
