"""How many of our functions, modules and module-to-module hops one AnswerRelevancy measure in llm mode passes
through (issue 33's count: a two-statement output, a scripted LLM; imports and one-time caches warmed first).

``sys.setprofile`` sees every Python call: a call counts when the called function lives in a ``deepeval.`` module
(the scripted judge of ``deepeval.testing`` left out); a hop is such a call from a function of another ``deepeval.``
module. Run it against another checkout's ``src`` to compare (``--src DIR/src``, in a subprocess).

Usage::

    python bench/measure_trace.py                      # this checkout
    python bench/measure_trace.py --src /tmp/main/src  # another checkout
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

_CHILD = r"""
import json, sys
from collections import Counter
from deepeval.metrics import AnswerRelevancyMetric
from deepeval.test_case import LLMTestCase
from deepeval.testing.scripted import ScriptedLLM

def respond(prompt, schema):
    name = schema.__name__
    if name == "Statements":
        return {"statements": ["Refunds take five days.", "Thanks for asking!"]}
    if name == "Verdicts":
        return {"verdicts": [{"verdict": "yes"}, {"verdict": "no"}]}
    return {"reason": "scripted"}

case = LLMTestCase(input="How long do refunds take?", actual_output="Refunds take five days. Thanks for asking!")
AnswerRelevancyMetric(model=ScriptedLLM(respond), eval_mode="llm").measure(case)  # warm: imports, caches
metric = AnswerRelevancyMetric(model=ScriptedLLM(respond), eval_mode="llm")
calls, functions, modules, hops = 0, set(), Counter(), Counter()

def ours(frame):
    name = frame.f_globals.get("__name__", "")
    return name if name.startswith("deepeval.") and not name.startswith("deepeval.testing") else None

def profile(frame, event, arg):
    global calls
    if event != "call":
        return
    mod = ours(frame)
    if mod is None:
        return
    calls += 1
    functions.add((mod, frame.f_code.co_name, frame.f_code.co_firstlineno))
    modules[mod] += 1
    back = frame.f_back
    while back is not None and back.f_globals.get("__name__", "").startswith(("asyncio", "contextlib", "functools")):
        back = back.f_back
    caller = ours(back) if back is not None else None
    if caller is not None and caller != mod:
        hops[(caller, mod)] += 1

sys.setprofile(profile)
score = metric.measure(case)
sys.setprofile(None)
print(json.dumps({"score": score, "calls": calls, "functions": len(functions), "modules": len(modules),
                  "hops": sum(hops.values()), "distinct_hops": len(hops), "module_list": sorted(modules)}))
"""


def trace(src: Path | None) -> dict[str, Any]:
    env = dict(os.environ, DEEPEVAL_DISABLE_DOTENV="1", DEEPEVAL_TELEMETRY_OPT_OUT="1")
    for key in ("OPENAI_API_KEY", "TYPESAFE_API_KEY", "USE_LOCAL_MODEL", "DEEPEVAL_EVAL_MODE"):
        env.pop(key, None)
    if src is not None:
        env["PYTHONPATH"] = str(src)
    out = subprocess.run([sys.executable, "-c", _CHILD], capture_output=True, text=True, env=env, check=True)
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--src", type=Path, action="append", help="a checkout's src folder (repeatable); default: ours"
    )
    args = ap.parse_args(argv)
    print("| src | score | calls | functions | modules | hops (distinct pairs) |\n|---|---|---|---|---|---|")
    for src in args.src or [None]:
        r = trace(src)
        print(
            f"| {src or 'this checkout'} | {r['score']:.2f} | {r['calls']} | {r['functions']} | {r['modules']} | "
            f"{r['hops']} ({r['distinct_hops']}) |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
