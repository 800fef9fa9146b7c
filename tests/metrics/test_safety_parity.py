"""Parity with deepeval 4.3.1 for the safety, format and conversation metrics: ``bench/safety_parity.py`` (one user
script, scripted custom judges answering from the case: opinions, verdicts, P(yes) per unit, whole-metric answers)
run under ours must give the scores 4.3.1 gave on the same script (recorded in ``safety_parity_431.json``; the
second test re-runs 4.3.1 when its virtualenv is installed and checks the record is current).

The deliberate differences (:data:`DIFFERENCES`): a yes/no verdict that is not yes or no (``"idk"``) is dropped by
4.3.1 (the opinion does not count); ours re-asks the judge once and then reports the measure's error (REFERENCE §8:
verdict strings are never miscounted). RoleAdherence: 4.3.1 counts every out-of-character verdict its judge lists,
a repeated turn twice; ours counts each assistant turn once."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from _support.reference import REPO, reference_python, run_user_script

SCRIPT = REPO / "bench" / "safety_parity.py"
RECORD = Path(__file__).with_name("safety_parity_431.json")
#: (metric, case/mode) -> what ours gives where 4.3.1 differs on purpose
DIFFERENCES: dict[tuple[str, str], Any] = {
    **{
        (m, f"{prefix}raw_idk/llm"): "error: StructuredOutputError"
        for m in (
            "bias",
            "toxicity",
            "pii_leakage",
            "misuse",
            "non_advice",
            "role_violation",
            "prompt_alignment",
        )
        for prefix in ("", "empty_role:")
        if prefix == "" or m == "role_violation"
    },
    # the LLM lists out-of-character turn 5 twice: 4.3.1 counts two of four turns out of character (0.5); ours counts
    # each assistant turn once (0.75)
    ("role_adherence", "repeated_index/llm"): 0.75,
}


def _record() -> dict[str, Any]:
    data = json.loads(RECORD.read_text(encoding="utf-8"))
    data.pop("_source")
    return data


def test_ours_gives_deepeval_431s_scores() -> None:
    ours = run_user_script(SCRIPT, reference=False)
    ref = _record()
    assert set(ours) == set(ref)
    for metric, scores in ref.items():
        assert set(ours[metric]) == set(scores), metric
        same = [k for k in scores if (metric, k) not in DIFFERENCES]
        assert len(same) >= 15 or metric.endswith("_windows"), metric
        for key in same:
            want, got = scores[key], ours[metric][key]
            assert got == (pytest.approx(want) if isinstance(want, float) else want), (metric, key, got, want)
        for (m, key), value in DIFFERENCES.items():
            if m == metric:
                assert ours[metric][key] == value


@pytest.mark.skipif(reference_python() is None, reason="deepeval 4.3.1 is not installed (bench/.venvs)")
def test_the_record_is_what_deepeval_431_gives_now() -> None:
    assert run_user_script(SCRIPT, reference=True) == _record()
