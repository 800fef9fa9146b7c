"""Build the blind v3 JSONL sets from the hand-written item tables in src/*.py (written blind from LABELS.md only)."""
import hashlib, json, os, sys
HERE = os.path.dirname(os.path.abspath(__file__)); OUT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import faith, cprec, crec, hall, geval, opin, conv, task

def r4(x): return round(x, 4)

def ap_score(nodes):
    useful = [l == "useful" for l in nodes]; u = sum(useful)
    if u == 0: return 0.0
    tot, seen = 0.0, 0
    for k, ok in enumerate(useful, 1):
        if ok: seen += 1; tot += seen / k
    return tot / u

def band_of(score, bands):
    for b in bands:
        lo, hi = b.split(":")[0].split("-"); 
        if int(lo) <= score <= int(hi): return b.split(":")[0]
    return None

sets = {}
def add(kind, short, items):
    for n, it in enumerate(items, 1):
        it = {"id": f"bv3-{short}-{n:03d}", "kind": kind, **it}
        sets.setdefault(kind, []).append(it)

rows = []
for tags, inp, out, ctx, claims in faith.ITEMS:
    labs = [l for _, l in claims]; n = len(labs)
    rows.append(dict(input=inp, actual_output=out, retrieval_context=ctx,
        claims=[{"claim": c, "label": l} for c, l in claims],
        expected_score=r4((labs.count("supported") + labs.count("not_stated")) / n) if n else 1.0,
        expected_score_penalized=r4(labs.count("supported") / n) if n else 1.0, tags=tags))
add("faithfulness", "faith", rows)

rows = []
for tags, inp, exp, nodes in cprec.ITEMS:
    labs = [l for _, l in nodes]
    rows.append(dict(input=inp, expected_output=exp, retrieval_context=[t for t, _ in nodes], nodes=labs,
                     expected_score=r4(ap_score(labs)), tags=tags))
add("contextual_precision", "cprec", rows)

rows = []
for tags, inp, sents, ctx in crec.ITEMS:
    labs = [l for _, l in sents]
    rows.append(dict(input=inp, expected_output=" ".join(s for s, _ in sents), retrieval_context=ctx,
                     sentences=[{"sentence": s, "label": l} for s, l in sents],
                     expected_score=r4(labs.count("attributable") / len(labs)), tags=tags))
add("contextual_recall", "crec", rows)

rows = []
for tags, inp, out, ctx in hall.ITEMS:
    labs = [l for _, l in ctx]
    rows.append(dict(input=inp, actual_output=out, context=[c for c, _ in ctx], contexts=labs,
                     expected_score=r4(labs.count("contradicted") / len(labs)), tags=tags))
add("hallucination", "hall", rows)

rows = []
for it in geval.ITEMS:
    it = dict(it); tags = it.pop("tags"); score = it.pop("score")
    bands = [f"{r['score_range'][0]}-{r['score_range'][1]}: {r['expected_outcome']}" for r in it["rubric"]] if "rubric" in it else geval.DEFAULT_BANDS
    rows.append(dict(**it, score=score, bands=bands, score_band=band_of(score, bands), tags=tags))
add("criteria_score", "geval", rows)

rows = []
for metric, tags, inp, out, ops in opin.ITEMS:
    pos = "biased" if metric == "bias" else "toxic"
    labs = [l for _, l in ops]
    rows.append(dict(metric=metric, input=inp, actual_output=out, opinions=[{"opinion": o, "label": l} for o, l in ops],
                     expected_score=r4(labs.count(pos) / len(labs)) if labs else 0.0, tags=tags))
add("opinions", "opin", rows)

rows = []
POS = {"turn_relevancy": "relevant", "role_adherence": "adheres", "completeness": "satisfied"}
for metric, tags, role, turns, labels in conv.ITEMS:
    row = dict(metric=metric, turns=[{"role": r, "content": c} for r, c in turns])
    if role: row["chatbot_role"] = role
    if metric == "completeness":
        row["intentions"] = [{"intention": i, "label": l} for i, l in labels]; labs = [l for _, l in labels]
    else:
        idx = [k for k, (r, _) in enumerate(turns) if r == "assistant"]
        assert len(idx) == len(labels), (tags, idx, labels)
        row["assistant_turns"] = [{"turn_index": k, "label": l} for k, l in zip(idx, labels)]; labs = labels
    row["expected_score"] = r4(labs.count(POS[metric]) / len(labs)); row["tags"] = tags
    rows.append(row)
add("conversations", "conv", rows)

rows = []
for tags, inp, out, tools, score, why in task.ITEMS:
    rows.append(dict(input=inp, actual_output=out,
                     tools_called=[{"name": n, "input_parameters": p, "output": o} for n, p, o in tools],
                     score=score, rationale=why, tags=tags))
add("task_completion", "task", rows)

splits = {}
for kind, items in sets.items():
    with open(os.path.join(OUT, f"{kind}.jsonl"), "w") as f:
        for it in items: f.write(json.dumps(it, ensure_ascii=False) + "\n")
    groups = {}
    for it in items: groups.setdefault(it.get("metric", ""), []).append(it["id"])
    for g, ids in groups.items():   # stratified by metric; order by sha256(id); first half -> blind_dev
        ids = sorted(ids, key=lambda i: hashlib.sha256(i.encode()).hexdigest())
        h = (len(ids) + 1) // 2
        for k, i in enumerate(ids): splits[i] = "blind_dev" if k < h else "blind_test"
with open(os.path.join(OUT, "SPLITS.json"), "w") as f: json.dump(dict(sorted(splits.items())), f, indent=1)
print({k: len(v) for k, v in sets.items()})
