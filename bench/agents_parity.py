"""Parity of the judge-free agent metrics with deepeval 4.3.1 on ``bench/agent_cases.py``.

``python bench/agents_parity.py``: runs every case under deepeval 4.3.1 (``bench/.venvs``) and under ours, each in a
sealed subprocess (``bench/harness.py``: fresh HOME, no key of this process, non-loopback connections refused;
4.3.1 gets a dummy ``OPENAI_API_KEY`` because its ToolCorrectnessMetric builds an OpenAI client at construction),
prints the side-by-side table (Markdown) and, with ``--write``, stores 4.3.1's results in
``tests/metrics/data/agents_4_3_1.json`` (what ``tests/metrics/test_agents_judge_free.py`` checks ours against).

``python bench/agents_parity.py --worker OUT.json``: run the cases with whatever ``deepeval`` this interpreter
imports (the subprocess side; only the standard library, ``deepeval`` and ``bench/agent_cases.py``).
"""

from __future__ import annotations

import json
import sys
import traceback
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REFERENCE_FILE = HERE.parent / "tests" / "metrics" / "data" / "agents_4_3_1.json"
JUDGED_REFERENCE_FILE = HERE.parent / "tests" / "metrics" / "data" / "agents_judged_4_3_1.json"
MODES = ("llm", "hybrid", "system_one")


def build(case: dict[str, Any]) -> tuple[Any, Any]:
    """The metric and the test case of one parity case, with this interpreter's ``deepeval``."""
    import deepeval.metrics as metrics
    from deepeval.test_case import ConversationalTestCase, LLMTestCase, ToolCall, ToolCallParams, Turn

    kwargs = dict(case["kwargs"])
    if "evaluation_params" in kwargs:
        kwargs["evaluation_params"] = [ToolCallParams(v) for v in kwargs["evaluation_params"]]
    if (
        "available_tools" in kwargs
        and kwargs["available_tools"]
        and isinstance(kwargs["available_tools"][0], dict)
    ):
        kwargs["available_tools"] = [ToolCall(**t) for t in kwargs["available_tools"]]
    metric = getattr(metrics, case["metric"])(**kwargs)
    if "turns" in case:
        from deepeval.test_case import Audio

        turns = []
        for t in case["turns"]:
            fields = {k: v for k, v in t.items() if k != "audio_url"}
            if "audio_url" in t:
                fields["audio"] = Audio(url=t["audio_url"])
            if "tools_called" in fields:
                fields["tools_called"] = [ToolCall(**x) for x in fields["tools_called"]]
            turns.append(Turn(**fields))
        servers = None
        if "mcp_servers" in case:
            from deepeval.test_case import MCPServer

            servers = [MCPServer(**m) for m in case["mcp_servers"]]
        return metric, ConversationalTestCase(turns=turns, metadata=case.get("metadata"), mcp_servers=servers)
    fields = dict(case["case"])
    for key in ("tools_called", "expected_tools"):
        if key in fields:
            fields[key] = [ToolCall(**t) for t in fields[key]]
    if "mcp_servers" in fields:
        from deepeval.test_case import MCPServer

        fields["mcp_servers"] = [MCPServer(**m) for m in fields["mcp_servers"]]
    test_case = LLMTestCase(**fields)
    if "trace" in case:
        test_case._trace_dict = case["trace"]
    return metric, test_case


def run_case(case: dict[str, Any]) -> dict[str, Any]:
    """score, success, reason, score_breakdown, or the error (type and message) of one case."""
    try:
        metric, test_case = build(case)
    except Exception as err:
        return {"id": case["id"], "construct_error": type(err).__name__, "message": str(err)}
    try:
        metric.measure(test_case)
    except Exception as err:
        return {"id": case["id"], "error": type(err).__name__, "message": str(err)}
    breakdown = getattr(metric, "score_breakdown", None)
    return {
        "id": case["id"],
        "score": metric.score,
        "success": metric.success,
        "reason": metric.reason,
        "score_breakdown": breakdown if isinstance(breakdown, dict) else None,
    }


def worker(out: Path, judged: bool = False) -> None:
    sys.path.insert(0, str(HERE))
    import io
    from contextlib import redirect_stdout

    from agent_cases import CASES, JUDGED

    if judged:
        CASES = JUDGED

    results = []
    for case in CASES:
        with redirect_stdout(io.StringIO()):  # the metrics' own printing (4.3.1 prints progress)
            try:
                results.append(run_case(case))
            except Exception:
                results.append({"id": case["id"], "crash": traceback.format_exc()[-800:]})
    out.write_text(json.dumps(results, indent=1, default=str))


def _run(impl: str, extra_env: dict[str, str] | None = None, judged: bool = False) -> list[dict[str, Any]]:
    import subprocess
    import tempfile

    sys.path.insert(0, str(HERE.parent))
    from bench.harness import NETGUARD, OUR_SRC, VENV_DIR, sealed_env

    python = VENV_DIR / "bin" / "python" if impl == "deepeval" else Path(sys.executable)
    if not python.is_file():
        raise RuntimeError(
            f"{python} is missing: install deepeval 4.3.1 there (bench/harness.py deepeval_python)"
        )
    with tempfile.TemporaryDirectory(prefix=f"agents-{impl}-") as tmp:
        base = {"OPENAI_API_KEY": "sk-parity-dummy"} if impl == "deepeval" and not judged else {}
        env = sealed_env(Path(tmp), {**base, **(extra_env or {})})
        if impl != "deepeval":
            env["PYTHONPATH"] = f"{NETGUARD}:{OUR_SRC}"
        out = Path(tmp) / "out.json"
        proc = subprocess.run(
            [
                str(python),
                str(Path(__file__).resolve()),
                "--worker-judged" if judged else "--worker",
                str(out),
            ],
            cwd=tmp,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        if not out.is_file():
            raise RuntimeError(f"{impl} worker failed:\n{proc.stderr[-3000:]}")
        return list(json.loads(out.read_text()))


def _cell(row: dict[str, Any]) -> str:
    if "score" in row:
        return "None" if row["score"] is None else f"{row['score']:.4g}"
    return row.get("error") or row.get("construct_error") or "crash"


def main(argv: list[str]) -> int:
    if argv[:1] in (["--worker"], ["--worker-judged"]):
        worker(Path(argv[1]), judged=argv[0] == "--worker-judged")
        return 0
    if "--judged" in argv:
        return judged_main(argv)
    sys.path.insert(0, str(HERE))
    from agent_cases import DIFFERENCES

    theirs, ours = _run("deepeval"), _run("ours")
    same = 0
    lines = ["| case | 4.3.1 | ours | same |", "|---|---|---|---|"]
    for t, o in zip(theirs, ours, strict=True):
        agree = _cell(t) == _cell(o)
        same += agree
        note = "yes" if agree else ("no (deliberate)" if t["id"] in DIFFERENCES else "NO")
        lines.append(f"| {t['id']} | {_cell(t)} | {_cell(o)} | {note} |")
    print("\n".join(lines))
    print(f"\nsame score/error type: {same} of {len(theirs)}")
    if "--write" in argv:
        REFERENCE_FILE.parent.mkdir(parents=True, exist_ok=True)
        REFERENCE_FILE.write_text(json.dumps(theirs, indent=1, ensure_ascii=False) + "\n")
        print(f"wrote {REFERENCE_FILE}")
    return 0


def _judge_servers() -> Any:
    """The loopback OpenAI-compatible and System One servers answering from :mod:`agent_judge`."""
    sys.path.insert(0, str(HERE.parent))
    sys.path.insert(0, str(HERE))
    from agent_cases import JUDGED
    from agent_judge import llm_reply, s1_values, wire_questions

    from deepeval.testing.servers import OpenAIChatServer, SystemOneServer, wire_choice, wire_noul, wire_score

    cases = {c["id"]: c for c in JUDGED}

    def chat(payload: dict[str, Any]) -> dict[str, Any]:
        text = "\n".join(str(m.get("content")) for m in payload["messages"] if isinstance(m, dict))
        return {"content": json.dumps(llm_reply(text, cases))}

    def decide(state: Any, questions: dict[str, Any]) -> dict[str, Any]:
        values = s1_values(state, wire_questions(questions), cases)
        out: dict[str, Any] = {}
        for qid, q in questions.items():
            if q["type"] == "choice":
                names = list(q["criteria"])
                out[qid] = wire_choice(dict(zip(names, values[qid], strict=True)))
            elif q["type"] == "score":
                n = len(q["criteria"])
                level = values[qid]
                low = int(level)
                probs = [0.0] * n
                probs[min(low, n - 1)] += 1 - (level - low)
                if level > low:
                    probs[low + 1] += level - low
                answer = wire_score(probs)
                # typesafe-sdk (4.3.1's client) reads the legend as {level index: text}
                answer["legend"] = {str(i): text for i, text in enumerate(q["criteria"])}
                out[qid] = answer
            else:
                out[qid] = wire_noul(values[qid])
        return out

    return OpenAIChatServer(chat, api_key="parity-key", models=("parity-judge",)), SystemOneServer(
        decide, api_key="parity-key", models={"jev-latest": "jev-parity", "jev-parity": "jev-parity"}
    )


def judged_main(argv: list[str]) -> int:
    """Both implementations on the judged cases in every eval mode, against the same loopback judge."""
    llm, s1 = _judge_servers()
    llm.start()
    s1.start()
    try:
        env = {
            "USE_LOCAL_MODEL": "YES",
            "LOCAL_MODEL_NAME": "parity-judge",
            "LOCAL_MODEL_BASE_URL": llm.base_url,
            "LOCAL_MODEL_API_KEY": "parity-key",
            "TYPESAFE_API_KEY": "parity-key",
            "TYPESAFE_BASE_URL": s1.base_url,
            "TYPESAFE_MODEL_NAME": "jev-latest",
        }
        results: dict[str, dict[str, list[dict[str, Any]]]] = {}
        for mode in MODES:
            mode_env = {**env, "DEEPEVAL_EVAL_MODE": mode}
            results[mode] = {
                "deepeval": _run("deepeval", mode_env, True),
                "ours": _run("ours", mode_env, True),
            }
    finally:
        llm.close()
        s1.close()
    same = total = 0
    lines = ["| mode | case | 4.3.1 | ours | same |", "|---|---|---|---|---|"]
    for mode, pair in results.items():
        for t, o in zip(pair["deepeval"], pair["ours"], strict=True):
            agree = _cell(t) == _cell(o)
            same += agree
            total += 1
            lines.append(f"| {mode} | {t['id']} | {_cell(t)} | {_cell(o)} | {'yes' if agree else 'NO'} |")
    print("\n".join(lines))
    print(f"\nsame score: {same} of {total}")
    if "--write" in argv:
        reference = {mode: pair["deepeval"] for mode, pair in results.items()}
        JUDGED_REFERENCE_FILE.write_text(json.dumps(reference, indent=1, ensure_ascii=False) + "\n")
        print(f"wrote {JUDGED_REFERENCE_FILE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
