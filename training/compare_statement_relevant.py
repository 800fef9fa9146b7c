"""Compare two coefficient files on the held-out ``statement_relevant`` split (ClapNQ + assistant-register items).

Usage (repo root, venv active; the embedding cache of ``train_embedded.py`` makes it take seconds)::

    git show <old-commit>:src/deepeval/models/embedded/data/embedded_judge.json > /tmp/old.json
    python training/compare_statement_relevant.py /tmp/old.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "src"))

from deepeval.models.embedded import encoder  # noqa: E402
from deepeval.models.embedded import features as ft  # noqa: E402
from training import datasets  # noqa: E402
from training.evalmetrics import summary  # noqa: E402
from training.train_embedded import CACHE, OUT, predict  # noqa: E402


def main() -> None:
    old = json.loads(Path(sys.argv[1]).read_text())["models"]["statement_relevant"]
    new = json.loads(OUT.read_text())["models"]["statement_relevant"]
    encoder.set_cache_size(200_000)
    if CACHE.exists():
        encoder.load_cache(str(CACHE))
    rows = datasets.clapnq_examples() + datasets.chat_relevance_examples()
    ex = [e for e in rows if e.kind == "statement_relevant" and e.split == "test"]
    feats = [ft.relevance_features(e.a, e.b) for e in ex]
    y = np.array([e.label for e in ex], dtype=float)

    def probs(model: dict) -> np.ndarray:
        return predict(model, np.array([[f[n] for n in model["features"]] for f in feats]))

    p_old, p_new = probs(old), probs(new)
    chat = np.array([e.tag == "chat" for e in ex])
    for name, mask in (("all", np.ones(len(ex), bool)), ("clapnq", ~chat), ("chat", chat)):
        for label, p in (("before", p_old), ("after", p_new)):
            s = summary(y[mask], p[mask])
            print(
                f"{name:7s} {label:6s} n={int(mask.sum()):4d} acc={s['accuracy']:.3f} auroc={s['auroc']:.3f}"
                f" brier={s['brier']:.3f} ece={s['ece']:.3f}"
            )


if __name__ == "__main__":
    main()
