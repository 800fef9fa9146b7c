"""Judge-client benchmark: our OpenAIModel and TypeSafeModel against the loopback servers (no network).

Measures, per scenario: wall time, completed calls per second, client overhead per call (wall x concurrency /
calls - server latency), retries, the adaptive limiter's final cap, and the server's peak concurrency.

Scenarios:
  chat-structured   OpenAIModel.a_generate(prompt, Schema) (json_schema rung), server latency L
  chat-429-storm    same, 30% of requests answered 429 with retry-after-ms 50 (seeded)
  systemone         TypeSafeModel.a_decide with 3 questions (noul, choice, score), server latency L

Usage: python bench/judge_clients.py [--calls 400] [--concurrency 16] [--latency 0.02]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pydantic import BaseModel

from deepeval.models import OpenAIModel, TypeSafeModel
from deepeval.models.http.retry import RetryPolicy
from deepeval.models.system_one import ChoiceQuestion, NoulQuestion, ScoreQuestion
from deepeval.models.usage import track_usage
from deepeval.testing.servers import (
    Fault,
    OpenAIChatServer,
    SystemOneServer,
    wire_choice,
    wire_noul,
    wire_score,
)

KEY = "bench-key-not-secret"


class Verdicts(BaseModel):
    verdicts: list[str]
    reason: str


def _chat_reply(req: dict[str, Any]) -> dict[str, Any]:
    return {"content": {"verdicts": ["yes", "no", "yes"], "reason": "two of three statements are relevant"}}


def _s1_reply(state: Any, questions: dict[str, Any]) -> dict[str, Any]:
    return {
        "n": wire_noul(0.8),
        "c": wire_choice({"a": 0.7, "b": 0.3}),
        "s": wire_score([0.1, 0.2, 0.3, 0.4], legend=questions["s"]["criteria"]),
    }


async def _drive(make_call: Any, calls: int, concurrency: int) -> tuple[float, int]:
    queue = list(range(calls))
    done = 0

    async def worker() -> None:
        nonlocal done
        while queue:
            i = queue.pop()
            await make_call(i)
            done += 1

    t0 = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return time.perf_counter() - t0, done


def _row(name: str, wall: float, done: int, latency: float, concurrency: int, **extra: Any) -> dict[str, Any]:
    overhead_ms = (wall * concurrency / max(done, 1) - latency) * 1000
    return {
        "scenario": name,
        "calls": done,
        "wall_s": round(wall, 3),
        "calls_per_s": round(done / wall, 1),
        "overhead_ms_per_call": round(overhead_ms, 2),
        **extra,
    }


def run_chat(calls: int, concurrency: int, latency: float, storm: bool) -> dict[str, Any]:
    kwargs: dict[str, Any] = {"latency": latency, "keep_bodies": False, "api_key": KEY}
    if storm:
        kwargs.update(failure_rate=0.3, failure=Fault.rate_limited(retry_after_ms=50), seed=1)
    with OpenAIChatServer(_chat_reply, **kwargs) as srv:
        model = OpenAIModel(
            api_key=KEY,
            base_url=srv.base_url,
            max_concurrency=concurrency,
            retry_policy=RetryPolicy(max_retries=10, timeout=10, base_delay=0.01, max_delay=0.1),
        )

        async def call(i: int) -> None:
            result, _ = await model.a_generate(f"statements #{i}", Verdicts)
            assert result.verdicts == ["yes", "no", "yes"]

        async def main() -> tuple[float, int]:
            try:
                return await _drive(call, calls, concurrency)
            finally:
                await model.aclose()

        with track_usage() as usage:
            wall, done = asyncio.run(main())
        return _row(
            "chat-429-storm" if storm else "chat-structured",
            wall,
            done,
            latency,
            concurrency,
            retries=usage.retries,
            server_requests=srv.counters.requests,
            server_peak_in_flight=srv.counters.max_in_flight,
            limiter_final_cap=model.limiter.cap,
            input_tokens=usage.input_tokens,
        )


def run_systemone(calls: int, concurrency: int, latency: float) -> dict[str, Any]:
    questions = {
        "n": NoulQuestion(instructions="Is every statement relevant?"),
        "c": ChoiceQuestion(instructions="Which?", options={"a": None, "b": None}),
        "s": ScoreQuestion(instructions="How much?", levels=["none", "under half", "most", "all"]),
    }
    with SystemOneServer(_s1_reply, latency=latency, keep_bodies=False, api_key=KEY) as srv:
        model = TypeSafeModel(api_key=KEY, base_url=srv.base_url, max_concurrency=concurrency)

        async def call(i: int) -> None:
            answers, _ = await model.a_decide({"input": f"q{i}", "actual_output": "a"}, questions)
            assert not answers.missing(questions)

        async def main() -> tuple[float, int]:
            try:
                return await _drive(call, calls, concurrency)
            finally:
                await model.aclose()

        with track_usage() as usage:
            wall, done = asyncio.run(main())
        return _row(
            "systemone",
            wall,
            done,
            latency,
            concurrency,
            retries=usage.retries,
            server_requests=srv.counters.requests,
            server_peak_in_flight=srv.counters.max_in_flight,
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--calls", type=int, default=400)
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--latency", type=float, default=0.02, help="server latency per request, seconds")
    args = ap.parse_args()
    rows = [
        run_chat(args.calls, args.concurrency, args.latency, storm=False),
        run_chat(args.calls, args.concurrency, args.latency, storm=True),
        run_systemone(args.calls, args.concurrency, args.latency),
    ]
    for row in rows:
        print(json.dumps(row))


if __name__ == "__main__":
    main()
