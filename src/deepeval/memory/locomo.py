"""LoCoMo loader: one conversation of ``locomo10.json`` -> (fact manifest, transcript turns, introduced turns).

Data (CC BY-NC 4.0, Maharana et al., ACL 2024) is read in place from the shared datasets folder and never copied.
Only question categories 1-4 are used (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop; 5 is adversarial).
Answers flagged by the LoCoMo audit (``locomo_audit/errors.json``, any error type except WRONG_CITATION) are
replaced by the audit's ``correct_answer``, with trailing parenthetical remarks and citations removed.

Mapping: speaker_a -> ``user`` turns, speaker_b -> ``assistant`` turns; each turn's content is ``"Name: text"``
(plus ``[shares <caption>]`` for images), and the first turn of each session starts with the session date. A fact's
``introduced_at`` is the turn index of its latest evidence turn (unparseable evidence ids are skipped).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from deepeval.memory.manifest import Fact, FactManifest
from deepeval.test_case import Turn

_DIA = re.compile(r"D(\d+):(\d+)")


def default_datasets_dir() -> Path:
    """``$DEEPEVAL_SHARED_DATASETS`` or ``../shared/datasets`` relative to the current directory."""
    from deepeval.config import get_settings

    return Path(get_settings().get("DEEPEVAL_SHARED_DATASETS") or Path.cwd().parent / "shared" / "datasets")


@dataclass
class LocomoSample:
    sample_id: str
    manifest: FactManifest
    turns: list[Turn]
    introduced: dict[str, int]
    corrected: int


def _clean_answer(text: str) -> str:
    t = re.sub(r"\s*\((?:D\d+:\d+[,; ]*)+\)", "", text).strip()
    m = re.match(r"^(.*?\S)\s*\((?:but|approximately|the |this |not )[^)]*\)\s*$", t)
    if m:
        t = m.group(1)
    return t.strip() or text.strip()


def load_locomo(
    index: int = 0,
    datasets_dir: str | Path | None = None,
    categories: tuple[int, ...] = (1, 2, 3, 4),
    max_questions: int | None = None,
) -> LocomoSample:
    """Load conversation ``index`` (0-9) of LoCoMo as a manifest + transcript.

    Raises:
        FileNotFoundError: the dataset folder or file is missing (the message says where it looked).
        IndexError: ``index`` out of range.
    """
    base = Path(datasets_dir) if datasets_dir is not None else default_datasets_dir()
    path = base / "locomo" / "locomo10.json"
    if not path.is_file():
        raise FileNotFoundError(
            f"LoCoMo not found at {path}; set DEEPEVAL_SHARED_DATASETS to the datasets folder"
        )
    data: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    if not 0 <= index < len(data):
        raise IndexError(f"LoCoMo has {len(data)} conversations; index {index} is out of range")
    corrections: dict[str, str] = {}
    errors_path = base / "locomo_audit" / "errors.json"
    if errors_path.is_file():
        for e in json.loads(errors_path.read_text(encoding="utf-8")):
            if e.get("error_type") != "WRONG_CITATION" and e.get("correct_answer"):
                corrections[str(e["question_id"])] = _clean_answer(str(e["correct_answer"]))
    sample = data[index]
    conv = sample["conversation"]
    speaker_a = conv.get("speaker_a")
    turns: list[Turn] = []
    where: dict[str, int] = {}
    n_sessions = max(int(k.split("_")[1]) for k in conv if re.fullmatch(r"session_\d+", k))
    for s in range(1, n_sessions + 1):
        items = conv.get(f"session_{s}") or []
        date = conv.get(f"session_{s}_date_time", "")
        for j, item in enumerate(items):
            text = str(item.get("text", ""))
            if item.get("blip_caption"):
                text += f" [shares {item['blip_caption']}]"
            content = f"{item.get('speaker', '?')}: {text}"
            if j == 0 and date:
                content = f"(session {s}, {date}) {content}"
            where[str(item.get("dia_id"))] = len(turns)
            turns.append(
                Turn(role="user" if item.get("speaker") == speaker_a else "assistant", content=content)
            )
    facts: list[Fact] = []
    intro: dict[str, int] = {}
    corrected = 0
    for qi, qa in enumerate(sample["qa"]):
        if qa.get("category") not in categories or "answer" not in qa:
            continue
        qid = f"locomo_{index}_qa{qi}"
        expected = corrections.get(qid)
        corrected += expected is not None
        expected = expected or str(qa["answer"])
        ev_turns = [
            where[m.group(0)]
            for e in qa.get("evidence", [])
            for m in _DIA.finditer(str(e))
            if m.group(0) in where
        ]
        statement = " ".join(turns[i].content for i in sorted(set(ev_turns)))[:2000] or str(qa["question"])
        facts.append(
            Fact(
                id=qid,
                statement=statement,
                question=str(qa["question"]),
                expected=expected.strip() or "?",
                introduced_at=max(ev_turns) if ev_turns else None,
            )
        )
        intro[qid] = max(ev_turns) if ev_turns else len(turns) - 1
        if max_questions is not None and len(facts) >= max_questions:
            break
    manifest = FactManifest(name=f"locomo-{sample.get('sample_id', index)}", facts=facts)
    return LocomoSample(str(sample.get("sample_id", index)), manifest, turns, intro, corrected)
