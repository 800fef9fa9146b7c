"""The loopback servers themselves: wire format, faults, counters (clients are tested elsewhere)."""

from __future__ import annotations

import concurrent.futures
import json
import threading
import time

import httpx
import pytest

from deepeval.testing.servers import (
    Fault,
    OpenAIChatServer,
    SystemOneReply,
    SystemOneServer,
    wire_choice,
    wire_score,
)


def _chat(url: str, body: dict, **kw) -> httpx.Response:
    kw.setdefault("timeout", 5)
    return httpx.post(f"{url}/chat/completions", json=body, **kw)


BASIC = {"model": "gpt-5.4", "messages": [{"role": "user", "content": "say hello twice"}]}


def test_openai_basic_reply_usage_and_counters() -> None:
    with OpenAIChatServer(lambda req: "hello hello", api_key="sk-abc") as srv:
        r = _chat(srv.base_url, BASIC, headers={"Authorization": "Bearer sk-abc"})
        assert r.status_code == 200
        body = r.json()
        assert body["choices"][0]["message"]["content"] == "hello hello"
        assert body["usage"] == {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}
        assert srv.counters.requests == 1
        assert srv.counters.input_tokens == 3 and srv.counters.output_tokens == 2
        assert srv.counters.authorization == ["Bearer sk-abc"]
        bad = _chat(srv.base_url, BASIC, headers={"Authorization": "Bearer wrong"})
        assert bad.status_code == 401
        assert bad.json()["error"]["type"] == "authentication_error"
        models = httpx.get(f"{srv.base_url}/models").json()
        assert [m["id"] for m in models["data"]] == ["gpt-5.4", "gpt-4.1", "gpt-4o-mini"]


def test_openai_response_format_support_and_dict_content() -> None:
    with OpenAIChatServer(lambda req: {"content": {"a": 1}}, supported_formats=["json_object"]) as srv:
        schema_rf = {"type": "json_schema", "json_schema": {"name": "X", "schema": {"type": "object"}}}
        r = _chat(srv.base_url, {**BASIC, "response_format": schema_rf})
        assert r.status_code == 400
        assert r.json()["error"]["param"] == "response_format"
        r = _chat(srv.base_url, {**BASIC, "response_format": {"type": "json_object"}})
        assert json.loads(r.json()["choices"][0]["message"]["content"]) == {"a": 1}
        assert srv.response_formats_seen == ["json_schema", "json_object"]


def test_openai_tool_calls_in_the_wire_format() -> None:
    import openai

    def respond(req: dict) -> dict:
        if req["messages"][-1]["role"] == "tool":
            return {"content": "recorded"}
        return {"tool_calls": [{"name": "wiki_write_page", "arguments": {"name": "Team", "content": "Bo leads."}},
                               {"id": "given-7", "type": "function",
                                "function": {"name": "wiki_list_pages", "arguments": "{}"}}]}  # fmt: skip

    tools = [{"type": "function", "function": {"name": "wiki_write_page", "parameters": {"type": "object"}}}]
    with OpenAIChatServer(respond) as srv:
        raw = _chat(srv.base_url, {**BASIC, "tools": tools}).json()["choices"][0]
        assert raw["finish_reason"] == "tool_calls" and raw["message"]["content"] is None
        calls = raw["message"]["tool_calls"]
        assert calls[0]["type"] == "function" and calls[0]["id"].startswith("call_")
        assert json.loads(calls[0]["function"]["arguments"]) == {"name": "Team", "content": "Bo leads."}
        assert calls[1] == {"id": "given-7", "type": "function",
                            "function": {"name": "wiki_list_pages", "arguments": "{}"}}  # fmt: skip
        # the openai SDK parses the reply into its tool-call objects
        sdk = openai.OpenAI(base_url=srv.base_url, api_key="sk-test", max_retries=0)
        msg = (
            sdk.chat.completions.create(model="m", messages=BASIC["messages"], tools=tools).choices[0].message
        )
        assert [c.function.name for c in msg.tool_calls or []] == ["wiki_write_page", "wiki_list_pages"]
        follow = [*BASIC["messages"], msg.model_dump(exclude_none=True),
                  {"role": "tool", "tool_call_id": msg.tool_calls[0].id, "content": "ok"}]  # type: ignore[index]  # fmt: skip
        again = sdk.chat.completions.create(model="m", messages=follow, tools=tools).choices[0]
        assert again.message.content == "recorded" and again.finish_reason == "stop"
        assert srv.counters.bodies[2]["messages"][-1]["tool_call_id"] == msg.tool_calls[0].id  # type: ignore[index]


def test_openai_logprobs_ranked_and_truncated() -> None:
    lp = [{"No": -1.2, "Yes": -0.4, " yes": -3.0}]
    with OpenAIChatServer(lambda req: {"content": "Yes", "logprobs": lp}) as srv:
        r = _chat(srv.base_url, {**BASIC, "logprobs": True, "top_logprobs": 2})
        content = r.json()["choices"][0]["logprobs"]["content"]
        assert content[0]["token"] == "Yes" and content[0]["logprob"] == -0.4
        assert [t["token"] for t in content[0]["top_logprobs"]] == ["Yes", "No"]


def test_openai_scripted_faults_in_order() -> None:
    faults = [
        Fault.rate_limited(retry_after=0.25, retry_after_ms=250),
        Fault.server_error(503),
        Fault.non_json(),
        Fault.drop_field("choices"),
    ]
    with OpenAIChatServer(faults=faults) as srv:
        r1 = _chat(srv.base_url, BASIC)
        assert r1.status_code == 429
        assert r1.headers["retry-after"] == "0.25" and r1.headers["retry-after-ms"] == "250"
        assert _chat(srv.base_url, BASIC).status_code == 503
        r3 = _chat(srv.base_url, BASIC)
        assert r3.status_code == 200 and r3.text.startswith("<html>")
        r4 = _chat(srv.base_url, BASIC)
        assert r4.status_code == 200 and "choices" not in r4.json() and "usage" in r4.json()
        assert _chat(srv.base_url, BASIC).json()["choices"][0]["message"]["content"] == "ok"
        assert srv.counters.requests == 5 and srv.counters.faults_served == 4 and srv.pending_faults == 0


def test_openai_slow_fault_and_disconnect() -> None:
    with OpenAIChatServer(faults=[Fault.slow(1.0), Fault.disconnect()]) as srv:
        with pytest.raises(httpx.ReadTimeout):
            httpx.post(f"{srv.base_url}/chat/completions", json=BASIC, timeout=0.2)
        with pytest.raises(httpx.HTTPError):
            httpx.post(f"{srv.base_url}/chat/completions", json=BASIC, timeout=2)
        assert _chat(srv.base_url, BASIC).status_code == 200


def test_failure_rate_is_seeded() -> None:
    def run() -> list[int]:
        with OpenAIChatServer(failure_rate=0.5, failure=Fault.server_error(502), seed=7) as srv:
            with httpx.Client(timeout=5) as http:
                url = f"{srv.base_url}/chat/completions"
                return [http.post(url, json=BASIC).status_code for _ in range(12)]

    first = run()
    assert first == run()
    assert set(first) == {200, 502}


def _settle(srv: OpenAIChatServer) -> None:
    # A handler thread counts itself out just after its reply is written, so a client can see the reply first.
    deadline = time.monotonic() + 5
    while srv.counters.in_flight and time.monotonic() < deadline:
        time.sleep(0.01)


def test_max_in_flight_counts_concurrency() -> None:
    # Each reply waits at a barrier until all 4 requests are inside the server, so the 4 are provably in flight
    # together however slow the machine is (a server that handled them one at a time breaks the barrier: 500s).
    barrier = threading.Barrier(4, timeout=20)

    def held(_req: dict) -> str:
        barrier.wait()
        return "ok"

    with OpenAIChatServer(held) as srv:
        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            codes = list(pool.map(lambda _: _chat(srv.base_url, BASIC, timeout=30).status_code, range(4)))
        assert codes == [200] * 4, srv.responder_errors
        _settle(srv)
        assert srv.counters.max_in_flight == 4 and srv.counters.in_flight == 0
        # one at a time afterwards: the high-water mark stays, nothing is left counted in flight
        barrier = threading.Barrier(1)
        assert [_chat(srv.base_url, BASIC).status_code for _ in range(2)] == [200, 200]
        _settle(srv)
        assert (srv.counters.max_in_flight, srv.counters.in_flight, srv.counters.requests) == (4, 0, 6)


def test_close_interrupts_slow_reply() -> None:
    srv = OpenAIChatServer(faults=[Fault.slow(30)]).start()
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        fut = pool.submit(lambda: httpx.post(f"{srv.base_url}/chat/completions", json=BASIC, timeout=10))
        time.sleep(0.1)
        t0 = time.perf_counter()
        srv.close()
        with pytest.raises(httpx.HTTPError):
            fut.result()
    assert time.perf_counter() - t0 < 2


# ---- System One ------------------------------------------------------------------------------------------------

QS = {
    "a": {"type": "noul", "instructions": "Is it relevant?", "criteria": {"true": "yes", "false": "no"}},
    "b": {"type": "choice", "instructions": "Pick", "criteria": {"x": None, "y": "the y"}},
    "c": {"type": "score", "instructions": "Grade", "criteria": ["bad", "ok", "good"]},
}


def _s1(url: str, body: dict, key: str | None = "k-1") -> httpx.Response:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    return httpx.post(f"{url}/v1/systemone", json=body, headers=headers, timeout=5)


def test_systemone_answers_usage_and_missing() -> None:
    def responder(state, questions):
        assert state == {"text": "hi"}
        return {"a": 0.8, "c": wire_score([0.1, 0.2, 0.7], legend=questions["c"]["criteria"])}

    with SystemOneServer(responder, api_key="k-1") as srv:
        body = {"model": "jev-latest", "state": {"text": "hi"}, "questions": QS}
        r = _s1(srv.base_url, body)
        assert r.status_code == 200
        data = r.json()
        assert data["model"] == "jev-2026-10-01"
        assert data["answers"]["a"] == {"type": "noul", "noul": 0.8}
        assert "b" not in data["answers"]
        assert data["answers"]["c"]["score"] == pytest.approx(1.6)
        assert data["answers"]["c"]["confidence"] == pytest.approx((0.7 - 1 / 3) / (2 / 3))
        assert data["usage"]["output_tokens"] == 2
        assert data["usage"]["input_tokens"] == srv.counters.input_tokens > 0


def test_systemone_errors() -> None:
    with SystemOneServer(api_key="k-1", faults=[Fault.http_status(403)]) as srv:
        good = {"model": "jev-latest", "state": "s", "questions": QS}
        assert _s1(srv.base_url, good).status_code == 403
        # as the live API: no key -> 403, a key it did not issue -> 401
        r = _s1(srv.base_url, good, key=None)
        assert r.status_code == 403 and r.json()["detail"]["error_type"] == "authentication_error"
        r = _s1(srv.base_url, good, key="k-2")
        assert r.status_code == 401 and r.json()["detail"]["error_type"] == "authentication_error"
        r = _s1(srv.base_url, {**good, "model": "jev-0"})
        assert r.status_code == 400
        assert r.json() == {"detail": {"error_type": "api_usage_error", "message": "Unknown model: jev-0"}}
        assert r.headers["x-typesafe-request-id"] == srv.request_ids[-1]
        assert len(set(srv.request_ids)) == len(srv.request_ids) == 4
        bad_q = {"q": {"type": "noul", "instructions": "x", "kind": "statement_relevant"}}
        r = _s1(srv.base_url, {**good, "questions": bad_q})
        assert r.status_code == 422
        assert r.json()["detail"][0]["loc"] == ["body", "questions", "q", "kind"]
        r = _s1(srv.base_url, {**good, "questions": {"q": {"type": "score", "criteria": ["one"]}}})
        assert r.status_code == 422
        assert srv.counters.replied_ok == 0


def test_systemone_reply_override_and_models() -> None:
    reply = SystemOneReply(
        {"b": wire_choice({"x": 0.25, "y": 0.75})},
        usage={"input_tokens": 10, "output_tokens": 0},
        model="jev-x",
    )
    with SystemOneServer(lambda s, q: reply) as srv:
        data = _s1(srv.base_url, {"model": "jev-latest", "state": [1, 2], "questions": QS}).json()
        assert data["model"] == "jev-x"
        assert data["answers"]["b"]["choice"] == "y"
        assert data["answers"]["b"]["confidence"] == pytest.approx(0.5)
        assert data["usage"] == {"input_tokens": 10, "output_tokens": 0}
        # the live shape: {"models": [{"name", "description", "release_date"}]}
        models = httpx.get(f"{srv.base_url}/v1/models").json()["models"]
        assert [m["name"] for m in models] == ["jev-latest", "jev-2026-10-01"]
        assert all(set(m) == {"name", "description", "release_date"} for m in models)
