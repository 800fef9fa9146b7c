"""Commands that read a file the user names refuse a FIFO or a device at once (h-break: `memory validate
/dev/zero` grew by 600 MB/s, a FIFO hung `memory validate`, `compare` and `judge-eval`). Each runs in a child with
a memory cap and a timeout, so a regression fails the test instead of the machine."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo") or not os.path.exists("/dev/zero"), reason="POSIX")


def _cap() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))


def _deepeval(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    code = "import sys; from deepeval.cli.main import app; sys.argv[0] = 'deepeval'; app()"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True, text=True, timeout=60, cwd=cwd, preexec_fn=_cap,
        env={**os.environ, "DEEPEVAL_DISABLE_DOTENV": "1"},
    )  # fmt: skip


@pytest.mark.regression
@pytest.mark.parametrize(
    "args",
    [
        ("memory", "validate", "{special}"),
        ("compare", "{special}", "{special}"),
        ("judge-eval", "{special}", "--metric", "answer_relevancy"),
    ],
    ids=["memory-validate", "compare", "judge-eval"],
)
@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_a_fifo_or_device_is_refused_at_once(tmp_path: Path, args: tuple[str, ...], kind: str) -> None:
    special = "/dev/zero"
    if kind == "fifo":
        special = str(tmp_path / "input.yaml")
        os.mkfifo(special)
    proc = _deepeval(*(a.format(special=special) for a in args), cwd=tmp_path)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert "not a regular file" in proc.stdout + proc.stderr
