"""The blind sets under training/blind are frozen: every file listed in a SHA256SUMS matches its digest."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

BLIND = Path(__file__).resolve().parents[2] / "training" / "blind"
SUMS = sorted(BLIND.glob("*/SHA256SUMS"))


def _entries(sums: Path) -> list[tuple[str, str]]:
    rows = []
    for line in sums.read_text(encoding="utf-8").splitlines():
        if line.strip():
            digest, name = line.split(maxsplit=1)
            rows.append((digest, name.lstrip("*")))
    return rows


def test_blind_sets_are_present() -> None:
    assert [p.parent.name for p in SUMS], "no frozen blind set found"
    assert {"kr", "memory", "rel"} <= {p.parent.name for p in SUMS}


@pytest.mark.parametrize("sums", SUMS, ids=[p.parent.name for p in SUMS])
def test_blind_set_files_match_their_frozen_digests(sums: Path) -> None:
    entries = _entries(sums)
    assert len(entries) >= 2
    for digest, name in entries:
        data = (sums.parent / name).read_bytes()
        assert hashlib.sha256(data).hexdigest() == digest, f"{sums.parent.name}/{name} changed after freezing"
