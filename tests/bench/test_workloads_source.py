"""Where the bench's RAG workload comes from: the shared ClapNQ dev file when a shared datasets folder is found
(named by ``$DEEPEVAL_SHARED_DATASETS`` or next to the checkout or a folder above it), else the bundled sample,
and then a warning on stderr and the source note say so (they used to fall back silently)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from bench import workloads  # noqa: E402


@pytest.fixture
def no_shared(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No shared folder anywhere: the variables point at an empty folder and no parent of the checkout has one."""
    for var in workloads.DATASETS_VARS:
        monkeypatch.setenv(var, str(tmp_path / "empty"))
    monkeypatch.setattr(workloads, "REPO", tmp_path / "a" / "b" / "checkout")
    monkeypatch.setattr(workloads, "_warned", False)


def test_missing_shared_folder_is_announced_once(no_shared: None, capsys: pytest.CaptureFixture[str]) -> None:
    cases = workloads.rag_cases(3)
    workloads.rag_cases(2)
    err = capsys.readouterr().err
    assert err.count("WARNING: shared datasets not found") == 1
    assert "bundled with deepeval.quickstart" in err and "DEEPEVAL_SHARED_DATASETS" in err
    bundled_inputs = {json.loads(x)["input"] for x in workloads.BUNDLED.read_text().splitlines()}
    assert {c["input"] for c in cases} <= bundled_inputs
    assert "NOT FOUND" in workloads.source_note()


def test_shared_folder_named_by_the_setting_is_used(
    no_shared: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "datasets"
    (folder / "clapnq_dev").mkdir(parents=True)
    row = {
        "id": "q1",
        "input": "who wrote the shared test item",
        "output": [{"answer": "A tester wrote it ."}],
        "passages": [{"sentences": ["First sentence .", "Second sentence ."]}],
    }
    (folder / workloads.CLAPNQ_FILE).write_text(json.dumps(row) + "\n")
    monkeypatch.setenv("DEEPEVAL_SHARED_DATASETS", str(folder))
    cases = workloads.rag_cases(2)
    assert [c["input"] for c in cases] == ["who wrote the shared test item"] * 2
    assert cases[0]["actual_output"].startswith("A tester wrote it.")
    assert workloads.source_note() == f"ClapNQ dev ({folder / workloads.CLAPNQ_FILE})"
    assert capsys.readouterr().err == ""


def test_a_folder_above_the_checkout_is_found(no_shared: None, tmp_path: Path) -> None:
    # the checkout is tmp/a/b/checkout (a worktree two levels below the folder that holds shared/)
    shared = tmp_path / "a" / "shared" / "datasets"
    (shared / "clapnq_dev").mkdir(parents=True)
    (shared / workloads.CLAPNQ_FILE).write_text("")
    assert workloads.shared_datasets() == shared
    assert workloads.clapnq_path() == shared / workloads.CLAPNQ_FILE
