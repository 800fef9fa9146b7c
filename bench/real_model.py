"""Side by side on a real model: our three metrics in ``llm`` and ``hybrid`` modes and deepeval 4.3.1's in ``llm``
mode, all judged by one llama.cpp server (Qwen2.5-Coder-1.5B-Instruct Q4_K_M by default), on the frozen blind sets;
plus the memory grader with the model as its LLM.

Runs (``--runs``):

* ``deepeval-llm``: deepeval 4.3.1, its ``LocalModel`` on the server (``USE_LOCAL_MODEL=YES``, ``LOCAL_MODEL_*``:
  what ``deepeval set-local-model`` writes), ``eval_mode="llm"``;
* ``ours-llm``: ours, the same settings (our ``LocalModel``, its default ``json_schema`` structured output);
* ``ours-hybrid``: ours, ``eval_mode="hybrid"``: the model extracts and writes reasons, the embedded judge decides;
* ``ours-hybrid-logprob``: ours, hybrid with the model itself as the System One judge
  (``LogprobSystemOneModel(LocalModel())``: first-token P(yes), no JSON schema on those requests);
* ``ours-memory`` (memory_grade only): the memory grader with the model as its LLM; ``embedded-memory``: the
  embedded grader (no model), for reference.

Every metric runs with ``include_reason=True`` and ``threshold=0.5`` (both defaults). Each run is a sealed
subprocess (:mod:`bench.harness`) of :mod:`bench._real_worker` in the implementation's own venv; the server sits
behind the counting proxy of :mod:`bench.llama_server`, so requests and tokens are counted identically. Items go in
chunks, every run measuring a chunk before the next chunk starts (machine load then falls on all runs alike).
Each item's result is appended to ``--out`` (JSONL) as soon as it is measured; a rerun skips items already there.

Usage::

    python bench/real_model.py run --split blind_dev --n-ar 6 --n-cr 5 --n-kr 3 --n-mg 12 --out OUT.jsonl
    python bench/real_model.py report OUT.jsonl [--json SUMMARY.json]

Protocol (training/blind/README.md): blind-dev results may be read item by item (``--transcript`` keeps every
prompt and reply); blind-test is run once, for the table, and only summarised.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.harness import OUR_PYTHON, code_version, deepeval_python, machine, sealed_env

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
BLIND = REPO / "training" / "blind"
DEFAULT_MODEL = Path("/work/models/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf")
WORKER = BENCH / "_real_worker.py"
ROW = "@@row "  # the worker's result lines (bench/_real_worker.py)

#: run name -> (implementation, eval mode, System One)
RUNS: dict[str, tuple[str, str, str | None]] = {
    "deepeval-llm": ("deepeval", "llm", None),
    "ours-llm": ("ours", "llm", None),
    "ours-hybrid": ("ours", "hybrid", None),
    "ours-hybrid-logprob": ("ours", "hybrid", "logprob"),
    "ours-memory": ("ours", "llm", None),
    "embedded-memory": ("ours", "embedded", None),
}
METRICS = {
    "ar": "answer_relevancy",
    "cr": "contextual_relevancy",
    "kr": "knowledge_retention",
    "mg": "memory_grade",
}
MEMORY_RUNS = ("ours-memory", "embedded-memory")
#: an item's score is "in the labelled range" when within this distance of the blind set's expected score
BAND = 0.15


# -- data ----------------------------------------------------------------------------------------------------------
def split_file(metric: str, split: str) -> Path:
    if metric == "knowledge_retention":
        return BLIND / "kr" / f"{split}.jsonl"
    return BLIND / "rel" / f"{metric}.{split}.jsonl"


def spread(items: Sequence[Any], n: int) -> list[Any]:
    """``n`` items evenly spaced over ``items`` (all of them when ``n`` >= the count), in file order."""
    if n >= len(items):
        return list(items)
    if n <= 0:
        return []
    step = len(items) / n
    return [items[int(i * step)] for i in range(n)]


def load_items(metric: str, split: str, n: int, select: str = "spread") -> list[dict[str, Any]]:
    """``n`` items of a split: ``spread`` (evenly spaced, :func:`spread`) or ``first`` (the first ``n`` in file
    order: a later run with a larger ``n`` keeps every item already measured)."""
    lines = split_file(metric, split).read_text(encoding="utf-8").splitlines()
    items = [json.loads(x) for x in lines if x.strip()]
    if select == "first":
        return items[: max(n, 0)]
    return spread(items, n)


def expected_score(metric: str, item: dict[str, Any]) -> float | None:
    """The blind set's expected score of an item (LABELS.md): relevant / statements, keeps / labelled turns."""
    if metric in ("answer_relevancy", "contextual_relevancy"):
        sts = item["statements"]
        return sum(s["label"] == "relevant" for s in sts) / len(sts) if sts else None
    if metric == "knowledge_retention":
        labels = item["labels"]
        return sum(lab["label"] == "keeps" for lab in labels) / len(labels) if labels else 1.0
    return None


# -- aligning judged statements with labelled ones ----------------------------------------------------------------
_WORD = re.compile(r"[a-z0-9]+")


def words(text: str) -> set[str]:
    """Lower-case words of 3+ characters, and every number."""
    return {w for w in _WORD.findall(text.lower()) if len(w) >= 3 or w.isdigit()}


def aligned_verdicts(
    labelled: Sequence[dict[str, Any]], units: Sequence[dict[str, Any]], *, by_node: bool
) -> list[bool | None]:
    """For each labelled statement, whether the judge found it relevant, read from the judged statements that cover
    it: a judged statement covers a labelled one (of the same node, for context) when it holds at least half of the
    labelled statement's words, or at least 60% of its own words are in it. A labelled statement is judged relevant
    when at least half the judged statements covering it are "yes" / "borderline" / "idk"; None when none covers it
    (the judge dropped or rewrote it beyond recognition)."""
    out: list[bool | None] = []
    unit_words = [words(str(u.get("statement", ""))) for u in units]
    for lab in labelled:
        lw = words(lab["text"])
        votes = []
        for u, uw in zip(units, unit_words, strict=True):
            if by_node and u.get("node") != lab.get("node"):
                continue
            common = len(lw & uw)
            if lw and uw and (common >= 0.5 * len(lw) or common >= 0.6 * len(uw)):
                votes.append(str(u.get("verdict")) in ("yes", "borderline", "idk"))
        out.append(None if not votes else sum(votes) >= len(votes) / 2)
    return out


# -- the server ----------------------------------------------------------------------------------------------------
class Server:
    """bench/llama_server.py in its own process group (its log goes to ``log``)."""

    def __init__(self, model: Path, threads: int, workdir: Path, transcript: Path | None) -> None:
        self.ready_file = workdir / "ready.json"
        self.log = workdir / "llama_server.log"
        cmd = [
            str(OUR_PYTHON),
            str(BENCH / "llama_server.py"),
            "--model",
            str(model),
            "--threads",
            str(threads),
            "--ready",
            str(self.ready_file),
        ]
        if transcript is not None:
            cmd += ["--transcript", str(transcript)]
        env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
        with self.log.open("w") as log:
            self.proc = subprocess.Popen(cmd, stdout=log, stderr=log, env=env, start_new_session=True)
        deadline = time.monotonic() + 600
        while not self.ready_file.is_file() or not self.ready_file.read_text().strip():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"llama server did not start; see {self.log}")
            time.sleep(1)
        time.sleep(0.2)
        self.info: dict[str, Any] = json.loads(self.ready_file.read_text())

    def close(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(30)


def worker_env(workdir: Path, impl: str, server: dict[str, Any], model_name: str) -> dict[str, str]:
    extra = {
        "USE_LOCAL_MODEL": "YES",
        "LOCAL_MODEL_NAME": model_name,
        "LOCAL_MODEL_BASE_URL": server["base_url"],
        "LOCAL_MODEL_API_KEY": server["api_key"],
        # a CPU server queues concurrent requests: no client gives up on a slow reply (both sides alike)
        "DEEPEVAL_DISABLE_TIMEOUTS": "1",  # deepeval 4.3.1
        "DEEPEVAL_JUDGE_TIMEOUT": "3600",  # ours
    }
    env = sealed_env(workdir, extra)
    if impl == "ours":
        env["PYTHONPATH"] = os.pathsep.join([str(REPO / "src"), env["PYTHONPATH"]])
    return env


def run_chunk(
    run: str, metric: str, items: list[dict[str, Any]], server: dict[str, Any], model_name: str
) -> Iterable[dict[str, Any]]:
    """Measure ``items`` in one worker process; yields each item's row as the worker prints it."""
    impl, mode, system_one = RUNS[run]
    if run == "embedded-memory":
        yield from _embedded_grades(items)
        return
    python = OUR_PYTHON if impl == "ours" else deepeval_python(install=False)
    with tempfile.TemporaryDirectory(prefix=f"real-{run}-") as tmp:
        workdir = Path(tmp)
        job = {
            "impl": impl,
            "run": run,
            "metric": metric,
            "mode": mode,
            "system_one": system_one,
            "include_reason": True,
            "proxy": {"base_url": server["base_url"], "api_key": server["api_key"]},
            "items": items,
        }
        (workdir / "job.json").write_text(json.dumps(job))
        stderr_path = workdir / "stderr.txt"
        with stderr_path.open("w") as stderr:
            proc = subprocess.Popen(
                [str(python), str(WORKER), str(workdir / "job.json")],
                cwd=workdir,
                env=worker_env(workdir, impl, server, model_name),
                stdout=subprocess.PIPE,
                stderr=stderr,
                text=True,
            )
            assert proc.stdout is not None
            try:
                for line in proc.stdout:
                    if not line.startswith(ROW):
                        continue
                    row = json.loads(line[len(ROW) :])
                    if "hello" not in row:
                        yield row
                code = proc.wait()
            finally:
                if proc.poll() is None:  # interrupted: the worker goes too
                    proc.terminate()
                    proc.wait(30)
        if code != 0:
            tail = stderr_path.read_text(errors="replace")[-1500:]
            print(f"  worker {run}/{metric} exited {code}: {tail}", file=sys.stderr)


def _embedded_grades(items: list[dict[str, Any]]) -> Iterable[dict[str, Any]]:
    import asyncio

    sys.path.insert(0, str(REPO / "src"))
    from deepeval.memory.judges import EmbeddedMemoryJudge

    judge = EmbeddedMemoryJudge()
    for item in items:
        t0 = time.perf_counter()
        graded = asyncio.run(judge.grade(item["question"], item["expected"], item["answer"], []))
        yield {"id": item["id"], "grade": int(graded.score), "wall_s": round(time.perf_counter() - t0, 2)}


def _done(out: Path) -> set[tuple[str, str, str, str]]:
    if not out.is_file():
        return set()
    keys = set()
    for line in out.read_text(encoding="utf-8").splitlines():
        if line.strip():
            r = json.loads(line)
            if r.get("kind") == "item":
                keys.add((r["run"], r["metric"], r["split"], r["id"]))
    return keys


def _append(out: Path, row: dict[str, Any]) -> None:
    with out.open("a", encoding="utf-8") as fh:
        fh.write(json.dumps(row, ensure_ascii=False, default=str) + "\n")


def _exit_on_term(signum: int, frame: Any) -> None:
    raise SystemExit(128 + signum)  # runs the finally blocks: the server and the worker are stopped


def cmd_run(args: argparse.Namespace) -> None:
    signal.signal(signal.SIGTERM, _exit_on_term)
    out: Path = args.out
    out.parent.mkdir(parents=True, exist_ok=True)
    done = _done(out)
    load = os.getloadavg()
    threads = args.threads if args.threads > 0 else (2 if load[0] < 1.0 else 1)
    counts = {"ar": args.n_ar, "cr": args.n_cr, "kr": args.n_kr, "mg": args.n_mg}
    runs = [r.strip() for r in args.runs.split(",") if r.strip()]
    unknown = [r for r in runs if r not in RUNS]
    if unknown:
        raise SystemExit(f"unknown runs {unknown}; choose from {sorted(RUNS)}")
    plan = []
    for key in [m.strip() for m in args.metrics.split(",") if m.strip()]:
        metric = METRICS[key]
        items = load_items(metric, args.split, counts[key], args.select)
        wanted = [r for r in runs if (r in MEMORY_RUNS) == (metric == "memory_grade")]
        plan.append((metric, items, wanted))
    workdir = Path(tempfile.mkdtemp(prefix="real-model-"))
    transcript = out.with_suffix(".transcript.jsonl") if args.transcript else None
    t_start = time.time()
    server = Server(args.model, threads, workdir, transcript)
    model_name = args.model.stem
    _append(
        out,
        {
            "kind": "session",
            "started": time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(t_start)),
            "split": args.split,
            "code": code_version(),
            "machine": machine(),
            "threads": threads,
            "load_at_start": load,
            "server": {k: v for k, v in server.info.items() if k not in ("api_key", "base_url")},
            "cmd": " ".join(sys.argv),
        },
    )
    try:
        for metric, items, wanted in plan:
            for start in range(0, len(items), args.chunk):
                chunk = items[start : start + args.chunk]
                for run in wanted:
                    todo = [it for it in chunk if (run, metric, args.split, it["id"]) not in done]
                    if not todo:
                        continue
                    load_before = os.getloadavg()[0]
                    for row in run_chunk(run, metric, todo, server.info, model_name):
                        row.update(
                            kind="item",
                            run=run,
                            metric=metric,
                            split=args.split,
                            threads=threads,
                            load_1m=round(load_before, 2),
                        )
                        _append(out, row)
                        status = row.get("error_type") or f"score={row.get('score', row.get('grade'))}"
                        print(
                            f"{run:20} {metric:21} {row['id']:22} {status:28} {row.get('wall_s', 0):7.1f}s "
                            f"req={row.get('counters', {}).get('requests', 0)} load={load_before:.1f}",
                            flush=True,
                        )
    finally:
        server.close()
        _append(
            out,
            {
                "kind": "session_end",
                "wall_s": round(time.time() - t_start, 1),
                "load_at_end": os.getloadavg(),
            },
        )
    print(f"done in {time.time() - t_start:.0f} s; server log {server.log}")


# -- the report ----------------------------------------------------------------------------------------------------
STRUCTURED_ERRORS = ("StructuredOutputError", "ValidationError", "JSONDecodeError")


def is_structured_failure(row: dict[str, Any]) -> bool:
    """A metric run that failed because a reply did not give the asked JSON: ours raises StructuredOutputError;
    deepeval 4.3.1 raises pydantic's ValidationError, or a ValueError saying the LLM output invalid JSON."""
    et = row.get("error_type")
    if not et:
        return False
    return et in STRUCTURED_ERRORS or "invalid JSON" in str(row.get("error", ""))


def _items_by_id(metric: str, split: str) -> dict[str, dict[str, Any]]:
    lines = split_file(metric, split).read_text(encoding="utf-8").splitlines()
    return {(d := json.loads(x))["id"]: d for x in lines if x.strip()}


def common_items(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The item rows of the items every run of their metric measured (a run stopped mid-chunk leaves the other runs
    with items it lacks); other rows unchanged."""
    runs: dict[str, set[str]] = {}
    ids: dict[tuple[str, str], set[str]] = {}
    for r in rows:
        if r.get("kind") == "item":
            runs.setdefault(r["metric"], set()).add(r["run"])
            ids.setdefault((r["metric"], r["run"]), set()).add(r["id"])
    shared = {m: set.intersection(*(ids[(m, run)] for run in rs)) for m, rs in runs.items()}
    return [r for r in rows if r.get("kind") != "item" or r["id"] in shared[r["metric"]]]


def summarise(rows: list[dict[str, Any]]) -> dict[tuple[str, str], dict[str, Any]]:
    """Per (metric, run): agreement with the labels, failures and cost (see the module docstring)."""
    out: dict[tuple[str, str], dict[str, Any]] = {}
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for r in rows:
        if r.get("kind") == "item":
            groups.setdefault((r["metric"], r["run"]), []).append(r)
    for (metric, run), rs in sorted(groups.items()):
        gold = _items_by_id(metric, rs[0]["split"])
        s: dict[str, Any] = {"items": len(rs), "errors": sum(bool(r.get("error")) for r in rs)}
        s["structured_failures"] = sum(is_structured_failure(r) for r in rs)
        for name in ("requests", "prompt_tokens", "cached_tokens", "completion_tokens", "reasks", "not_json"):
            s[name] = sum(int(r.get("counters", {}).get(name, 0)) for r in rs)
        s["wall_s"] = round(sum(float(r.get("wall_s", 0)) for r in rs), 1)
        s["load_1m"] = round(sum(float(r.get("load_1m", 0)) for r in rs) / len(rs), 2)
        if metric == "memory_grade":
            graded = [(r.get("grade"), gold[r["id"]]["grade"]) for r in rs]
            ok = [(g, t) for g, t in graded if g is not None]
            s["units"] = len(graded)
            s["exact"] = sum(g == t for g, t in ok) / len(graded)
            s["within_1"] = sum(abs(g - t) <= 1 for g, t in ok) / len(graded)
            s["mae"] = sum(abs(g - t) for g, t in ok) / len(ok) if ok else None
        else:
            _agreement(metric, rs, gold, s)
        out[(metric, run)] = s
    return out


def _agreement(
    metric: str, rs: list[dict[str, Any]], gold: dict[str, dict[str, Any]], s: dict[str, Any]
) -> None:
    agree = judged = units = 0
    in_band = 0
    for r in rs:
        item = gold[r["id"]]
        expected = expected_score(metric, item)
        score = r.get("score")
        if score is not None and expected is not None and abs(float(score) - expected) <= BAND + 1e-9:
            in_band += 1
        if metric == "knowledge_retention":
            attrition = {u["turn"]: str(u.get("verdict")) == "yes" for u in r.get("units") or []}
            for lab in item["labels"]:
                units += 1
                if r.get("error"):
                    continue
                judged += 1
                agree += attrition.get(lab["turn"], False) == (lab["label"] == "forgets")
        else:
            labelled = item["statements"]
            units += len(labelled)
            if r.get("error"):
                continue
            verdicts = aligned_verdicts(
                labelled, r.get("units") or [], by_node=metric == "contextual_relevancy"
            )
            for lab, v in zip(labelled, verdicts, strict=True):
                if v is not None:
                    judged += 1
                    agree += v == (lab["label"] == "relevant")
    s["units"] = units
    s["covered"] = judged
    s["agreement"] = agree / judged if judged else None
    s["agreement_all"] = agree / units if units else None  # uncovered or errored units count as wrong
    s["in_band"] = in_band / len(rs)


def _read(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def _f(x: Any, digits: int = 3) -> str:
    if x is None:
        return "-"
    if isinstance(x, float):
        return f"{x:.{digits}f}"
    return str(x)


def render(summary: dict[tuple[str, str], dict[str, Any]]) -> str:
    lines = []
    for metric in METRICS.values():
        rows = [(run, s) for (m, run), s in summary.items() if m == metric]
        if not rows:
            continue
        lines.append(f"\n### {metric}\n")
        if metric == "memory_grade":
            lines.append(
                "| run | items | exact | within 1 | MAE | errors | requests | prompt tok (cached) | out tok | wall s |"
            )
            lines.append("|---|---|---|---|---|---|---|---|---|---|")
            for run, s in rows:
                lines.append(
                    f"| {run} | {s['items']} | {_f(s['exact'])} | {_f(s['within_1'])} | {_f(s['mae'], 2)} | "
                    f"{s['errors']} | {s['requests']} | {s['prompt_tokens']} ({s['cached_tokens']}) | "
                    f"{s['completion_tokens']} | {s['wall_s']} |"
                )
            continue
        unit = "turns" if metric == "knowledge_retention" else "statements"
        lines.append(
            f"| run | items | {unit}: agree (judged) | agree, all | score within +-{BAND} | errors (structured) | "
            "re-asks | requests | prompt tok (cached) | out tok | wall s | load |"
        )
        lines.append("|---|---|---|---|---|---|---|---|---|---|---|---|")
        for run, s in rows:
            lines.append(
                f"| {run} | {s['items']} | {_f(s['agreement'])} ({s['covered']}/{s['units']}) | "
                f"{_f(s['agreement_all'])} | {_f(s['in_band'])} | {s['errors']} ({s['structured_failures']}) | "
                f"{s['reasks']} | {s['requests']} | {s['prompt_tokens']} ({s['cached_tokens']}) | "
                f"{s['completion_tokens']} | {s['wall_s']} | {s['load_1m']} |"
            )
    return "\n".join(lines)


def cmd_report(args: argparse.Namespace) -> None:
    rows = _read(args.results)
    for r in rows:
        if r.get("kind") == "session":
            print(
                f"session {r['started']} UTC split={r['split']} code={r['code']} threads={r['threads']} "
                f"load={r['load_at_start']}"
            )
    if args.common:
        before = sum(r.get("kind") == "item" for r in rows)
        rows = common_items(rows)
        print(
            f"items measured by every run of their metric: {sum(r.get('kind') == 'item' for r in rows)} rows of {before}"
        )
    summary = summarise(rows)
    print(render(summary))
    if args.json:
        args.json.write_text(
            json.dumps({f"{m}/{run}": s for (m, run), s in summary.items()}, indent=1, default=str)
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="measure items (resumable)")
    r.add_argument("--split", choices=("blind_dev", "blind_test"), required=True)
    r.add_argument(
        "--runs", default="deepeval-llm,ours-llm,ours-hybrid,ours-hybrid-logprob,ours-memory,embedded-memory"
    )
    r.add_argument("--metrics", default="ar,cr,kr,mg")
    r.add_argument("--n-ar", type=int, default=6)
    r.add_argument("--n-cr", type=int, default=5)
    r.add_argument("--n-kr", type=int, default=3)
    r.add_argument("--n-mg", type=int, default=12)
    r.add_argument(
        "--select",
        choices=("spread", "first"),
        default="spread",
        help="which n items: evenly spaced or the first n",
    )
    r.add_argument("--chunk", type=int, default=2, help="items per worker before the next run takes its turn")
    r.add_argument("--model", type=Path, default=DEFAULT_MODEL)
    r.add_argument("--threads", type=int, default=0, help="llama.cpp threads (0: 2 if load < 1.0, else 1)")
    r.add_argument("--transcript", action="store_true", help="keep every prompt and reply (blind-dev only)")
    r.add_argument("--out", type=Path, required=True)
    rep = sub.add_parser("report", help="summarise a results file")
    rep.add_argument("results", type=Path)
    rep.add_argument("--json", type=Path, default=None)
    rep.add_argument(
        "--common", action="store_true", help="only items that every run of their metric measured"
    )
    args = ap.parse_args()
    if args.cmd == "run":
        if args.transcript and args.split == "blind_test":
            raise SystemExit("--transcript is for blind_dev only: blind-test replies are not read")
        cmd_run(args)
    else:
        cmd_report(args)


if __name__ == "__main__":
    main()
