"""The local reader against its physical limit: llama.cpp's prefill speed, the tokens each reader question makes it
compute, and the floor per test case; the reader's ways of asking side by side in one run.

What it measures (one process, the real reader model, ``--threads`` llama.cpp threads):

1. **prefill speed**: fresh prompts (nothing cached but the chat template's first line) of 16, 32, 64 and 512 words at
   each of ``--speed-threads``, tokens/s from llama.cpp's own ``timings`` (``prompt_n / prompt_ms``);
2. **the questions**: the reader questions the embedded judge's cascade asks for the first ``--items`` items of the
   blind-dev AnswerRelevancy and ContextualRelevancy sets (the metrics measured in hybrid mode, the encoder deciding
   which statements are unsure; recorded without the model), and the KnowledgeRetention turn questions of
   ``--kr`` blind-dev conversations of 10 turns (every assistant turn asked, as a KR reader tier would; today's
   cascade sends none, see cascade.py);
3. **each way of asking** (``--modes``), item by item, the modes' order rotating per item so all see the same
   load; each mode has its own llama.cpp server (its own slot and prompt cache, none warmed by another mode; each
   kind's head warmed once with a question of its own): ``before``: one question per call in the order asked
   (``Reader.a_answer`` in a loop, as the judge did up to issue 43); ``after``: the test case's questions together
   (``Reader.a_answer_many``); ``par`` / ``paru``: as ``after`` on a server with ``--parallel`` sequences (``paru``:
   unified KV cache). ``--mixed`` adds requests that interleave AR item i's and CR item i's questions;
   ``--cache-ram 0`` turns llama.cpp's RAM prompt cache off. Per item: the reader's seconds, the prompt tokens
   llama.cpp computed and those it served from cache, and the largest P difference from the first mode's answers;
4. **the floor** per item: the item's prompts are tokenized by the server (chat template applied) into a token
   trie that already holds every kind's constant beginning (the tokens all prompts of a kind share, cached once
   per process); the new trie nodes are the tokens no way of asking can avoid computing; floor = those tokens / the
   512-word prefill speed at ``--threads``.

    /work/heavy python bench/reader_prefill.py --items 16 --kr 2 --modes before after par --json OUT.json
    python bench/reader_prefill.py --from-json OUT.json [--skip ITEM ...]     # the summary again, no model

Heavy: it loads the model once per thread count for the speed, then once per mode (mmap'd, shared pages).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

import httpx  # noqa: E402

from deepeval.models.embedded.reader import Reader, ReaderAnswer  # noqa: E402
from deepeval.models.embedded.reader_prompts import PROMPTS  # noqa: E402
from deepeval.models.llms.gguf_model import GGUFModel  # noqa: E402

BLIND = REPO / "training" / "blind"
Question = tuple[str, Mapping[str, Any]]
_WORDS = (
    "river stone cloud amber lantern harbour copper meadow signal orbit velvet canyon ledger pigeon walnut "
    "tundra quarry saddle beacon marble"
).split()


# -- 1. prefill speed ------------------------------------------------------------------------------------------
async def _ask(llm: GGUFModel, prompt: str) -> dict[str, Any]:
    await llm.a_generate_with_logprobs(prompt, top_logprobs=20, max_tokens=1)
    return dict(llm.prefill.last or {})


async def prefill_speed(model: Path, threads: int, reps: int = 2) -> dict[str, float]:
    """Median prefill tokens/s for fresh prompts of 64 and 512 words."""
    rng = random.Random(threads)
    llm = GGUFModel(model, n_ctx=4096, n_threads=threads, max_tokens=1)
    try:
        await _ask(llm, "warm up")
        out: dict[str, float] = {}
        for n in (16, 32, 64, 512):
            speeds = []
            for _ in range(reps):
                text = f"[{rng.random()}] " + " ".join(rng.choice(_WORDS) for _ in range(n))
                t = await _ask(llm, text)
                speeds.append(1000.0 * t["prompt_n"] / t["prompt_ms"])
            out[f"tok_s_{n}w"] = statistics.median(speeds)
        return out
    finally:
        llm.close()


# -- 2. the questions ------------------------------------------------------------------------------------------
class _Recorder(Reader):
    """A reader that only records what it is asked (answers nothing: the cascade then keeps the encoder's P, and
    which questions are asked depends on the encoder alone)."""

    def __init__(self) -> None:
        super().__init__(lambda: None, "recorder")  # type: ignore[arg-type,return-value]
        self.asked: list[Question] = []

    async def a_answer(self, kind: str, fields: Mapping[str, Any]) -> ReaderAnswer | None:
        self.asked.append((kind, dict(fields)))
        return None

    async def a_answer_many(
        self, questions: Sequence[Question], on_answer: Any = None
    ) -> list[ReaderAnswer | None]:
        return [await self.a_answer(kind, fields) for kind, fields in questions]


def _lines(path: Path, n: int) -> list[dict[str, Any]]:
    rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    return rows[:n]


def relevancy_questions(n: int) -> list[tuple[str, list[Question]]]:
    """``(item id, questions)`` of the first ``n`` AR and ``n`` CR blind-dev items, as the cascade asks them."""
    from deepeval.metrics import AnswerRelevancyMetric, ContextualRelevancyMetric
    from deepeval.models.embedded.judge import EmbeddedJudge
    from deepeval.test_case import LLMTestCase

    recorder = _Recorder()
    judge = EmbeddedJudge(recorder)
    out: list[tuple[str, list[Question]]] = []
    sets = (
        ("answer_relevancy", AnswerRelevancyMetric, lambda r: {}),
        (
            "contextual_relevancy",
            ContextualRelevancyMetric,
            lambda r: {"retrieval_context": r["retrieval_context"]},
        ),
    )
    for name, cls, extra in sets:
        for row in _lines(BLIND / "rel" / f"{name}.blind_dev.jsonl", n):
            recorder.asked = []
            case = LLMTestCase(
                input=row["input"], actual_output=row.get("actual_output") or "(not used)", **extra(row)
            )
            metric = cls(system_one_model=judge, include_reason=False, eval_mode="hybrid", async_mode=False)
            metric.measure(case)
            if recorder.asked:
                out.append((row["id"], recorder.asked))
    return out


def kr_questions(n: int, turns: int = 10) -> list[tuple[str, list[Question]]]:
    """Every assistant turn's ``turn_attrition`` question of the first ``n`` blind-dev KR conversations."""
    out = []
    for row in _lines(BLIND / "kr" / "blind_dev.jsonl", n):
        conv = [{"role": t["role"], "content": t["content"]} for t in row["turns"][:turns]]
        qs: list[Question] = [
            ("turn_attrition", {"conversation": conv, "turn_index": i, "assistant_message": t["content"]})
            for i, t in enumerate(conv)
            if t["role"] == "assistant" and i > 0
        ]
        out.append((f"kr:{row.get('id', len(out))}", qs))
    return out


# -- 4. the floor ----------------------------------------------------------------------------------------------
class Tokens:
    """The chat-templated prompt's tokens, from the server (``/apply-template`` then ``/tokenize``)."""

    def __init__(self, llm: GGUFModel) -> None:
        self._client = httpx.Client(transport=httpx.HTTPTransport(uds=llm.socket_path), timeout=60)
        self._headers = {"Authorization": f"Bearer {llm._server.key}"}

    def __call__(self, text: str) -> list[int]:
        msgs = {"messages": [{"role": "user", "content": text}]}
        r = self._client.post("http://llama.cpp/apply-template", json=msgs, headers=self._headers)
        r.raise_for_status()
        prompt = r.json()["prompt"]
        r = self._client.post(
            "http://llama.cpp/tokenize", json={"content": prompt, "add_special": True}, headers=self._headers
        )
        r.raise_for_status()
        return list(r.json()["tokens"])


def _common(a: Sequence[int], b: Sequence[int]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def new_nodes(trie: dict[int, Any], seqs: Sequence[Sequence[int]]) -> int:
    """Tokens of ``seqs`` not already in ``trie`` (a copy is extended; ``trie`` itself is left as it is)."""
    import copy

    t = copy.deepcopy(trie)
    added = 0
    for seq in seqs:
        node = t
        for tok in seq:
            if tok not in node:
                node[tok] = {}
                added += 1
            node = node[tok]
    return added


def constant_trie(prompts_by_kind: Mapping[str, list[list[int]]]) -> dict[int, Any]:
    """A trie of each kind's constant beginning (the longest prefix all its prompts share, one prompt removed)."""
    trie: dict[int, Any] = {}
    for seqs in prompts_by_kind.values():
        prefix = list(seqs[0])
        for s in seqs[1:]:
            prefix = prefix[: _common(prefix, s)]
        node = trie
        for tok in prefix[:-1]:
            node = node.setdefault(tok, {})
    return trie


def _warm_up(fields: Mapping[str, Any]) -> dict[str, Any]:
    """``fields`` with every text replaced (a question of the same kind no item asks)."""
    out: dict[str, Any] = {k: "warm-up" if isinstance(v, str) else v for k, v in fields.items()}
    if "conversation" in out:
        out["conversation"] = [{"role": "user", "content": "warm-up"}]
        out["turn_index"] = 1
    return out


# -- 3. the modes ----------------------------------------------------------------------------------------------
async def run_mode(mode: str, reader: Reader, qs: Sequence[Question]) -> list[ReaderAnswer | None]:
    async with reader.batch_lock():
        if MODES[mode][0]:
            return [await reader.a_answer(kind, fields) for kind, fields in qs]
        return await reader.a_answer_many(qs)


#: the ways of asking: (one question at a time?, llama.cpp sequences, unified KV cache)
MODES = {
    "before": (True, 1, False),
    "after": (False, 1, False),
    "par": (False, None, False),
    "paru": (False, None, True),
}


def _mode_llm(model: Path, threads: int, mode: str, parallel: int, cache_ram: int | None) -> GGUFModel:
    """Each mode its own server (a distinct config), so no mode finds another's prompts in its cache;
    ``cache_ram``: llama.cpp's RAM prompt cache in MiB (None: ours, ``DEFAULT_CACHE_RAM_MIB``; 0: off)."""
    _, n, unified = MODES[mode]
    n = n or parallel
    extra: dict[str, Any] = (
        {"n_cache_reuse": 0} if mode == "before" else {}
    )  # llama.cpp's default: a distinct config
    if cache_ram is not None:
        extra["cache_ram_mib"] = cache_ram
    return GGUFModel(
        model, n_ctx=4096 * n, n_threads=threads, n_parallel=n, max_tokens=1, kv_unified=unified, **extra
    )


async def side_by_side(
    args: argparse.Namespace, items: list[tuple[str, list[Question]]]
) -> list[dict[str, Any]]:
    llms = {m: _mode_llm(args.model, args.threads, m, args.parallel, args.cache_ram) for m in args.modes}
    readers = {m: Reader(lambda llm=llm: llm, f"reader-{m}") for m, llm in llms.items()}
    rows: list[dict[str, Any]] = []
    try:
        # each kind's constant head enters each server's cache once, as in a long-running process: a warm-up
        # question of every kind with material of its own
        warm = {kind: fields for _, qs in items for kind, fields in qs}
        warm_qs = [(k, _warm_up(f)) for k, f in warm.items()]
        for m in args.modes:
            await run_mode(m, readers[m], warm_qs)
        for i, (item_id, qs) in enumerate(items):
            k = i % len(args.modes)
            order = args.modes[k:] + args.modes[:k]
            row: dict[str, Any] = {"item": item_id, "questions": len(qs), "kinds": sorted({k for k, _ in qs})}
            answers: dict[str, list[float | None]] = {}
            for m in order:
                r0 = llms[m].prefill.totals()
                t0 = time.perf_counter()
                got = await run_mode(m, readers[m], qs)
                seconds = time.perf_counter() - t0
                r1 = llms[m].prefill.totals()
                row[m] = {
                    "s": round(seconds, 3),
                    "requests": r1[0] - r0[0],
                    "computed": r1[1] - r0[1],
                    "cached": r1[2] - r0[2],
                    "prefill_ms": round(r1[3] - r0[3], 1),
                }
                answers[m] = [a.probability if a is not None else None for a in got]
            first = answers[args.modes[0]]
            for m in args.modes[1:]:
                diffs = [
                    abs(x - y)
                    for x, y in zip(first, answers[m], strict=True)
                    if x is not None and y is not None
                ]
                row[m]["p_diff"] = round(max(diffs), 4) if diffs else None
            rows.append(row)
            print(json.dumps(row), flush=True)
        tokens = Tokens(next(iter(llms.values())))
        by_kind: dict[str, list[list[int]]] = {}
        item_tokens = []
        for _, qs in items:
            seqs = [tokens(PROMPTS[kind](fields).text()) for kind, fields in qs]
            item_tokens.append(seqs)
            for (kind, _), seq in zip(qs, seqs, strict=True):
                by_kind.setdefault(kind, []).append(seq)
        const = constant_trie(by_kind)
        for row, seqs in zip(rows, item_tokens, strict=True):
            row["prompt_tokens"] = sum(len(s) for s in seqs)
            row["floor_tokens"] = new_nodes(const, seqs)
    finally:
        for llm in llms.values():
            llm.close()
    return rows


def _summary(rows: list[dict[str, Any]], modes: Sequence[str], speed: float, label: str) -> None:
    if not rows:
        return
    floor_s = [r["floor_tokens"] / speed for r in rows]
    q = sum(r["questions"] for r in rows)
    print(f"\n{label}: {len(rows)} items, {q} reader questions; floor mean {statistics.mean(floor_s):.2f} s/item "
          f"({sum(r['floor_tokens'] for r in rows) / q:.1f} unavoidable tokens per question, "
          f"prompts {sum(r['prompt_tokens'] for r in rows) / q:.1f} tokens per question)")  # fmt: skip
    for m in modes:
        s = [r[m]["s"] for r in rows]
        comp = sum(r[m]["computed"] for r in rows)
        cached = sum(r[m]["cached"] for r in rows)
        ratio = [r[m]["s"] / f for r, f in zip(rows, floor_s, strict=True) if f > 0]
        print(f"  {m:7s} mean {statistics.mean(s):.2f} s/item (median {statistics.median(s):.2f}, max {max(s):.2f}); "
              f"computed {comp / q:.1f} tokens/question, cached share {cached / max(1, comp + cached):.2f}; "
              f"time / floor: total {sum(s) / sum(floor_s):.2f}, median per item {statistics.median(ratio):.2f}")  # fmt: skip
    base = sum(r[modes[0]]["s"] for r in rows)
    for m in modes[1:]:
        diffs = [r[m]["p_diff"] for r in rows if r[m].get("p_diff") is not None]
        print(
            f"  {modes[0]}/{m} seconds: {base / sum(r[m]['s'] for r in rows):.2f}x; largest P difference from "
            f"{modes[0]}'s answers {max(diffs, default=0):.4f}"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--model", type=Path, default=Path("/work/models/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf")
    )
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--speed-threads", type=int, nargs="*", default=[1, 2])
    ap.add_argument("--items", type=int, default=16, help="first N items of each relevancy set")
    ap.add_argument("--kr", type=int, default=2, help="KR blind-dev conversations (10 turns each)")
    ap.add_argument("--modes", nargs="+", default=["before", "after"], choices=list(MODES))
    ap.add_argument("--parallel", type=int, default=2, help="llama.cpp sequences of the 'par' server")
    ap.add_argument(
        "--mixed",
        action="store_true",
        help="also ask AR item i's and CR item i's questions as one request, interleaved (kinds and materials "
        "alternating: where the order of asking can matter)",
    )
    ap.add_argument("--cache-ram", type=int, default=None, help="llama.cpp's RAM prompt cache, MiB (0: off)")
    ap.add_argument("--json", type=Path, default=None, help="write the speeds and per-item rows here")
    ap.add_argument(
        "--from-json", type=Path, default=None, help="print the summary of a saved run (no model)"
    )
    ap.add_argument("--skip", nargs="*", default=[], help="leave these items out of the summary")
    args = ap.parse_args()
    if args.from_json:
        saved = json.loads(args.from_json.read_text())
        modes = [m for m in MODES if m in saved["rows"][0]]
        speed = saved["speeds"][str(args.threads)]["tok_s_512w"]
        _report([r for r in saved["rows"] if r["item"] not in args.skip], modes, speed)
        print(f"\nload average before {saved['load'][0][0]:.2f}, after {saved['load'][1][0]:.2f}")
        return
    load0 = os.getloadavg()
    rel = relevancy_questions(args.items) if args.items else []
    kr = kr_questions(args.kr) if args.kr else []
    if args.mixed:
        ar = [qs for i, qs in rel if i.startswith("ar-")]
        cr = [qs for i, qs in rel if i.startswith("cr-")]
        rel += [(f"mix:{n}", _interleave(a, c)) for n, (a, c) in enumerate(zip(ar, cr, strict=False))]
    print(
        f"recorded: {len(rel)} relevancy items with reader questions, {len(kr)} KR conversations", flush=True
    )
    speeds = {t: asyncio.run(prefill_speed(args.model, t)) for t in args.speed_threads}
    for t, sp in speeds.items():
        print(
            f"prefill speed, {t} thread(s): " + ", ".join(f"{k} {v:.1f}" for k, v in sp.items()), flush=True
        )
    if args.threads not in speeds:
        speeds[args.threads] = asyncio.run(prefill_speed(args.model, args.threads))
    rows = asyncio.run(side_by_side(args, rel + kr))
    load1 = os.getloadavg()
    _report(rows, args.modes, speeds[args.threads]["tok_s_512w"])
    print(f"\nload average before {load0[0]:.2f}, after {load1[0]:.2f}; threads {args.threads}")
    if args.json:
        args.json.write_text(json.dumps({"speeds": speeds, "rows": rows, "load": [load0, load1]}, indent=1))


def _interleave(a: list[Question], b: list[Question]) -> list[Question]:
    out: list[Question] = []
    for i in range(max(len(a), len(b))):
        out += a[i : i + 1] + b[i : i + 1]
    return out


def _report(rows: list[dict[str, Any]], modes: Sequence[str], speed: float) -> None:
    _summary([r for r in rows if r["item"][:3] in ("ar-", "cr-")], modes, speed, "relevancy items")
    _summary([r for r in rows if r["item"].startswith("mix:")], modes, speed, "AR + CR items interleaved")
    _summary([r for r in rows if r["item"].startswith("kr:")], modes, speed, "KR conversations (10 turns)")


if __name__ == "__main__":
    main()
