"""The blind-dev manifest vet-inpatient-handover through bench/memory_blind.py (offline, embedded judge): the
controls and graded memories hold the numbers reached on it, with a little margin (the numbers reached are beside
TARGETS). Bounded to about 20 s on a CI core."""

from __future__ import annotations

import asyncio
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("memory_blind", ROOT / "bench" / "memory_blind.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["memory_blind"] = mod
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def vet() -> dict:
    b = _bench()
    assert "vet-inpatient-handover" in b.split_names("blind-dev")
    return b.aggregate([asyncio.run(b.measure_one("vet-inpatient-handover"))])


def test_controls_on_blind_dev(vet: dict) -> None:
    assert vet["transcript_weighted"] >= TARGETS["transcript_weighted"]
    assert vet["empty_normalised"] == 0.0
    assert vet["corrected_5"] >= TARGETS["corrected_5"]


def test_summary_and_wiki_recall_near_known(vet: dict) -> None:
    assert abs(vet["summary_weighted"] - vet["summary_known"]) <= TARGETS["summary_gap"]
    assert abs(vet["wiki_weighted"] - vet["wiki_known"]) <= TARGETS["wiki_gap"]


def test_claims_and_generate_on_blind_dev(vet: dict) -> None:
    assert vet["good_claims_1"] <= TARGETS["good_claims_1"]
    assert vet["bad_claims_1"] >= TARGETS["bad_claims_1"]
    assert vet["generate_exit_0"] == vet["generate_runs"] == 1


# reached on vet-inpatient-handover (offline, embedded judge): transcript 0.784, corrected 2 of 3, summary 0.728 vs
# 0.760 known, wiki 0.560 vs 0.840 known, planted claims scored 1: 7 of 9, correct claims scored 1: 0 of 18
TARGETS = {
    "transcript_weighted": 0.75,
    "corrected_5": 2,
    "summary_gap": 0.07,
    "wiki_gap": 0.32,
    "good_claims_1": 1,
    "bad_claims_1": 6,
}
