"""Accuracy, calibration and cost of the embedded judge on the held-out split, side by side with a raw-cosine
baseline, per question kind.

Run from the repo root with the venv active::

    python bench/judge_accuracy.py [--limit N]

For every kind it asks the real judge (``get_embedded_judge().decide``) one NoulQuestion per held-out example and
reports accuracy (P >= 0.5), AUROC, Brier score and ECE (10 equal-width bins) next to the raw-cosine baseline (the
single cosine feature, Platt-scaled on the training split; the same baseline as training/report.json). Latency is
wall time per question with a cold encoder cache at the start (repeated inputs hit the cache, as in a real run);
peak RSS is the process maximum (``resource.getrusage``) measured after the judge's questions and before the
baseline is fitted. Cold start = constructing the judge and answering one
question in a fresh interpreter. Then per-question latency on realistic requests (a CR hybrid request over 4
nodes, an AR hybrid request, a CR system_one request, claims against a wiki page; see :func:`_requests`): the
request's wall time / its questions, cold (no text of the request cached) and warm (the same request again). ``claim_supported (HaluEval)`` is reported for transparency only: HaluEval has no
source text, so the claim is the response and the source is the user query.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "src"))

from training import datasets  # noqa: E402
from training.evalmetrics import summary  # noqa: E402
from training.train_embedded import FEATURES, fit_kind, predict  # noqa: E402

from deepeval.models.embedded import encoder, get_embedded_judge  # noqa: E402
from deepeval.models.system_one.schema import NoulQuestion, Questions  # noqa: E402


def _question(e: datasets.Example) -> NoulQuestion:
    kind = "claim_supported" if e.kind == "claim_supported_halueval" else e.kind
    if kind == "statement_relevant":
        data = {"input": e.a, "statement": e.b}
    elif kind == "context_statement_relevant":
        data = {"input": e.a, "statement": e.b, "node": e.extra}
    elif kind == "context_node_relevant":
        data = {"input": e.a, "node": e.b}
    elif kind == "claim_supported":
        data = {"claim": e.a, "source": e.b}
    else:
        data = {"facts": json.loads(e.a), "assistant_message": e.b, "user_message": e.extra}
    return NoulQuestion(instructions=f"benchmark question ({kind})", kind=kind, data=data)


def _baseline(kind: str, train: list[datasets.Example], test: list[datasets.Example]) -> np.ndarray:
    featurize, base_name = FEATURES["claim_supported" if kind == "claim_supported_halueval" else kind]
    xtr = np.array([[featurize(e)[base_name]] for e in train])
    ytr = np.array([e.label for e in train], dtype=float)
    model, _ = fit_kind(xtr, ytr, seed=datasets.SEED)
    return predict(model, np.array([[featurize(e)[base_name]] for e in test]))


def _requests(n: int) -> dict[str, list[tuple[dict[str, Any], Questions]]]:
    """``n`` realistic System One requests per type, built from held-out ClapNQ items the way our metrics build
    them: a CR hybrid request (every sentence of 4 retrieved nodes: the item's passage and 3 passages of other
    items), an AR hybrid request (every sentence of the human answer), a CR system_one request (3 whole-metric
    questions over the raw case) and a claim-support request (every sentence of 4 items' answers against a wiki
    page made of their 4 passages)."""
    from deepeval.metrics.answer_relevancy.pipeline import PIPELINE as AR_PIPELINE
    from deepeval.metrics.pipeline import PipelineQuestions

    ar_questions = PipelineQuestions(AR_PIPELINE)
    from deepeval.metrics.contextual_relevancy.questions import ContextualRelevancyQuestions
    from deepeval.metrics.delimit import STATE_NOTE
    from deepeval.models.embedded.extraction import DeterministicExtractor

    split = DeterministicExtractor().statements_sync
    items = [r for r in datasets._clapnq_items() if r["_answerable"]]
    test_ids = datasets._test_ids(datasets._clapnq_items())
    items = [r for r in items if str(r["id"]) in test_ids][: 4 * n + 4]
    out: dict[str, list[tuple[dict[str, Any], Questions]]] = {
        "cr_hybrid": [],
        "ar_hybrid": [],
        "cr_system_one": [],
    }
    out["claims_wiki_page"] = []
    for i in range(n):
        group = items[4 * i : 4 * i + 4]
        q = group[0]["input"]
        nodes = [r["passages"][0]["text"] for r in group]
        state = {"note": STATE_NOTE, "input": q}
        context = "\n".join(nodes)
        cr = {
            f"n{k}s{j}": ContextualRelevancyQuestions.statement_relevant(q, st, context=context)
            for k, node in enumerate(nodes)
            for j, st in enumerate(split(node))
        }
        out["cr_hybrid"].append((state, cr))
        answer = " ".join(o.get("answer", "") for o in group[0]["output"])
        ar = {
            f"s{j}": ar_questions.unit(st, {"input": q, "statement": st})
            for j, st in enumerate(split(answer))
        }
        out["ar_hybrid"].append((state, ar))
        raw = {"note": STATE_NOTE, "input": q, "retrieval_context": nodes}
        whole = ContextualRelevancyQuestions.whole_metric(q, nodes)
        out["cr_system_one"].append((raw, {w.id: w.question for w in whole}))
        page = "\n\n".join(f"## {r['passages'][0]['title']}\n{r['passages'][0]['text']}" for r in group)
        claims = [c for r in group for o in r["output"] for c in split(o.get("answer", "") or "")]
        cs = {
            f"c{j}": NoulQuestion(
                instructions="claim", kind="claim_supported", data={"claim": c, "source": page}
            )
            for j, c in enumerate(claims)
        }
        out["claims_wiki_page"].append(({}, cs))
    return out


def print_request_latency(n: int) -> None:
    """Per-question latency on realistic requests = request wall time / its questions. Cold: no text of the
    request in the encoder cache (the process-constant background set is, as after the first question of a
    process); warm: the same request again (every text cached: features and models only)."""
    from deepeval.models.embedded import features

    judge = get_embedded_judge()
    print(f"\nper-question latency on realistic requests ({n} each; wall time / questions)")
    print(f"{'request':18s} {'questions':>9s} {'cold ms/q':>9s} {'warm ms/q':>9s}")
    for name, reqs in _requests(n).items():
        n_q, cold_t, warm_t = 0, 0.0, 0.0
        for state, qs in reqs:
            encoder.clear_cache()
            encoder.embed(list(features.BACKGROUND), "passage")
            t0 = time.perf_counter()
            judge.decide(state, qs)
            t1 = time.perf_counter()
            judge.decide(state, qs)
            warm_t += time.perf_counter() - t1
            cold_t += t1 - t0
            n_q += len(qs)
        print(f"{name:18s} {n_q / len(reqs):9.1f} {1000 * cold_t / n_q:9.1f} {1000 * warm_t / n_q:9.1f}")


def cold_start() -> float:
    code = (
        "import time; t=time.perf_counter();"
        "from deepeval.models.embedded import get_embedded_judge;"
        "from deepeval.models.system_one.schema import NoulQuestion as Q;"
        "j=get_embedded_judge();"
        "j.decide({}, {'q': Q(instructions='x', kind='statement_relevant', data={'input':'a b', 'statement':'c d'})});"
        "print(time.perf_counter()-t)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO)
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description="embedded judge accuracy benchmark")
    ap.add_argument(
        "--limit", type=int, default=200, help="max held-out examples per kind (fixed-seed sample)"
    )
    ap.add_argument("--requests", type=int, default=8, help="realistic requests per request type (latency)")
    ap.add_argument("--latency-only", action="store_true", help="only the realistic-request latency table")
    args = ap.parse_args()
    if args.latency_only:
        print_request_latency(args.requests)
        return
    cold = cold_start()
    examples = datasets.clapnq_examples() + datasets.retention_examples()
    try:
        examples += datasets.halueval_examples()
    except FileNotFoundError:
        pass
    judge = get_embedded_judge()
    kinds = [
        "statement_relevant",
        "context_statement_relevant",
        "context_node_relevant",
        "claim_supported",
        "turn_forgets",
        "turn_reasks",
        "turn_attrition",
        "claim_supported_halueval",
    ]
    rng = np.random.default_rng(datasets.SEED)
    cache_file = REPO / "training" / ".cache" / "embeddings.npz"
    plan = []
    for kind in kinds:
        test = [e for e in examples if e.kind == kind and e.split == "test"]
        if len(test) > args.limit:
            test = [test[i] for i in sorted(rng.choice(len(test), args.limit, replace=False))]
        train_kind = "claim_supported" if kind == "claim_supported_halueval" else kind
        train = [e for e in examples if e.kind == train_kind and e.split == "train"]
        plan.append((kind, train, test))
    rows = []
    total_q, total_t = 0, 0.0
    for kind, _, test in plan:
        y = np.array([e.label for e in test], dtype=float)
        encoder.clear_cache()
        t0 = time.perf_counter()
        p = np.array([judge.decide({}, {"q": _question(e)})[0].nouls["q"].probability for e in test])
        dt = time.perf_counter() - t0
        total_q += len(test)
        total_t += dt
        rows.append((kind, y, p, 1000 * dt / len(test)))
        print(f"  {kind}: {len(test)} questions in {dt:.1f} s", file=sys.stderr, flush=True)
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # judge only: baselines come after
    # baselines (not timed), with the training embedding cache
    encoder.set_cache_size(200_000)
    if cache_file.exists():
        encoder.load_cache(str(cache_file))
    baselines = {kind: _baseline(kind, train, test) for kind, train, test in plan}
    rows = [(kind, summary(y, baselines[kind]), summary(y, p), ms) for kind, y, p, ms in rows]
    head = (
        f"{'kind':26s} {'n':>4s} | {'acc':>5s} {'auroc':>5s} {'brier':>5s} {'ece':>5s} (raw cosine) | "
        f"{'acc':>5s} {'auroc':>5s} {'brier':>5s} {'ece':>5s} (deepeval-local-1) | ms/q"
    )
    print(head)
    print("-" * len(head))
    for kind, b, o, ms in rows:
        print(
            f"{kind:26s} {o['n']:4d} | {b['accuracy']:.3f} {b['auroc']:.3f} {b['brier']:.3f} {b['ece']:.3f}"
            f"              | {o['accuracy']:.3f} {o['auroc']:.3f} {o['brier']:.3f} {o['ece']:.3f}"
            f"                   | {ms:5.1f}"
        )
    print(
        f"\nmean latency {1000 * total_t / total_q:.1f} ms/question over {total_q} questions (one question per "
        f"request, every text new); peak RSS {rss_mb:.0f} MB; cold start {cold:.2f} s"
    )
    print_request_latency(args.requests)


if __name__ == "__main__":
    main()
