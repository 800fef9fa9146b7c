"""Every report, export and dataset file goes through one writer (deepeval._files.write_chunks_atomic): it never
replaces a FIFO, device or socket with a regular file (as root, `--csv /dev/full` turned the device into a file;
a FIFO someone reads got replaced), and a file it replaces keeps its mode."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from deepeval._files import write_text_atomic
from deepeval._safe_path import UnsafePathError

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs")


@pytest.mark.regression
def test_a_fifo_target_is_refused_and_stays_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "rows.csv"
    os.mkfifo(fifo)
    with pytest.raises(UnsafePathError, match="is not a regular file"):
        write_text_atomic(fifo, "a,b\n")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["rows.csv"]  # no temporary file left behind


def test_a_replaced_file_keeps_its_mode(tmp_path: Path) -> None:
    private = tmp_path / "report.json"
    private.write_text("old")
    private.chmod(0o600)
    write_text_atomic(private, "new")
    assert private.read_text() == "new" and stat.S_IMODE(private.stat().st_mode) == 0o600


def test_the_evaluate_csv_export_refuses_a_fifo(tmp_path: Path) -> None:
    from deepeval.evaluate.results import EvaluationResult

    fifo = tmp_path / "x.csv"
    os.mkfifo(fifo)
    with pytest.raises(OSError, match="is not a regular file"):
        EvaluationResult(test_results=[]).to_csv(fifo)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


@pytest.mark.regression
def test_a_dot_dot_through_a_missing_folder_does_not_hide_the_target(tmp_path: Path) -> None:
    """h-break2: `--csv out/new/../f.csv` was checked before `new` existed, then renamed over the FIFO `f.csv`."""
    fifo = tmp_path / "f.csv"
    os.mkfifo(fifo)
    with pytest.raises(UnsafePathError, match="is not a regular file"):
        write_text_atomic(tmp_path / "new" / ".." / "f.csv", "x")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and not (tmp_path / "new").exists()
    secret = tmp_path / "secret.txt"
    secret.write_text("keep")
    (tmp_path / "l.json").symlink_to(secret)
    with pytest.raises(UnsafePathError, match="symbolic link"):
        write_text_atomic(tmp_path / "new" / ".." / "l.json", "x")
    assert secret.read_text() == "keep" and (tmp_path / "l.json").is_symlink()
