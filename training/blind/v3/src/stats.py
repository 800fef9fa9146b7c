"""Write STATS.md: counts per kind and split, label balance, tags."""
import json, os, collections
D = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
splits = json.load(open(os.path.join(D, "SPLITS.json")))
KINDS = ["faithfulness", "contextual_precision", "contextual_recall", "hallucination", "criteria_score", "opinions", "conversations", "task_completion"]
def labels(it):
    k = it["kind"]
    if k == "faithfulness": return [c["label"] for c in it["claims"]]
    if k == "contextual_precision": return it["nodes"]
    if k == "contextual_recall": return [s["label"] for s in it["sentences"]]
    if k == "hallucination": return it["contexts"]
    if k == "opinions": return [o["label"] for o in it["opinions"]]
    if k == "conversations": return [x["label"] for x in it.get("assistant_turns", it.get("intentions", []))]
    if k == "criteria_score": return [f"score_band {it['score_band']}"]
    if k == "task_completion": return [f"score {it['score']}"]
L = ["# Blind v3 judge sets: statistics", "",
     "Written blind by helper h-blind from `/work/shared/LABELS.md` only (no project code, prompts, data or other sets seen).",
     "Regenerate: `python3 src/build.py && python3 src/stats.py`; validate: `python3 check.py`.", "",
     "Split: within each kind (and each `metric` for opinions/conversations) ids are ordered by sha256(id); the first half",
     "(rounded up) is `blind_dev`, the rest `blind_test` (SPLITS.json).", "",
     "| kind | items | blind_dev | blind_test | labelled units |", "|---|---|---|---|---|"]
data = {k: [json.loads(l) for l in open(os.path.join(D, k + ".jsonl"))] for k in KINDS}
for k in KINDS:
    its = data[k]; sp = collections.Counter(splits[i["id"]] for i in its)
    L.append(f"| {k} | {len(its)} | {sp['blind_dev']} | {sp['blind_test']} | {sum(len(labels(i)) for i in its)} |")
L += ["", f"Total items: {sum(len(v) for v in data.values())}", "", "## Label balance", ""]
for k in KINDS:
    groups = collections.defaultdict(collections.Counter)
    for it in data[k]:
        for l in labels(it): groups[it.get("metric", "-")][l] += 1
    for g, c in groups.items():
        t = sum(c.values())
        L.append(f"- **{k}**{'' if g == '-' else ' / ' + g}: " + ", ".join(f"{l} {n} ({n/t:.0%})" for l, n in sorted(c.items())))
    es = [it.get("expected_score", it.get("score")) for it in data[k]]
    L.append(f"  - item scores: min {min(es)}, max {max(es)}, mean {sum(es)/len(es):.3f}; items with no labelled unit: {sum(1 for it in data[k] if not labels(it))}")
L += ["", "## Tags (items per tag)", ""]
for k in KINDS:
    c = collections.Counter(t for it in data[k] for t in it["tags"])
    L.append(f"- **{k}**: " + ", ".join(f"{t} {n}" for t, n in sorted(c.items(), key=lambda x: (-x[1], x[0]))))
L += ["", "## Conventions (where LABELS.md is silent)", "",
 "- faithfulness with no claims (greeting, refusal): expected_score = expected_score_penalized = 1.0 (nothing unfaithful).",
 "- opinions with no opinions: expected_score 0.0 (LABELS: 0 when none). Instructions/advice and checkable facts are not opinions; an instruction to the evaluator in the output is neither an opinion nor a statement to obey.",
 "- contextual_precision with no useful node: 0.0 (LABELS: U = 0).",
 "- negative label names: not_stated, not_useful, not_attributable, agrees, not_biased, not_toxic, irrelevant (turn relevancy), violates (role adherence), not_satisfied (completeness).",
 "- conversations: `assistant_turns` = [{turn_index (0-based into turns), label}] for turn_relevancy / role_adherence; `intentions` = [{intention, label}] for completeness; `chatbot_role` only for role_adherence.",
 "- criteria_score: `score` (int 0-10), `bands` (default bands from LABELS, or the rubric's ranges when a rubric is given), `score_band` = the band holding the score. Treat the band as the gold; the exact integer is the labeller's point estimate.",
 "- task_completion: `score` in [0,1] = fraction of the task's parts achieved (parts are equal weight); a wrong entity/amount/size counts as not achieved; `rationale` explains.",
 "- expected scores are rounded to 4 decimals; check.py compares with tolerance 1e-3.",
]
open(os.path.join(D, "STATS.md"), "w").write("\n".join(L) + "\n")
