"""Conversation generator: fact manifest -> an N-turn conversation that states each stated fact exactly once.

Offline (no LLM) the generator is template-driven and deterministic for a given ``seed``: user turns state facts
with varied lead-ins, the assistant acknowledges, and filler exchanges (topic-neutral small talk that states no
facts) pad the conversation to ``n_turns``. A superseded fact is stated first and its successor later, as a
correction. With an LLM, each fact-bearing user message is rewritten naturally by the LLM (our prompt); a rewrite
that loses the fact (checked by :func:`check_coverage`) is replaced by the template sentence.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from pydantic import BaseModel

from deepeval.memory.manifest import Fact, FactManifest, check_introduced
from deepeval.memory.prompts import PROMPT_VERSION, rewrite_fact_prompt
from deepeval.models.base_model import DeepEvalBaseLLM
from deepeval.test_case import Turn

_LEAD_INS = [
    "Quick note for the record: {s}",
    "Something you should know: {s}",
    "By the way, {s}",
    "Update from today: {s}",
    "Please keep this in mind: {s}",
    "One more thing. {s}",
    "FYI, {s}",
    "Just so you know, {s}",
]
_CORRECTIONS = [
    "Correction to what I said earlier: {s}",
    "Actually, that changed. {s}",
    "Update, this replaces my earlier note: {s}",
]
_ACKS = [
    "Got it, thanks. I'll remember that.",
    "Noted. Anything else?",
    "Thanks for letting me know.",
    "Understood, I've made a note.",
    "Okay, that's helpful context.",
    "Great, thanks for the update.",
]
_FILLER = [
    ("How has your week been so far?", "Pretty steady, thanks for asking. How about yours?"),
    ("Can you remind me to stay focused this afternoon?", "Of course. Short breaks can help with focus too."),
    ("What's a good way to structure a weekly check-in?", "Start with wins, then blockers, then next steps."),
    ("I had too much coffee this morning.", "It happens. Some water might help balance it out."),
    ("Do you think short meetings are better?", "Often, yes: a clear agenda keeps them short and useful."),
    ("Let's take a quick pause before the next topic.", "Sure, take your time."),
    (
        "Any tips for writing clearer emails?",
        "Lead with the request, keep paragraphs short, end with a next step.",
    ),
    ("The weather has been strange lately.", "Changeable weather can make planning tricky."),
    (
        "I'm trying to keep my desk tidier.",
        "A two-minute reset at the end of each day works well for many people.",
    ),
    ("What do you think about async standups?", "They suit distributed teams if people post on time."),
    ("Remind me what we were talking about?", "We were going through your notes and updates."),
    ("I like having a plan for the day.", "A short list of three priorities is a good start."),
]


def _sentence(s: str) -> str:
    s = s.strip()
    return s if s.endswith((".", "!", "?")) else s + "."


_LOWERABLE = frozenset("the a an our my this that these those last next production".split())


def _lower_first(s: str) -> str:
    first = s.split(" ", 1)[0]
    return s[0].lower() + s[1:] if first.lower() in _LOWERABLE and first[:1].isupper() else s


@dataclass
class GeneratedConversation:
    """Turns (``ConversationalTestCase``-compatible), the turn index where each stated fact is said
    (``introduced``: fact id -> 0-based index of the user turn), the seed and whether an LLM wrote it."""

    turns: list[Turn]
    introduced: dict[str, int]
    seed: int
    generator: str = "template"
    fallbacks: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        return {
            "turns": [t.model_dump(exclude_none=True) for t in self.turns],
            "introduced": self.introduced,
            "seed": self.seed,
            "generator": self.generator,
            "prompt_version": PROMPT_VERSION,
        }


def _order_facts(manifest: FactManifest, rng: random.Random) -> list[Fact]:
    facts = manifest.stated()
    pinned = sorted((f for f in facts if f.introduced_at is not None), key=lambda f: f.introduced_at or 0)
    free = [f for f in facts if f.introduced_at is None]
    rng.shuffle(free)
    # superseding facts must come after what they supersede: stable topological pass
    order: list[Fact] = []
    pending = pinned + free
    placed: set[str] = set()
    while pending:
        for i, f in enumerate(pending):
            if f.supersedes is None or f.supersedes in placed:
                order.append(f)
                placed.add(f.id)
                del pending[i]
                break
        else:  # pragma: no cover - manifest validation forbids cycles
            raise ValueError("cannot order facts")
    return order


def plan_slots(manifest: FactManifest, n_turns: int, seed: int) -> list[tuple[int, Fact]]:
    """User-turn indices (even numbers) for each stated fact, spread evenly; ``introduced_at`` is honoured when it
    fits (rounded down to a user turn) and keeps supersedes order."""
    rng = random.Random(seed)
    order = _order_facts(manifest, rng)
    n_user = n_turns // 2
    if len(order) > n_user:
        raise ValueError(
            f"{len(order)} stated facts need at least {2 * len(order)} turns; n_turns={n_turns} is too small"
        )
    step = n_user / len(order) if order else 1
    used: set[int] = set()
    plan: list[tuple[int, Fact]] = []
    last_for: dict[str, int] = {}
    for k, f in enumerate(order):
        if f.introduced_at is not None:
            slot = min(f.introduced_at // 2, n_user - 1)
        else:
            slot = min(int(k * step + rng.random() * max(step - 1, 0)), n_user - 1)
        floor = last_for.get(f.supersedes, -1) + 1 if f.supersedes else 0
        slot = max(slot, floor)
        while slot in used and slot < n_user - 1:
            slot += 1
        while slot in used:
            slot = next(i for i in range(floor, n_user) if i not in used)
        used.add(slot)
        last_for[f.id] = slot
        plan.append((slot * 2, f))
    plan.sort(key=lambda x: x[0])
    return plan


def _template_message(f: Fact, rng: random.Random) -> str:
    s = _sentence(f.statement)
    pool = _CORRECTIONS if f.supersedes else _LEAD_INS
    lead = rng.choice(pool)
    return lead.format(s=_lower_first(s) if lead.endswith(", {s}") else s)


def generate_conversation(manifest: FactManifest, n_turns: int = 40, seed: int = 0) -> GeneratedConversation:
    """Template-driven, deterministic conversation of ``n_turns`` messages (user first, alternating).

    Raises:
        ValueError: ``n_turns`` is odd or too small to hold one user turn per stated fact.
        ManifestError: a fact's ``introduced_at`` is not a turn of the conversation (``>= n_turns``).
    """
    if n_turns < 2 or n_turns % 2:
        raise ValueError(f"n_turns must be an even number >= 2, got {n_turns}")
    check_introduced(manifest, n_turns, conversation=f"the conversation to generate (n_turns={n_turns})")
    rng = random.Random(seed)
    plan = dict(plan_slots(manifest, n_turns, seed))
    fillers = list(_FILLER)
    rng.shuffle(fillers)
    turns: list[Turn] = []
    introduced: dict[str, int] = {}
    fi = 0
    for i in range(0, n_turns, 2):
        fact = plan.get(i)
        if fact is not None:
            turns.append(
                Turn(role="user", content=_template_message(fact, rng), metadata={"fact_id": fact.id})
            )
            turns.append(Turn(role="assistant", content=rng.choice(_ACKS)))
            introduced[fact.id] = i
        else:
            u, a = fillers[fi % len(fillers)]
            fi += 1
            turns.append(Turn(role="user", content=u))
            turns.append(Turn(role="assistant", content=a))
    return GeneratedConversation(turns=turns, introduced=introduced, seed=seed)


class _Rewrite(BaseModel):
    message: str


async def a_generate_conversation(
    manifest: FactManifest, n_turns: int = 40, seed: int = 0, llm: DeepEvalBaseLLM | None = None
) -> GeneratedConversation:
    """Like :func:`generate_conversation`; with ``llm`` each fact-bearing user message is rewritten by the LLM.
    Rewrites that fail the coverage check fall back to the template text (their ids are in ``fallbacks``)."""
    conv = generate_conversation(manifest, n_turns, seed)
    if llm is None:
        return conv
    from deepeval.models.structured import a_generate_structured

    conv.generator = llm.get_model_name()
    for fid, idx in conv.introduced.items():
        fact = manifest.get(fid)
        previous = [t.content for t in conv.turns[max(0, idx - 4) : idx]]
        try:
            out = await a_generate_structured(
                llm,
                rewrite_fact_prompt(fact.statement, bool(fact.supersedes), previous, manifest.topic),
                _Rewrite,
            )
            candidate = out.message.strip()
        except Exception:
            candidate = ""
        turn = Turn(role="user", content=candidate or conv.turns[idx].content, metadata={"fact_id": fid})
        if candidate and not check_coverage(manifest, [turn], {fid: 0}, only=[fid]).missing:
            conv.turns[idx] = turn
        else:
            conv.fallbacks.append(fid)
    return conv


@dataclass
class CoverageReport:
    """``missing``: stated facts not found in the transcript; ``leaked``: never-stated facts that it states."""

    missing: list[str]
    leaked: list[str]

    @property
    def ok(self) -> bool:
        return not self.missing and not self.leaked


def _fact_in(fact: Fact, text: str) -> bool:
    """The turn states the fact: its statement or expected answer is in it (case, spacing and value formats aside),
    or the offline grader recovers the expected answer from it (4 or 5)."""
    from deepeval.models.embedded.grading import grade_detail
    from deepeval.models.embedded.text import normalize_formats

    def norm(t: str) -> str:
        return " ".join(normalize_formats(t).lower().split()).rstrip(".")

    body = norm(text)
    if norm(fact.statement) in body or norm(fact.expected) in body:
        return True
    return grade_detail(fact.question, fact.expected, text).grade >= 4


def check_coverage(
    manifest: FactManifest,
    turns: Sequence[Turn],
    introduced: dict[str, int] | None = None,
    *,
    only: Sequence[str] | None = None,
) -> CoverageReport:
    """Confirm every stated fact appears in the transcript (its expected answer is recoverable from the turn where
    it was introduced, or from any user turn when ``introduced`` is None) and no never-stated fact does."""
    missing: list[str] = []
    leaked: list[str] = []
    for f in manifest.stated():
        if only is not None and f.id not in only:
            continue
        if introduced is not None and f.id in introduced and introduced[f.id] < len(turns):
            texts = [turns[introduced[f.id]].content]
        else:
            texts = [t.content for t in turns]
        if not any(_fact_in(f, t) for t in texts):
            missing.append(f.id)
    for f in manifest.never_stated():
        if only is not None and f.id not in only:
            continue
        if any(f.statement.lower() in t.content.lower() for t in turns):
            leaked.append(f.id)
    return CoverageReport(missing, leaked)
