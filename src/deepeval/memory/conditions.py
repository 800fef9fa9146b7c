"""The three memory conditions and their results.

- :func:`evaluate_artifact` (artifact-only): grade an existing memory (transcript, summary, wiki).
- :func:`run_short_term`: the model under test answers each probe with the conversation so far in its context, at
  several checkpoints; only facts introduced by then are probed (the latest version of a superseded fact).
- :func:`run_long_term`: the model keeps a wiki through :class:`~deepeval.memory.wiki.Wiki` during the
  conversation; the wiki is then probed (recall) and its claims verified against the transcript (precision).

Never-stated facts are probed too but scored apart (``abstention``: 5 = answered "not in memory"); recall covers
stated facts only. Sync wrappers (``*_sync``) run the coroutines with :func:`deepeval._concurrency.run_sync`.

Live mode (``live=True`` in both runs): the model under test writes the assistant turns itself. The user turns come
from the given conversation; every assistant turn is replaced by the model's reply to the conversation so far (the
live transcript keeps the positions of the original, so checkpoints and ``introduced`` indices still hold). Facts
must therefore be stated in user turns: a fact ``introduced`` at an assistant turn is a ``ValueError``. The live
transcript is kept in :attr:`MemoryReport.transcript`.

Every run takes an optional ``progress`` (:class:`ProgressHook`): each stage (live replies, wiki updates, probes,
claims) is announced with its size, then advanced one unit per finished request.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

from deepeval.memory.artifact import MemoryArtifact
from deepeval.memory.judges import MemoryJudge, resolve_memory_judge
from deepeval.memory.manifest import Fact, FactManifest, check_introduced
from deepeval.memory.prompts import PROBE_INSTRUCTION as PROBE_INSTRUCTION  # its home is prompts
from deepeval.memory.prompts import PROMPT_VERSION, probe_prompt, probe_question
from deepeval.memory.retrieval import NOT_IN_MEMORY
from deepeval.memory.scoring import PrecisionSummary, RecallSummary, precision_summary, recall_summary
from deepeval.memory.subjects import (
    MAX_TOOL_CALLS_PER_REPLY,
    ChatModel,
    EndpointWikiKeeper,
    as_chat_model,
    as_wiki_keeper,
)
from deepeval.memory.wiki import Wiki
from deepeval.test_case import Turn


class ProgressHook(Protocol):
    """Receives a run's progress: ``start(stage, total)`` when a stage begins, ``advance()`` per finished unit."""

    def start(self, stage: str, total: int) -> None: ...

    def advance(self, n: int = 1) -> None: ...


class _NoProgress:
    def start(self, stage: str, total: int) -> None:
        pass

    def advance(self, n: int = 1) -> None:
        pass


NO_PROGRESS: ProgressHook = _NoProgress()

DEFAULT_SYSTEM_PROMPT = "You are a helpful assistant."
#: a probe's answer is graded (and kept in the report) on this many leading characters: a fact's answer is a
#: sentence or two, while a model that loops, or a hostile endpoint, can send megabytes, and the embedded grader's
#: time grows faster than linearly in the answer's length (16 KB: 0.6 s; 240 KB: over a minute), during which no
#: signal is acted on.
MAX_GRADED_ANSWER_CHARS = 4000


@dataclass
class FactResult:
    """One probe: the fact, where it was introduced (turn index), the answer from memory, its 1-5 score."""

    fact_id: str
    kind: str
    question: str
    expected: str
    introduced_at: int | None
    answer: str
    score: int
    reason: str
    evidence: list[str] = field(default_factory=list)
    checkpoint: int | None = None
    #: which stage of the embedded judge decided whether the memory answers (``encoder``, ``reader``, ``unsure``)
    tier: str | None = None


@dataclass
class ClaimResult:
    """One atomic claim of the memory, verified against the transcript (1 = hallucination)."""

    claim: str
    score: int
    reason: str
    evidence: list[str] = field(default_factory=list)
    #: which stage of the embedded judge decided the support (``encoder``, ``reader``, ``unsure``)
    tier: str | None = None

    @property
    def hallucinated(self) -> bool:
        return self.score == 1


@dataclass
class CurvePoint:
    """Recall after ``turn`` (0-based index of the last turn in context) over the ``recall.n`` live facts."""

    turn: int
    recall: RecallSummary


@dataclass
class MemoryReport:
    """Everything one condition produced; ``to_dict()`` is the JSON report."""

    condition: str
    judge: str
    subject: str | None
    facts: list[FactResult]
    recall: RecallSummary
    abstention: RecallSummary
    claims: list[ClaimResult] = field(default_factory=list)
    precision: PrecisionSummary | None = None
    curve: list[CurvePoint] = field(default_factory=list)
    checkpoint_facts: list[FactResult] = field(default_factory=list)
    artifact_kind: str = "transcript"
    wiki_pages: dict[str, str] | None = None
    wiki_log: list[dict[str, Any]] | None = None
    n_turns: int | None = None
    manifest_name: str | None = None
    wall_s: float = 0.0
    prompt_version: str = PROMPT_VERSION
    live: bool = False
    transcript: list[dict[str, str]] | None = None
    system_prompt: str | None = None
    tool_calls: list[dict[str, Any]] | None = None
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def hallucinations(self) -> list[ClaimResult]:
        return [c for c in self.claims if c.hallucinated]


def default_introduced(manifest: FactManifest) -> dict[str, int]:
    """Turn of each stated fact when no conversation says it: ``introduced_at`` or the manifest order."""
    return {
        f.id: (f.introduced_at if f.introduced_at is not None else i) for i, f in enumerate(manifest.stated())
    }


async def _gather_limited(
    coros: Sequence[Any], limit: int, progress: ProgressHook = NO_PROGRESS
) -> list[Any]:
    """Await ``coros`` at most ``limit`` at a time, results in order. The first failure cancels the others (no
    request keeps running after the run failed) and is raised; coroutines that never started are closed."""
    sem = asyncio.Semaphore(max(1, limit))

    async def run(c: Any) -> Any:
        started = False
        try:
            async with sem:
                started = True
                out = await c
        finally:
            if not started:
                c.close()
        progress.advance()
        return out

    tasks = [asyncio.ensure_future(run(c)) for c in coros]
    try:
        return list(await asyncio.gather(*tasks))
    except BaseException:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise


async def _grade(
    judge: MemoryJudge, manifest: FactManifest, fact: Fact, answer: str, evidence: list[str], intro: int | None,
    checkpoint: int | None,
) -> FactResult:  # fmt: skip
    expected = NOT_IN_MEMORY if fact.kind == "never_stated" else fact.expected
    outdated = manifest.outdated_values(fact)
    graded = answer[:MAX_GRADED_ANSWER_CHARS]
    g = await judge.grade(fact.question, expected, graded, outdated)
    reason = g.reason
    if len(graded) < len(answer):
        reason += (
            f" (graded on the answer's first {MAX_GRADED_ANSWER_CHARS:,} of {len(answer):,} characters; the rest "
            "was not read)"
        )
    return FactResult(fact.id, fact.kind or "stated", fact.question, expected, intro, graded, g.score, reason,
                      evidence, checkpoint)  # fmt: skip


def _probe_set(manifest: FactManifest, introduced: dict[str, int], turn: int | None) -> list[Fact]:
    return manifest.current_facts(introduced, turn) + manifest.never_stated()


def _split(results: list[FactResult]) -> tuple[RecallSummary, RecallSummary]:
    return (
        recall_summary([r.score for r in results if r.kind != "never_stated"]),
        recall_summary([r.score for r in results if r.kind == "never_stated"]),
    )


async def probe_artifact(
    manifest: FactManifest, artifact: MemoryArtifact, judge: MemoryJudge, introduced: dict[str, int] | None = None,
    turn: int | None = None, concurrency: int = 8, progress: ProgressHook = NO_PROGRESS,
) -> list[FactResult]:  # fmt: skip
    """Answer and grade every live fact's probe from ``artifact``."""
    intro = introduced if introduced is not None else default_introduced(manifest)
    facts = _probe_set(manifest, intro, turn)
    progress.start("probing the memory", len(facts))

    async def one(f: Fact) -> FactResult:
        a = await judge.answer(f.question, artifact)
        result = await _grade(judge, manifest, f, a.answer, a.evidence, intro.get(f.id), turn)
        result.tier = getattr(a, "tier", None)
        return result

    return await _gather_limited([one(f) for f in facts], concurrency, progress)


async def verify_claims(
    artifact: MemoryArtifact,
    transcript: MemoryArtifact,
    judge: MemoryJudge,
    concurrency: int = 8,
    max_claims: int | None = None,
    seed: int = 0,
    progress: ProgressHook = NO_PROGRESS,
) -> list[ClaimResult]:
    """Extract the memory's atomic claims and verify each against the transcript (a seeded random sample of
    ``max_claims`` claims when there are more, kept in memory order)."""
    progress.start("extracting claims", 1)
    claims = await judge.claims(artifact)
    progress.advance()
    if max_claims is not None and len(claims) > max_claims:
        import random

        keep = sorted(random.Random(seed).sample(range(len(claims)), max_claims))
        claims = [claims[i] for i in keep]

    async def one(c: str) -> ClaimResult:
        g, ev = await judge.verify(c, transcript)
        return ClaimResult(c, g.score, g.reason, ev, getattr(g, "tier", None))

    progress.start("verifying claims", len(claims))
    return await _gather_limited([one(c) for c in claims], concurrency, progress)


async def evaluate_artifact(
    manifest: FactManifest,
    artifact: MemoryArtifact,
    *,
    transcript: MemoryArtifact | Sequence[Turn] | None = None,
    introduced: dict[str, int] | None = None,
    judge: Any = None,
    precision: bool | None = None,
    max_claims: int | None = None,
    seed: int = 0,
    progress: ProgressHook = NO_PROGRESS,
) -> MemoryReport:
    """Artifact-only condition: probe ``artifact``; verify its claims against ``transcript`` when given
    (``precision`` defaults to True for wiki and summary artifacts with a transcript)."""
    t0 = time.perf_counter()
    tr = (
        transcript
        if isinstance(transcript, MemoryArtifact) or transcript is None
        else MemoryArtifact.from_turns(transcript)
    )
    conversation = tr if tr is not None and tr.turn_count is not None else artifact
    if conversation.turn_count is not None:  # the conversation is known: every fact must lie inside it
        check_introduced(manifest, conversation.turn_count, introduced, "the transcript")
    j = resolve_memory_judge(judge)
    facts = await probe_artifact(manifest, artifact, j, introduced, progress=progress)
    recall, abst = _split(facts)
    do_precision = (
        precision if precision is not None else (tr is not None and artifact.kind in ("wiki", "summary"))
    )
    claims: list[ClaimResult] = []
    prec = None
    if do_precision:
        if tr is None:
            raise ValueError("precision needs the transcript the memory was written from")
        claims = await verify_claims(artifact, tr, j, max_claims=max_claims, seed=seed, progress=progress)
        prec = precision_summary([c.score for c in claims], seed)
    return MemoryReport(
        condition="artifact", judge=j.get_model_name(), subject=None, facts=facts, recall=_reseed(recall, facts, seed),
        abstention=abst, claims=claims, precision=prec, artifact_kind=artifact.kind, wiki_pages=artifact.pages,
        manifest_name=manifest.name, wall_s=time.perf_counter() - t0,
    )  # fmt: skip


def _reseed(summary: RecallSummary, facts: list[FactResult], seed: int) -> RecallSummary:
    return (
        summary if seed == 0 else recall_summary([r.score for r in facts if r.kind != "never_stated"], seed)
    )


def checkpoint_turns(n_turns: int, checkpoints: int | Sequence[int]) -> list[int]:
    """Turn indices to probe after: ``k`` evenly spaced ends of exchanges (always including the last turn), or
    the given indices. Raises ValueError for an index outside the conversation or ``k < 1``."""
    if isinstance(checkpoints, int):
        if checkpoints < 1:
            raise ValueError("checkpoints must be >= 1")
        pts = sorted(
            {min(n_turns - 1, round(n_turns * (i + 1) / checkpoints) - 1) for i in range(checkpoints)}
        )
        return [p for p in pts if p >= 0]
    pts = sorted(set(checkpoints))
    if any(not 0 <= p < n_turns for p in pts):
        raise ValueError(f"checkpoint turns must be in 0..{n_turns - 1}, got {pts}")
    return pts


def _messages(turns: Sequence[Turn]) -> list[dict[str, Any]]:
    return [{"role": t.role, "content": t.content} for t in turns]


def check_live_facts(turns: Sequence[Turn], introduced: dict[str, int]) -> None:
    """Raise ValueError when live mode would drop a fact: live mode replaces the assistant turns, so every fact
    ``introduced`` inside the conversation must be at a user turn."""
    bad = {
        fid: i for fid, i in introduced.items() if 0 <= i < len(turns) and turns[i].role != "user"
    }  # fmt: skip
    if bad:
        where = ", ".join(
            f"{fid} (turn {i}, {turns[i].role})" for fid, i in sorted(bad.items(), key=lambda x: x[1])
        )
        raise ValueError(
            "live mode replaces the assistant turns with the model's own replies, so every fact must be stated in a "
            f"user turn; these facts are introduced in other turns: {where}"
        )


async def live_conversation(
    turns: Sequence[Turn],
    model: ChatModel | Any,
    *,
    system_prompt: str = DEFAULT_SYSTEM_PROMPT,
    progress: ProgressHook = NO_PROGRESS,
) -> list[Turn]:
    """The conversation as the model under test holds it: the user (and system) turns of ``turns`` unchanged, and
    each assistant turn replaced by the model's reply to everything before it (system prompt first). Same length
    and positions as ``turns``; one request per assistant turn, in order (each reply sees the earlier ones)."""
    m = as_chat_model(model)
    live: list[Turn] = []
    progress.start("live conversation", sum(t.role == "assistant" for t in turns))
    for t in turns:
        if t.role != "assistant":
            live.append(t)
            continue
        reply = await m.chat([{"role": "system", "content": system_prompt}, *_messages(live)])
        live.append(Turn(role="assistant", content=reply))
        progress.advance()
    return live


async def _conversation_for_run(
    manifest: FactManifest, turns: Sequence[Turn], introduced: dict[str, int], model: Any, live: bool,
    system_prompt: str, progress: ProgressHook,
) -> tuple[list[Turn], list[str]]:  # fmt: skip
    """The turns a run uses (the live ones in live mode) and the warnings about them."""
    if not live:
        return list(turns), []
    check_live_facts(turns, introduced)
    from deepeval.memory.generator import check_coverage

    missing = check_coverage(manifest, [t for t in turns if t.role == "user"]).missing
    warnings = (
        [f"live mode: facts {', '.join(missing)} were not found in any user turn; the model under test may never see them"]
        if missing
        else []
    )  # fmt: skip
    return await live_conversation(turns, model, system_prompt=system_prompt, progress=progress), warnings


async def run_short_term(
    manifest: FactManifest,
    turns: Sequence[Turn],
    introduced: dict[str, int],
    model: ChatModel | Any,
    *,
    judge: Any = None,
    checkpoints: int | Sequence[int] = 4,
    system_prompt: str = DEFAULT_SYSTEM_PROMPT,
    concurrency: int = 4,
    seed: int = 0,
    live: bool = False,
    progress: ProgressHook = NO_PROGRESS,
) -> MemoryReport:
    """Short-term condition: at each checkpoint turn t, every live fact is probed in a separate request whose
    context is ``turns[:t+1]`` plus the probe question (at most ``concurrency`` requests at once). With ``live``
    the model first writes the assistant turns itself (see the module docstring). Returns the final checkpoint's
    facts, every checkpoint's facts (``checkpoint_facts``) and the curve.

    Raises:
        ManifestError: a fact's introduced turn is not a turn of ``turns`` (see :func:`check_introduced`).
        ValueError: ``concurrency`` below 1; in live mode, a fact introduced at a turn that is not a user turn.
    """
    t0 = time.perf_counter()
    check_introduced(manifest, len(turns), introduced, "the transcript")
    if concurrency < 1:
        raise ValueError(f"concurrency must be >= 1, got {concurrency}")
    j = resolve_memory_judge(judge)
    m = as_chat_model(model)
    points = checkpoint_turns(len(turns), checkpoints)
    used, warnings = await _conversation_for_run(
        manifest, turns, introduced, m, live, system_prompt, progress
    )
    curve: list[CurvePoint] = []
    all_results: list[FactResult] = []
    last: list[FactResult] = []
    progress.start("probing the model", sum(len(_probe_set(manifest, introduced, t)) for t in points))
    for t in points:
        context = _messages(used[: t + 1])
        facts = _probe_set(manifest, introduced, t)

        async def one(f: Fact, context: list[dict[str, Any]] = context, t: int = t) -> FactResult:
            msgs = [{"role": "system", "content": system_prompt}, *context,
                    {"role": "user", "content": probe_prompt(f.question)}]  # fmt: skip
            answer = await m.chat(msgs)
            return await _grade(j, manifest, f, answer, [], introduced.get(f.id), t)

        last = await _gather_limited([one(f) for f in facts], concurrency, progress)
        all_results.extend(last)
        curve.append(CurvePoint(t, recall_summary([r.score for r in last if r.kind != "never_stated"], seed)))
    recall, abst = _split(last)
    return MemoryReport(
        condition="short_term", judge=j.get_model_name(), subject=m.name, facts=last,
        recall=_reseed(recall, last, seed), abstention=abst, curve=curve, checkpoint_facts=all_results,
        n_turns=len(turns), manifest_name=manifest.name, wall_s=time.perf_counter() - t0, live=live,
        transcript=_messages(used) if live else None, system_prompt=system_prompt, warnings=warnings,
    )  # fmt: skip


def _keeper_warnings(keeper: Any, wiki: Wiki, n_updates: int) -> list[str]:
    """Warnings on a keeper that left no memory: it never called a tool (endpoint keepers), or never wrote."""
    out: list[str] = []
    if isinstance(keeper, EndpointWikiKeeper) and keeper.n_dropped_calls:
        out.append(
            f"{keeper.n_dropped_calls} tool calls were not carried out: a reply may make at most "
            f"{MAX_TOOL_CALLS_PER_REPLY} (the first ones of each reply were)"
        )
    if isinstance(keeper, EndpointWikiKeeper) and keeper.n_tool_calls == 0:
        out.append(
            f"the model never called a wiki tool in {keeper.n_requests} requests (it answered in text only); check "
            "that the endpoint supports tool calls (vLLM needs --enable-auto-tool-choice and a --tool-call-parser)"
        )
    writes = [op for op in wiki.log if op.op in ("write", "append")]
    if not any(op.ok for op in writes):
        refused = f"; {len(writes)} writes were refused" if writes else ""
        out.append(
            f"the model never wrote a wiki page in {n_updates} updates{refused}: recall is measured on an empty wiki"
        )
    return out


async def run_long_term(
    manifest: FactManifest,
    turns: Sequence[Turn],
    introduced: dict[str, int],
    keeper: Any,
    *,
    judge: Any = None,
    update_every: int = 2,
    wiki: Wiki | None = None,
    seed: int = 0,
    live: bool = False,
    chat_model: ChatModel | Any = None,
    system_prompt: str = DEFAULT_SYSTEM_PROMPT,
    concurrency: int = 8,
    progress: ProgressHook = NO_PROGRESS,
) -> MemoryReport:
    """Long-term condition: after every ``update_every`` turns the keeper sees the new turns and edits the wiki;
    afterwards the wiki (not the model) is probed, and its claims are verified against the transcript (the
    judge's requests ``concurrency`` at a time). With ``live``, ``chat_model`` (default: the keeper itself, when it
    is a chat model such as :class:`~deepeval.memory.subjects.EndpointChatModel`) first writes the assistant turns,
    and the keeper records the live conversation. ``warnings`` in the report say when the keeper never called a
    tool or never wrote a page.

    Raises:
        ManifestError: a fact's introduced turn is not a turn of ``turns`` (see :func:`check_introduced`).
        ValueError: a bad ``update_every`` or ``concurrency``; live mode without a chat model or with a fact
            introduced at a turn that is not a user turn.
    """
    t0 = time.perf_counter()
    check_introduced(manifest, len(turns), introduced, "the transcript")
    if update_every < 1:
        raise ValueError("update_every must be >= 1")
    if concurrency < 1:
        raise ValueError(f"concurrency must be >= 1, got {concurrency}")
    j = resolve_memory_judge(judge)
    k = as_wiki_keeper(keeper)
    replier = (
        chat_model if chat_model is not None else (k.model if isinstance(k, EndpointWikiKeeper) else keeper)
    )
    if live and not isinstance(replier, ChatModel):
        raise ValueError("live mode needs a chat model to write the assistant turns: pass chat_model=...")
    used, warnings = await _conversation_for_run(
        manifest, turns, introduced, replier, live, system_prompt, progress
    )
    w = wiki or Wiki()
    starts = range(0, len(used), update_every)
    progress.start("keeping the wiki", len(starts))
    for start in starts:
        await k.update(used[start : start + update_every], w)
        progress.advance()
    warnings += _keeper_warnings(k, w, len(starts))
    artifact = MemoryArtifact.from_wiki(w)
    transcript = MemoryArtifact.from_turns(used)
    facts = await probe_artifact(
        manifest, artifact, j, introduced, concurrency=concurrency, progress=progress
    )
    recall, abst = _split(facts)
    claims = await verify_claims(artifact, transcript, j, concurrency=concurrency, progress=progress)
    return MemoryReport(
        condition="long_term", judge=j.get_model_name(), subject=k.name, facts=facts,
        recall=_reseed(recall, facts, seed), abstention=abst, claims=claims,
        precision=precision_summary([c.score for c in claims], seed), artifact_kind="wiki", wiki_pages=w.pages,
        wiki_log=w.log_dicts(), n_turns=len(turns), manifest_name=manifest.name, wall_s=time.perf_counter() - t0,
        live=live, transcript=_messages(used) if live else None, system_prompt=system_prompt if live else None,
        tool_calls=list(k.transcript) if isinstance(k, EndpointWikiKeeper) else None, warnings=warnings,
    )  # fmt: skip


class TranscriptReader:
    """Control "model" for the short-term condition: answers the last user question by offline retrieval over the
    earlier messages (transcript-as-memory); with ``forget=True`` it always answers "Not in memory." (empty memory)."""

    def __init__(self, forget: bool = False) -> None:
        self.forget = forget
        self.name = "control:empty" if forget else "control:transcript"
        from deepeval.memory.judges import EmbeddedMemoryJudge

        self._judge = EmbeddedMemoryJudge()

    async def chat(self, messages: list[dict[str, Any]]) -> str:
        if self.forget:
            return NOT_IN_MEMORY
        question = probe_question(str(messages[-1]["content"]))
        turns = [
            Turn(role=m["role"], content=m["content"])
            for m in messages[:-1]
            if m["role"] in ("user", "assistant")
        ]
        if not turns:
            return NOT_IN_MEMORY
        return (await self._judge.answer(question, MemoryArtifact.from_turns(turns))).answer
