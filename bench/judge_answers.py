"""Scripted judge answers for the benchmarks: a deterministic "brain" behind the loopback servers.

It answers any prompt of our three metrics and of deepeval 4.3.1's (AnswerRelevancy, ContextualRelevancy,
KnowledgeRetention) with a valid reply of the right shape, so both implementations can run unchanged against
the same server. The task is recognised from the JSON schema in ``response_format`` when the client sends one
(ours) and from the prompt text otherwise (deepeval's ``LocalModel`` sends none); :data:`RECOGNISERS` lists
them in order. Decisions are a pure function of the item's text, so both implementations get the same verdict
for the same statement or message and their scores can be compared:

* statement relevance: 70 % yes, 10 % borderline, 20 % no, by a hash of the normalised statement (Faithfulness'
  claims get their verdict by the same hash: yes, borderline / idk, no);
* a user fact is a sentence of the form ``my <attribute> is <value>`` (the bench conversations use it);
* an assistant message forgets a fact when it asks to be reminded of a known attribute
  (``remind me of your <attribute>``); the bench conversations contain such turns on purpose.

System One answers follow the same decisions when the item can be found in the question or state (P(yes)
0.92 / 0.5 / 0.08); whole-test-case questions (``system_one`` mode) get a hash-based P(yes) in [0.55, 0.95]
and a score distribution peaked on the best level.

Nothing here does I/O; :mod:`bench.judge_server` wraps it in HTTP servers.
"""

from __future__ import annotations

import ast
import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = [
    "RECOGNISERS",
    "ChatAnswer",
    "answer_chat",
    "answer_system_one",
    "blocks",
    "fact_pairs",
    "forgets",
    "relevance",
    "split_sentences",
]

_SENT = re.compile(r"(?<=[.!?])\s+")
_FACT = re.compile(r"\bmy ([a-z][a-z ]{1,40}?) is ([^.,;!?]+)", re.IGNORECASE)
_CHANGE = re.compile(r"\b(?:actually|instead|not\b[^.!?]*\bbut|changed?|correction)\b", re.IGNORECASE)
_REMIND = re.compile(r"remind me (?:of|what) your ([a-z][a-z ]{1,40}?)(?: is)?[?.!]", re.IGNORECASE)


def split_sentences(text: str) -> list[str]:
    """Sentences of ``text`` (split after ``.``, ``!`` or ``?`` followed by whitespace), stripped, non-empty."""
    return [s.strip() for s in _SENT.split(text or "") if s.strip()]


def _h(text: str) -> int:
    return int.from_bytes(hashlib.sha256(" ".join(text.lower().split()).encode()).digest()[:4], "big")


def relevance(statement: str) -> str:
    """``"yes"`` (70 %), ``"borderline"`` (10 %) or ``"no"`` (20 %), a pure function of the normalised text."""
    bucket = _h(statement) % 10
    return "yes" if bucket < 7 else ("borderline" if bucket == 7 else "no")


def fact_pairs(text: str) -> dict[str, str]:
    """``{"Attribute": "value"}`` for every ``my <attribute> is <value>`` in ``text`` (later ones win)."""
    return {m.group(1).strip().title(): m.group(2).strip() for m in _FACT.finditer(text or "")}


def forgets(message: str, knowledge_text: str) -> bool:
    """True when ``message`` asks to be reminded of an attribute that ``knowledge_text`` already holds."""
    known = knowledge_text.lower()
    return any(m.group(1).strip().lower() in known for m in _REMIND.finditer(message or ""))


_P = {"yes": 0.92, "borderline": 0.5, "no": 0.08}


# --------------------------------------------------------------------------------------------------------------
# chat completions
# --------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ChatAnswer:
    """The reply content (a JSON-serialisable object) and the recogniser that produced it."""

    task: str
    content: Any


def _between(text: str, start: str, end: str | None) -> str:
    i = text.rfind(start)
    if i < 0:
        return ""
    body = text[i + len(start) :]
    if end is not None:
        j = body.rfind(end)
        if j >= 0:
            body = body[:j]
    return body.strip()


def _literal(text: str) -> Any:
    text = text.strip()
    for parse in (json.loads, ast.literal_eval):
        try:
            return parse(text)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
    return None


def _statement_list(section: str) -> list[str]:
    value = _literal(section)
    if isinstance(value, list):
        return [str(v) for v in value]
    lines = [re.sub(r"^\s*(?:\d+[.)]|[-*])\s*", "", ln).strip() for ln in section.splitlines()]
    return [ln for ln in lines if ln]


def _verdict(statement: str, borderline: bool) -> dict[str, Any]:
    v = relevance(statement)
    if v == "borderline" and not borderline:
        v = "yes"
    out: dict[str, Any] = {"verdict": v}
    if v != "yes":
        out["reason"] = f"The statement '{statement[:80]}' does not help answer the input."
    return out


def _reason(text: str) -> dict[str, Any]:
    m = re.search(r"[Ss]core:?\s*\n?\s*([0-9.]+)", text)
    score = m.group(1) if m else "unknown"
    return {"reason": f"The score is {score} because the scripted bench judge found it so."}


# deepeval 4.3.1 prompts (LocalModel sends no response_format; the task is read from the template's wording)
def _de_ar_statements(text: str) -> Any:
    return {"statements": split_sentences(_between(text, "Text:", "JSON:"))}


def _de_ar_verdicts(text: str) -> Any:
    return {"verdicts": [_verdict(s, True) for s in _statement_list(_between(text, "Statements:", "JSON:"))]}


def _de_cr_verdicts(text: str) -> Any:
    context = _between(text, "Context:", "JSON:")
    sentences = split_sentences(context) or [context]
    return {"verdicts": [{"statement": s, **_verdict(s, False)} for s in sentences]}


def _worded(sentences: list[str]) -> list[str]:
    """The sentences with a letter or digit (a text of punctuation only states nothing)."""
    return [x for x in sentences if any(ch.isalnum() for ch in x)]


def _de_f_truths(text: str) -> Any:
    return {"truths": _worded(split_sentences(_between(text, "Text:", "JSON:")))}


def _de_f_claims(text: str) -> Any:
    return {"claims": _worded(split_sentences(_between(text, "AI Output:", "JSON:")))}


def _de_f_verdicts(text: str) -> Any:
    """deepeval 4.3.1's Faithfulness verdicts: yes / borderline / no per claim, by the same hash as relevance."""
    return {"verdicts": [_verdict(c, True) for c in _statement_list(_between(text, "Claims:", "JSON:"))]}


def _de_kr_extract(text: str) -> Any:
    return {"data": fact_pairs(_between(text, "Latest User Message:", "JSON:"))}


def _de_kr_verdict(text: str) -> Any:
    message = _between(text, "LLM message:", "Previous Knowledge:")
    knowledge = _between(text, "Previous Knowledge:", "JSON:")
    if forgets(message, knowledge):
        return {"verdict": "yes", "reason": "The assistant asks again for a fact the user already gave."}
    return {"verdict": "no"}


# our prompts: content sits between <<<BEGIN LABEL #token>>> and <<<END LABEL #token>>> markers; the client sends
# the reply schema in response_format, so the task is read from the schema's properties first.
_BLOCK = re.compile(r"<<<BEGIN ([A-Z0-9_]+) #([0-9a-f]+)>>>\n(.*?)\n<<<END \1 #\2>>>", re.DOTALL)


def blocks(text: str) -> list[tuple[str, str]]:
    """``[(LABEL, content)]`` of every delimited block in ``text``, in order."""
    return [(m.group(1), m.group(3)) for m in _BLOCK.finditer(text)]


def _block(text: str, *labels: str) -> str | None:
    """Content of the last block whose label contains any of ``labels``."""
    found = [c for lab, c in blocks(text) if any(x in lab for x in labels)]
    return found[-1] if found else None


def _enum_values(schema: dict[str, Any] | None) -> set[str]:
    out: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("enum"), list):
                out.update(str(v) for v in node["enum"])
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(schema)
    return out


def _ours_statements(text: str) -> Any:
    body = _block(text, "TEXT", "OUTPUT", "ANSWER") or ""
    return {"statements": split_sentences(body)}


def _ours_facts(text: str) -> Any:
    """Our fact extraction (``Knowledge``): ``{"data": {topic: value}, "supersedes": [topic, ...]}``. The prompt
    shows no earlier user turn (only the assistant message answered), so, as it asks, a topic is superseded when
    the message words it as a change ("actually", "instead", "not X but Y")."""
    message = _block(text, "USER_MESSAGE") or ""
    data = {k.lower(): v for k, v in fact_pairs(message).items()}
    supersedes = list(data) if _CHANGE.search(message) else []
    return {"data": data, "supersedes": supersedes}


def _ours_claims(text: str) -> Any:
    return {"claims": _worded(split_sentences(_block(text, "NOTE", "WIKI", "MEMORY", "TEXT") or ""))}


def _ours_truths(text: str) -> Any:
    return {"truths": _worded(split_sentences(_block(text, "TEXT") or ""))}


def _items(text: str) -> list[str]:
    """The items to judge: the JSON array quoted in a STATEMENT(S)/CLAIM/FACT block, else every block's text."""
    for label, content in reversed(blocks(text)):
        if any(x in label for x in ("STATEMENT", "CLAIM", "FACT", "NODE", "CONTEXT")):
            value = _literal(content)
            if isinstance(value, list):
                return [json.dumps(v) if not isinstance(v, str) else v for v in value]
    return []


def _outside_blocks(text: str) -> str:
    return _BLOCK.sub(" ", text)


def _ours_verdicts(text: str, schema: dict[str, Any] | None) -> Any:
    """One verdict per item; the third value is offered only when the prompt's own wording names it (the
    schema's enum is shared by our binary and ternary verdicts)."""
    instructions = _outside_blocks(text)
    middle = next((m for m in ("idk", "borderline") if f'"{m}"' in instructions), None)
    out = []
    for item in _items(text):
        v = _verdict(item, middle is not None)
        if v["verdict"] == "borderline" and middle:
            v["verdict"] = middle
        v.setdefault("reason", None)
        out.append(v)
    return {"verdicts": out}


def _ours_texts_statements(text: str) -> Any:
    """Our hybrid ContextualRelevancy extraction: every node of a test case split in one call, by index."""
    value = _literal(_block(text, "TEXTS") or "")
    texts = [str(t) for t in value] if isinstance(value, list) else []
    return {"texts": [{"index": i, "statements": split_sentences(t)} for i, t in enumerate(texts)]}


def _ours_node_verdicts(text: str) -> Any:
    """Our llm ContextualRelevancy call: split one document and judge each sentence (as deepeval's prompt); or, in
    the hybrid fallback, judge the statements given (each copied into its verdict)."""
    node = _block(text, "DOCUMENT")
    if node is None:
        sentences = _items(text)
    else:
        sentences = split_sentences(node) or ([node] if node.strip() else [])
    return {"verdicts": [{"statement": s, "reason": None, **_verdict(s, False)} for s in sentences]}


def _verdicts_name_statements(_text: str, schema: dict[str, Any] | None) -> bool:
    defs = (schema or {}).get("$defs") or {}
    items = [d.get("properties") or {} for d in defs.values() if isinstance(d, dict)]
    return "verdicts" in _schema_props(schema) and any({"statement", "verdict"} <= set(p) for p in items)


def _ours_single_verdict(text: str) -> Any:
    message = _block(text, "ASSISTANT", "MESSAGE", "REPLY") or ""
    others = " ".join(
        c for lab, c in blocks(text) if not any(x in lab for x in ("ASSISTANT", "MESSAGE", "REPLY"))
    )
    if forgets(message, others):
        return {"verdict": "yes", "reason": "The assistant asks again for a fact the user already gave."}
    return {"verdict": "no", "reason": None}


def _schema_is(*props: str) -> Callable[[str, dict[str, Any] | None], bool]:
    return lambda _text, schema: _schema_props(schema) == set(props)


def _schema_has(prop: str) -> Callable[[str, dict[str, Any] | None], bool]:
    return lambda _text, schema: prop in _schema_props(schema)


Recogniser = Callable[[str, dict[str, Any] | None], Any]


def _has(*needles: str) -> Callable[[str, dict[str, Any] | None], bool]:
    return lambda text, _schema: all(n in text for n in needles)


def _schema_props(schema: dict[str, Any] | None) -> set[str]:
    if not isinstance(schema, dict):
        return set()
    return set((schema.get("properties") or {}).keys())


#: (task name, predicate(prompt, json_schema), builder(prompt)) in priority order.
def _text_only(build: Callable[[str], Any]) -> Callable[[str, dict[str, Any] | None], Any]:
    return lambda text, _schema: build(text)


Builder = Callable[[str, dict[str, Any] | None], Any]

RECOGNISERS: list[tuple[str, Callable[[str, dict[str, Any] | None], bool], Builder]] = [
    (
        "deepeval.ar.statements",
        _has("breakdown and generate a list of statements"),
        _text_only(_de_ar_statements),
    ),
    (
        "deepeval.ar.verdicts",
        _has("determine whether each statement is relevant"),
        _text_only(_de_ar_verdicts),
    ),
    (
        "deepeval.cr.verdicts",
        _has("mandatory fields: 'verdict' and 'statement'"),
        _text_only(_de_cr_verdicts),
    ),
    ("deepeval.f.truths", _has('with the "truths" key'), _text_only(_de_f_truths)),
    ("deepeval.f.claims", _has("inferred from the provided actual AI output"), _text_only(_de_f_claims)),
    ("deepeval.f.verdicts", _has("whether EACH claim contradicts"), _text_only(_de_f_verdicts)),
    ("deepeval.kr.extract", _has("extract **only the factual information"), _text_only(_de_kr_extract)),
    ("deepeval.kr.verdict", _has("**contradicts** or **forgets**"), _text_only(_de_kr_verdict)),
    ("deepeval.reason", _has("'reason' key providing the reason"), _text_only(_reason)),
    ("ours.facts", _schema_has("supersedes"), _text_only(_ours_facts)),
    ("ours.statements", _schema_has("statements"), _text_only(_ours_statements)),
    ("ours.claims", _schema_has("claims"), _text_only(_ours_claims)),
    ("ours.truths", _schema_has("truths"), _text_only(_ours_truths)),
    ("ours.texts_statements", _schema_has("texts"), _text_only(_ours_texts_statements)),
    ("ours.node_verdicts", _verdicts_name_statements, _text_only(_ours_node_verdicts)),
    ("ours.verdicts", _schema_has("verdicts"), _ours_verdicts),
    ("ours.verdict", _schema_has("verdict"), _text_only(_ours_single_verdict)),
    ("ours.reason", _schema_is("reason"), _text_only(_reason)),
]


def _minimal_instance(schema: dict[str, Any], defs: dict[str, Any]) -> Any:
    """Smallest valid instance of a JSON schema (fallback when no recogniser matched)."""
    if "$ref" in schema:
        return _minimal_instance(defs.get(schema["$ref"].split("/")[-1], {}), defs)
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return _minimal_instance(schema[key][0], defs)
    if "enum" in schema:
        return schema["enum"][0]
    if "const" in schema:
        return schema["const"]
    t = schema.get("type")
    if isinstance(t, list):
        t = next((x for x in t if x != "null"), "null")
    if t == "object":
        props = schema.get("properties") or {}
        required = schema.get("required") or list(props)
        return {k: _minimal_instance(props[k], defs) for k in required if k in props}
    if t == "array":
        return []
    if t == "integer":
        return 0
    if t == "number":
        return 0.0
    if t == "boolean":
        return False
    if t == "null":
        return None
    return "ok"


def _message_text(payload: dict[str, Any]) -> str:
    parts = []
    for m in payload.get("messages") or []:
        content = m.get("content") if isinstance(m, dict) else None
        if isinstance(content, str):
            parts.append(content)
        elif isinstance(content, list):
            parts.extend(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return "\n".join(parts)


def _json_schema(payload: dict[str, Any]) -> dict[str, Any] | None:
    rf = payload.get("response_format")
    if isinstance(rf, dict) and rf.get("type") == "json_schema":
        js = rf.get("json_schema") or {}
        schema = js.get("schema")
        return schema if isinstance(schema, dict) else None
    return None


def answer_chat(payload: dict[str, Any]) -> ChatAnswer:
    """The reply to one chat-completions request body. Unrecognised prompts get the smallest instance of the
    requested schema (task ``"fallback.schema"``) or a short text (``"fallback.text"``)."""
    text = _message_text(payload)
    schema = _json_schema(payload)
    for name, matches, build in RECOGNISERS:
        if matches(text, schema):
            return ChatAnswer(name, build(text, schema))
    if schema is not None:
        if "reason" in _schema_props(schema):
            return ChatAnswer("fallback.reason", _reason(text))
        return ChatAnswer("fallback.schema", _minimal_instance(schema, schema.get("$defs") or {}))
    return ChatAnswer("fallback.text", "The scripted bench judge has no opinion.")


# --------------------------------------------------------------------------------------------------------------
# System One
# --------------------------------------------------------------------------------------------------------------


def _state_facts(text: str, state: Any) -> str:
    """Ours, hybrid knowledge retention: the facts a question names by position (``Facts: `facts` 0, 2``) in the
    request state's ``facts`` list, as the JSON list a quoted FACTS block would hold."""
    found = re.search(r"Facts: `facts` ([0-9, ]+)", text)
    facts = state.get("facts") if isinstance(state, dict) else None
    if found is None or not isinstance(facts, list):
        return ""
    ids = [int(i) for i in found.group(1).replace(" ", "").split(",") if i]
    return json.dumps([facts[i] for i in ids if 0 <= i < len(facts)], ensure_ascii=False)


def _noul_probability(instructions: Any, state: Any) -> float:
    if isinstance(instructions, dict):  # deepeval hybrid: {"statement": item, "question": ...}
        item = next((str(v) for k, v in instructions.items() if k != "question"), None)
        if item is not None:
            return _P[relevance(item)]
    case = state.get("test_case") if isinstance(state, dict) else None
    fields = case if isinstance(case, dict) else state  # deepeval nests the fields under "test_case"
    if (
        isinstance(fields, dict)
        and "actual_output" in fields
        and set(fields) <= {"actual_output", "retrieval_context"}
    ):
        # Faithfulness' whole-metric questions (system_one mode: both implementations send only these fields):
        # P(yes) from the output alone, so both get the same answers to their own wording of the questions
        return 0.55 + (_h(str(fields["actual_output"])) % 41) / 100.0
    if isinstance(state, dict) and "llm_message" in state:  # deepeval hybrid knowledge retention
        knowledge = json.dumps(state.get("accumulated_knowledge"))
        return 0.9 if forgets(str(state["llm_message"]), knowledge) else 0.1
    text = instructions if isinstance(instructions, str) else json.dumps(instructions, sort_keys=True)
    message = _block(text, "ASSISTANT")
    if message is not None:  # ours, hybrid knowledge retention: yes = the assistant turn shows attrition
        return 0.9 if forgets(message, _block(text, "FACTS") or _state_facts(text, state)) else 0.1
    item = _block(text, "STATEMENT", "CLAIM")
    if item is not None:  # ours, hybrid: the item is delimited inside the instructions
        return _P[relevance(item)]
    quoted = re.findall(r"[\"“]([^\"”]{12,})[\"”]", text)
    if quoted:  # an item quoted inside the instructions
        return _P[relevance(max(quoted, key=len))]
    return 0.55 + (_h(text) % 41) / 100.0


def _score_answer(levels: list[Any]) -> dict[str, Any]:
    n = len(levels)
    probs = [0.0] * n
    if n == 1:
        probs = [1.0]
    else:
        probs[-1], probs[-2] = 0.7, 0.2
        rest = 0.1 / max(1, n - 2) if n > 2 else 0.0
        for i in range(n - 2):
            probs[i] = rest
        if n == 2:
            probs = [0.25, 0.75]
    expected = sum(i * p for i, p in enumerate(probs))
    peak = max(probs)
    confidence = (n * peak - 1) / (n - 1) if n > 1 else 1.0
    return {
        "type": "score",
        "score": expected,
        "confidence": confidence,
        "legend": {str(i): lvl for i, lvl in enumerate(levels)},
        "probabilities": {str(i): p for i, p in enumerate(probs)},
    }


def _choice_answer(options: dict[str, Any]) -> dict[str, Any]:
    names = list(options)
    n = len(names)
    probs = {o: (0.8 if i == 0 else 0.2 / max(1, n - 1)) for i, o in enumerate(names)}
    return {
        "type": "choice",
        "choice": names[0],
        "confidence": (n * 0.8 - 1) / (n - 1) if n > 1 else 1.0,
        "probabilities": probs,
    }


def answer_system_one(state: Any, questions: dict[str, Any]) -> dict[str, Any]:
    """Wire answers (TypeSafe format, ``legend`` as an object) for every question of a ``/v1/systemone`` body."""
    answers: dict[str, Any] = {}
    for qid, q in questions.items():
        qtype = q.get("type")
        if qtype == "noul":
            answers[qid] = {"type": "noul", "noul": _noul_probability(q.get("instructions"), state)}
        elif qtype == "score":
            answers[qid] = _score_answer(list(q.get("criteria") or ["low", "high"]))
        elif qtype == "choice":
            answers[qid] = _choice_answer(dict(q.get("criteria") or {"a": None, "b": None}))
    return answers
