"""Client CPU per judge call, layer by layer: where the ~1 ms of a structured call goes.

The same chat-completions request, 100 at a time against the loopback judge, sent through four stacks in one run:

1. ``LocalModel.a_generate(prompt, schema)``: our client (prompt, limiter, retries, parsing, usage);
2. the openai SDK's ``AsyncOpenAI.post`` on its aiohttp transport (what our client calls);
3. the SDK's httpx2-style ``DefaultAioHttpClient.post`` alone (no SDK request machinery);
4. a bare ``aiohttp.ClientSession.post``.

Prints the median client CPU per call of each (the judge runs in this process's threads but is idle between
replies; the first wave, which opens connections, is left out) and each layer's share.

Usage: ``python bench/client_layers.py [--n 100] [--waves 6]``
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import statistics
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def _cpu_s() -> float:
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return ru.ru_utime + ru.ru_stime


async def _per_call_ms(call: Callable[[int], Awaitable[Any]], n: int, waves: int) -> float:
    samples = []
    for wave in range(waves + 1):
        c0 = _cpu_s()
        await asyncio.gather(*(call(i) for i in range(n)))
        if wave:
            samples.append((_cpu_s() - c0) / n * 1000)
    return statistics.median(samples)


async def _run(env: dict[str, str], n: int, waves: int) -> list[tuple[str, float]]:
    import aiohttp
    import openai

    from deepeval.metrics._engine.extractor import Statements, statements_prompt
    from deepeval.models import LocalModel

    base, key, name = env["LOCAL_MODEL_BASE_URL"], env["LOCAL_MODEL_API_KEY"], env["LOCAL_MODEL_NAME"]
    prompt = statements_prompt("My name is Bob. I live in Paris.")
    body = {
        "model": name,
        "messages": [{"role": "user", "content": prompt}],
        "response_format": {"type": "json_object"},
    }
    headers = {"Authorization": f"Bearer {key}"}
    out = []

    model = LocalModel()
    out.append(
        (
            "LocalModel.a_generate",
            await _per_call_ms(lambda i: model.a_generate(prompt, Statements), n, waves),
        )
    )
    await model.aclose()

    sdk = openai.AsyncOpenAI(
        api_key=key, base_url=base, max_retries=0, http_client=openai.DefaultAioHttpClient()
    )
    out.append(
        (
            "SDK AsyncOpenAI.post (aiohttp)",
            await _per_call_ms(lambda i: sdk.post("/chat/completions", cast_to=str, body=body), n, waves),
        )
    )
    await sdk.close()

    hx = openai.DefaultAioHttpClient()
    out.append(
        (
            "SDK DefaultAioHttpClient.post",
            await _per_call_ms(
                lambda i: hx.post(f"{base}/chat/completions", json=body, headers=headers), n, waves
            ),
        )
    )
    await hx.aclose()

    async with aiohttp.ClientSession() as session:

        async def bare(i: int) -> str:
            async with session.post(f"{base}/chat/completions", json=body, headers=headers) as reply:
                return await reply.text()

        out.append(("aiohttp.ClientSession.post", await _per_call_ms(bare, n, waves)))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=100, help="concurrent calls per wave (default 100)")
    ap.add_argument("--waves", type=int, default=6, help="measured waves per stack (default 6)")
    ap.add_argument("--latency", type=float, default=0.05, help="judge latency in seconds (default 0.05)")
    args = ap.parse_args(argv)
    from bench.judge_server import BenchJudge

    with BenchJudge(args.latency) as judge:
        env = judge.env()
        os.environ.update(env)
        rows = asyncio.run(_run(env, args.n, args.waves))
    full = rows[0][1]
    print(f"client CPU per call, {args.n} concurrent calls, median of {args.waves} waves:")
    for label, ms in rows:
        print(f"  {label:32s} {ms:5.2f} ms  ({ms / full:4.0%} of LocalModel)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
