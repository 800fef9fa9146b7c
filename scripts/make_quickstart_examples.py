"""Rebuild src/deepeval/quickstart/data/clapnq_quickstart.jsonl from the ClapNQ dev split (Apache-2.0).

Usage: python scripts/make_quickstart_examples.py [--datasets ../shared/datasets]

Picks the first 20 answerable items whose passage has at least 4 sentences and whose human answer is under 400
characters, detokenises the text lightly (ClapNQ stores " ," and " ." tokens), and writes one LLM test case per
line: input = question, actual_output = the human-written answer, retrieval_context = the passage split into
consecutive chunks of 2-3 sentences, plus the human sentence-level relevance labels (for comparing scores against
people in the quickstart).
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

_FIXES = [(r" ([,.;:!?%)])", r"\1"), (r"\( ", "("), (r" 's\b", "'s"), (r"`` ?", '"'), (r" ?''", '"'), (r" - ", "-")]


def detok(text: str) -> str:
    for pat, rep in _FIXES:
        text = re.sub(pat, rep, text)
    return re.sub(r"\s+", " ", text).strip()


def chunks(sentences: list[str]) -> list[list[str]]:
    size = 3 if len(sentences) >= 6 else 2
    return [sentences[i : i + size] for i in range(0, len(sentences), size)]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--datasets", default=str(Path(__file__).resolve().parents[2] / "shared" / "datasets"))
    ap.add_argument("--out", default=str(Path(__file__).resolve().parents[1] / "src" / "deepeval" / "quickstart" / "data" / "clapnq_quickstart.jsonl"))
    args = ap.parse_args()
    src = Path(args.datasets) / "clapnq_dev" / "clapnq_dev_answerable.jsonl"
    picked = []
    for line in src.open():
        row = json.loads(line)
        passage = row["passages"][0]
        out = row["output"][0]
        if len(passage["sentences"]) < 4 or not out["answer"] or len(out["answer"]) >= 400:
            continue
        selected = set(out["selected_sentences"])
        nodes = []
        for group in chunks(passage["sentences"]):
            nodes.append(
                {
                    "text": detok(" ".join(group)),
                    "relevant_sentences": sum(s in selected for s in group),
                    "sentences": len(group),
                }
            )
        picked.append(
            {
                "id": f"clapnq-{row['id']}",
                "input": detok(row["input"]).rstrip("?") + "?",
                "actual_output": detok(out["answer"]),
                "retrieval_context": [n["text"] for n in nodes],
                "title": passage["title"],
                "human_relevant_sentence_share": round(
                    sum(n["relevant_sentences"] for n in nodes) / sum(n["sentences"] for n in nodes), 4
                ),
                "human_relevant_nodes": [n["relevant_sentences"] > 0 for n in nodes],
            }
        )
        if len(picked) == 20:
            break
    Path(args.out).write_text("".join(json.dumps(p, ensure_ascii=False) + "\n" for p in picked))
    print(f"wrote {len(picked)} items to {args.out}")


if __name__ == "__main__":
    main()
