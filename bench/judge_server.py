"""Loopback judge for all benchmarks: an OpenAI-compatible chat-completions server and a TypeSafe-compatible
``/v1/systemone`` server on 127.0.0.1 (both from :mod:`deepeval.testing.servers`), answering with
:mod:`bench.judge_answers` after a fixed latency (default 200 ms).

What it counts (:meth:`BenchJudge.stats`): requests per server, prompt/completion tokens as the servers count
them (chat: whitespace words of all messages / of the reply; System One: ceil(body bytes / 3)), the most requests
in flight at once, the recognised task of every chat request (``fallback.*`` means the brain did not recognise
the prompt), and a per-request timeline (monotonic reply time, server, task) for depth analysis.

Run it on its own to point any client at it::

    python bench/judge_server.py --latency 0.2
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import threading
import time
from collections import Counter as TallyCounter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.judge_answers import answer_chat, answer_system_one
from deepeval.testing import _http
from deepeval.testing.servers import Counters, OpenAIChatServer, SystemOneServer

# The stdlib server listens with a backlog of 5: a burst of new connections (deepeval 4.3.1 opens one per call)
# overflows it and the kernel drops or resets them, which shows up as client timeouts. Benchmarks need a deep
# backlog; this only changes the class attribute read by listen() in this process.
_http._Server.request_queue_size = 1024

BENCH_API_KEY = "bench-loopback-key"
BENCH_MODEL = "bench-judge"


class _NullList(list):  # type: ignore[type-arg]
    """A list that keeps nothing: the servers would otherwise keep every request body (memory at scale)."""

    def append(self, _item: Any) -> None:
        return


def _lean_counters() -> Counters:
    return Counters(authorization=_NullList(), bodies=_NullList())


@dataclass
class Event:
    """One answered request: monotonic reply time (s), server (``llm`` or ``s1``), task, number of questions, and
    ``start``: when the server began handling it (monotonic s, before reading the body; None if unknown)."""

    t: float
    server: str
    task: str
    questions: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    status: int = 200
    start: float | None = None


@dataclass
class Timeline:
    events: list[Event] = field(default_factory=list)
    tasks: TallyCounter[str] = field(default_factory=TallyCounter)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, event: Event) -> None:
        with self.lock:
            self.events.append(event)
            self.tasks[f"{event.server}:{event.task}"] += 1


_task = threading.local()


class _Arrival:
    """Stamps when a handler thread starts on a request (before the body is read), for the request trace."""

    def _handle(self, h: Any, method: str) -> None:
        _task.arrived = time.monotonic()
        super()._handle(h, method)  # type: ignore[misc]


def _arrived() -> float | None:
    return getattr(_task, "arrived", None)


class _LeanChatServer(_Arrival, OpenAIChatServer):
    def __init__(self, *args: Any, timeline: Timeline, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.counters = _lean_counters()
        self.timeline = timeline

    def handle_post(self, path: str, payload: dict[str, Any], raw: bytes) -> tuple[int, Any, tuple[int, int]]:
        _task.name = "invalid"
        status, body, (tin, tout) = super().handle_post(path, payload, raw)
        self.timeline.add(Event(time.monotonic(), "llm", _task.name, 0, tin, tout, status, _arrived()))
        return status, body, (tin, tout)

    def reset_counters(self) -> None:
        with self._lock:
            self.counters = _lean_counters()


def _valid_system_one(payload: dict[str, Any]) -> str | None:
    """Validation as TypeSafe's published request schema (instructions and criteria values may be a string,
    an object or an array; deepeval 4.3.1 sends objects). Returns the first problem or None."""
    if not isinstance(payload.get("model"), str):
        return "model must be a string"
    if not isinstance(payload.get("state"), (str, dict, list)):
        return "state must be a string, object or array"
    qs = payload.get("questions")
    if not isinstance(qs, dict) or not qs:
        return "questions must be a non-empty object"
    for qid, q in qs.items():
        if not isinstance(q, dict) or q.get("type") not in {"noul", "choice", "score"}:
            return f"question {qid}: type must be noul, choice or score"
        if q["type"] == "choice" and (not isinstance(q.get("criteria"), dict) or len(q["criteria"]) < 2):
            return f"question {qid}: choice criteria must have >= 2 options"
        if q["type"] == "score" and (
            not isinstance(q.get("criteria"), list) or not 1 <= len(q["criteria"]) <= 10
        ):
            return f"question {qid}: score criteria must be 1 to 10 levels"
    return None


class _LeanSystemOneServer(_Arrival, SystemOneServer):
    def __init__(self, *args: Any, timeline: Timeline, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.counters = _lean_counters()
        self.timeline = timeline

    def handle_post(self, path: str, payload: dict[str, Any], raw: bytes) -> tuple[int, Any, tuple[int, int]]:
        status, body, (tin, tout) = self._decide_post(payload, raw)
        nq = len(payload.get("questions") or {}) if isinstance(payload.get("questions"), dict) else 0
        self.timeline.add(Event(time.monotonic(), "s1", "decide", nq, tin, tout, status, _arrived()))
        return status, body, (tin, tout)

    def reset_counters(self) -> None:
        with self._lock:
            self.counters = _lean_counters()

    def _decide_post(self, payload: dict[str, Any], raw: bytes) -> tuple[int, Any, tuple[int, int]]:
        problem = _valid_system_one(payload)
        if problem is not None:
            return 422, {"detail": [{"loc": ["body"], "msg": problem, "type": "value_error"}]}, (0, 0)
        model = payload["model"]
        if model not in self.models:
            return 404, {"detail": f"model {model!r} not found"}, (0, 0)
        try:
            answers = self.responder(payload["state"], payload["questions"])
        except Exception as exc:
            self.responder_errors.append(exc)
            return 500, {"detail": f"responder failed: {type(exc).__name__}"}, (0, 0)
        usage = {"input_tokens": math.ceil(len(raw) / 3), "output_tokens": len(answers)}
        body = {"model": self.models[model], "answers": answers, "usage": usage}
        return 200, body, (usage["input_tokens"], usage["output_tokens"])


class BenchJudge:
    """Both loopback servers with the scripted brain. Use as a context manager.

    Args:
        latency: seconds each POST waits before replying (fixed, both servers).
    """

    def __init__(self, latency: float = 0.2) -> None:
        self.latency = latency
        self.timeline = Timeline()
        self.llm = _LeanChatServer(
            self._chat, api_key=BENCH_API_KEY, latency=latency, models=(BENCH_MODEL,), timeline=self.timeline
        )
        self.s1 = _LeanSystemOneServer(
            answer_system_one,
            api_key=BENCH_API_KEY,
            latency=latency,
            models={"jev-latest": "jev-bench", "jev-bench": "jev-bench"},
            timeline=self.timeline,
        )

    @staticmethod
    def _chat(payload: dict[str, Any]) -> dict[str, Any]:
        ans = answer_chat(payload)
        _task.name = ans.task
        content = ans.content if isinstance(ans.content, str) else json.dumps(ans.content)
        return {"content": content}

    def __enter__(self) -> BenchJudge:
        self.llm.start()
        self.s1.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.llm.close()
        self.s1.close()

    def reset(self) -> None:
        """Zero the counters and clear the timeline."""
        self.llm.reset_counters()
        self.s1.reset_counters()
        with self.timeline.lock:
            self.timeline.events.clear()
            self.timeline.tasks.clear()

    def env(self) -> dict[str, str]:
        """Settings that point deepeval 4.3.1 and ours at these servers (documented local-model and TypeSafe
        variables; both implementations read the same names)."""
        return {
            "USE_LOCAL_MODEL": "YES",
            "LOCAL_MODEL_NAME": BENCH_MODEL,
            "LOCAL_MODEL_BASE_URL": self.llm.base_url,
            "LOCAL_MODEL_API_KEY": BENCH_API_KEY,
            "TYPESAFE_API_KEY": BENCH_API_KEY,
            "TYPESAFE_BASE_URL": self.s1.base_url,
            "TYPESAFE_MODEL_NAME": "jev-latest",
        }

    def _events(self, window: tuple[float, float] | None) -> list[Event]:
        with self.timeline.lock:
            events = list(self.timeline.events)
        if window is None:
            return events
        lo, hi = window
        return [e for e in events if lo <= e.t <= hi + 0.05]

    def stats(self, window: tuple[float, float] | None = None) -> dict[str, Any]:
        """Counts over the requests answered inside ``window`` (monotonic seconds; None = since :meth:`reset`).

        ``rejected`` counts requests refused before reaching a handler (e.g. 401), over the whole run only."""
        events = self._events(window)
        llm = [e for e in events if e.server == "llm"]
        s1 = [e for e in events if e.server == "s1"]
        tasks = TallyCounter(f"{e.server}:{e.task}" for e in events)
        out: dict[str, Any] = {
            "llm_calls": len(llm),
            "llm_failed": sum(e.status != 200 for e in llm),
            "llm_tokens_in": sum(e.tokens_in for e in llm),
            "llm_tokens_out": sum(e.tokens_out for e in llm),
            "s1_requests": len(s1),
            "s1_failed": sum(e.status != 200 for e in s1),
            "s1_questions": sum(e.questions for e in s1),
            "s1_tokens_in": sum(e.tokens_in for e in s1),
            "tasks": dict(tasks),
            "unrecognised": sum(v for k, v in tasks.items() if ":fallback" in k or ":invalid" in k),
            "depth": self.observed_depth(events),
        }
        if window is None:
            out["llm_max_in_flight"] = self.llm.counters.max_in_flight
            out["s1_max_in_flight"] = self.s1.counters.max_in_flight
            out["rejected"] = self.llm.counters.requests + self.s1.counters.requests - len(events)
        return out

    def observed_depth(self, events: list[Event]) -> int:
        """Sequential depth of ``events``: a new wave starts when a request began (reply time - latency) after a
        request of the current wave had been answered. With one test case in flight and no queueing this is the
        case's longest chain of dependent judge calls."""
        pairs = sorted((e.t - self.latency, e.t) for e in events)
        depth, wave_first_end = 0, -math.inf
        slack = self.latency * 0.25
        for start, end in pairs:
            if start >= wave_first_end - slack:  # began after a request of the current wave was answered
                depth += 1
                wave_first_end = end
            else:
                wave_first_end = min(wave_first_end, end)
        return depth


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--latency", type=float, default=0.2, help="seconds per reply (default 0.2)")
    args = ap.parse_args(argv)
    with BenchJudge(args.latency) as judge:
        for k, v in judge.env().items():
            print(f"export {k}={v}")
        print("# serving on 127.0.0.1; Ctrl-C to stop", flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
        print(json.dumps(judge.stats(), indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
