"""One llama.cpp server for a real-model benchmark, behind a counting proxy, so that every implementation's requests
and tokens are counted the same way.

Run as its own process (its stderr takes llama.cpp's log)::

    python bench/llama_server.py --model MODEL.gguf --threads 1 --ready READY.json [--transcript T.jsonl]

* ``xllamacpp.Server`` listens on 127.0.0.1 (a free port) and answers only with a random key;
* the proxy listens on 127.0.0.1 (another free port) and also needs a key (another random one), which it writes
  with its URL to ``READY.json`` (mode 0600) once the model is loaded: ``{"base_url", "api_key", "pid", ...}``;
* ``POST /v1/chat/completions`` is forwarded unchanged; the proxy counts, per benchmark item: requests, prompt tokens
  (``usage.prompt_tokens``; ``timings.cache_n`` of them came from llama.cpp's prompt cache), completion tokens,
  re-asks (a prompt carrying our structured-output layer's re-ask sentence), replies that are not JSON (a request
  without ``logprobs``), HTTP errors and seconds spent in requests;
* ``POST /bench/begin`` ``{"run", "item"}`` starts an item's counters, ``POST /bench/end`` returns and clears them
  (the benchmark worker runs items one at a time); ``GET /bench/totals`` gives the totals since start;
* with ``--transcript``, every request's prompt and reply go to a JSONL file (blind-dev runs only: those replies
  are what prompt and parsing fixes are built from).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import secrets
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

#: the sentence our structured-output layer appends to a re-ask (``deepeval.models.structured.reask_prompt``)
REASK_MARK = "Your previous reply was rejected ("

COUNTERS = (
    "requests",
    "prompt_tokens",
    "cached_tokens",
    "completion_tokens",
    "reasks",
    "not_json",
    "http_errors",
    "logprob_requests",
    "request_s",
)


def _zero() -> dict[str, float]:
    return dict.fromkeys(COUNTERS, 0)


def _is_json_text(text: str) -> bool:
    body = text.strip()
    if body.startswith("```"):
        body = body.strip("`").removeprefix("json").strip()
    try:
        json.loads(body)
    except ValueError:
        return False
    return True


class Proxy:
    """Counting state shared by the proxy's handler threads."""

    def __init__(self, upstream: str, upstream_key: str, key: str, transcript: Path | None) -> None:
        parts = urlsplit(upstream)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.upstream_key = upstream_key
        self.key = key
        self.transcript = transcript
        self.lock = threading.Lock()
        self.item: dict[str, Any] = {}
        self.current = _zero()
        self.totals = _zero()

    def count(self, record: dict[str, Any]) -> None:
        with self.lock:
            for target in (self.current, self.totals):
                for name in COUNTERS:
                    target[name] += record.get(name, 0)
            if self.transcript is not None:
                with self.transcript.open("a", encoding="utf-8") as fh:
                    fh.write(json.dumps({**self.item, **record["log"]}, ensure_ascii=False) + "\n")

    def forward(self, path: str, body: bytes) -> tuple[int, bytes]:
        conn = http.client.HTTPConnection(self.host, self.port, timeout=3600)
        try:
            conn.request(
                "POST",
                path,
                body=body,
                headers={"Content-Type": "application/json", "Authorization": f"Bearer {self.upstream_key}"},
            )
            resp = conn.getresponse()
            return resp.status, resp.read()
        finally:
            conn.close()


def measure_exchange(request: dict[str, Any], status: int, reply: bytes, seconds: float) -> dict[str, Any]:
    """The counters of one forwarded chat-completions request, and its transcript line."""
    messages = request.get("messages") or []
    prompt = str(messages[-1].get("content", "")) if messages else ""
    logprobs = bool(request.get("logprobs"))
    out: dict[str, Any] = {
        "requests": 1,
        "request_s": seconds,
        "reasks": int(REASK_MARK in prompt),
        "logprob_requests": int(logprobs),
        "http_errors": int(status >= 400),
    }
    content = ""
    finish = None
    try:
        data = json.loads(reply)
    except ValueError:
        data = {}
    if isinstance(data, dict) and status < 400:
        usage = data.get("usage") or {}
        timings = data.get("timings") or {}
        out["prompt_tokens"] = int(usage.get("prompt_tokens") or 0)
        out["completion_tokens"] = int(usage.get("completion_tokens") or 0)
        out["cached_tokens"] = int(timings.get("cache_n") or 0)
        choice = (data.get("choices") or [{}])[0]
        content = str((choice.get("message") or {}).get("content") or "")
        finish = choice.get("finish_reason")
        if not logprobs:
            out["not_json"] = int(not _is_json_text(content))
    rf = request.get("response_format") or {}
    out["log"] = {
        "status": status,
        "seconds": round(seconds, 3),
        "format": rf.get("type"),
        "schema": (rf.get("json_schema") or {}).get("name"),
        "logprobs": logprobs,
        "prompt": prompt,
        "reply": content if status < 400 else reply.decode("utf-8", "replace")[:2000],
        "finish_reason": finish,
        "usage": {k: out.get(k, 0) for k in ("prompt_tokens", "cached_tokens", "completion_tokens")},
    }
    return out


def make_handler(proxy: Proxy) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:  # quiet
            return

        def _send(self, status: int, body: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def _authorised(self) -> bool:
            if self.headers.get("Authorization", "") == f"Bearer {proxy.key}":
                return True
            self._send(401, b'{"error": {"message": "invalid api key", "type": "authentication_error"}}')
            return False

        def do_GET(self) -> None:
            if not self._authorised():
                return
            if self.path == "/bench/totals":
                with proxy.lock:
                    self._send(200, json.dumps(proxy.totals).encode())
                return
            self._send(404, b'{"error": {"message": "not found"}}')

        def do_POST(self) -> None:
            if not self._authorised():
                return
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            if self.path == "/bench/begin":
                with proxy.lock:
                    proxy.item = json.loads(body or b"{}")
                    proxy.current = _zero()
                self._send(200, b"{}")
                return
            if self.path == "/bench/end":
                with proxy.lock:
                    counters, proxy.current, proxy.item = proxy.current, _zero(), {}
                self._send(200, json.dumps(counters).encode())
                return
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self._send(404, b'{"error": {"message": "not found"}}')
                return
            t0 = time.perf_counter()
            try:
                status, reply = proxy.forward("/v1/chat/completions", body)
            except OSError as exc:
                status, reply = 502, json.dumps({"error": {"message": f"upstream: {exc}"}}).encode()
            seconds = time.perf_counter() - t0
            try:
                request = json.loads(body)
            except ValueError:
                request = {}
            proxy.count(measure_exchange(request, status, reply, seconds))
            self._send(status, reply)

    return Handler


def start_llama(
    model: Path, threads: int, n_ctx: int, n_parallel: int, n_predict: int
) -> tuple[Any, str, str]:
    """Start ``xllamacpp.Server`` on 127.0.0.1 with a random key; returns ``(server, base URL, key)``."""
    import xllamacpp

    key = secrets.token_urlsafe(24)
    cp = xllamacpp.CommonParams()
    cp.model.path = str(model)
    cp.n_ctx = n_ctx
    cp.n_parallel = n_parallel
    cp.n_predict = n_predict
    cp.port = 0
    cp.hostnames = ["127.0.0.1"]
    cp.api_keys = [key]
    cp.cpuparams.n_threads = threads
    cp.cpuparams_batch.n_threads = threads
    cp.cache_prompt = True
    server = xllamacpp.Server(cp)
    address = str(server.listening_address)
    if not address.startswith("http"):
        address = f"http://{address}"
    return server, address.rstrip("/"), key


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", type=Path, required=True)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--n-ctx", type=int, default=16384, help="context of all slots together")
    ap.add_argument("--parallel", type=int, default=2, help="llama.cpp slots (requests decoded together)")
    ap.add_argument(
        "--n-predict", type=int, default=768, help="server-side cap on generated tokens per request"
    )
    ap.add_argument("--ready", type=Path, required=True)
    ap.add_argument("--transcript", type=Path, default=None)
    args = ap.parse_args()
    t0 = time.perf_counter()
    server, upstream, upstream_key = start_llama(
        args.model, args.threads, args.n_ctx, args.parallel, args.n_predict
    )
    proxy = Proxy(upstream, upstream_key, secrets.token_urlsafe(24), args.transcript)
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(proxy))
    httpd.daemon_threads = True
    ready = {
        "base_url": f"http://127.0.0.1:{httpd.server_address[1]}/v1",
        "api_key": proxy.key,
        "pid": os.getpid(),
        "model": str(args.model),
        "threads": args.threads,
        "n_ctx": args.n_ctx,
        "parallel": args.parallel,
        "n_predict": args.n_predict,
        "load_s": round(time.perf_counter() - t0, 1),
    }
    fd = os.open(args.ready, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as fh:
        json.dump(ready, fh)
    try:
        httpd.serve_forever()
    finally:
        del server


if __name__ == "__main__":
    main()
