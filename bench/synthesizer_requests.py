"""Requests and prompt tokens per golden: our Synthesizer vs deepeval 4.3.1's, against the same scripted loopback
OpenAI-compatible judge (:mod:`deepeval.testing.synthesis`; prompt tokens are the server's word counts).

Both run ``generate_goldens_from_contexts`` on the same contexts (the first N ClapNQ dev passages, one chunk each)
with the defaults (2 goldens per context, 1 evolution, filtration threshold 0.5 with 3 tries, expected outputs),
once with inputs that pass the critic at once (score 0.9) and once with inputs that never pass (score 0.3). deepeval
4.3.1's ``generate_goldens_from_docs`` needs langchain and chromadb, which its scratch venv lacks, so the document
path is ours alone (its context-scoring requests on top of the same per-golden pipeline).

    python bench/synthesizer_requests.py [--contexts 4]
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.harness import sealed_env  # noqa: E402

CLAPNQ = Path("/work/shared/datasets/clapnq_dev/clapnq_dev_answerable.jsonl")
REFERENCE = REPO / "bench" / ".venvs" / "deepeval-4.3.1" / "bin" / "python"


def passages(n: int) -> list[str]:
    out: list[str] = []
    with CLAPNQ.open(encoding="utf-8") as handle:
        for line in handle:
            out.append(json.loads(line)["passages"][0]["text"])
            if len(out) == n:
                break
    return out


def ours(base_url: str, contexts: list[list[str]], docs: list[str] | None = None) -> int:
    from deepeval.models import OpenAIModel
    from deepeval.synthesizer import Synthesizer
    from deepeval.synthesizer.config import ContextConstructionConfig

    random.seed(0)
    s = Synthesizer(model=OpenAIModel(model="gpt-4.1", api_key="sk-test", base_url=base_url))
    s.show_progress = False
    if docs is not None:
        config = ContextConstructionConfig(max_contexts_per_document=1, max_context_length=1)
        return len(s.generate_goldens_from_docs(docs, context_construction_config=config))
    return len(s.generate_goldens_from_contexts(contexts))


def reference(base_url: str, contexts: list[list[str]]) -> int:
    script = textwrap.dedent(
        f"""
        import json, random
        from deepeval.models import GPTModel
        from deepeval.synthesizer import Synthesizer
        random.seed(0)
        s = Synthesizer(model=GPTModel(model="gpt-4.1", api_key="sk-test", base_url={base_url!r}))
        goldens = s.generate_goldens_from_contexts({contexts!r})
        print(json.dumps(len(goldens)))
        """
    )
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "ref.py"
        path.write_text(script, encoding="utf-8")
        proc = subprocess.run(
            [str(REFERENCE), str(path)],
            cwd=tmp,
            env=sealed_env(Path(tmp), {}),
            capture_output=True,
            text=True,
        )
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr[-2000:])
    return int(json.loads(proc.stdout.strip().splitlines()[-1]))


def measure(run: Any, quality: float) -> dict[str, float]:
    from deepeval.testing import OpenAIChatServer
    from deepeval.testing.synthesis import synthesizer_responder

    with OpenAIChatServer(synthesizer_responder(quality=quality)) as server:
        goldens = run(server.base_url)
        c = server.counters
        return {
            "goldens": goldens,
            "requests": c.requests,
            "requests_per_golden": round(c.requests / goldens, 2),
            "prompt_tokens_per_golden": round(c.input_tokens / goldens),
        }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--contexts", type=int, default=4)
    args = parser.parse_args()
    texts = passages(args.contexts)
    contexts = [[t] for t in texts]
    rows = []
    for quality in (0.9, 0.3):
        rows.append(("ours, from contexts", quality, measure(lambda url: ours(url, contexts), quality)))
        rows.append(("4.3.1, from contexts", quality, measure(lambda url: reference(url, contexts), quality)))
    with tempfile.TemporaryDirectory() as tmp:
        docs = []
        for i, text in enumerate(texts):
            path = Path(tmp) / f"clapnq_{i}.txt"
            path.write_text(text, encoding="utf-8")
            docs.append(str(path))
        rows.append(("ours, from docs", 0.9, measure(lambda url: ours(url, [], docs), 0.9)))
    print("| run | critic score | goldens | requests | requests / golden | prompt tokens / golden |")
    print("|---|---|---|---|---|---|")
    for name, quality, m in rows:
        print(
            f"| {name} | {quality} | {m['goldens']} | {m['requests']} | {m['requests_per_golden']} | "
            f"{m['prompt_tokens_per_golden']} |"
        )


if __name__ == "__main__":
    main()
