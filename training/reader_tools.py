"""The local reader for the training and bench scripts: the same :class:`~deepeval.models.embedded.reader.Reader`
the embedded judge uses, over a GGUF file, with every answer (the first token's log-probabilities) kept in a JSONL
cache keyed by the model file and the exact prompt. A rerun with other bands or calibrations asks the model only
for prompts it has not seen; a changed prompt is a new key.

    --reader PATH|off      the .gguf file (default off: the encoder alone)
    --reader-cache FILE    the answer cache (default none)
    --reader-threads N     llama.cpp threads (default 1)
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import threading
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

from deepeval.models.embedded.reader import Reader  # noqa: E402
from deepeval.models.logprobs import LogprobCompletion, SupportsLogprobs, TokenLogprob  # noqa: E402


class CachedLogprobs:
    """``a_generate_with_logprobs`` of a GGUF model, answered from ``cache`` when the prompt was asked before."""

    def __init__(self, path: Path, cache: Path | None, threads: int | None) -> None:
        self.path = path
        self.cache = cache
        self.threads = threads
        self._llm: SupportsLogprobs | None = None
        self._lock = threading.Lock()
        self._seen: dict[str, dict[str, Any]] = {}
        self.hits = self.misses = 0
        if cache is not None and cache.exists():
            for line in cache.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    row = json.loads(line)
                    self._seen[row["k"]] = row

    def get_model_name(self) -> str:
        return f"gguf:{self.path.stem}"

    def _key(self, prompt: str) -> str:
        return hashlib.sha256(f"{self.path.name}\0{prompt}".encode()).hexdigest()

    def _model(self) -> SupportsLogprobs:
        with self._lock:
            if self._llm is None:
                from deepeval.models.llms.gguf_model import GGUFModel

                self._llm = GGUFModel(self.path, n_ctx=4096, n_threads=self.threads, max_tokens=1)
            return self._llm

    async def a_generate_with_logprobs(
        self, prompt: str, top_logprobs: int = 20, max_tokens: int = 1
    ) -> tuple[LogprobCompletion, float | None]:
        key = self._key(prompt)
        row = self._seen.get(key)
        if row is None:
            self.misses += 1
            completion, _ = await self._model().a_generate_with_logprobs(prompt, top_logprobs, max_tokens)
            first = completion.tokens[0] if completion.tokens else None
            row = {
                "k": key,
                "t": first.token if first else "",
                "l": first.logprob if first else 0.0,
                "top": first.top_logprobs if first else {},
                "n": completion.input_tokens,
            }
            self._seen[key] = row
            if self.cache is not None:
                with self.cache.open("a", encoding="utf-8") as out:
                    out.write(json.dumps(row) + "\n")
        else:
            self.hits += 1
        tokens = [TokenLogprob(row["t"], row["l"], dict(row["top"]))] if row["t"] or row["top"] else []
        return LogprobCompletion(row["t"], tokens, row.get("n"), 1), 0.0


def add_reader_args(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--reader", default="off", help="the local reader's .gguf file, or off (default)")
    ap.add_argument("--reader-cache", type=Path, default=None, help="JSONL cache of the reader's answers")
    ap.add_argument(
        "--reader-threads", type=int, default=1, help="llama.cpp threads of the reader (default 1)"
    )


def reader_from_args(args: argparse.Namespace) -> Reader | None:
    """The reader the arguments ask for (None for ``off``)."""
    if args.reader in (None, "", "off"):
        return None
    path = Path(args.reader).expanduser()
    if not path.is_file():
        raise SystemExit(f"--reader {args.reader}: no such file")
    cached = CachedLogprobs(path, args.reader_cache, args.reader_threads)
    return Reader(lambda: cached, cached.get_model_name())


def reader_note(reader: Reader | None) -> str:
    """One line on what the reader did (questions, answered, seconds, cache hits)."""
    if reader is None:
        return "reader: off"
    s = reader.stats
    llm = reader.llm()
    cache = f", cache {llm.hits} hits / {llm.misses} asked" if isinstance(llm, CachedLogprobs) else ""
    return f"reader {reader.name}: {s.asked} questions, {s.answered} answered, {s.seconds:.1f} s{cache}"
