"""Side by side with deepeval 4.3.1: the requests each implementation's provider judge sends for one
AnswerRelevancyMetric measure (llm mode, reason included), on the same loopback server speaking the provider's wire
format (``deepeval.testing.provider_servers``): how many, to which path, and the shape of each body (its top-level
fields and the structured-output part).

deepeval 4.3.1 needs each provider's SDK (``anthropic``, ``ollama``, ``google-genai``) beside it; they are not in the
bench virtualenv, so ``--sdk-path`` names a folder they were installed into with ``pip install --target`` (the
4.3.1 interpreter gets it on ``PYTHONPATH``). Both run sealed (:func:`bench.harness.sealed_env`: no keys, no
network beyond 127.0.0.1).

Usage::

    bench/.venvs/deepeval-4.3.1/bin/python -m pip install --target /tmp/sdk431 anthropic ollama google-genai
    python bench/provider_requests.py --sdk-path /tmp/sdk431 [--out provider_requests.json]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.harness import OUR_PYTHON, OUR_SRC, deepeval_python, sealed_env
from deepeval.testing.provider_servers import AnthropicServer, AzureOpenAIServer, GeminiServer, OllamaServer
from deepeval.testing.servers import OpenAIChatServer

KEY = "sk-bench-provider-0123456789"
REPLIES = {
    "Statements": {"statements": ["Paris is the capital of France."]},
    "Verdicts": {"verdicts": [{"verdict": "yes", "reason": None}]},
    "AnswerRelevancyScoreReason": {"reason": "The answer is on topic."},
}

#: how each implementation builds the judge on the server at URL (the same arguments for both: 4.3.1's API)
BUILD = {
    "ollama": "OllamaModel(model='llama3.1', base_url=URL)",
    "anthropic": "AnthropicModel(model='claude-sonnet-4-5', api_key=KEY, base_url=URL)",
    "gemini": "GeminiModel(model='gemini-2.5-flash', api_key=KEY, {gemini_url})",
    "azure": (
        "AzureOpenAIModel(model='gpt-4.1', api_key=KEY, base_url=URL, deployment_name='judge', "
        "api_version='2024-10-21')"
    ),
    "openrouter": "OpenRouterModel(model='openai/gpt-4.1', api_key=KEY, base_url=URL)",
}

WORKER = """
import json, sys
from deepeval.metrics import AnswerRelevancyMetric
from deepeval.test_case import LLMTestCase
from deepeval.models import *
URL, KEY = sys.argv[1], sys.argv[2]
judge = {build}
metric = AnswerRelevancyMetric(model=judge, eval_mode="llm", async_mode=False)
case = LLMTestCase(input="What is the capital of France?", actual_output="Paris is the capital of France.")
score = metric.measure(case)
print(json.dumps({{"score": score, "reason": metric.reason, "name": judge.get_model_name()}}))
"""


def responder(request: dict[str, Any]) -> str:
    """The reply for an AnswerRelevancy step: by the schema's name when the request carries one, else by the
    prompt's words (4.3.1 sends no schema on some rungs)."""
    fmt = request.get("response_format") or {}
    name = (fmt.get("json_schema") or {}).get("name")
    if name not in REPLIES:
        text = str(request["messages"][-1]["content"]).lower()
        name = (
            "Verdicts"
            if "verdict" in text
            else ("AnswerRelevancyScoreReason" if "score" in text else "Statements")
        )
    return json.dumps(REPLIES[name])


def _shape(body: Any) -> dict[str, Any]:
    """Top-level fields and the structured-output part of one request body."""
    if not isinstance(body, dict):
        return {"fields": None}
    structured = {
        k: (sorted(v) if isinstance(v, dict) else v)
        for k, v in body.items()
        if k in ("output_config", "tool_choice", "format", "response_format")
    }
    config = body.get("generationConfig")
    if isinstance(config, dict):
        structured["generationConfig"] = sorted(config)
    if isinstance(structured.get("format"), list):
        structured["format"] = "json schema"
    if isinstance(body.get("response_format"), dict):
        structured["response_format"] = body["response_format"].get("type")
    return {"fields": sorted(body), "structured": structured}


def _server(provider: str) -> Any:
    if provider == "ollama":
        return OllamaServer(responder)
    if provider == "anthropic":
        return AnthropicServer(responder, api_key=KEY)
    if provider == "gemini":
        return GeminiServer(responder, api_key=KEY)
    if provider == "azure":
        return AzureOpenAIServer(responder, api_key=KEY)
    return OpenAIChatServer(responder, api_key=KEY)


def _url(provider: str, server: Any) -> str:
    return {
        "ollama": server.root_url,
        "anthropic": server.root_url,
        "gemini": server.root_url,
        "azure": server.root_url,
    }.get(provider, getattr(server, "base_url", server.root_url))


def run(provider: str, impl: str, sdk_path: str | None) -> dict[str, Any]:
    """One measure by ``impl`` (``"deepeval"``: 4.3.1, else ours) against a fresh server; what the server saw."""
    gemini_url = (
        "base_url=URL"
        if impl != "deepeval"
        else "http_options={'base_url': URL}"  # 4.3.1: genai Client kwargs
    )
    code = WORKER.format(build=BUILD[provider].format(gemini_url=gemini_url))
    with _server(provider) as server, tempfile.TemporaryDirectory(prefix="bench-providers-") as tmp:
        if impl == "deepeval":
            python = str(deepeval_python(install=False))
            path = sdk_path or ""
        else:
            python, path = str(OUR_PYTHON), str(OUR_SRC)
        env = sealed_env(Path(tmp), {"PYTHONPATH": os.pathsep.join(p for p in (path,) if p)})
        proc = subprocess.run(
            [python, "-c", code, _url(provider, server), KEY],
            capture_output=True,
            text=True,
            env=env,
            cwd=tmp,
            timeout=300,
        )
        out: dict[str, Any] = {"returncode": proc.returncode}
        try:
            out.update(json.loads(proc.stdout.strip().splitlines()[-1]))
        except (IndexError, ValueError):
            out["error"] = proc.stderr[-1500:]
        out["requests"] = server.counters.requests
        out["targets"] = sorted(set(t.split("?")[0] for t in server.counters.targets))
        out["bodies"] = [_shape(b) for b in server.counters.bodies]
        out["key_in_output"] = KEY in proc.stdout + proc.stderr
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sdk-path", help="folder with anthropic, ollama, google-genai for deepeval 4.3.1")
    parser.add_argument("--providers", default=",".join(BUILD))
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    results: dict[str, Any] = {}
    print(
        f"{'provider':<11} {'impl':<8} {'requests':>8}  {'score':>5}  paths / structured output of request 1"
    )
    for provider in args.providers.split(","):
        for impl in ("deepeval", "ours"):
            r = run(provider, impl, args.sdk_path)
            results[f"{provider}/{impl}"] = r
            first = r["bodies"][0]["structured"] if r["bodies"] else {}
            score = r.get("score")
            shown = "err" if score is None else f"{score:.2f}"
            print(f"{provider:<11} {impl:<8} {r['requests']:>8}  {shown:>5}  {r['targets']} {first}")
            if "error" in r:
                print("   ", r["error"].strip().splitlines()[-1][:200])
    if args.out:
        Path(args.out).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
