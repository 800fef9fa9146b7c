"""The real-model benchmark's own logic (bench/real_model.py, bench/llama_server.py): aligning judged statements
with labelled ones, the counting proxy over real loopback HTTP (a llama.cpp-shaped upstream), and the summary. No
model is loaded."""

from __future__ import annotations

import json
import sys
import threading
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from bench import llama_server as ls  # noqa: E402
from bench import real_model as rm  # noqa: E402

LABELLED = [
    {
        "text": "Yes, Brightwave Flex includes roaming in Canada and Mexico at no extra charge.",
        "label": "relevant",
    },
    {
        "text": "Roaming data is capped at 5 GB per month, after which speeds drop to 256 kbps.",
        "label": "relevant",
    },
    {"text": "Let me know if there's anything else I can do for you!", "label": "irrelevant"},
]


def test_judged_statements_are_read_onto_the_labelled_ones_they_cover() -> None:
    # the 1.5B model's actual split of ar-001 in hybrid mode: two sentences merged, the sign-off kept
    merged = [
        {
            "statement": "Yes, Brightwave Flex includes roaming in Canada and Mexico at no extra charge. Roaming data "
            "is capped at 5 GB per month, after which speeds drop to 256 kbps.",
            "verdict": "yes",
        },
        {"statement": "Let me know if there's anything else I can do for you!", "verdict": "no"},
    ]
    assert rm.aligned_verdicts(LABELLED, merged, by_node=False) == [True, True, False]
    # deepeval's split of the same answer: the sign-off dropped, the cap rewritten and judged "no"
    dropped = [
        {
            "statement": "Brightwave Flex includes roaming in Canada and Mexico at no extra charge.",
            "verdict": "yes",
        },
        {"statement": "Roaming data is capped at 5 GB per month, then 256 kbps.", "verdict": "no"},
    ]
    assert rm.aligned_verdicts(LABELLED, dropped, by_node=False) == [True, False, None]
    # borderline and idk count as relevant (the score counts them so); half the votes suffice
    split = [
        {"statement": "Roaming data is capped at 5 GB per month.", "verdict": "idk"},
        {"statement": "After the cap, speeds drop to 256 kbps.", "verdict": "no"},
    ]
    assert rm.aligned_verdicts(LABELLED, split, by_node=False)[1] is True
    # contextual relevancy: only statements of the same node count
    nodes = [{**LABELLED[0], "node": 0}, {**LABELLED[0], "node": 1}]
    units = [{"node": 1, "statement": LABELLED[0]["text"], "verdict": "no"}]
    assert rm.aligned_verdicts(nodes, units, by_node=True) == [None, False]


def test_items_are_spread_over_the_file_and_expected_scores_follow_the_labels() -> None:
    assert rm.spread(list(range(10)), 3) == [0, 3, 6]
    assert rm.spread(list(range(3)), 5) == [0, 1, 2]
    ids = [d["id"] for d in rm.load_items("answer_relevancy", "blind_dev", 10**6)]
    assert [d["id"] for d in rm.load_items("answer_relevancy", "blind_dev", 3, "first")] == ids[:3]
    assert [d["id"] for d in rm.load_items("answer_relevancy", "blind_dev", 3)] == [
        ids[0],
        ids[21],
        ids[42],
    ]  # of 64
    assert rm.expected_score("answer_relevancy", {"statements": LABELLED}) == pytest.approx(2 / 3)
    kr = {
        "labels": [
            {"turn": 1, "label": "keeps"},
            {"turn": 3, "label": "forgets"},
            {"turn": 5, "label": "keeps"},
        ]
    }
    assert rm.expected_score("knowledge_retention", kr) == pytest.approx(2 / 3)


def _reply(content: str, *, prompt: int = 300, cached: int = 250, completion: int = 12) -> bytes:
    return json.dumps(
        {
            "choices": [{"message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": prompt, "completion_tokens": completion},
            "timings": {"cache_n": cached, "prompt_n": prompt - cached},
        }
    ).encode()


def test_one_exchange_is_counted_from_the_reply_llama_cpp_sends() -> None:
    request = {
        "messages": [{"role": "user", "content": "Judge this."}],
        "response_format": {"type": "json_schema"},
    }
    got = ls.measure_exchange(request, 200, _reply('{"verdict": "yes"}'), 1.5)
    assert {
        k: got[k] for k in ("requests", "prompt_tokens", "cached_tokens", "completion_tokens", "not_json")
    } == {
        "requests": 1,
        "prompt_tokens": 300,
        "cached_tokens": 250,
        "completion_tokens": 12,
        "not_json": 0,
    }
    reask = {"messages": [{"role": "user", "content": f"Judge this.\n\n{ls.REASK_MARK}x)"}]}
    got = ls.measure_exchange(reask, 200, _reply('```json\n{"a": 1}\n```'), 0.1)
    assert got["reasks"] == 1 and got["not_json"] == 0  # a fenced JSON reply is JSON
    assert ls.measure_exchange(reask, 200, _reply("Sure! Here it is"), 0.1)["not_json"] == 1
    logprob = {"messages": [{"role": "user", "content": "Yes or No?"}], "logprobs": True}
    got = ls.measure_exchange(logprob, 200, _reply("Yes"), 0.1)
    assert got["logprob_requests"] == 1 and got.get("not_json", 0) == 0  # a one-word answer is what it asked
    got = ls.measure_exchange(request, 500, b"upstream broke", 0.1)
    assert got["http_errors"] == 1 and got["log"]["reply"] == "upstream broke"


class _Upstream(BaseHTTPRequestHandler):
    """A llama.cpp-shaped server that wants its own key and answers every chat request with one JSON reply."""

    protocol_version = "HTTP/1.1"
    key = "upstream-key"
    seen: ClassVar[list[str]] = []

    def log_message(self, format: str, *args: Any) -> None:
        return

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        type(self).seen.append(self.headers.get("Authorization", ""))
        ok = self.headers.get("Authorization") == f"Bearer {self.key}"
        reply = _reply('{"verdicts": []}') if ok else b'{"error": "bad key"}'
        self.send_response(200 if ok else 401)
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)
        assert json.loads(body)["messages"]


def _post(url: str, key: str | None, payload: dict[str, Any]) -> tuple[int, Any]:
    headers = {"Content-Type": "application/json"}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    req = urllib.request.Request(url, data=json.dumps(payload).encode(), headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, json.load(resp)
    except urllib.error.HTTPError as err:
        return err.code, None


def test_the_proxy_needs_its_key_forwards_with_the_upstream_key_and_counts_per_item(tmp_path: Path) -> None:
    upstream = ThreadingHTTPServer(("127.0.0.1", 0), _Upstream)
    proxy_state = ls.Proxy(
        f"http://127.0.0.1:{upstream.server_address[1]}", "upstream-key", "client-key", tmp_path / "t.jsonl"
    )
    proxy = ThreadingHTTPServer(("127.0.0.1", 0), ls.make_handler(proxy_state))
    for srv in (upstream, proxy):
        threading.Thread(target=srv.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{proxy.server_address[1]}"
    chat = {"model": "m", "messages": [{"role": "user", "content": "Judge."}]}
    try:
        assert _post(f"{base}/v1/chat/completions", None, chat)[0] == 401
        assert _post(f"{base}/v1/chat/completions", "upstream-key", chat)[0] == 401
        assert _post(f"{base}/bench/begin", "client-key", {"run": "r", "item": "ar-001"}) == (200, {})
        for _ in range(2):
            status, body = _post(f"{base}/v1/chat/completions", "client-key", chat)
            assert status == 200 and body["choices"][0]["message"]["content"] == '{"verdicts": []}'
        status, counters = _post(f"{base}/bench/end", "client-key", {})
        assert status == 200
        assert (counters["requests"], counters["prompt_tokens"], counters["cached_tokens"]) == (2, 600, 500)
        assert _post(f"{base}/bench/end", "client-key", {})[1]["requests"] == 0  # cleared
        assert _Upstream.seen[-1] == "Bearer upstream-key"  # the client's key never reaches the server
        lines = [json.loads(x) for x in (tmp_path / "t.jsonl").read_text().splitlines()]
        assert [(x["run"], x["item"], x["prompt"]) for x in lines] == [("r", "ar-001", "Judge.")] * 2
        assert "client-key" not in (tmp_path / "t.jsonl").read_text()
    finally:
        proxy.shutdown()
        upstream.shutdown()


def test_summary_scores_agreement_failures_and_cost_per_run() -> None:
    gold = {
        d["id"]: d
        for d in map(json.loads, rm.split_file("knowledge_retention", "blind_dev").read_text().splitlines())
    }
    item = gold["kr-blind-001"]
    labels = {lab["turn"]: lab["label"] for lab in item["labels"]}
    right = [{"turn": t, "verdict": "yes" if lab == "forgets" else "no"} for t, lab in labels.items()]
    keeps = sum(lab == "keeps" for lab in labels.values()) / len(labels)
    rows = [
        {
            "kind": "item",
            "run": "ours-llm",
            "metric": "knowledge_retention",
            "split": "blind_dev",
            "id": "kr-blind-001",
            "score": keeps,
            "units": right[:-1],  # the last labelled turn unchecked: read as "keeps"
            "counters": {
                "requests": 9,
                "prompt_tokens": 4000,
                "cached_tokens": 1000,
                "completion_tokens": 300,
            },
            "wall_s": 12.5,
        },
        {
            "kind": "item",
            "run": "deepeval-llm",
            "metric": "knowledge_retention",
            "split": "blind_dev",
            "id": "kr-blind-001",
            "error": "ValueError: Evaluation LLM outputted an invalid JSON. Please use a better evaluation model.",
            "error_type": "ValueError",
            "counters": {"requests": 4},
            "wall_s": 3.0,
        },
    ]
    s = rm.summarise(rows)
    ours, ref = s[("knowledge_retention", "ours-llm")], s[("knowledge_retention", "deepeval-llm")]
    last_is_forgets = labels[max(labels)] == "forgets"
    assert ours["units"] == len(labels) and ours["covered"] == len(labels)
    assert ours["agreement"] == pytest.approx((len(labels) - last_is_forgets) / len(labels))
    assert ours["in_band"] == 1.0 and ours["errors"] == 0 and ours["requests"] == 9
    assert ref["errors"] == 1 and ref["structured_failures"] == 1 and ref["covered"] == 0
    assert ref["agreement"] is None and ref["agreement_all"] == 0.0 and ref["in_band"] == 0.0
    assert "| ours-llm | 1 |" in rm.render(s)


def test_common_items_keeps_only_what_every_run_of_a_metric_measured() -> None:
    def row(run: str, metric: str, id_: str) -> dict[str, Any]:
        return {"kind": "item", "run": run, "metric": metric, "id": id_}

    rows = [
        {"kind": "session"},
        row("a", "answer_relevancy", "x"),
        row("b", "answer_relevancy", "x"),
        row("a", "answer_relevancy", "y"),  # b stopped before y
        row("m", "memory_grade", "z"),
    ]
    assert rm.common_items(rows) == [rows[0], rows[1], rows[2], rows[4]]
