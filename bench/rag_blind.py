"""The RAG metrics offline (the embedded judge: encoder, and the local reader where it is unsure) against the blind
v3 sets (``training/blind/v3/``: written from ``/work/shared/LABELS.md`` only, per-unit labels).

Run from the repo root with the venv active::

    python bench/rag_blind.py --split blind_dev [--kind faithfulness ...] [--failures] [--json OUT]
    python bench/rag_blind.py --split blind_dev --reader MODEL.gguf --reader-cache C.jsonl [--reader-threads 1]

Every metric runs as it runs with no key configured: hybrid mode, no LLM, the embedded judge deciding each unit
(``EmbeddedJudge(reader)`` passed as ``system_one_model``, so the reader's answers can come from a cache;
``training/reader_tools.py``). For every item:

* **unit accuracy**: the item's labelled units (claims / nodes / sentences / contexts, as the labeller split them)
  are decided as a measure decides them (:meth:`PipelineMetric.decide_units`); a unit is right when its verdict
  matches its label's side. An ``unsure`` unit (no stage was sure) counts by P(yes) >= 0.5; the share of unsure
  units is reported. AUROC of P(yes) against the label (0.5 = chance) and the majority-label baseline beside it.
* **item score**: the metric's own measure on the raw test case (its own extraction: the deterministic extractor
  splits claims / sentences where the labeller split by hand) against ``expected_score``: MAE, and pass/fail
  agreement at the default threshold 0.5 (``score >= 0.5`` on both sides).

Label mapping (LABELS.md and deepeval 4.3.1):

* faithfulness: 4.3.1 counts only ``no`` verdicts as unfaithful; ``idk`` (our ``borderline``: not supported and
  not found contradicted, the ``claim_contradicted`` question) counts as faithful unless
  ``penalize_ambiguous_claims``. The AUROC of the 4.3.1 reading ranks by P(not contradicted) where the claim was
  asked the contradiction question, else by P(supported); the ``supported`` AUROC by P(supported). A ``not_stated`` claim is faithful in the gold
  (``expected_score`` = (supported + not_stated) / claims). So the unit is right when (verdict yes or borderline)
  == (label supported or not_stated) ("faithful"); the ``supported`` column is the penalized reading (verdict yes
  == label supported), scored against ``expected_score_penalized`` with ``penalize_ambiguous_claims=True``.
* contextual_precision: useful == yes; contextual_recall: attributable == yes.
* hallucination: agrees == yes. The blind set's ``expected_score`` is the contradicted share (LABELS.md: lower is
  better); our metric, as 4.3.1, scores the agreeing share (higher is better), so the gold is ``1 -
  expected_score`` and a pass is ``score >= 0.5`` on that scale.

Read failures (``--failures``) on blind-dev only; blind-test is scored once, with the final configuration.
A kind whose metric has no offline tier is reported as refused (the ConfigurationError's first words).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import statistics
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "src"))

from training.evalmetrics import auroc  # noqa: E402
from training.reader_tools import add_reader_args, reader_from_args, reader_note  # noqa: E402

from deepeval.errors import ConfigurationError  # noqa: E402
from deepeval.test_case import LLMTestCase  # noqa: E402

BLIND = REPO / "training" / "blind" / "v3"
KINDS = ("faithfulness", "contextual_recall", "contextual_precision", "hallucination")
THRESHOLD = 0.5


@dataclass(frozen=True)
class Kind:
    """How one blind kind maps onto its metric."""

    metric: str
    units: str  # the item's list of labelled units
    text: str | None  # the unit's text key (None: the unit is the label itself, its text from ``source``)
    source: str | None  # for label-only units: the item field whose items the labels follow
    positive: tuple[str, ...]  # labels on the yes side
    passing: tuple[str, ...]  # verdicts on the yes side
    flip: bool = False  # gold item score = 1 - expected_score
    fields: tuple[str, ...] = ()


SPECS: dict[str, Kind] = {
    "faithfulness": Kind(
        "FaithfulnessMetric",
        "claims",
        "claim",
        None,
        ("supported", "not_stated"),
        ("yes", "borderline"),
        fields=("input", "actual_output", "retrieval_context"),
    ),
    "contextual_recall": Kind(
        "ContextualRecallMetric",
        "sentences",
        "sentence",
        None,
        ("attributable",),
        ("yes",),
        fields=("input", "expected_output", "retrieval_context"),
    ),
    "contextual_precision": Kind(
        "ContextualPrecisionMetric",
        "nodes",
        None,
        "retrieval_context",
        ("useful",),
        ("yes",),
        fields=("input", "expected_output", "retrieval_context"),
    ),
    "hallucination": Kind(
        "HallucinationMetric",
        "contexts",
        None,
        "context",
        ("agrees",),
        ("yes",),
        flip=True,
        fields=("input", "actual_output", "context"),
    ),
}


@dataclass
class Unit:
    item: str
    text: str
    label: str
    verdict: str
    p: float | None
    tier: str | None
    tags: list[str]
    contradicted: float | None = None  # P(contradicted) when the unit was asked the contradiction question
    idk_p: float | None = None  # an idk on an unsure support question: its P(supported)


@dataclass
class Item:
    item: str
    gold: float
    score: float | None
    seconds: float
    tags: list[str]
    gold_penalized: float | None = None
    score_penalized: float | None = None
    error: str | None = None
    breakdown: dict[str, Any] = field(default_factory=dict)


def load(kind: str, split: str) -> list[dict[str, Any]]:
    splits = json.loads((BLIND / "SPLITS.json").read_text(encoding="utf-8"))
    items = []
    for line in (BLIND / f"{kind}.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            item = json.loads(line)
            if splits[item["id"]] == split:
                items.append(item)
    return items


def labelled_units(spec: Kind, item: dict[str, Any]) -> list[tuple[str, str]]:
    """``(text, label)`` of every labelled unit of ``item``."""
    if spec.text is not None:
        return [(u[spec.text], u["label"]) for u in item[spec.units]]
    assert spec.source is not None
    return list(zip(item[spec.source], item[spec.units], strict=True))


def _metric(name: str, judge: Any, **options: Any) -> Any:
    import deepeval.metrics as metrics

    return getattr(metrics, name)(system_one_model=judge, eval_mode="hybrid", async_mode=False, **options)


def run_kind(kind: str, split: str, judge: Any) -> tuple[list[Unit], list[Item]] | str:
    """Units and items of ``kind`` on ``split``, or the refusal's message when the metric has no offline tier."""
    spec = SPECS[kind]
    metric = _metric(spec.metric, judge)
    try:
        judges = metric.judges()
    except ConfigurationError as err:
        return str(err)
    if judges.llm is not None:
        raise SystemExit(
            f"an LLM judge is configured ({judges.names()}): unset its settings, this bench is offline"
        )
    units: list[Unit] = []
    items: list[Item] = []
    for item in load(kind, split):
        case = LLMTestCase(**{f: item.get(f) for f in spec.fields})
        labelled = labelled_units(spec, item)
        if labelled:
            decisions = asyncio.run(
                metric.decide_units(metric.measure_context(), case, [t for t, _ in labelled])
            )
            for (text, label), d in zip(labelled, decisions.values(), strict=True):
                pc = (d.stages or {}).get("contradicted")
                units.append(
                    Unit(
                        item["id"],
                        text,
                        label,
                        d.verdict,
                        d.probability,
                        d.tier,
                        item["tags"],
                        pc,
                        d.idk_probability,
                    )
                )
        gold = float(item["expected_score"])
        row = Item(item["id"], 1.0 - gold if spec.flip else gold, None, 0.0, item["tags"])
        m = _metric(spec.metric, judge)
        t0 = time.perf_counter()
        try:
            row.score = float(m.measure(case))
            row.breakdown = dict(m.score_breakdown or {})
        except Exception as err:  # one bad item never costs another its row
            row.error = f"{type(err).__name__}: {err}"
        row.seconds = time.perf_counter() - t0
        if kind == "faithfulness":
            row.gold_penalized = float(item["expected_score_penalized"])
            mp = _metric(spec.metric, judge, penalize_ambiguous_claims=True)
            row.score_penalized = float(mp.measure(case))
        items.append(row)
    return units, items


def _yes(u: Unit, passing: tuple[str, ...]) -> bool:
    if u.verdict == "unsure":
        return (u.p or 0.0) >= 0.5
    if u.verdict == "borderline" and "borderline" not in passing and u.idk_p is not None:
        return (
            u.idk_p >= 0.5
        )  # an idk on an unsure support question counts by P(supported), as the score does
    return u.verdict in passing


def unit_report(spec: Kind, units: list[Unit], kind: str) -> dict[str, Any]:
    if not units:
        return {"n": 0}
    y = np.array([u.label in spec.positive for u in units], dtype=float)
    pred = np.array([_yes(u, spec.passing) for u in units], dtype=float)
    p = np.array([0.5 if u.p is None else u.p for u in units], dtype=float)
    # the 4.3.1 reading of a unit asked the contradiction question: P(faithful) = P(not contradicted)
    p_side = np.array(
        [
            1.0 - u.contradicted if u.contradicted is not None and kind == "faithfulness" else pi
            for u, pi in zip(units, p, strict=True)
        ],
        dtype=float,
    )
    tiers: dict[str, int] = defaultdict(int)
    for u in units:
        tiers[u.tier or "encoder (kind without an unsure band)"] += 1
    out: dict[str, Any] = {
        "n": len(units),
        "accuracy": float(np.mean(pred == y)),
        "auroc": auroc(y, p_side),
        "majority_baseline": float(max(y.mean(), 1.0 - y.mean())),
        "unsure_share": float(np.mean([u.verdict == "unsure" or u.tier == "unsure" for u in units])),
        "tiers": dict(tiers),
        "recall_yes": float(np.mean(pred[y == 1])) if (y == 1).any() else float("nan"),
        "recall_no": float(np.mean(1 - pred[y == 0])) if (y == 0).any() else float("nan"),
    }
    if kind == "faithfulness":
        # the penalized reading: supported (verdict yes) against the rest; and the three labels' verdicts
        ys = np.array([u.label == "supported" for u in units], dtype=float)
        ps = np.array([_yes(u, ("yes",)) for u in units], dtype=float)
        out["supported_accuracy"] = float(np.mean(ps == ys))
        out["supported_auroc"] = auroc(ys, p)
        out["supported_majority"] = float(max(ys.mean(), 1.0 - ys.mean()))
        table: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        for u in units:
            table[u.label][u.verdict] += 1
        out["verdicts_by_label"] = {k: dict(v) for k, v in sorted(table.items())}
    return out


def item_report(items: list[Item], kind: str) -> dict[str, Any]:
    ok = [r for r in items if r.score is not None]
    if not ok:
        return {"n": len(items), "errors": len(items)}
    err = [abs(r.score - r.gold) for r in ok]  # type: ignore[operator]
    agree = [(r.score >= THRESHOLD) == (r.gold >= THRESHOLD) for r in ok]  # type: ignore[operator]
    gold = [r.gold for r in ok]
    out: dict[str, Any] = {
        "n": len(items),
        "errors": len(items) - len(ok),
        "mae": statistics.fmean(err),
        "pass_agreement": statistics.fmean(agree),
        "pass_majority_baseline": max(
            statistics.fmean(g >= THRESHOLD for g in gold), statistics.fmean(g < THRESHOLD for g in gold)
        ),
        "mae_constant_mean": statistics.fmean(abs(g - statistics.fmean(gold)) for g in gold),
        "median_s": statistics.median(r.seconds for r in ok),
        "p95_s": float(np.percentile([r.seconds for r in ok], 95)),
    }
    if kind == "faithfulness":
        pen = [r for r in ok if r.score_penalized is not None and r.gold_penalized is not None]
        out["penalized_mae"] = statistics.fmean(abs(r.score_penalized - r.gold_penalized) for r in pen)  # type: ignore[operator]
        out["penalized_pass_agreement"] = statistics.fmean(
            (r.score_penalized >= THRESHOLD) == (r.gold_penalized >= THRESHOLD)  # type: ignore[operator]
            for r in pen
        )
    return out


def failures(spec: Kind, units: list[Unit], items: list[Item]) -> list[str]:
    lines = []
    for u in units:
        if _yes(u, spec.passing) != (u.label in spec.positive):
            p = "None" if u.p is None else f"{u.p:.2f}"
            pc = "" if u.contradicted is None else f" p_contradicted={u.contradicted:.2f}"
            lines.append(
                f"  UNIT {u.item} [{u.label}] verdict={u.verdict} p={p}{pc} tier={u.tier}: {u.text[:150]}"
            )
    for r in items:
        if r.score is None or (r.score >= THRESHOLD) != (r.gold >= THRESHOLD):
            lines.append(f"  ITEM {r.item} gold={r.gold:.2f} ours={r.score} {r.error or ''} tags={r.tags}")
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--split", choices=("blind_dev", "blind_test"), default="blind_dev")
    ap.add_argument("--kind", action="append", choices=KINDS, help="default: every kind")
    ap.add_argument("--failures", action="store_true", help="list wrong units and items (blind_dev only)")
    ap.add_argument("--json", type=Path, default=None)
    add_reader_args(ap)
    args = ap.parse_args()
    if args.failures and args.split != "blind_dev":
        raise SystemExit("--failures reads blind-dev only: blind-test is scored, never read")
    from deepeval.models.embedded.judge import EmbeddedJudge

    reader = reader_from_args(args)
    judge = EmbeddedJudge(reader)
    report: dict[str, Any] = {"split": args.split, "reader": args.reader, "kinds": {}}
    for kind in args.kind or KINDS:
        t0 = time.perf_counter()
        got = run_kind(kind, args.split, judge)
        if isinstance(got, str):
            report["kinds"][kind] = {"refused": got}
            print(f"{kind} ({args.split}): REFUSED offline: {got[:160]}")
            continue
        units, items = got
        spec = SPECS[kind]
        entry = {
            "units": unit_report(spec, units, kind),
            "items": item_report(items, kind),
            "wall_s": time.perf_counter() - t0,
        }
        report["kinds"][kind] = entry
        print(f"{kind} ({args.split}, reader {args.reader}):")
        print("  units " + json.dumps(entry["units"]))
        print("  items " + json.dumps(entry["items"]))
        if args.failures:
            print("\n".join(failures(spec, units, items)))
    report["reader_note"] = reader_note(reader)
    report["max_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(report["reader_note"], f"max RSS {report['max_rss_mb']:.0f} MB")
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
