"""The Synthesizer offline on a real GGUF model in this process (``GGUFModel``): every generation method end to end
on ClapNQ dev passages, with the time, requests and tokens of each (issue 40).

Each method gets its own ``Synthesizer(model=GGUFModel(path))`` (judges on one file share one llama.cpp server),
``random.seed(0)`` first, and writes its goldens with ``save_as`` to ``--out``; one JSON line per method goes to
``--out/summary.jsonl`` as soon as it finishes (a stopped run keeps what finished). ``generate`` runs the
``deepeval generate`` command in a subprocess with ``GGUF_MODEL_PATH`` set, as a user who ran
``deepeval set-gguf-model`` would.

    /work/heavy python bench/synth_offline.py --model /work/models/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf \\
        --out /tmp/synth-offline --methods docs,contexts,goldens,scratch,generate

Passages: the first passage of the first ``--docs`` / ``--contexts`` questions of ``clapnq_dev_answerable.jsonl``
(one chunk each; documents are those passages written to ``.txt`` files).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

CLAPNQ = Path("/work/shared/datasets/clapnq_dev/clapnq_dev_answerable.jsonl")


def passages(n: int, skip: int = 0) -> list[str]:
    out: list[str] = []
    with CLAPNQ.open(encoding="utf-8") as handle:
        for i, line in enumerate(handle):
            if i < skip:
                continue
            out.append(json.loads(line)["passages"][0]["text"].strip())
            if len(out) == n:
                break
    return out


def _usage(s: Any) -> dict[str, Any]:
    u = s.usage
    return {
        "requests": u.llm_calls + u.retries,
        "llm_calls": u.llm_calls,
        "retries": u.retries,
        "input_tokens": u.input_tokens,
        "output_tokens": u.output_tokens,
    }


def run_method(method: str, model: Any, args: argparse.Namespace, out: Path) -> dict[str, Any]:
    from deepeval.dataset import EvaluationDataset
    from deepeval.synthesizer import Synthesizer
    from deepeval.synthesizer.config import ContextConstructionConfig, StylingConfig

    styling = (
        StylingConfig(
            scenario="People look up facts on Wikipedia",
            task="Answer general-knowledge questions",
            input_format="One short question in English",
        )
        if method == "scratch"
        else None
    )
    s = Synthesizer(model=model, max_concurrent=args.max_concurrent, styling_config=styling)
    random.seed(0)
    t0 = time.perf_counter()
    error = None
    try:
        if method == "docs":
            docs = []
            for i, text in enumerate(passages(args.docs, skip=args.skip)):
                path = out / "docs" / f"clapnq_{args.skip + i}.txt"
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
                docs.append(str(path))
            config = ContextConstructionConfig(max_contexts_per_document=1, max_context_length=1)
            s.generate_goldens_from_docs(
                docs, max_goldens_per_context=args.per_context, context_construction_config=config
            )
        elif method == "contexts":
            contexts = [[t] for t in passages(args.contexts, skip=args.skip)]
            s.generate_goldens_from_contexts(contexts, max_goldens_per_context=args.per_context)
        elif method == "goldens":
            source = EvaluationDataset()
            source.add_goldens_from_json_file(str(out / "contexts.json"))
            s.generate_goldens_from_goldens(source.goldens[: args.goldens], max_goldens_per_golden=1)
        elif method == "scratch":
            s.generate_goldens_from_scratch(num_goldens=args.scratch)
    except Exception as err:  # recorded, the other methods go on
        error = f"{type(err).__name__}: {err}"
    seconds = time.perf_counter() - t0
    n = len(s.synthetic_goldens)
    if n:
        s.save_as("json", str(out), file_name=method, quiet=True)
    return {
        "method": method,
        "goldens": n,
        "seconds": round(seconds, 1),
        "goldens_per_minute": round(60 * n / seconds, 2) if seconds else None,
        **_usage(s),
        "skipped": [f"{k.source}: {k.reason}" for k in s.skipped],
        "error": error,
    }


def run_cli(args: argparse.Namespace, out: Path) -> dict[str, Any]:
    contexts = [[t] for t in passages(2, skip=args.skip + args.contexts)]
    cfile = out / "cli_contexts.json"
    cfile.write_text(json.dumps(contexts), encoding="utf-8")
    env = {**os.environ, "GGUF_MODEL_PATH": str(args.model)}
    cmd = [
        str(Path(sys.executable).with_name("deepeval")), "generate", "--method", "contexts", "--variation", "single-turn",
        "--contexts-file", str(cfile), "--max-goldens-per-context", "1", "--output-dir", str(out),
        "--file-type", "jsonl", "--file-name", "cli",
    ]  # fmt: skip
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - t0
    written = out / "cli.jsonl"
    n = len(written.read_text(encoding="utf-8").splitlines()) if written.is_file() else 0
    return {
        "method": "deepeval generate --method contexts",
        "goldens": n,
        "seconds": round(seconds, 1),
        "goldens_per_minute": round(60 * n / seconds, 2),
        "rc": proc.returncode,
        "stdout": proc.stdout[-500:],
        "stderr": proc.stderr[-1500:],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--methods", default="docs,contexts,goldens,scratch,generate")
    ap.add_argument("--docs", type=int, default=3)
    ap.add_argument("--contexts", type=int, default=4)
    ap.add_argument("--skip", type=int, default=0, help="passages skipped at the start of the file")
    ap.add_argument("--per-context", type=int, default=1)
    ap.add_argument("--goldens", type=int, default=2, help="goldens of the contexts run to generate from")
    ap.add_argument("--scratch", type=int, default=2)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--max-concurrent", type=int, default=100)
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    from deepeval.models import GGUFModel

    summary = args.out / "summary.jsonl"
    methods = [m for m in args.methods.split(",") if m]
    model = None
    for method in methods:
        if method == "generate":
            if model is not None:  # the command loads its own copy
                model.close()
                model = None
            row = run_cli(args, args.out)
        else:
            if model is None:
                t0 = time.perf_counter()
                model = GGUFModel(args.model, n_threads=args.threads)
                print(f"model loaded in {time.perf_counter() - t0:.1f}s", file=sys.stderr, flush=True)
            row = run_method(method, model, args, args.out)
        print(json.dumps(row), file=sys.stderr, flush=True)
        with summary.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(row) + "\n")
    if model is not None:
        model.close()


if __name__ == "__main__":
    main()
