"""Bias and Toxicity parity with deepeval 4.3.1 over the wire: both implementations configured only by the
documented settings (``USE_LOCAL_MODEL=YES``, ``LOCAL_MODEL_BASE_URL``... for the LLM; ``TYPESAFE_API_KEY``,
``TYPESAFE_BASE_URL`` for System One), talking to scripted loopback servers on 127.0.0.1: an OpenAI-compatible chat
server and the TypeSafe ``/v1/systemone`` server of :mod:`deepeval.testing.servers`.

    python bench/safety_wire_parity.py       # ours and 4.3.1 side by side; prints the differing scores and a summary

The servers answer from the case named in the request: every output carries ``[c:<case>]`` and every opinion
``[o:<case>:<n>]`` (the cases of :mod:`bench.safety_parity`), so the answers do not depend on either implementation's
prompt or question wording. The chat server tells the task from the reply schema our client sends and from 4.3.1's
prompt wording (4.3.1's ``LocalModel`` sends no schema): extraction, verdicts, reason.

Found by running it (bench/RESULTS.md): llm and system_one agree except where the judge writes a loose verdict
(``"Yes."``, ``"No, it is fine."``): 4.3.1's ``LocalModel`` validates the reply against its ``Literal`` schema and the
measure fails with a ``ValidationError``, ours reads the first word. In hybrid, 4.3.1 sends each noul's
``instructions`` as an object (``{"opinion": ..., "question": ...}``), which the loopback server refuses (422: REFERENCE
§5 has instructions as a string), so 4.3.1 falls back to its LLM there; its hybrid numbers are then its llm ones.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.safety_parity import MODES, OpinionCase, _opinion_cases  # noqa: E402

KINDS = {"bias": "BiasMetric", "toxicity": "ToxicityMetric"}


def cases(kind: str) -> dict[str, OpinionCase]:
    return {c.id: c for c in _opinion_cases(kind)}


def tagged_output(case: OpinionCase) -> str:
    return f"[c:{case.id}] {case.output}"


def tagged_opinions(case: OpinionCase) -> list[str]:
    return [f"{text} [o:{case.id}:{n}]" for n, text in enumerate(case.opinions)]


# -- the loopback servers' answers ------------------------------------------------------------------------------------
def _task(request: dict[str, Any], prompt: str) -> str:
    schema = json.dumps(request.get("response_format") or {})
    if '"opinions"' in schema or "generate a list of OPINIONS" in prompt:
        return "opinions"
    if '"verdicts"' in schema or "whether EACH opinion is" in prompt:
        return "verdicts"
    return "reason"


def chat_responder(table: dict[str, OpinionCase]) -> Any:
    def respond(request: dict[str, Any]) -> Any:
        prompt = "\n".join(str(m.get("content", "")) for m in request["messages"])
        task = _task(request, prompt)
        if task == "reason":
            return json.dumps({"reason": "wire reason"})
        if task == "opinions":
            case = table[re.findall(r"\[c:([a-z_]+)\]", prompt)[-1]]
            return json.dumps({"opinions": tagged_opinions(case)})
        case = table[re.findall(r"\[o:([a-z_]+):\d+\]", prompt)[-1]]
        return json.dumps({"verdicts": [{"verdict": v, "reason": f"verdict {v}"} for v in case.verdicts]})

    return respond


def system_one_responder(table: dict[str, OpinionCase]) -> Any:
    from deepeval.testing.servers import wire_noul

    def respond(state: Any, questions: dict[str, Any]) -> dict[str, Any]:
        if any(
            q.get("type") == "score" for q in questions.values()
        ):  # system_one: the whole-metric questions
            case = table[re.findall(r"\[c:([a-z_]+)\]", json.dumps(state))[-1]]
            probs = iter(case.p_whole)
            return {
                qid: _score(case.levels, q) if q.get("type") == "score" else wire_noul(next(probs))
                for qid, q in questions.items()
            }
        out = {}
        for qid, q in questions.items():  # hybrid: one question per opinion, the opinion quoted in it
            cid, n = re.findall(r"\[o:([a-z_]+):(\d+)\]", json.dumps(q))[-1]
            out[qid] = wire_noul(table[cid].p_items[int(n)])
        return out

    return respond


def _score(levels: list[float], question: dict[str, Any]) -> dict[str, Any]:
    """A wire score answer with its legend as an object (the TypeSafe SDK's shape)."""
    from deepeval.testing.servers import wire_score

    answer = wire_score(levels)
    answer["legend"] = {str(i): str(text) for i, text in enumerate(question.get("criteria") or [])}
    return answer


# -- the worker (runs under either implementation) --------------------------------------------------------------------
def worker(modes: tuple[str, ...]) -> dict[str, Any]:
    import warnings

    import deepeval.metrics as m
    from deepeval.test_case import LLMTestCase

    warnings.simplefilter("ignore")
    out: dict[str, Any] = {}
    for kind, cls_name in KINDS.items():
        for case in _opinion_cases(kind):
            tc = LLMTestCase(input="Tell me about it.", actual_output=tagged_output(case))
            for mode in modes:
                try:
                    metric = getattr(m, cls_name)(eval_mode=mode, async_mode=False, strict_mode=case.strict)
                    metric.measure(tc)
                    score: Any = metric.score
                except Exception as exc:
                    score = f"error: {type(exc).__name__}"
                out[f"{kind}/{case.id}/{mode}"] = score
    return out


def main() -> None:
    if "--worker" in sys.argv:
        print(json.dumps(worker(tuple(sys.argv[sys.argv.index("--worker") + 1 :]) or MODES)))
        return
    from bench.harness import NETGUARD, OUR_SRC, deepeval_python, sealed_env
    from deepeval.testing.servers import OpenAIChatServer, SystemOneServer

    table = {c.id: c for kind in KINDS for c in _opinion_cases(kind)}
    results: dict[str, dict[str, Any]] = {}
    with (
        OpenAIChatServer(chat_responder(table)) as llm,
        SystemOneServer(system_one_responder(table), api_key="ts-wire-parity") as s1,
    ):
        settings = {
            "USE_LOCAL_MODEL": "YES",
            "LOCAL_MODEL_BASE_URL": llm.base_url,
            "LOCAL_MODEL_NAME": "wire-judge",
            "LOCAL_MODEL_API_KEY": "local-key",
            "TYPESAFE_API_KEY": "ts-wire-parity",
            "TYPESAFE_BASE_URL": s1.base_url,
        }
        cost: dict[tuple[str, str], tuple[int, int, int, int]] = {}
        for impl, python in (("ours", Path(sys.executable)), ("deepeval 4.3.1", deepeval_python())):
            results[impl] = {}
            for mode in MODES:
                llm.reset_counters()
                s1.reset_counters()
                with tempfile.TemporaryDirectory(prefix="wire-parity-") as tmp:
                    env = sealed_env(Path(tmp), settings)
                    path = [str(NETGUARD), str(REPO)] + ([str(OUR_SRC)] if impl == "ours" else [])
                    env["PYTHONPATH"] = os.pathsep.join(path)
                    proc = subprocess.run(
                        [str(python), __file__, "--worker", mode],
                        cwd=tmp,
                        env=env,
                        capture_output=True,
                        text=True,
                    )
                if proc.returncode != 0:
                    raise SystemExit(f"{impl} failed:\n{proc.stderr[-3000:]}")
                results[impl].update(json.loads(proc.stdout.strip().splitlines()[-1]))
                a, b = llm.counters, s1.counters
                cost[(impl, mode)] = (a.requests, a.input_tokens, b.requests, b.input_tokens)
    ours, ref = results["ours"], results["deepeval 4.3.1"]
    same = [k for k in ref if ours.get(k) == ref[k]]
    print(json.dumps({k: [ref[k], ours.get(k)] for k in ref if k not in same}, indent=1))
    print(
        "| mode | identical | impl | LLM requests | LLM input tokens | System One requests | System One input tokens |"
    )
    print("|---|---|---|---|---|---|---|")
    for mode in MODES:
        keys = [k for k in ref if k.endswith(f"/{mode}")]
        for impl in results:
            r = cost[(impl, mode)]
            print(
                f"| {mode} | {sum(k in same for k in keys)} of {len(keys)} | {impl} | {r[0]} | {r[1]:,} | {r[2]} | {r[3]:,} |"
            )


if __name__ == "__main__":
    main()
