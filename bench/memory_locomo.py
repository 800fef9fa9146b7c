"""Memory evaluation controls on LoCoMo, offline (embedded judge, no network).

For each of the first N LoCoMo conversations (categories 1-4, audit-corrected answers), grade two memories:
- transcript control: the full conversation is the memory (an ideal memory; recall is bounded by what offline
  retrieval + value matching can verify, e.g. temporal questions need date arithmetic it does not do);
- empty control: no memory (recall must be 0 normalised).
Precision verifies a seeded sample of the transcript's own claims against the transcript (should be ~1, no
hallucinations); the empty memory has no claims (n/a).

Data: the shared datasets folder (CC BY-NC 4.0, read in place), found as ``bench.workloads.shared_datasets`` finds
it (``$DEEPEVAL_SHARED_DATASETS``, else ``shared/datasets`` next to the checkout or a folder above it). Usage:
    python bench/memory_locomo.py [--conversations 3] [--max-questions N] [--max-claims 40]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.workloads import dataset_candidates, shared_datasets
from deepeval.memory.artifact import MemoryArtifact
from deepeval.memory.conditions import evaluate_artifact
from deepeval.memory.judges import EmbeddedMemoryJudge
from deepeval.memory.locomo import load_locomo


def _f(v: float | None) -> str:
    return "  n/a" if v is None else f"{v:.3f}"


async def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--conversations", type=int, default=3)
    ap.add_argument("--max-questions", type=int, default=None)
    ap.add_argument("--max-claims", type=int, default=40)
    locomo = Path("locomo") / "locomo10.json"
    ap.add_argument("--datasets", type=Path, default=shared_datasets(locomo) or dataset_candidates()[0])
    args = ap.parse_args()
    if not (args.datasets / "locomo" / "locomo10.json").is_file():
        print(f"LoCoMo not found under {args.datasets}; nothing to do", file=sys.stderr)
        return 1
    judge = EmbeddedMemoryJudge()
    print(f"judge: {judge.get_model_name()}")
    header = (f"{'conv':8} {'memory':10} {'facts':>5} {'weighted':>8} {'strict':>7} {'normal.':>7} "
              f"{'norm. 95% CI':>15} {'claims':>6} {'precision':>9} {'halluc.':>7} {'wall s':>7}")  # fmt: skip
    print(header)
    totals: dict[str, list[float]] = {"transcript": [], "empty": []}
    for i in range(args.conversations):
        t0 = time.perf_counter()
        s = load_locomo(i, args.datasets, max_questions=args.max_questions)
        load_s = time.perf_counter() - t0
        transcript = MemoryArtifact.from_turns(s.turns)
        for name, art in (("transcript", transcript), ("empty", MemoryArtifact.empty())):
            t1 = time.perf_counter()
            r = await evaluate_artifact(s.manifest, art, transcript=transcript, introduced=s.introduced, judge=judge,
                                        precision=True, max_claims=args.max_claims)  # fmt: skip
            wall = time.perf_counter() - t1 + (load_s if name == "transcript" else 0.0)
            rc, p = r.recall, r.precision
            ci = rc.normalised_ci
            ci_s = f"[{ci.low:.3f},{ci.high:.3f}]" if ci else "n/a"
            print(f"{s.sample_id:8} {name:10} {rc.n:5d} {_f(rc.weighted):>8} {_f(rc.strict):>7} "
                  f"{_f(rc.normalised):>7} {ci_s:>15} {p.n_claims if p else 0:6d} "
                  f"{_f(p.precision if p else None):>9} {_f(p.hallucination_rate if p else None):>7} {wall:7.1f}")  # fmt: skip
            totals[name].append(rc.normalised or 0.0)
    for name, vals in totals.items():
        print(f"mean normalised recall, {name} control: {sum(vals) / len(vals):.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
