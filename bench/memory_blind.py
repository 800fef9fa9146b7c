"""Memory evaluation on the blind manifests (``training/blind/memory``), offline on the embedded judge: the
controls and the graded memories, measured against what is known by construction (``truth.json``).

For each manifest of the chosen split:

* **transcript control**: the conversation itself probed as the memory: weighted recall (known 1.000), how many of
  the corrected facts (those with ``supersedes``) get 5 for their latest value, and how many never-stated probes are
  answered "not in memory" (abstained, known 100%).
* **empty control**: an empty memory probed: normalised recall (mean of (grade-1)/4; known exactly 0).
* **summary / wiki**: weighted recall measured vs known (mean of truth grade / 5 over the probed stated facts), and
  per-fact agreement with the truth grade (within +-1, over every probed fact).
* **wiki precision**: every labelled claim of ``truth.json`` is split into atomic claims by the judge (as a
  report does) and each atom is verified against the transcript; a labelled claim scores its weakest atom. Planted
  wrong (contradicted) and invented (unsupported) claims should score 1; supported claims should not. Grade 2
  ("weakly supported") is counted on its own.
* **generate**: exit code of ``deepeval memory generate`` (template generator) on the manifest, with enough turns
  for every stated fact (0 = every fact was found in its turn).

Usage::

    python bench/memory_blind.py --split blind-dev [--json out.json] [--reader MODEL.gguf --reader-cache C.jsonl]
    python bench/memory_blind.py --split blind-test --json /tmp/blind_test.json

Protocol (``training/blind/README.md``): blind-dev failures may be read (``--detail`` prints them); blind-test is
only scored and reported.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BLIND = ROOT / "training" / "blind" / "memory"
DEV2 = ROOT / "training" / "blind" / "dev2" / "memory"
sys.path.insert(0, str(ROOT))

from training.reader_tools import add_reader_args, reader_from_args, reader_note  # noqa: E402

#: the reader the run uses (set by main; None: the encoder alone)
READER: Any = None


def split_names(split: str) -> list[str]:
    """Manifest folder names of ``split`` (``blind-dev``, ``dev2`` (the second blind-dev set, dev only),
    ``blind-test`` or ``all``)."""
    splits = json.loads((BLIND / "SPLITS.json").read_text(encoding="utf-8"))
    if split == "dev2":
        return sorted(p.name for p in DEV2.iterdir() if (p / "manifest.yaml").exists())
    if split == "all":
        return [*splits["blind_dev"], *splits["blind_test"]]
    key = split.replace("-", "_")
    if key not in splits:
        raise SystemExit(f"unknown split {split!r}: blind-dev, dev2, blind-test or all")
    return list(splits[key])


def _folder(name: str) -> Path:
    return BLIND / name if (BLIND / name).exists() else DEV2 / name


def _known_recall(truth: dict[str, Any], probed: list[str]) -> float:
    return sum(truth[f]["grade"] / 5 for f in probed) / len(probed)


def _agreement(truth: dict[str, Any], facts: list[Any]) -> tuple[int, int, list[dict[str, Any]]]:
    ok, n, off = 0, 0, []
    for r in facts:
        t = truth.get(r.fact_id)
        if t is None:
            continue
        known = 5 if (r.kind == "never_stated" and t["status"] == "abstain_ok") else t["grade"]
        n += 1
        if abs(r.score - known) <= 1:
            ok += 1
        else:
            off.append({"fact": r.fact_id, "known": known, "status": t["status"], "measured": r.score,
                        "answer": r.answer[:200], "reason": r.reason})  # fmt: skip
    return ok, n, off


async def _claims(judge: Any, labelled: list[dict[str, Any]], transcript: Any) -> list[dict[str, Any]]:
    from deepeval.memory.artifact import MemoryArtifact

    out = []
    for c in labelled:
        atoms = await judge.claims(MemoryArtifact.from_wiki({c["page"]: c["text"]}))
        graded = [(a, *await judge.verify(a, transcript)) for a in atoms] or [("", None, [])]
        worst = min(graded, key=lambda x: x[1].score if x[1] else 5)
        score = worst[1].score if worst[1] else 5
        out.append({"page": c["page"], "text": c["text"], "label": c["label"], "tags": c.get("tags", []),
                    "score": score, "atoms": [a for a, _, _ in graded],
                    "reason": worst[1].reason if worst[1] else "no atomic claim",
                    "tiers": [g.tier for _, g, _ in graded if g is not None]})  # fmt: skip
    return out


def _generate_exit(manifest_path: Path, n_stated: int) -> int:
    from typer.testing import CliRunner

    from deepeval.cli.main import app

    turns = 2 * n_stated + 10
    with tempfile.TemporaryDirectory() as tmp:
        r = CliRunner().invoke(
            app, ["memory", "generate", str(manifest_path), "--out", f"{tmp}/c.json", "--turns", str(turns)]
        )
    return r.exit_code


async def measure_one(name: str) -> dict[str, Any]:
    """Every measurement of one manifest (see the module docstring)."""
    from deepeval.memory.artifact import MemoryArtifact
    from deepeval.memory.conditions import evaluate_artifact
    from deepeval.memory.judges import EmbeddedMemoryJudge
    from deepeval.memory.manifest import load_manifest
    from deepeval.test_case import Turn

    d = _folder(name)
    m = load_manifest(d / "manifest.yaml")
    conv = json.loads((d / "conversation.json").read_text(encoding="utf-8"))
    truth = json.loads((d / "truth.json").read_text(encoding="utf-8"))
    turns = [Turn(role=t["role"], content=t["content"]) for t in conv["turns"]]
    introduced = conv.get("introduced")
    judge = EmbeddedMemoryJudge(reader=READER)
    probes: list[dict[str, Any]] = []
    plain_answer = judge.answer

    async def answer(question: str, artifact: Any) -> Any:  # records what the reader said about each probe
        got = await plain_answer(question, artifact)
        probes.append(
            {"question": question, "artifact": artifact.kind, "tier": got.tier, "reader_p": got.reader_p}
        )
        return got

    judge.answer = answer  # type: ignore[method-assign]
    tr = MemoryArtifact.from_turns(turns)

    t0 = time.perf_counter()
    rep_t = await evaluate_artifact(m, tr, introduced=introduced, judge=judge, precision=False)
    corrected = [r for r in rep_t.facts if m.get(r.fact_id).supersedes]
    never = [r for r in rep_t.facts if r.kind == "never_stated"]
    # the wiki claims are verified against the transcript right after its probes: a reader reads the same text
    claims = await _claims(judge, truth["wiki_claims"], tr)
    rep_e = await evaluate_artifact(m, MemoryArtifact.empty(), judge=judge, precision=False)
    rep_s = await evaluate_artifact(m, MemoryArtifact.from_text((d / "summary.md").read_text("utf-8")),
                                    introduced=introduced, judge=judge, precision=False)  # fmt: skip
    rep_w = await evaluate_artifact(m, MemoryArtifact.from_wiki_dir(d / "wiki"), introduced=introduced,
                                    judge=judge, precision=False)  # fmt: skip
    probed = [r.fact_id for r in rep_t.facts if r.kind != "never_stated"]
    s_ok, s_n, s_off = _agreement(truth["summary"], rep_s.facts)
    w_ok, w_n, w_off = _agreement(truth["wiki"], rep_w.facts)
    t_off = [{"fact": r.fact_id, "kind": r.kind, "measured": r.score, "answer": r.answer[:200], "reason": r.reason,
              "tier": r.tier} for r in rep_t.facts if r.score != 5]  # fmt: skip
    probed_all = [r for rep in (rep_t, rep_s, rep_w) for r in rep.facts]
    return {
        "name": name,
        "n_probed": len(probed),
        "transcript_weighted": rep_t.recall.weighted,
        "corrected_5": sum(r.score == 5 for r in corrected),
        "corrected_n": len(corrected),
        "never_abstained": sum(r.score == 5 for r in never),
        "never_n": len(never),
        "empty_normalised": rep_e.recall.normalised,
        "summary_weighted": rep_s.recall.weighted,
        "summary_known": _known_recall(truth["summary"], probed),
        "wiki_weighted": rep_w.recall.weighted,
        "wiki_known": _known_recall(truth["wiki"], probed),
        "summary_agree": s_ok,
        "summary_agree_n": s_n,
        "wiki_agree": w_ok,
        "wiki_agree_n": w_n,
        "claims": claims,
        "generate_exit": _generate_exit(d / "manifest.yaml", len(m.stated())),
        "off": {"transcript": t_off, "summary": s_off, "wiki": w_off},
        "probe_tiers": {t: sum(r.tier == t for r in probed_all) for t in ("encoder", "reader", "unsure")},
        "probes": probes,
        "facts": {
            kind: [
                {"fact": r.fact_id, "kind": r.kind, "question": r.question, "score": r.score, "tier": r.tier}
                for r in rep.facts
            ]
            for kind, rep in (("transcript", rep_t), ("summary", rep_s), ("wiki", rep_w))
        },
        "wall_s": time.perf_counter() - t0,
    }


def aggregate(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Pooled numbers over the manifests (recall weighted by probed facts)."""
    n = sum(r["n_probed"] for r in rows)

    def pooled(key: str) -> float:
        return sum(r[key] * r["n_probed"] for r in rows) / n

    claims = [c for r in rows for c in r["claims"]]
    bad = [c for c in claims if c["label"] != "supported"]
    good = [c for c in claims if c["label"] == "supported"]
    return {
        "manifests": [r["name"] for r in rows],
        "probed_facts": n,
        "transcript_weighted": pooled("transcript_weighted"),
        "corrected_5": sum(r["corrected_5"] for r in rows),
        "corrected_n": sum(r["corrected_n"] for r in rows),
        "never_abstained": sum(r["never_abstained"] for r in rows),
        "never_n": sum(r["never_n"] for r in rows),
        "empty_normalised": max(r["empty_normalised"] for r in rows),
        "summary_weighted": pooled("summary_weighted"),
        "summary_known": pooled("summary_known"),
        "wiki_weighted": pooled("wiki_weighted"),
        "wiki_known": pooled("wiki_known"),
        "agree": sum(r["summary_agree"] + r["wiki_agree"] for r in rows),
        "agree_n": sum(r["summary_agree_n"] + r["wiki_agree_n"] for r in rows),
        "bad_claims_1": sum(c["score"] == 1 for c in bad),
        "bad_claims_n": len(bad),
        "good_claims_1": sum(c["score"] == 1 for c in good),
        "good_claims_n": len(good),
        "weakly_supported": sum(c["score"] == 2 for c in claims),
        "generate_exit_0": sum(r["generate_exit"] == 0 for r in rows),
        "generate_runs": len(rows),
        "probe_tiers": {t: sum(r["probe_tiers"][t] for r in rows) for t in ("encoder", "reader", "unsure")},
        "claim_tiers": {t: sum(c["tiers"].count(t) for c in claims) for t in ("encoder", "reader", "unsure")},
        "wall_s": sum(r["wall_s"] for r in rows),
    }


def table(a: dict[str, Any]) -> str:
    def pct(x: int, n: int) -> str:
        return f"{100 * x / n:.0f}% ({x}/{n})" if n else "n/a"

    rows = [
        (f"transcript control, weighted recall ({a['probed_facts']} facts)", f"{a['transcript_weighted']:.3f}",
         "1.000"),
        ("corrected facts, latest value graded 5 (transcript)", f"{a['corrected_5']} of {a['corrected_n']}",
         str(a["corrected_n"])),
        ("never-stated probes abstained (transcript)", pct(a["never_abstained"], a["never_n"]), "100%"),
        ("empty control, normalised recall", f"{a['empty_normalised']:.3f}", "0.000"),
        ("summary weighted recall", f"{a['summary_weighted']:.3f}", f"{a['summary_known']:.3f}"),
        ("wiki weighted recall", f"{a['wiki_weighted']:.3f}", f"{a['wiki_known']:.3f}"),
        ("per-fact grade within +-1 of truth (summary + wiki)", pct(a["agree"], a["agree_n"]), "100%"),
        ("planted wrong / invented wiki claims scored 1", pct(a["bad_claims_1"], a["bad_claims_n"]), "100%"),
        ("correct wiki claims scored 1", pct(a["good_claims_1"], a["good_claims_n"]), "0"),
        ("wiki claims scored 2 (weakly supported)", str(a["weakly_supported"]), "-"),
        ("`memory generate` exits 0", f"{a['generate_exit_0']} of {a['generate_runs']}", str(a["generate_runs"])),
        ("probes decided by encoder / reader / unsure", " / ".join(str(v) for v in a["probe_tiers"].values()), "-"),
        ("claim atoms decided by encoder / reader / unsure", " / ".join(str(v) for v in a["claim_tiers"].values()),
         "-"),
        ("wall time (s)", f"{a['wall_s']:.1f}", "-"),
    ]  # fmt: skip
    lines = ["| what | measured | known by construction |", "|---|---|---|"]
    lines += [f"| {w} | {m} | {k} |" for w, m, k in rows]
    return "\n".join(lines)


async def measure_transcript(name: str) -> dict[str, Any]:
    """The transcript control alone (``--transcript-only``): every fact probed against the conversation itself, so
    the known recall is 1.0 and every never-stated probe should abstain. The cheap subset for a slow reader."""
    from deepeval.memory.artifact import MemoryArtifact
    from deepeval.memory.conditions import evaluate_artifact
    from deepeval.memory.judges import EmbeddedMemoryJudge
    from deepeval.memory.manifest import load_manifest
    from deepeval.test_case import Turn

    d = _folder(name)
    m = load_manifest(d / "manifest.yaml")
    conv = json.loads((d / "conversation.json").read_text(encoding="utf-8"))
    turns = [Turn(role=t["role"], content=t["content"]) for t in conv["turns"]]
    judge = EmbeddedMemoryJudge(reader=READER)
    t0 = time.perf_counter()
    rep = await evaluate_artifact(
        m, MemoryArtifact.from_turns(turns), introduced=conv.get("introduced"), judge=judge, precision=False
    )
    never = [r for r in rep.facts if r.kind == "never_stated"]
    return {
        "name": name,
        "n_probed": sum(r.kind != "never_stated" for r in rep.facts),
        "transcript_weighted": rep.recall.weighted,
        "never_abstained": sum(r.score == 5 for r in never),
        "never_n": len(never),
        "probe_tiers": {t: sum(r.tier == t for r in rep.facts) for t in ("encoder", "reader", "unsure")},
        "facts": [{"fact": r.fact_id, "kind": r.kind, "score": r.score, "tier": r.tier} for r in rep.facts],
        "wall_s": time.perf_counter() - t0,
    }


def table_transcript(rows: list[dict[str, Any]]) -> str:
    n = sum(r["n_probed"] for r in rows)
    weighted = sum(r["transcript_weighted"] * r["n_probed"] for r in rows) / n
    never, never_n = sum(r["never_abstained"] for r in rows), sum(r["never_n"] for r in rows)
    tiers = " / ".join(str(sum(r["probe_tiers"][t] for r in rows)) for t in ("encoder", "reader", "unsure"))
    return "\n".join(
        [
            "| what | measured | known by construction |",
            "|---|---|---|",
            f"| transcript control, weighted recall ({n} facts) | {weighted:.3f} | 1.000 |",
            f"| never-stated probes abstained (transcript) | {never}/{never_n} | {never_n}/{never_n} |",
            f"| probes decided by encoder / reader / unsure | {tiers} | - |",
            f"| wall time (s) | {sum(r['wall_s'] for r in rows):.1f} | - |",
        ]
    )


async def run(names: list[str]) -> dict[str, Any]:
    rows = [await measure_one(n) for n in names]
    return {"aggregate": aggregate(rows), "manifests": rows}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--split", default="blind-dev", help="blind-dev, blind-test or all")
    ap.add_argument("--json", type=Path, default=None, help="write every measurement here")
    ap.add_argument("--detail", action="store_true", help="print each disagreement (blind-dev only)")
    ap.add_argument(
        "--transcript-only",
        action="store_true",
        help="only the transcript control (a cheap subset for a reader)",
    )
    add_reader_args(ap)
    args = ap.parse_args(argv)
    global READER
    READER = reader_from_args(args)
    names = split_names(args.split)
    if args.transcript_only:
        rows = [asyncio.run(measure_transcript(n)) for n in names]
        print(f"split {args.split} (transcript only): {', '.join(names)}")
        print(reader_note(READER))
        print(table_transcript(rows))
        if args.json:
            args.json.write_text(
                json.dumps({"manifests": rows}, indent=1, ensure_ascii=False), encoding="utf-8"
            )
        return 0
    out = asyncio.run(run(names))
    print(f"split {args.split}: {', '.join(names)}")
    print(reader_note(READER))
    print(table(out["aggregate"]))
    if args.detail:
        if args.split not in ("blind-dev", "dev2"):
            print("--detail is for blind-dev only (blind-test is never read item by item)", file=sys.stderr)
        else:
            for r in out["manifests"]:
                for where, items in r["off"].items():
                    for it in items:
                        print(r["name"], where, json.dumps(it, ensure_ascii=False))
                for c in r["claims"]:
                    if (c["label"] == "supported") == (c["score"] == 1):
                        print(r["name"], "claim", json.dumps(c, ensure_ascii=False))
    if args.json:
        args.json.write_text(json.dumps(out, indent=1, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
