"""Breaker findings: `deepeval test run` with the targets a pytest user types."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

DEEPEVAL = Path(sys.executable).parent / "deepeval"


@pytest.mark.xfail(
    strict=True,
    reason="BUG: `deepeval test run test_x.py::test_name` (a pytest node id, which pytest itself accepts) is "
    "rejected with 'does not exist' and exit code 4, because the path check takes the node id for a file name",
)
def test_test_run_accepts_a_pytest_node_id(tmp_path: Path) -> None:
    (tmp_path / "test_plain.py").write_text(
        "def test_one():\n    assert 1 + 1 == 2\n\ndef test_two():\n    assert False\n"
    )
    env = {**os.environ, "DEEPEVAL_DISABLE_DOTENV": "1"}
    proc = subprocess.run(
        [str(DEEPEVAL), "test", "run", "test_plain.py::test_one", "-p", "no:cacheprovider"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-600:]
