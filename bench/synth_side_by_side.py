"""Our Synthesizer and deepeval 4.3.1's on one real GGUF model served by llama.cpp (issue 40): the same ClapNQ
contexts, the same settings, requests / tokens / time counted by one proxy, and the same quality figures.

``run``: starts :mod:`bench.llama_server` (llama.cpp's server behind the counting proxy) and runs, one after the
other, ``generate_goldens_from_contexts(contexts, max_goldens_per_context=K)`` with ``random.seed(0)`` in a sealed
subprocess of each implementation's venv (:mod:`bench.harness`), the model configured as a user of either would:
``USE_LOCAL_MODEL=YES`` and ``LOCAL_MODEL_*`` (what ``deepeval set-local-model`` writes), everything else default
(1 evolution, filtration threshold 0.5 with 3 tries, expected outputs, async with ``max_concurrent=100``). Each
implementation's goldens go to ``OUT/<impl>.json`` and its counters to ``OUT/runs.jsonl``.

``score``: for each goldens file, in this venv with no judge configured (the embedded offline judge,
``DEEPEVAL_READER=off`` unless set): ``ContextualRecallMetric`` and ``FaithfulnessMetric`` on
``LLMTestCase(input, actual_output=expected_output, expected_output=expected_output, retrieval_context=context)``
(is the golden's expected answer supported by its own context?), the exact-duplicate rate of the inputs (lower-cased,
punctuation and spaces folded) and the near-duplicate rate (an input whose encoder cosine to an earlier input of the
same file is >= 0.92). ``OUT/reading.md`` lists every input beside its context for reading by hand.

    /work/heavy python bench/synth_side_by_side.py run --model MODEL.gguf --contexts 5 --per-context 2 --out OUT
    python bench/synth_side_by_side.py score OUT
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import textwrap
import time
import urllib.request
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.harness import OUR_PYTHON, OUR_SRC, deepeval_python, sealed_env  # noqa: E402
from bench.synth_offline import passages  # noqa: E402

WORKER = textwrap.dedent(
    """
    import json, random, sys, time
    from deepeval.synthesizer import Synthesizer
    job = json.load(open(sys.argv[1]))
    random.seed(0)
    s = Synthesizer()
    t0 = time.perf_counter()
    error = None
    try:
        s.generate_goldens_from_contexts(job["contexts"], max_goldens_per_context=job["per_context"])
    except Exception as err:
        error = f"{type(err).__name__}: {err}"
    seconds = time.perf_counter() - t0
    rows = [
        {"input": g.input, "expected_output": g.expected_output, "context": g.context,
         "evolutions": (g.additional_metadata or {}).get("evolutions")}
        for g in s.synthetic_goldens
    ]
    json.dump({"seconds": seconds, "goldens": rows, "error": error}, open(sys.argv[2], "w"))
    """
)


def _proxy(server: dict[str, Any], path: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(
        server["base_url"].rstrip("/").removesuffix("/v1") + path,
        data=json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {server['api_key']}", "Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(req, timeout=60) as resp:
        result: dict[str, Any] = json.loads(resp.read())
        return result


def run_impl(
    impl: str, server: dict[str, Any], contexts: list[list[str]], k: int, out: Path
) -> dict[str, Any]:
    python = OUR_PYTHON if impl == "ours" else deepeval_python(install=False)
    with tempfile.TemporaryDirectory(prefix=f"synth-{impl}-") as tmp:
        work = Path(tmp)
        (work / "job.json").write_text(json.dumps({"contexts": contexts, "per_context": k}))
        (work / "worker.py").write_text(WORKER)
        env = sealed_env(
            work,
            {
                "USE_LOCAL_MODEL": "YES",
                "LOCAL_MODEL_NAME": "qwen2.5-coder-1.5b-instruct",
                "LOCAL_MODEL_BASE_URL": server["base_url"],
                "LOCAL_MODEL_API_KEY": server["api_key"],
                "DEEPEVAL_DISABLE_TIMEOUTS": "1",  # 4.3.1: a CPU server queues requests, no client gives up
                "DEEPEVAL_JUDGE_TIMEOUT": "3600",  # ours, the same
            },
        )
        if impl == "ours":
            env["PYTHONPATH"] = f"{OUR_SRC}:{env['PYTHONPATH']}"
        _proxy(server, "/bench/begin", {"run": impl, "item": "contexts"})
        t0 = time.perf_counter()
        proc = subprocess.run(
            [str(python), str(work / "worker.py"), str(work / "job.json"), str(work / "result.json")],
            cwd=work,
            env=env,
            capture_output=True,
            text=True,
        )
        wall = time.perf_counter() - t0
        counters = _proxy(server, "/bench/end", {})
        result = json.loads((work / "result.json").read_text()) if (work / "result.json").is_file() else {}
    goldens = result.get("goldens", [])
    (out / f"{impl}.json").write_text(json.dumps(goldens, indent=1, ensure_ascii=False))
    n = len(goldens)
    return {
        "impl": impl,
        "rc": proc.returncode,
        "error": result.get("error"),
        "stderr": proc.stderr[-1500:] if proc.returncode or not goldens else "",
        "goldens": n,
        "wall_s": round(wall, 1),
        "generate_s": round(result.get("seconds", 0.0), 1),
        "goldens_per_minute": round(60 * n / result["seconds"], 2) if n else 0.0,
        **{k: (round(v, 1) if isinstance(v, float) else v) for k, v in counters.items()},
    }


def cmd_run(args: argparse.Namespace) -> None:
    from bench.real_model import Server

    args.out.mkdir(parents=True, exist_ok=True)
    contexts = [[t] for t in passages(args.contexts, skip=args.skip)]
    server = Server(args.model, args.threads, args.out, None)
    try:
        for impl in args.impls.split(","):
            row = run_impl(impl, server.info, contexts, args.per_context, args.out)
            print(json.dumps(row), flush=True)
            with (args.out / "runs.jsonl").open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(row) + "\n")
    finally:
        server.close()


def _norm(text: str) -> str:
    return re.sub(r"[\W_]+", " ", text.lower()).strip()


def duplicate_rates(inputs: list[str], near: float = 0.92) -> tuple[float, float]:
    """(exact, near) duplicate rates: the share of inputs equal (folded) / close to an earlier input."""
    import numpy as np

    from deepeval.models.embedded.encoder import embed

    if not inputs:
        return 0.0, 0.0
    seen: set[str] = set()
    exact = 0
    for text in inputs:
        exact += _norm(text) in seen
        seen.add(_norm(text))
    vectors = np.asarray(embed(inputs, "query"), dtype=np.float64)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    sims = vectors @ vectors.T
    close = sum(1 for i in range(1, len(inputs)) if float(sims[i, :i].max()) >= near)
    return exact / len(inputs), close / len(inputs)


def score_file(path: Path) -> dict[str, Any]:
    from deepeval.metrics import ContextualRecallMetric, FaithfulnessMetric
    from deepeval.test_case import LLMTestCase

    goldens = json.loads(path.read_text(encoding="utf-8"))
    recall: list[float] = []
    faith: list[float] = []
    for g in goldens:
        if not g.get("expected_output") or not g.get("context"):
            continue
        case = LLMTestCase(
            input=g["input"],
            actual_output=g["expected_output"],
            expected_output=g["expected_output"],
            retrieval_context=g["context"],
        )
        for metric, sink in (
            (ContextualRecallMetric(async_mode=False), recall),
            (FaithfulnessMetric(async_mode=False), faith),
        ):
            metric.measure(case)
            sink.append(float(metric.score or 0.0))
    exact, near = duplicate_rates([g["input"] for g in goldens])
    mean = lambda xs: round(sum(xs) / len(xs), 3) if xs else None  # noqa: E731
    passed = lambda xs: round(sum(x >= 0.5 for x in xs) / len(xs), 3) if xs else None  # noqa: E731
    return {
        "file": path.name,
        "goldens": len(goldens),
        "contextual_recall_mean": mean(recall),
        "contextual_recall_pass": passed(recall),
        "faithfulness_mean": mean(faith),
        "faithfulness_pass": passed(faith),
        "exact_duplicate_rate": round(exact, 3),
        "near_duplicate_rate": round(near, 3),
        "recall": recall,
        "faithfulness": faith,
    }


def cmd_score(args: argparse.Namespace) -> None:
    rows = []
    reading = ["# Inputs beside their contexts (for reading by hand)\n"]
    for path in sorted(args.out.glob("*.json")):
        if path.name in ("ready.json",) or path.stem not in args.files.split(","):
            continue
        row = score_file(path)
        rows.append(row)
        print(json.dumps(row), flush=True)
        for i, g in enumerate(json.loads(path.read_text(encoding="utf-8"))):
            reading.append(
                f"## {path.stem} #{i}\n\n**input**: {g['input']}\n\n**expected**: {g.get('expected_output')}\n\n"
                f"**context**: {' '.join(g.get('context') or [])[:1500]}\n"
            )
    (args.out / "scores.json").write_text(json.dumps(rows, indent=1))
    (args.out / "reading.md").write_text("\n".join(reading), encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    run = sub.add_parser("run")
    run.add_argument("--model", type=Path, required=True)
    run.add_argument("--out", type=Path, required=True)
    run.add_argument("--contexts", type=int, default=5)
    run.add_argument("--skip", type=int, default=10, help="passages skipped at the start of the file")
    run.add_argument("--per-context", type=int, default=2)
    run.add_argument("--threads", type=int, default=1)
    run.add_argument("--impls", default="ours,deepeval")
    score = sub.add_parser("score")
    score.add_argument("out", type=Path)
    score.add_argument("--files", default="ours,deepeval")
    args = ap.parse_args()
    cmd_run(args) if args.cmd == "run" else cmd_score(args)


if __name__ == "__main__":
    main()
