"""Deterministic benchmark workloads as plain JSON-ready dicts (the worker builds test cases from them in either
implementation).

* :func:`rag_cases`: RAG test cases from ClapNQ dev (Apache-2.0; primeqa/clapnq, text from Natural Questions,
  CC BY-SA 3.0) read from ``clapnq_dev`` in the shared datasets folder (:func:`shared_datasets`); each case is the
  question, the human answer plus one off-topic sentence as ``actual_output``, and 3 to 5 retrieval-context nodes:
  up to 3 chunks of the item's own passage and the rest first sentences of other items' passages (distractors).
  Without the shared folder the 20 ClapNQ items bundled with ``deepeval.quickstart`` are used, and a warning on
  stderr says so (once per process) and where it looked; :func:`source_note` names the source in every result.
* :func:`conversations`: template conversations of ``turns`` turns (user first) in which the user states facts
  as ``my <attribute> is <value>``, corrects one, and the assistant, on some turns, asks to be reminded of a fact
  it was already given (an attrition). Seeded by the conversation index only.
"""

from __future__ import annotations

import json
import os
import random
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
CLAPNQ_FILE = Path("clapnq_dev") / "clapnq_dev_answerable.jsonl"
BUNDLED = REPO / "src" / "deepeval" / "quickstart" / "data" / "clapnq_quickstart.jsonl"
#: environment variables naming the shared datasets folder, first set wins (the project's setting, then training's)
DATASETS_VARS = ("DEEPEVAL_SHARED_DATASETS", "DEEPEVAL_DATASETS")


def dataset_candidates() -> list[Path]:
    """Where the shared datasets folder is looked for, in order: the folders named by :data:`DATASETS_VARS`, then
    ``shared/datasets`` next to the checkout and next to each folder above it (a checkout in ``/work/main`` finds
    ``/work/shared``; one in a worktree under ``/work/wt/`` finds it two levels up)."""
    out = [Path(v) for v in (os.environ.get(k) for k in DATASETS_VARS) if v]
    out += [parent / "shared" / "datasets" for parent in REPO.parents]
    return out


def shared_datasets(needs: Path = CLAPNQ_FILE) -> Path | None:
    """The first of :func:`dataset_candidates` that holds ``needs`` (a path inside it), or None."""
    return next((d for d in dataset_candidates() if (d / needs).is_file()), None)


def clapnq_path() -> Path | None:
    """The shared ClapNQ dev file, or None when no shared datasets folder is found."""
    found = shared_datasets()
    return None if found is None else found / CLAPNQ_FILE


_warned = False


def _warn_fallback() -> None:
    global _warned
    if _warned:
        return
    _warned = True
    looked = ", ".join(str(d) for d in dataset_candidates()[:4])
    print(
        f"bench: WARNING: shared datasets not found ({CLAPNQ_FILE} under {looked}, ...; set "
        f"{DATASETS_VARS[0]}); using the {len(BUNDLED.read_text().splitlines())} ClapNQ items bundled with "
        "deepeval.quickstart instead: results are not comparable with runs on ClapNQ dev",
        file=sys.stderr,
        flush=True,
    )


_OFF_TOPIC = [
    "By the way, our office will be closed next Monday for maintenance.",
    "Unrelatedly, the weather is expected to be sunny all week.",
    "As an aside, many people enjoy a cup of tea in the afternoon.",
    "Incidentally, the museum gift shop sells postcards of the exhibits.",
]


def _clean(text: str) -> str:
    return " ".join(text.replace(" ,", ",").replace(" .", ".").replace(" '", "'").replace("( ", "(").split())


def _load_items() -> list[dict[str, Any]]:
    """``[{id, input, answer, sentences}]`` from the shared ClapNQ file, else from the bundled sample."""
    items: list[dict[str, Any]] = []
    clapnq = clapnq_path()
    if clapnq is not None:
        for line in clapnq.read_text().splitlines():
            row = json.loads(line)
            answer = (row.get("output") or [{}])[0].get("answer") or ""
            sentences = [_clean(s) for s in row["passages"][0].get("sentences") or [] if s.strip()]
            if answer and len(sentences) >= 2:
                items.append(
                    {"id": row["id"], "input": row["input"], "answer": _clean(answer), "sentences": sentences}
                )
    else:
        _warn_fallback()
        for line in BUNDLED.read_text().splitlines():
            row = json.loads(line)
            sentences = [s for node in row["retrieval_context"] for s in node.split(". ") if s.strip()]
            items.append(
                {
                    "id": row["id"],
                    "input": row["input"],
                    "answer": row["actual_output"],
                    "sentences": sentences,
                }
            )
    return items


def _chunks(sentences: list[str], k: int) -> list[str]:
    k = max(1, min(k, len(sentences)))
    size = -(-len(sentences) // k)
    return [" ".join(sentences[i : i + size]) for i in range(0, len(sentences), size)][:k]


def rag_cases(n: int = 20, *, offset: int = 0, nodes: int | None = None) -> list[dict[str, Any]]:
    """``n`` RAG cases (``name, input, actual_output, retrieval_context``), deterministic; ``n`` may exceed the
    number of source items (they are reused with a distinct name and distractor choice). ``nodes``: that many
    retrieval-context nodes in every case (default 3 to 5 in turn)."""
    items = _load_items()
    m = len(items)
    out = []
    for i in range(offset, offset + n):
        item = items[i % m]
        n_nodes = nodes if nodes is not None else 3 + i % 3
        own = _chunks(item["sentences"], min(3, n_nodes - 1))
        distractors = [
            " ".join(items[(i * 7 + 13 * (j + 1)) % m]["sentences"][:2]) for j in range(n_nodes - len(own))
        ]
        out.append(
            {
                "name": f"rag-{i:05d}-{item['id']}",
                "input": item["input"],
                "actual_output": f"{item['answer']} {_OFF_TOPIC[i % len(_OFF_TOPIC)]}",
                "retrieval_context": own + distractors,
            }
        )
    return out


_ATTRS: list[tuple[str, list[str]]] = [
    ("name", ["Emily Chen", "Tomas Novak", "Aisha Bello", "Kenji Sato", "Laura Rossi", "Omar Haddad"]),
    ("home city", ["Lisbon", "Manchester", "Osaka", "Nairobi", "Porto", "Krakow"]),
    ("job", ["nurse", "civil engineer", "teacher", "data analyst", "chef", "architect"]),
    ("allergy", ["peanuts", "shellfish", "pollen", "penicillin", "cats", "gluten"]),
    ("budget", ["900 pounds", "1200 euros", "700 dollars", "2000 francs", "450 pounds", "1500 euros"]),
    ("travel date", ["14 March", "3 June", "22 August", "9 November", "1 February", "30 July"]),
    ("dog's name", ["Biscuit", "Luna", "Pepper", "Otto", "Maple", "Rex"]),
    ("favourite cuisine", ["Thai", "Georgian", "Peruvian", "Lebanese", "Basque", "Korean"]),
    ("phone number", ["0161 555 0101", "020 555 0199", "0113 555 0123", "0131 555 0147", "029 555 0188"]),
    ("seat preference", ["aisle", "window", "front row", "exit row", "quiet carriage"]),
]

_FILLER_USER = [
    "Thanks, that sounds good so far.",
    "Okay, please go on.",
    "Great, I appreciate the help.",
    "Sounds fine to me.",
]


def conversations(n: int = 10, turns: int = 20) -> list[dict[str, Any]]:
    """``n`` conversations (``name, turns=[{role, content}], attrition_turns``) of ``turns`` turns each."""
    if turns < 2 or turns % 2:
        raise ValueError(f"turns must be an even number >= 2, got {turns}")
    out = []
    for c in range(n):
        rng = random.Random(1000 + c)
        attrs = rng.sample(_ATTRS, k=min(len(_ATTRS), turns // 2))
        values = {a: rng.choice(vs) for a, vs in attrs}
        n_pairs = turns // 2
        forget_at = (
            set(rng.sample(range(3, n_pairs), k=min(1 + c % 3, max(0, n_pairs - 3))))
            if n_pairs > 3
            else set()
        )
        correct_at = rng.randrange(2, n_pairs) if n_pairs > 2 else None
        known: list[str] = []
        history: list[dict[str, str]] = []
        attritions: list[int] = []
        ask_i = 0
        for p in range(n_pairs):
            if correct_at is not None and p == correct_at and known:
                attr = known[0]
                new = next(v for a, vs in attrs if a == attr for v in vs if v != values[attr])
                values[attr] = new
                user = f"Actually, I need to correct something: my {attr} is {new}."
            elif ask_i < len(attrs) and p % 4 != 3:
                attr = attrs[ask_i][0]
                ask_i += 1
                known.append(attr)
                user = f"Sure. My {attr} is {values[attr]}. {rng.choice(_FILLER_USER)}"
            else:
                user = rng.choice(_FILLER_USER)
            history.append({"role": "user", "content": user})
            if p in forget_at and known:
                attr = rng.choice(known)
                assistant = f"Before we continue, could you remind me of your {attr}? I want to get the details right."
                attritions.append(2 * p + 1)
            else:
                nxt = attrs[ask_i][0] if ask_i < len(attrs) else None
                ack = (
                    f"Thanks, I have noted that your {known[-1]} is {values[known[-1]]}."
                    if known
                    else "Thanks."
                )
                ask = (
                    f" Could you tell me your {nxt} next?"
                    if nxt
                    else " Is there anything else I can help with?"
                )
                assistant = ack + ask
            history.append({"role": "assistant", "content": assistant})
        out.append({"name": f"conv-{c:03d}", "turns": history, "attrition_turns": attritions})
    return out


def source_note() -> str:
    """Where the RAG items came from in this run (for the results file)."""
    clapnq = clapnq_path()
    if clapnq is not None:
        return f"ClapNQ dev ({clapnq})"
    return f"bundled ClapNQ sample ({BUNDLED}; shared datasets folder NOT FOUND)"
