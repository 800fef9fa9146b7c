"""Shared plumbing of the benchmarks: the deepeval 4.3.1 virtual environment, the sealed subprocess environment,
and running one job of :mod:`bench._eval_worker` under either implementation.

Isolation of every worker process: a fresh temporary working directory and ``HOME`` (caches, ``.deepeval``
folders and dotenv files land there, nothing is read from the repository), only ``PATH``/``LANG`` inherited from
the parent (no API key of the parent reaches the worker), telemetry and update checks off
(``DEEPEVAL_TELEMETRY_OPT_OUT=1``, ``DEEPEVAL_UPDATE_WARNING_OPT_IN=0``, ``DEEPEVAL_NO_INSPECT_PROMPT=1``),
proxies pointed at a closed loopback port, and ``bench/_netguard/sitecustomize.py`` refusing any non-loopback
connection or name lookup (each refusal is logged and reported as ``net_refused``).
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
DEEPEVAL_VERSION = "4.3.1"
VENV_DIR = BENCH / ".venvs" / f"deepeval-{DEEPEVAL_VERSION}"
OUR_PYTHON = Path(sys.executable)
#: ``deepeval`` of this checkout: put first on the worker's path (the venv may hold an editable install of another
#: checkout, e.g. the integration branch, which a worktree's bench would otherwise measure instead)
OUR_SRC = REPO / "src"
WORKER = BENCH / "_eval_worker.py"
NETGUARD = BENCH / "_netguard"


def deepeval_python(install: bool = True) -> Path:
    """The interpreter of ``bench/.venvs/deepeval-4.3.1``, created with ``deepeval==4.3.1`` and ``typesafe-sdk``
    (its System One client) from PyPI on first use.

    Raises:
        RuntimeError: the venv is missing and ``install`` is False, or pip failed (its output is included).
    """
    py = VENV_DIR / "bin" / "python"
    marker = VENV_DIR / ".bench-ready"
    if marker.is_file() and py.is_file():
        return py
    if not install:
        raise RuntimeError(
            f"{VENV_DIR} is missing; run bench/side_by_side.py once with network access to PyPI"
        )
    VENV_DIR.parent.mkdir(parents=True, exist_ok=True)
    steps = [
        [sys.executable, "-m", "venv", str(VENV_DIR)],
        [str(py), "-m", "pip", "install", "-q", f"deepeval=={DEEPEVAL_VERSION}", "typesafe-sdk>=0.7"],
    ]
    for cmd in steps:
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd[:4])} failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
    marker.write_text(DEEPEVAL_VERSION)
    return py


def code_version() -> str:
    """``git describe``-like id of the code under test: HEAD's short hash, ``+dirty`` when src/ has changes."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "src"],
            cwd=REPO,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+dirty" if dirty else "")


def machine() -> str:
    cpus = os.cpu_count()
    try:
        mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
        mem_s = f", {mem:.0f} GiB RAM"
    except (ValueError, OSError):
        mem_s = ""
    return f"{platform.system()} {platform.machine()}, {cpus} CPUs{mem_s}, Python {platform.python_version()}"


def sealed_env(workdir: Path, extra: dict[str, str]) -> dict[str, str]:
    """The whole environment of a worker (see module docstring)."""
    env = {k: os.environ[k] for k in ("PATH", "LANG", "LC_ALL", "TZ") if k in os.environ}
    env.update(
        {
            "HOME": str(workdir),
            "TMPDIR": str(workdir),
            "ENV_DIR_PATH": str(workdir),
            "DEEPEVAL_DISABLE_DOTENV": "1",
            "DEEPEVAL_TELEMETRY_OPT_OUT": "1",
            "DEEPEVAL_UPDATE_WARNING_OPT_IN": "0",
            "DEEPEVAL_NO_INSPECT_PROMPT": "1",
            "DEEPEVAL_CACHE_FOLDER": str(workdir / ".deepeval"),
            "HTTP_PROXY": "http://127.0.0.1:9",
            "HTTPS_PROXY": "http://127.0.0.1:9",
            "http_proxy": "http://127.0.0.1:9",
            "https_proxy": "http://127.0.0.1:9",
            "NO_PROXY": "127.0.0.1,localhost",
            "no_proxy": "127.0.0.1,localhost",
            "PYTHONPATH": str(NETGUARD),
            "BENCH_NETGUARD_LOG": str(workdir / "netguard.log"),
            "PYTHONDONTWRITEBYTECODE": "1",
        }
    )
    env.update(extra)
    return env


def run_worker(
    impl: str,
    job: dict[str, Any],
    env_extra: dict[str, str],
    *,
    timeout: float = 900.0,
    src: Path | None = None,
    worker: Path = WORKER,
) -> dict[str, Any]:
    """Run ``job`` under ``impl`` (``"deepeval"`` for 4.3.1, anything else for ours) in a sealed subprocess;
    returns the worker's result plus ``net_refused`` (list of refused destinations) and ``stderr_tail``. Ours runs
    the ``deepeval`` of ``src`` (default: this checkout's ``src``); the result's ``deepeval_file`` says which
    file was imported. ``worker``: the worker script (default :mod:`bench._eval_worker`)."""
    python = deepeval_python() if impl == "deepeval" else OUR_PYTHON
    if impl != "deepeval":
        path = os.pathsep.join([str(NETGUARD), str(src or OUR_SRC)])
        env_extra = {**env_extra, "PYTHONPATH": path}
    with tempfile.TemporaryDirectory(prefix=f"bench-{impl}-") as tmp:
        workdir = Path(tmp)
        job_path, out_path = workdir / "job.json", workdir / "result.json"
        job_path.write_text(json.dumps(job))
        mode_env = {"DEEPEVAL_EVAL_MODE": job["mode"]} if job.get("mode") else {}
        env = sealed_env(workdir, {**env_extra, **mode_env})
        try:
            proc = subprocess.run(
                [str(python), str(worker), str(job_path), str(out_path)],
                cwd=workdir,
                env=env,
                capture_output=True,
                text=True,
                timeout=timeout,
            )
            stderr = proc.stderr
        except subprocess.TimeoutExpired as exc:
            stderr = (exc.stderr.decode() if isinstance(exc.stderr, bytes) else exc.stderr) or ""
            return {
                "error": f"worker timed out after {timeout:.0f} s",
                "phases": [],
                "stderr_tail": stderr[-2000:],
            }
        if out_path.is_file():
            result: dict[str, Any] = json.loads(out_path.read_text())
        else:
            result = {"error": f"worker exited {proc.returncode} without a result", "phases": []}
        log = workdir / "netguard.log"
        result["net_refused"] = log.read_text().splitlines() if log.is_file() else []
        result["stderr_tail"] = stderr[-2000:]
        return result
