"""TurnRelevancy on long conversations, ours and deepeval 4.3.1 side by side: judge calls, characters sent to the
judge (the cost: input tokens grow with them), wall time and peak Python memory (tracemalloc) at 1,000 to 10,000
turns, window_size 10, llm mode, with an in-process scripted judge (no network, no latency: the numbers are the
metric's own work).

    python bench/conversation_scale.py            # runs both implementations (4.3.1 from bench/.venvs), prints a table
    python bench/conversation_scale.py --worker   # one implementation, prints JSON (what the driver runs)

Only the standard library and ``deepeval`` are imported by the worker, so the same file runs under both.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

SIZES = (1_000, 2_000, 5_000, 10_000)


def worker() -> dict[str, Any]:
    import asyncio
    import warnings

    from deepeval.metrics import TurnRelevancyMetric
    from deepeval.models import DeepEvalBaseLLM
    from deepeval.test_case import ConversationalTestCase, Turn

    warnings.simplefilter("ignore")

    class Judge(DeepEvalBaseLLM):
        def __init__(self) -> None:
            self.calls = 0
            self.chars = 0
            super().__init__("scale-judge")

        def load_model(self, *args: Any, **kwargs: Any) -> None:
            return None

        def get_model_name(self, *args: Any, **kwargs: Any) -> str:
            return "scale-judge"

        def generate(self, prompt: str, schema: Any = None) -> Any:
            self.calls += 1
            self.chars += len(prompt)
            data = {"verdict": "yes", "reason": "relevant"}
            return schema.model_validate(data) if schema is not None else json.dumps(data)

        async def a_generate(self, prompt: str, schema: Any = None) -> Any:
            return self.generate(prompt, schema)

    out: dict[str, Any] = {}
    for n in SIZES:
        turns = [
            Turn(role="user" if i % 2 == 0 else "assistant", content=f"message {i} about the order")
            for i in range(n)
        ]
        case = ConversationalTestCase(turns=turns)
        judge = Judge()
        metric = TurnRelevancyMetric(model=judge, eval_mode="llm", include_reason=False, window_size=10)
        tracemalloc.start()
        started = time.perf_counter()
        asyncio.run(metric.a_measure(case))
        wall = time.perf_counter() - started
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        out[str(n)] = {
            "score": metric.score,
            "calls": judge.calls,
            "chars": judge.chars,
            "wall_s": round(wall, 3),
            "peak_mb": round(peak / 1e6, 1),
        }
    return out


def main() -> None:
    if "--worker" in sys.argv:
        print(json.dumps(worker()))
        return
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from bench.harness import deepeval_python

    results = {}
    for impl, python in (("ours", Path(sys.executable)), ("deepeval 4.3.1", deepeval_python())):
        env_src = (
            [] if impl != "ours" else ["env", f"PYTHONPATH={Path(__file__).resolve().parents[1] / 'src'}"]
        )
        proc = subprocess.run(
            [*env_src, str(python), __file__, "--worker"], capture_output=True, text=True, check=True
        )
        results[impl] = json.loads(proc.stdout.strip().splitlines()[-1])
    print("| turns | impl | judge calls | chars sent | wall s | peak MB |")
    print("|---|---|---|---|---|---|")
    for n in SIZES:
        for impl, rows in results.items():
            r = rows[str(n)]
            print(f"| {n:,} | {impl} | {r['calls']:,} | {r['chars']:,} | {r['wall_s']} | {r['peak_mb']} |")


if __name__ == "__main__":
    main()
