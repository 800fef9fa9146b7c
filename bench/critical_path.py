"""The critical path a run achieved, reconstructed from the loopback judge's request timeline.

Each request has a server-side start (when a handler thread began on it) and end (its reply). Walking back from
the last reply of the run, each request's predecessor is the request whose reply came last before it started
(what it may have waited for); the chain's length is the achieved depth. The run's wall time then splits exactly
into:

* ``startup``: from ``evaluate()``'s start to the first request of the chain;
* ``latency``: the judge's fixed latency, once per hop (depth x latency is the bound when depth is the test case's
  own depth);
* ``server``: each hop's time at the server beyond the latency (parsing, the scripted brain, the server's GIL);
* ``gaps``: between a reply and the next request of the chain (the client reading the reply, its own work, any
  waiting or serialisation before the request left, and the transport both ways);
* ``finish``: from the last reply to ``evaluate()``'s return (rows, results).

The predecessor found is the latest reply before the request, so a gap is a lower bound of the real wait for its
true input; a request that left late shows up as a gap. With one test case in flight and no queueing the chain is
the test case's longest chain of dependent calls.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

#: a reply counts as the predecessor of a request that started up to this long before it (clock granularity)
EPS = 0.002


@dataclass(frozen=True, order=True)
class Request:
    start: float
    end: float
    server: str
    task: str


def client_events(calls: Sequence[Sequence[Any]]) -> list[Any]:
    """Events (as the judge's) from the client-side stamps ``(left, back, server)`` of our clients: the same
    trace then says when requests left the client and replies were back in it (transport and the server's own
    accept and parse time move from the gaps into each hop)."""
    from types import SimpleNamespace

    return [SimpleNamespace(start=a, t=b, server=k, task="client") for a, b, k in calls]


def requests_of(events: Sequence[Any], latency: float) -> list[Request]:
    """:class:`Request` rows from the judge's events (start unknown: reply time minus the latency)."""
    return sorted(
        Request(e.start if e.start is not None else e.t - latency, e.t, e.server, e.task) for e in events
    )


def chain(requests: Sequence[Request]) -> list[Request]:
    """The critical chain: from the request answered last, back through the latest reply before each start."""
    if not requests:
        return []
    by_end = sorted(requests, key=lambda r: r.end)
    out = [by_end[-1]]
    while True:
        cur = out[-1]
        pred = None
        for r in reversed(by_end):  # latest reply that came before ``cur`` started
            if r.end <= cur.start + EPS and r is not cur:
                pred = r
                break
        if pred is None:
            break
        out.append(pred)
    out.reverse()
    return out


def trace(events: Sequence[Any], t0: float, t1: float, latency: float) -> dict[str, Any]:
    """The achieved critical path of a run from ``t0`` to ``t1`` (see module docstring), in seconds."""
    reqs = requests_of(events, latency)
    path = chain(reqs)
    if not path:
        return {"depth": 0, "wall": t1 - t0, "startup": t1 - t0, "latency": 0.0, "server": 0.0, "gaps": 0.0,
                "finish": 0.0, "hops": []}  # fmt: skip
    hops = []
    prev_end = t0
    for r in path:
        hops.append(
            {
                "task": f"{r.server}:{r.task}",
                "gap_before": r.start - prev_end,
                "service": r.end - r.start,
                "start": r.start - t0,
                "end": r.end - t0,
            }
        )
        prev_end = r.end
    service = sum(h["service"] for h in hops)
    return {
        "depth": len(path),
        "wall": t1 - t0,
        "startup": hops[0]["gap_before"],
        "latency": latency * len(path),
        "server": service - latency * len(path),
        "gaps": sum(h["gap_before"] for h in hops[1:]),
        "finish": t1 - path[-1].end,
        "hops": hops,
        "requests": len(reqs),
        "first_start": reqs[0].start - t0,
        "starts": [round(r.start - t0, 4) for r in reqs],
    }


def summary(tr: dict[str, Any], bound_s: float) -> str:
    """One line: wall over bound and where the excess went (ms)."""
    if not tr["hops"]:
        return f"no requests; wall {tr['wall'] * 1e3:.0f} ms"
    ms = {k: tr[k] * 1e3 for k in ("wall", "startup", "latency", "server", "gaps", "finish")}
    hops = " > ".join(
        f"{h['task']}(+{h['gap_before'] * 1e3:.0f}, {h['service'] * 1e3:.0f})" for h in tr["hops"]
    )
    return (
        f"wall {ms['wall']:.0f} ms = startup {ms['startup']:.0f} + latency {ms['latency']:.0f} "
        f"({tr['depth']} hops) + server {ms['server']:.0f} + gaps {ms['gaps']:.0f} + finish {ms['finish']:.0f}; "
        f"bound {bound_s * 1e3:.0f} ms | chain: {hops}"
    )
