"""evaluate(backend="ray") that starts the cluster itself, from inside a running event loop (Jupyter-style: the
run happens on a short-lived worker thread). The cluster must outlive that thread: a second run works."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("ray", reason='needs the ray extra: pip install -e ".[ray]"')

pytestmark = pytest.mark.ray

SCRIPT = """
import asyncio, sys, time
sys.path.insert(0, {fakes!r})
import ray_fakes
from ray import cloudpickle
cloudpickle.register_pickle_by_value(ray_fakes)
from deepeval import evaluate
from deepeval.evaluate import CacheConfig, DisplayConfig, RayConfig
from deepeval.test_case import LLMTestCase

def run(tag):
    cases = [LLMTestCase(input=f"{{tag}}{{i}}", actual_output="a") for i in range(4)]
    r = evaluate(cases, [ray_fakes.CrcMetric()], backend="ray",
                 display_config=DisplayConfig(show_indicator=False, print_results=False),
                 cache_config=CacheConfig(write_cache=False),
                 ray_config=RayConfig(num_workers=1, init_kwargs={{"num_cpus": 1, "log_to_driver": False}}))
    return [t.metrics_data[0].score for t in r.test_results]

async def main():
    return run("a")  # inside a running loop: evaluate() moves the run to a worker thread

first = asyncio.run(main())
time.sleep(2)  # the thread that ran the first evaluate is gone by now
t0 = time.time()
second = run("b")
print("RESULT", first == [ray_fakes.CrcMetric().measure(LLMTestCase(input=f"a{{i}}", actual_output="a")) for i in range(4)],
      len(second), round(time.time() - t0, 1))
"""


def test_cluster_started_by_evaluate_in_a_running_loop_survives(tmp_path: Path) -> None:
    script = tmp_path / "fresh.py"
    script.write_text(SCRIPT.format(fakes=str(Path(__file__).parent)))
    env = {**os.environ, "DEEPEVAL_DISABLE_DOTENV": "1"}
    env.pop("RAY_ADDRESS", None)
    out = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120, cwd=tmp_path, env=env
    )
    line = next((x for x in out.stdout.splitlines() if x.startswith("RESULT")), None)
    assert out.returncode == 0 and line is not None, out.stderr[-1500:]
    _, same, n, seconds = line.split()
    assert same == "True" and n == "4" and float(seconds) < 30
