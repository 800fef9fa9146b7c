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


@pytest.mark.regression
@pytest.mark.parametrize("tail", ["--no-progress --csv f.csv | head -1", "--csv f.csv 2>&1 | true"])
def test_piping_into_head_still_writes_the_report_files(tmp_path: Path, tail: str) -> None:
    """`deepeval evaluate ... --csv f.csv | head -1`: the closed pipe ended the command before the CSV was written
    (h-break); the rest of the output is dropped and the files are written."""
    (tmp_path / "m.py").write_text(
        "from deepeval.metrics.base_metric import BaseMetric\n"
        "class M(BaseMetric):\n"
        "    def __init__(self, threshold=0.5):\n        self.threshold = threshold\n"
        "    def measure(self, tc, *a, **k):\n"
        "        self.score, self.reason, self.success = 0.1, 'r' * 300, False\n        return self.score\n"
        "    async def a_measure(self, tc, *a, **k):\n        return self.measure(tc)\n"
    )
    (tmp_path / "c.jsonl").write_text(
        "".join(f'{{"input": "q{i}", "actual_output": "a"}}\n' for i in range(40))
    )
    code = "import sys; from deepeval.cli.main import app; sys.argv[0] = 'deepeval'; app()"
    cmd = f'{sys.executable} -c "{code}" evaluate c.jsonl -m m:M {tail}'
    env = {
        **os.environ,
        "DEEPEVAL_DISABLE_DOTENV": "1",
        "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path]),
    }
    proc = subprocess.run(
        ["bash", "-c", cmd], capture_output=True, text=True, timeout=120, cwd=tmp_path, env=env
    )
    assert proc.stdout.count("\n") <= 1 and "BrokenPipeError" not in proc.stdout + proc.stderr, proc.stderr[
        -2000:
    ]
    assert len((tmp_path / "f.csv").read_text(encoding="utf-8").splitlines()) == 41
