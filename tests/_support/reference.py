"""Running the same user script under ours and under deepeval 4.3.1 (the reference implementation), each in a
sealed subprocess: a fresh HOME and working directory, no API key of this process, telemetry off, and non-loopback
connections refused (``bench/harness.py``'s environment).

deepeval 4.3.1's interpreter: ``DEEPEVAL_REFERENCE_PYTHON``, else ``bench/.venvs/deepeval-4.3.1/bin/python``;
:func:`reference_python` returns None when neither exists (the caller skips).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]


def reference_python() -> Path | None:
    """deepeval 4.3.1's interpreter, or None when it is not installed here."""
    given = os.environ.get("DEEPEVAL_REFERENCE_PYTHON")
    candidates = [Path(given)] if given else []
    candidates.append(REPO / "bench" / ".venvs" / "deepeval-4.3.1" / "bin" / "python")
    return next((p for p in candidates if p.is_file()), None)


def run_user_script(script: Path, *, reference: bool, timeout: float = 300.0) -> Any:
    """Run ``script`` with ours (``reference=False``: this interpreter, ``src/`` first on the path) or with deepeval
    4.3.1, and return the JSON its last stdout line prints.

    Raises:
        AssertionError: the script failed or printed no JSON (its stderr is quoted).
    """
    sys.path.insert(0, str(REPO))
    try:
        from bench.harness import NETGUARD, sealed_env
    finally:
        sys.path.remove(str(REPO))
    python = reference_python() if reference else Path(sys.executable)
    assert python is not None, "deepeval 4.3.1 is not installed"
    with tempfile.TemporaryDirectory(prefix="reference-run-") as tmp:
        env = sealed_env(Path(tmp), {})
        if not reference:
            env["PYTHONPATH"] = os.pathsep.join([str(REPO / "src"), str(NETGUARD)])
        proc = subprocess.run(
            [str(python), str(script.resolve())],
            cwd=tmp,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    lines = proc.stdout.strip().splitlines()
    assert proc.returncode == 0 and lines, f"{script.name} failed ({proc.returncode}):\n{proc.stderr[-3000:]}"
    return json.loads(lines[-1])
