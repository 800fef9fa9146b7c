"""Client cost of a burst: ``n`` concurrent structured calls through our ``LocalModel`` to the loopback judge.

Isolates what bounds a wide level of judge calls (KnowledgeRetention sends ~100 at once): the judge answers after
a fixed latency, so a wave's wall time above that latency is the client's work on its one event loop. The judge
runs in this process, the client in a child process, so the child's CPU time is the client's alone.

Usage::

    python bench/client_burst.py                       # 100 calls per wave, 8 waves, 200 ms latency (aiohttp)
    python bench/client_burst.py --http-client httpx   # the openai SDK's httpx transport (DEEPEVAL_HTTP_CLIENT)
    python bench/client_burst.py --profile             # also print the child's top functions by own time
    python bench/client_burst.py --compare             # both transports in one run, with the ratio

Prints one line: min / median wall per wave and client CPU per call (the first wave, which opens the
connections, is reported on its own and left out of the min / median).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def _cpu_s() -> float:
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return ru.ru_utime + ru.ru_stime


async def _child(n: int, waves: int, max_concurrency: int) -> dict[str, Any]:
    from deepeval.metrics._engine.extractor import Statements, statements_prompt
    from deepeval.models import LocalModel

    model = LocalModel(max_concurrency=max_concurrency)  # transport: DEEPEVAL_HTTP_CLIENT, set by the parent
    walls: list[float] = []
    cpus: list[float] = []
    for wave in range(waves + 1):
        prompts = [
            statements_prompt(f"Wave {wave}, text {i}. My name is Bob. I live in Paris.") for i in range(n)
        ]
        c0, t0 = _cpu_s(), time.monotonic()
        await asyncio.gather(*(model.a_generate(p, Statements) for p in prompts))
        walls.append(time.monotonic() - t0)
        cpus.append(_cpu_s() - c0)
    await model.aclose()
    return {"walls": walls, "cpus": cpus}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=100, help="concurrent calls per wave (default 100)")
    ap.add_argument("--waves", type=int, default=8, help="measured waves after the first (default 8)")
    ap.add_argument("--latency", type=float, default=0.2, help="judge latency in seconds (default 0.2)")
    ap.add_argument("--http-client", choices=["aiohttp", "httpx"], default="aiohttp")
    ap.add_argument("--profile", action="store_true", help="cProfile the child; print its top 30 by own time")
    ap.add_argument(
        "--compare", action="store_true", help="run both transports, one after the other; print ratios"
    )
    ap.add_argument("--max-concurrency", type=int, default=256, help="the client's limiter cap (default 256)")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        if args.profile:
            import cProfile
            import pstats

            prof = cProfile.Profile()
            result = prof.runcall(asyncio.run, _child(args.n, args.waves, args.max_concurrency))
            pstats.Stats(prof, stream=sys.stderr).sort_stats("tottime").print_stats(30)
        else:
            result = asyncio.run(_child(args.n, args.waves, args.max_concurrency))
        print(json.dumps(result))
        return 0
    from bench.judge_server import BenchJudge

    transports = ["aiohttp", "httpx"] if args.compare else [args.http_client]
    child_argv = [a for a in (argv if argv is not None else sys.argv[1:]) if a != "--compare"]
    rows: dict[str, tuple[float, float]] = {}
    with BenchJudge(args.latency) as judge:
        for (
            transport
        ) in transports:  # one after the other against the same judge, so the ratio is like for like
            proc = subprocess.run(
                [sys.executable, str(Path(__file__).resolve()), "--child", *child_argv],
                env={**os.environ, **judge.env(), "DEEPEVAL_HTTP_CLIENT": transport},
                capture_output=True,
                text=True,
                check=False,
            )
            if proc.returncode != 0:
                print(proc.stderr[-2000:], file=sys.stderr)
                return proc.returncode
            if args.profile:
                print(proc.stderr[:6000], file=sys.stderr)
            r = json.loads(proc.stdout.strip().splitlines()[-1])
            walls, per_call = r["walls"][1:], [c / args.n * 1000 for c in r["cpus"][1:]]
            rows[transport] = (statistics.median(walls), statistics.median(per_call))
            print(
                f"{transport} client, {args.n} concurrent calls, {args.latency * 1000:.0f} ms latency: wave wall "
                f"min {min(walls):.3f} s, median {statistics.median(walls):.3f} s; client CPU per call min "
                f"{min(per_call):.2f} ms, median {statistics.median(per_call):.2f} ms (first wave {r['walls'][0]:.3f} s)"
            )
    if len(rows) == 2:
        (aw, ac), (hw, hc) = rows["aiohttp"], rows["httpx"]
        print(f"ratio aiohttp / httpx: wave wall {aw / hw:.2f}, client CPU per call {ac / hc:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
