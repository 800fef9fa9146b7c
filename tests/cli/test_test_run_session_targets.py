"""`deepeval test run` with the targets a pytest user types."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from _support.markers import REGRESSION

pytestmark = REGRESSION

DEEPEVAL = Path(sys.executable).parent / "deepeval"


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
