"""Labelled examples for the embedded judge, with fixed train/test splits (seeded, deterministic).

Sources (read from ``../shared/datasets`` relative to the repo, or ``$DEEPEVAL_DATASETS``):

- ClapNQ dev (Apache-2.0; Rosenthal et al., TACL 2025): human sentence-level relevance labels.
  ``statement_relevant``: (question, a sentence of its own human answer) and (question, a selected passage
  sentence) = yes; (question, an answer sentence of another item), (question, a passage sentence of another item)
  and one in three unselected sentences of an answerable passage (on topic, does not answer) = no. Plus
  ``training/data/relevance_chat.jsonl`` (ours): requests in the assistant/support register, see
  :func:`chat_relevance_examples`; and ``training/data/relevance_nonanswer.jsonl`` (ours): on-topic sentences that
  do not answer (negatives) next to the answers, see :func:`nonanswer_relevance_examples`.
  ``context_statement_relevant``: (question, passage sentence), yes = the annotators selected the sentence; the
  other sentences of the same passage are negatives, as are one in three sentences of unanswerable items; the
  passage travels with each example (``extra``), as the node does in a CR request.
  ``context_node_relevant``: (question, node), node = the whole passage (yes for answerable items, no for
  unanswerable ones) or a window of two consecutive sentences of an answerable passage (yes = holds a selected one).
  ``claim_supported``: (claim, passage), claim = a sentence of the human answer (supported) or one corrupted copy per
  supported claim (ours, synthetic): a number or year changed, a name replaced by one from another passage, a
  negation added or removed, two names swapped, or an answer sentence from another item.
- HaluEval general (MIT; Li et al., EMNLP 2023): ChatGPT answers with human hallucination labels. It has no source
  text, so it is reported (claim = response, source = user query, yes = not hallucinated), not trained on.
- ``training/data/retention.jsonl`` (ours, hand-written): facts + assistant message, labels forgets / reasks.

Items are split by ClapNQ question id (60 % train / 40 % test); the retention set's split is written in the file
(per category, about 60/40).
"""

from __future__ import annotations

import json
import os
import random
import re
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SEED = 20240601


def datasets_dir() -> Path:
    return Path(os.environ.get("DEEPEVAL_DATASETS", REPO.parent / "shared" / "datasets"))


@dataclass(frozen=True)
class Example:
    kind: str
    a: str  # input / claim / facts (JSON list) depending on kind
    b: str  # statement / node / source / assistant message
    label: int
    split: str  # "train" | "test"
    tag: str = ""  # sub-type (corruption type, retention category)
    extra: str | None = None  # user message for retention; the passage for context_statement_relevant


def _clapnq_items() -> list[dict]:
    base = datasets_dir() / "clapnq_dev"
    items = []
    for name, answerable in (("clapnq_dev_answerable.jsonl", True), ("clapnq_dev_unanswerable.jsonl", False)):
        with open(base / name, encoding="utf-8") as f:
            for line in f:
                row = json.loads(line)
                row["_answerable"] = answerable
                items.append(row)
    return items


def _split_of(item_id: str, test_ids: set[str]) -> str:
    return "test" if item_id in test_ids else "train"


def _test_ids(items: list[dict]) -> set[str]:
    ids = sorted(str(r["id"]) for r in items)
    random.Random(SEED).shuffle(ids)
    return set(ids[: int(len(ids) * 0.4)])


def _norm(s: str) -> str:
    return " ".join(s.split())


_CAPS = re.compile(r"\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*")
_NUMBER = re.compile(r"\b\d+(?:[.,]\d+)?\b")
_AUX = re.compile(r"\b(is|was|are|were|has|have|had|can|will|does|did)\b")


def _corrupt(
    claim: str, other_claims: list[str], other_names: list[str], rng: random.Random
) -> tuple[str, str]:
    """One unsupported variant of ``claim`` and its corruption type."""
    kinds = ["other"]
    if _NUMBER.search(claim):
        kinds.append("number")
    names = [m.group(0) for m in _CAPS.finditer(claim) if m.start() > 0]
    if names:
        kinds.append("entity")
    if len(set(names)) >= 2:
        kinds.append("swap")
    if _AUX.search(claim) or " not " in claim:
        kinds.append("negation")
    kind = rng.choice(kinds)
    if kind == "number":
        m = rng.choice(list(_NUMBER.finditer(claim)))
        val = float(m.group(0).replace(",", ""))
        new = val + rng.choice([-1, 1]) * max(1, round(abs(val) * rng.uniform(0.1, 0.5)))
        text = f"{int(new)}" if val.is_integer() else f"{new:.1f}"
        return claim[: m.start()] + text + claim[m.end() :], kind
    if kind == "entity":
        target = rng.choice(names)
        choices = [n for n in other_names if n.lower() not in claim.lower()]
        return claim.replace(target, rng.choice(choices), 1), kind
    if kind == "swap":
        a, b = rng.sample(sorted(set(names)), 2)
        return claim.replace(a, "\0").replace(b, a).replace("\0", b), kind
    if kind == "negation":
        if " not " in claim:
            return claim.replace(" not ", " ", 1), kind
        return _AUX.sub(lambda m: m.group(1) + " not", claim, count=1), kind
    return rng.choice(other_claims), kind


def _answer_statement_examples(items: list[dict], test_ids: set[str]) -> list[Example]:
    """``statement_relevant`` pairs shaped like AnswerRelevancy's question: is this statement of an ANSWER relevant
    to the request. Positives: (question, a sentence of its own human answer). Negatives: (question, an answer
    sentence of another random item) and (question, a passage sentence of another random item), one of each per
    positive. The other item is drawn from the same split, so no text crosses the train/test boundary."""
    from deepeval.models.embedded.text import split_sentences

    rng = random.Random(SEED + 1)
    answers: dict[str, list[str]] = {}
    passage_sents: dict[str, list[str]] = {}
    for r in items:
        rid = str(r["id"])
        answers[rid] = [
            s for o in r["output"] for s in split_sentences(o.get("answer", "") or "") if len(s.split()) >= 3
        ]
        passage_sents[rid] = [s for p in r["passages"] for s in p["sentences"] if len(s.split()) >= 4]
    by_split: dict[str, list[str]] = {"train": [], "test": []}
    for r in items:
        by_split[_split_of(str(r["id"]), test_ids)].append(str(r["id"]))
    with_answers = {k: [i for i in v if answers[i]] for k, v in by_split.items()}
    out: list[Example] = []
    for r in items:
        rid = str(r["id"])
        split = _split_of(rid, test_ids)
        for s in answers[rid]:
            out.append(Example("statement_relevant", r["input"], s, 1, split, "answer"))
            other = rng.choice([i for i in with_answers[split] if i != rid])
            out.append(
                Example(
                    "statement_relevant", r["input"], rng.choice(answers[other]), 0, split, "other_answer"
                )
            )
            other = rng.choice([i for i in by_split[split] if i != rid and passage_sents[i]])
            out.append(
                Example(
                    "statement_relevant", r["input"], rng.choice(passage_sents[other]), 0, split, "off_topic"
                )
            )
    return out


def clapnq_examples() -> list[Example]:
    """Relevance and claim-support examples from ClapNQ dev (see module docstring)."""
    from deepeval.models.embedded.text import split_sentences

    items = _clapnq_items()
    test_ids = _test_ids(items)
    rng = random.Random(SEED)
    out: list[Example] = []
    answer_claims: list[tuple[str, str, str]] = []  # (item id, claim, passage)
    all_names: list[str] = []
    for r in items:
        split = _split_of(str(r["id"]), test_ids)
        question = r["input"]
        selected = {_norm(s) for o in r["output"] for s in o.get("selected_sentences", [])}
        for p_i, passage in enumerate(r["passages"]):
            sents = [s for s in passage["sentences"] if s.strip()]
            text = passage["text"]
            all_names.extend(m.group(0) for m in _CAPS.finditer(text) if m.start() > 0)
            for s_i, s in enumerate(sents):
                if _norm(s) in selected:  # a selected passage sentence answers the question
                    out.append(Example("statement_relevant", question, s, 1, split, "selected"))
                elif r["_answerable"] and s_i % 3 == 0:  # on the topic, does not answer (a third kept)
                    out.append(Example("statement_relevant", question, s, 0, split, "unselected"))
                # context statements: selected vs the other sentences of the same passage; sentences of
                # unanswerable items (on-topic passages that do not answer) are negatives, one in three kept
                if r["_answerable"] or s_i % 3 == 0:
                    lab = int(_norm(s) in selected)
                    tag = "selected" if lab else ("unselected" if r["_answerable"] else "unanswerable")
                    node = "\n".join(sents)  # the dataset's own sentence split, one per line
                    out.append(Example("context_statement_relevant", question, s, lab, split, tag, node))
            out.append(
                Example("context_node_relevant", question, text, int(bool(selected)), split, "passage")
            )
            if r["_answerable"]:
                for w in range(0, len(sents) - 1, 2):
                    window = sents[w : w + 2]
                    label = int(any(_norm(s) in selected for s in window))
                    out.append(
                        Example("context_node_relevant", question, " ".join(window), label, split, "window")
                    )
            if r["_answerable"] and p_i == 0:
                for o in r["output"]:
                    for claim in split_sentences(o.get("answer", "")):
                        if len(claim.split()) >= 4:
                            answer_claims.append((str(r["id"]), claim, text))
    out.extend(_answer_statement_examples(items, test_ids))
    for item_id, claim, source in answer_claims:
        split = _split_of(item_id, test_ids)
        out.append(Example("claim_supported", claim, source, 1, split, "answer"))
        others = [c for i, c, _ in rng.sample(answer_claims, 5) if i != item_id] or [answer_claims[0][1]]
        bad, kind = _corrupt(claim, others, all_names, rng)
        if bad != claim:
            out.append(Example("claim_supported", bad, source, 0, split, kind))
    return out


def idf_documents() -> list[str]:
    """Passage texts of the ClapNQ training split: the collection the shipped IDF table is computed from."""
    items = _clapnq_items()
    test_ids = _test_ids(items)
    return [p["text"] for r in items if str(r["id"]) not in test_ids for p in r["passages"]]


def halueval_examples(per_class: int = 150) -> list[Example]:
    """HaluEval general, balanced sample (report only): claim = response, source = user query."""
    rows = json.loads(
        "[" + ",".join(open(datasets_dir() / "halueval" / "general_data.json", encoding="utf-8")) + "]"
    )
    rng = random.Random(SEED)
    yes = [r for r in rows if r["hallucination"] == "no"]
    no = [r for r in rows if r["hallucination"] == "yes"]
    picked = rng.sample(yes, per_class) + rng.sample(no, per_class)
    return [
        Example(
            "claim_supported_halueval",
            r["chatgpt_response"][:1200],
            r["user_query"],
            int(r["hallucination"] == "no"),
            "test",
        )
        for r in picked
    ]


def retention_examples() -> list[Example]:
    """The hand-written retention set as three labelled kinds (forgets, reasks, attrition).

    Each row carries its split (``"split"``: ``train``/``test``), fixed in the file so that adding items never moves
    an existing one across the boundary. Rows r001-r163 keep the split of the earlier seeded rule (per category,
    40 % test, ``random.Random(SEED)``); rows from r164 on were split the same way within their batch (seed
    ``SEED + 7``) when they were written, before any feature work on them. Rows r384-r401 (acknowledgements that
    echo the facts, and the same echoes with one value changed) were added later, to the training split only.
    """
    rows = [
        json.loads(line)
        for line in open(REPO / "training" / "data" / "retention.jsonl", encoding="utf-8")
        if line.strip()
    ]
    split_of = {r["id"]: r["split"] for r in rows}
    if set(split_of.values()) - {"train", "test"}:
        raise ValueError("retention.jsonl: every row needs split 'train' or 'test'")
    out = []
    for r in rows:
        facts = json.dumps(r["facts"])
        for kind, label in (
            ("turn_forgets", r["forgets"]),
            ("turn_reasks", r["reasks"]),
            ("turn_attrition", int(bool(r["forgets"] or r["reasks"]))),
        ):
            out.append(
                Example(
                    kind,
                    facts,
                    r["assistant_message"],
                    int(label),
                    split_of[r["id"]],
                    r["category"],
                    r.get("user_message"),
                )
            )
    return out


def chat_relevance_examples() -> list[Example]:
    """``statement_relevant`` pairs in the assistant/support register (``training/data/relevance_chat.jsonl``, ours,
    hand-written): (request, a sentence of its own answer) = yes; (request, an answer sentence of another request
    of the same split) = no, two per positive (same register, so the negatives are hard). Split 60/40 by item."""
    rows = [
        json.loads(line)
        for line in open(REPO / "training" / "data" / "relevance_chat.jsonl", encoding="utf-8")
        if line.strip()
    ]
    rng = random.Random(SEED + 2)
    ids = sorted(r["id"] for r in rows)
    rng.shuffle(ids)
    test = set(ids[: round(len(ids) * 0.4)])
    out: list[Example] = []
    for r in rows:
        split = "test" if r["id"] in test else "train"
        pool = [o for o in rows if o["id"] != r["id"] and (o["id"] in test) == (split == "test")]
        for s in r["answer"]:
            out.append(Example("statement_relevant", r["input"], s, 1, split, "chat"))
            for other in rng.sample(pool, 2):
                out.append(
                    Example("statement_relevant", r["input"], rng.choice(other["answer"]), 0, split, "chat")
                )
    return out


def nonanswer_relevance_examples() -> list[Example]:
    """``statement_relevant`` pairs of on-topic non-answers (``training/data/relevance_nonanswer.jsonl``, ours,
    hand-written): (request, a sentence of its own answer) = yes; (request, a sentence on the request's topic that
    does not answer it: a fact about the same place or product, a deflection such as "please check the website")
    = no. ClapNQ and the chat set have few such negatives: their negatives are off-topic sentences. The split is
    written in each row (60/40, seeded once when the file was written), so adding rows never moves one."""
    rows = [
        json.loads(line)
        for line in open(REPO / "training" / "data" / "relevance_nonanswer.jsonl", encoding="utf-8")
        if line.strip()
    ]
    out: list[Example] = []
    for r in rows:
        for s in r["answer"]:
            out.append(Example("statement_relevant", r["input"], s, 1, r["split"], "nonanswer"))
        for s in r["off"]:
            out.append(Example("statement_relevant", r["input"], s, 0, r["split"], "nonanswer"))
    return out


def fragment_relevance_examples() -> list[Example]:
    """``statement_relevant`` pairs of elliptical answers (``training/data/relevance_fragments.jsonl``, ours,
    hand-written): (request, a bare list item or yes/no reply that answers it, "Correct.", "Bring these: A towel.")
    = yes; (request, a bare item about something else) = no. ClapNQ and the chat sets hold full sentences only. The
    split is written in each row (about 60/40), so adding rows never moves one."""
    rows = [
        json.loads(line)
        for line in open(REPO / "training" / "data" / "relevance_fragments.jsonl", encoding="utf-8")
        if line.strip()
    ]
    out: list[Example] = []
    for r in rows:
        out += [Example("statement_relevant", r["input"], s, 1, r["split"], "fragment") for s in r["answer"]]
        out += [Example("statement_relevant", r["input"], s, 0, r["split"], "fragment") for s in r["off"]]
    return out
