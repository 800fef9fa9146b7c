"""Contextual relevancy cost against the size of a node: wall time of one hybrid measure on the embedded judge for
a node of 100 and of 800 sentences, and their ratio (linear cost: about 8; quadratic: about 64).

Run from the repo root with the venv active::

    python bench/cr_scaling.py [--small 100] [--large 800]

Each size gets its own sentences (nothing cached from the other run); the encoder loads before timing. The time
includes encoding every sentence once, which is linear by construction; what the ratio checks is the per-statement
work around it (splitting, cleaning and ranking the node), which used to be repeated for every statement.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from deepeval.metrics import ContextualRelevancyMetric
from deepeval.models.embedded import encoder
from deepeval.test_case import LLMTestCase


def node(n: int, salt: str) -> str:
    return " ".join(
        f"Record {salt}{i} says the harbour ferry number {i % 13} leaves pier {i % 7} at {i % 12 + 1} o'clock."
        for i in range(n)
    )


def measure(n: int, salt: str) -> float:
    metric = ContextualRelevancyMetric(eval_mode="hybrid", include_reason=False, threshold=None)
    case = LLMTestCase(
        input="When does the harbour ferry leave pier 3?",
        actual_output="At noon.",
        retrieval_context=[node(n, salt)],
    )
    t0 = time.perf_counter()
    metric.measure(case)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--small", type=int, default=100)
    ap.add_argument("--large", type=int, default=800)
    args = ap.parse_args()
    encoder.embed(["warm up"], "query")
    small = measure(args.small, "a")
    large = measure(args.large, "b")
    print(f"{args.small} sentences: {small:.2f} s")
    print(f"{args.large} sentences: {large:.2f} s")
    print(
        f"ratio {args.large}/{args.small}: {large / small:.1f} (sentences ratio {args.large / args.small:.0f})"
    )


if __name__ == "__main__":
    main()
