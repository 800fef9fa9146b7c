"""Score the shipped embedded judge on every blind set (both splits) with ``deepeval judge-eval``'s code, and write
the ``blind`` section of ``training/report.json``.

Usage (from the repo root, venv active)::

    python training/blind_eval.py                 # every set under training/blind/{rel,kr}, both splits
    python training/blind_eval.py --split blind_dev --metric answer_relevancy --no-write
    python training/blind_eval.py --split blind_dev --no-write --reader /work/models/<reader>.gguf \
        --reader-cache /tmp/reader.jsonl --json-dir /tmp/je   # the cascade with the local reader

Protocol (training/blind/README.md): blind-dev failures may be read (``deepeval judge-eval ... --html``);
blind-test is only scored: this script prints and stores its summary numbers, never its items.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO))

from deepeval.judge_eval import a_run, load_items, summarize  # noqa: E402
from deepeval.judge_eval.report import to_json  # noqa: E402
from training.reader_tools import add_reader_args, reader_from_args, reader_note  # noqa: E402

REPORT = REPO / "training" / "report.json"
BLIND = REPO / "training" / "blind"
SPLITS = ("blind_dev", "blind_test")


def sets() -> list[tuple[str, str, Path]]:
    """``(metric, split, path)`` of every blind set present."""
    out = []
    for folder in ("rel", "kr", "dev2/rel", "dev2/kr"):
        for path in sorted((BLIND / folder).glob("*.jsonl")):
            metric, _, split = path.stem.rpartition(".")
            if folder.endswith("kr"):  # kr/blind_dev.jsonl, kr/blind_test.jsonl
                metric, split = "knowledge_retention", path.stem
            if split in SPLITS:
                out.append((metric, f"{folder.split('/')[0]}:{split}" if "/" in folder else split, path))
    return out


def numbers(summary: dict[str, Any]) -> dict[str, Any]:
    """The numbers the report keeps for one set."""
    b = summary["binary"]
    out: dict[str, Any] = {
        "units": summary["units"],
        "items": summary["items"],
        "errors": summary["errors"],
        "accuracy": b.get("accuracy"),
        "baseline_accuracy": b.get("baseline_accuracy"),
        "auroc": b.get("auroc"),
        "brier": b.get("brier"),
        "ece": b.get("ece"),
        "confident_wrong_share": b.get("confident_wrong_share"),
        "borderline": b.get("borderline"),
    }
    if summary.get("item_level"):
        il = summary["item_level"]
        out["item_within_0.15"] = il["within_band"]
        out["baseline_item_within_0.15"] = il["baseline_within_band"]
    if summary.get("grades"):
        out.update({f"grade_{k}": v for k, v in summary["grades"].items()})
    if summary["metric"] == "knowledge_retention":
        out["keeps_judged_keeps"] = b.get("negative_recall")
        out["forgets_caught"] = b.get("positive_recall")
    tiers = summary.get("tiers")
    if tiers:
        out["unsure_share"] = tiers["unsure"]["share"]
        out["reader_share"] = tiers["reader"]["share"]
        out["reader_asked_share"] = tiers["reader_asked_share"]
        out["sure_accuracy"] = tiers["sure_accuracy"]
    return {k: (round(v, 4) if isinstance(v, float) else v) for k, v in out.items()}


def judges(metric: str, reader: Any) -> dict[str, Any]:
    """``a_run`` keywords that put ``reader`` behind the embedded judge (the memory judge for memory sets)."""
    if metric in ("memory_grade", "claim_support"):
        from deepeval.memory.judges import EmbeddedMemoryJudge

        return {"model": EmbeddedMemoryJudge(reader=reader)}
    from deepeval.models.embedded.judge import EmbeddedJudge

    return {"system_one_model": EmbeddedJudge(reader), "eval_mode": "hybrid"}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", choices=SPLITS, default=None, help="only this split")
    ap.add_argument("--metric", default=None, help="only this metric")
    ap.add_argument("--no-write", action="store_true", help="print only; leave training/report.json as it is")
    ap.add_argument(
        "--from-json",
        type=Path,
        default=None,
        help="read the summaries from `deepeval judge-eval --json` files named <metric>.<split>.json in this folder "
        "where present (same numbers, no rerun)",
    )
    ap.add_argument("--json-dir", type=Path, default=None, help="write each run's judge-eval JSON here")
    ap.add_argument(
        "--limit",
        type=int,
        default=None,
        help="only the first N items of each set, by file order (--no-write)",
    )
    add_reader_args(ap)
    args = ap.parse_args()
    reader = reader_from_args(args)
    if args.limit is not None and not args.no_write:
        raise SystemExit("--limit runs are printed (--no-write); training/report.json keeps whole sets")
    if reader is not None and not args.no_write:
        raise SystemExit(
            "--reader runs are printed (--no-write); training/report.json keeps the shipped judge"
        )
    report = json.loads(REPORT.read_text()) if REPORT.exists() else {}
    blind: dict[str, Any] = dict(report.get("blind", {}))
    blind["about"] = (
        "blind sets (training/blind/, written without sight of our code, rules or data): blind_dev may be read "
        "while tuning, blind_test is only scored; judge: the shipped embedded judge through `deepeval judge-eval` "
        "(hybrid mode, per labelled unit); baseline: word overlap (relevancy, claims, grades) or always keeps (KR)"
    )
    for metric, split, path in sets():
        if (args.split and split.rpartition(":")[2] != args.split) or (args.metric and metric != args.metric):
            continue
        saved = args.from_json / f"{metric}.{split}.json" if args.from_json else None
        if saved is not None and saved.exists():
            got = numbers(json.loads(saved.read_text())["summary"])
        else:
            items = load_items(path, metric, args.limit)
            run = asyncio.run(a_run(metric, items, **judges(metric, reader)))
            summary = summarize(run)
            got = numbers(summary)
            if args.json_dir is not None:
                args.json_dir.mkdir(parents=True, exist_ok=True)
                (args.json_dir / f"{metric}.{split}.json").write_text(to_json(run, summary))
        blind.setdefault(metric, {})[split] = got
        part = f" (first {args.limit} items)" if args.limit is not None else ""
        print(f"{metric:22s} {split:10s}{part} " + " ".join(f"{k}={v}" for k, v in got.items()), flush=True)
        print(f"  {reader_note(reader)}", flush=True)
    if not args.no_write:
        report["blind"] = blind
        REPORT.write_text(json.dumps(report, indent=1) + "\n")
        print(f"wrote the blind section of {REPORT.relative_to(REPO)}")
        PACKAGED.write_text(json.dumps(packaged_summary(blind), indent=1) + "\n")
        print(f"wrote {PACKAGED.relative_to(REPO)}")


#: the blind-test lines the installed package shows (``deepeval quickstart``): a copy of report.json's numbers
PACKAGED = REPO / "src" / "deepeval" / "models" / "embedded" / "data" / "blind_test_summary.json"
_SHOWN = {
    "answer_relevancy": (
        "accuracy",
        "baseline_accuracy",
        "ece",
        "item_within_0.15",
        "baseline_item_within_0.15",
    ),
    "contextual_relevancy": (
        "accuracy",
        "baseline_accuracy",
        "ece",
        "item_within_0.15",
        "baseline_item_within_0.15",
    ),
    "knowledge_retention": ("accuracy", "baseline_accuracy", "ece", "keeps_judged_keeps"),
    "memory_grade": ("grade_within_1", "grade_baseline_within_1", "grade_wrong_graded_4_plus"),
    "claim_support": ("accuracy", "baseline_accuracy", "ece"),
}


def packaged_summary(blind: dict[str, Any]) -> dict[str, Any]:
    """The blind-test numbers of each metric (the keys of :data:`_SHOWN`), for the package data file."""
    out: dict[str, Any] = {
        "about": "embedded judge on the blind-test sets (training/blind/), from training/blind_eval.py"
    }
    for metric, keys in _SHOWN.items():
        test = blind.get(metric, {}).get("blind_test")
        if test:
            out[metric] = {k: test[k] for k in keys if k in test} | {"units": test.get("units")}
    return out


if __name__ == "__main__":
    main()
