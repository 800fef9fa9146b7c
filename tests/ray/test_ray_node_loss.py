"""The Ray backend on a two-node cluster started on this machine (``ray.cluster_utils.Cluster``, one CPU per node)
loses its second node mid-run: the blocks it held are re-run on the head node and every row comes back exactly
once, with the scores a local run gives. A subprocess of its own (the session's cluster fixture would clash),
bounded: the whole script gets 90 s, the run itself must finish within 60 s."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

pytest.importorskip("ray", reason='needs the ray extra: pip install -e ".[ray]"')
pytest.importorskip("ray.cluster_utils", reason="needs ray.cluster_utils")

pytestmark = [pytest.mark.ray, pytest.mark.slow]

N_CASES = 24

SCRIPT = """
import json, os, sys, threading, time, zlib
import ray
from ray.cluster_utils import Cluster
from deepeval import evaluate
from deepeval.evaluate import AsyncConfig, CacheConfig, DisplayConfig, ErrorConfig, RayConfig
from deepeval.metrics.base_metric import BaseMetric
from deepeval.test_case import LLMTestCase

MARKS = sys.argv[1]

class NodeCrc(BaseMetric):
    threshold = 0.5
    def measure(self, tc, *a, **k):
        node = ray.get_runtime_context().get_node_id()
        with open(os.path.join(MARKS, f"{{node}}-{{tc.input}}-{{time.monotonic_ns()}}"), "w"):
            pass
        time.sleep(0.25)  # slow enough that the node goes while it holds a block
        self.score = (zlib.crc32(tc.input.encode()) % 100) / 100
        self.reason, self.success = "crc", self.score >= 0.5
        return self.score
    async def a_measure(self, tc, *a, **k):
        return self.measure(tc)

cluster = Cluster(initialize_head=True, head_node_args={{"num_cpus": 1, "include_dashboard": False}})
doomed = cluster.add_node(num_cpus=1)
cluster.wait_for_nodes()
ray.init(address=cluster.address, log_to_driver=False, configure_logging=False)
doomed_id = doomed.node_id

def remove_when_busy():
    deadline = time.monotonic() + 40
    while time.monotonic() < deadline:
        if any(name.startswith(doomed_id) for name in os.listdir(MARKS)):
            cluster.remove_node(doomed, allow_graceful=False)
            print("REMOVED", flush=True)
            return
        time.sleep(0.05)

threading.Thread(target=remove_when_busy, daemon=True).start()
cases = [LLMTestCase(input=f"case{{i}}", actual_output="a") for i in range({n})]
t0 = time.monotonic()
result = evaluate(cases, [NodeCrc()], backend="ray",
                  async_config=AsyncConfig(run_async=False),
                  display_config=DisplayConfig(show_indicator=False, print_results=False),
                  cache_config=CacheConfig(write_cache=False), error_config=ErrorConfig(ignore_errors=True),
                  ray_config=RayConfig(num_workers=2, block_size=3, max_retries=4))
took = time.monotonic() - t0
rows = [[(m.score, m.error) for m in t.metrics_data] for t in result.test_results]
print("RESULT " + json.dumps({{"index": [t.index for t in result.test_results],
                              "inputs": [t.input for t in result.test_results], "rows": rows,
                              "took": took, "doomed": doomed_id,
                              "failed_blocks": result.extras["ray"]["failed_blocks"]}}),
      flush=True)
ray.shutdown()
cluster.shutdown()
"""


def test_node_removed_mid_run_every_row_present_exactly_once(tmp_path: Path) -> None:
    marks = tmp_path / "marks"
    marks.mkdir()
    script = tmp_path / "two_nodes.py"
    script.write_text(SCRIPT.format(n=N_CASES))
    env = {**os.environ, "DEEPEVAL_DISABLE_DOTENV": "1", "RAY_DEDUP_LOGS": "0"}
    env.pop("RAY_ADDRESS", None)
    done = subprocess.run(
        [sys.executable, str(script), str(marks)],
        capture_output=True,
        text=True,
        timeout=90,
        cwd=tmp_path,
        env=env,
    )
    line = next((x for x in done.stdout.splitlines() if x.startswith("RESULT ")), None)
    assert line is not None, (done.stdout[-1500:], done.stderr[-3000:])
    assert "REMOVED" in done.stdout, "the second node was never busy, so never removed"
    out = json.loads(line.removeprefix("RESULT "))
    inputs = [f"case{i}" for i in range(N_CASES)]
    assert out["index"] == list(range(N_CASES)) and out["inputs"] == inputs
    assert out["rows"] == [[[(zlib.crc32(i.encode()) % 100) / 100, None]] for i in inputs]
    assert out["failed_blocks"] == []
    assert out["took"] < 60, f"the run took {out['took']:.0f} s"
    # measures did run on the removed node before it went
    assert any(name.startswith(out["doomed"]) for name in os.listdir(marks))
