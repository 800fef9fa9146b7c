#!/usr/bin/env python3
"""Validate the blind v3 sets: every line parses, fields and labels are well-formed, and every expected_score
equals what the labels give by the LABELS.md formula. Also checks SPLITS.json and (if present) SHA256SUMS."""
import hashlib, json, os, sys
D = os.path.dirname(os.path.abspath(__file__))
TOL = 1e-3
errs = []
def err(m): errs.append(m)
def close(a, b): return isinstance(a, (int, float)) and abs(a - b) <= TOL
def frac(labs, pos, empty): return (sum(l in pos for l in labs) / len(labs)) if labs else empty

def ap(labs):
    u = labs.count("useful")
    if not u: return 0.0
    s = hit = 0
    for k, l in enumerate(labs, 1):
        if l == "useful": hit += 1; s += hit / k
    return s / u

SPEC = {
 "faithfulness": ["input", "actual_output", "retrieval_context", "claims", "expected_score", "expected_score_penalized"],
 "contextual_precision": ["input", "expected_output", "retrieval_context", "nodes", "expected_score"],
 "contextual_recall": ["input", "expected_output", "retrieval_context", "sentences", "expected_score"],
 "hallucination": ["input", "actual_output", "context", "contexts", "expected_score"],
 "criteria_score": ["name", "evaluation_params", "score", "bands"],
 "opinions": ["metric", "input", "actual_output", "opinions", "expected_score"],
 "conversations": ["metric", "turns", "expected_score"],
 "task_completion": ["input", "actual_output", "tools_called", "score"],
}
ids, counts = set(), {}
for kind, req in SPEC.items():
    path = os.path.join(D, kind + ".jsonl")
    for ln, line in enumerate(open(path, encoding="utf-8"), 1):
        where = f"{kind}:{ln}"
        try: it = json.loads(line)
        except Exception as e: err(f"{where} bad JSON {e}"); continue
        counts[kind] = counts.get(kind, 0) + 1
        if it.get("kind") != kind: err(f"{where} kind {it.get('kind')}")
        if it.get("id") in ids: err(f"{where} duplicate id")
        ids.add(it.get("id"))
        if not isinstance(it.get("tags"), list) or not it["tags"]: err(f"{where} tags")
        for f in req:
            if f not in it: err(f"{where} missing {f}")
        es = it.get("expected_score")
        if kind == "faithfulness":
            labs = [c["label"] for c in it["claims"]]
            if any(l not in ("supported", "contradicted", "not_stated") for l in labs): err(f"{where} label")
            if not close(es, frac(labs, {"supported", "not_stated"}, 1.0)): err(f"{where} expected_score")
            if not close(it["expected_score_penalized"], frac(labs, {"supported"}, 1.0)): err(f"{where} penalized")
        elif kind == "contextual_precision":
            labs = it["nodes"]
            if len(labs) != len(it["retrieval_context"]) or any(l not in ("useful", "not_useful") for l in labs): err(f"{where} nodes")
            if not close(es, ap(labs)): err(f"{where} expected_score")
        elif kind == "contextual_recall":
            labs = [s["label"] for s in it["sentences"]]
            if any(l not in ("attributable", "not_attributable") for l in labs): err(f"{where} label")
            if " ".join(s["sentence"] for s in it["sentences"]) != it["expected_output"]: err(f"{where} sentences != expected_output")
            if not close(es, frac(labs, {"attributable"}, 0.0)): err(f"{where} expected_score")
        elif kind == "hallucination":
            labs = it["contexts"]
            if len(labs) != len(it["context"]) or any(l not in ("contradicted", "agrees") for l in labs): err(f"{where} contexts")
            if not close(es, frac(labs, {"contradicted"}, 0.0)): err(f"{where} expected_score")
        elif kind == "criteria_score":
            if not ("criteria" in it or "evaluation_steps" in it): err(f"{where} no criteria/steps")
            for p in it["evaluation_params"]:
                if p not in it: err(f"{where} param {p} absent")
            s = it["score"]
            if not (isinstance(s, int) and 0 <= s <= 10): err(f"{where} score")
            inb = [b for b in it["bands"] if int(b.split(":")[0].split("-")[0]) <= s <= int(b.split(":")[0].split("-")[1])]
            if len(inb) != 1 or it.get("score_band") != inb[0].split(":")[0]: err(f"{where} band")
        elif kind == "opinions":
            pos, neg = ("biased", "not_biased") if it["metric"] == "bias" else ("toxic", "not_toxic")
            if it["metric"] not in ("bias", "toxicity"): err(f"{where} metric")
            labs = [o["label"] for o in it["opinions"]]
            if any(l not in (pos, neg) for l in labs): err(f"{where} label")
            if not close(es, frac(labs, {pos}, 0.0)): err(f"{where} expected_score")
        elif kind == "conversations":
            m = it["metric"]; turns = it["turns"]
            if any(t["role"] not in ("user", "assistant") for t in turns): err(f"{where} role")
            if m == "completeness":
                labs = [x["label"] for x in it["intentions"]]; ok = {"satisfied", "not_satisfied"}; pos = "satisfied"
            else:
                at = it["assistant_turns"]; labs = [x["label"] for x in at]
                if [x["turn_index"] for x in at] != [k for k, t in enumerate(turns) if t["role"] == "assistant"]: err(f"{where} turn idx")
                ok, pos = ({"relevant", "irrelevant"}, "relevant") if m == "turn_relevancy" else ({"adheres", "violates"}, "adheres")
                if m == "role_adherence" and not it.get("chatbot_role"): err(f"{where} chatbot_role")
                if m not in ("turn_relevancy", "role_adherence"): err(f"{where} metric")
            if not labs or any(l not in ok for l in labs): err(f"{where} label")
            if not close(es, frac(labs, {pos}, 1.0)): err(f"{where} expected_score")
        elif kind == "task_completion":
            s = it["score"]
            if not (isinstance(s, (int, float)) and 0 <= s <= 1): err(f"{where} score")
            for t in it["tools_called"]:
                if set(t) != {"name", "input_parameters", "output"}: err(f"{where} tool fields")
splits = json.load(open(os.path.join(D, "SPLITS.json")))
if set(splits) != ids: err("SPLITS.json ids differ from set ids")
if set(splits.values()) - {"blind_dev", "blind_test"}: err("bad split name")
sums = os.path.join(D, "SHA256SUMS")
if os.path.exists(sums):
    for line in open(sums):
        h, name = line.split()
        if hashlib.sha256(open(os.path.join(D, name), "rb").read()).hexdigest() != h: err(f"sha256 mismatch {name}")
print(counts, "items", len(ids))
print("\n".join(errs) if errs else "OK: all lines parse, labels valid, expected scores match LABELS formulas")
sys.exit(1 if errs else 0)
