"""Per-measure state shared by the engine helpers: judges in use, concurrency, logs, confidences, fallbacks.

One :class:`MeasureContext` exists per measure; nothing here is stored on the metric, so concurrent measures of
``fresh_copy`` clones never share it.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import Any, Literal

from deepeval._fielddict import FieldDict
from deepeval.config.eval_mode import EvalMode
from deepeval.metrics._engine.judges import gather_all
from deepeval.metrics._engine.verdicts import Verdict
from deepeval.models.base_model import DeepEvalBaseLLM, DeepEvalBaseSystemOneModel, judge_name
from deepeval.models.extraction import Extractor
from deepeval.models.plan import evaluation_model_name
from deepeval.models.resolve import is_embedded
from deepeval.models.system_one.schema import SystemOneAnswers


@dataclass
class Decision:
    """One decision: the verdict, P(yes) when System One made it (None when the LLM did), who decided, the LLM's
    short justification when it gave one, and, for a cascading System One judge, which of its stages decided
    (``tier``: ``encoder``, ``reader``, or ``unsure`` when none was sure; the verdict is then ``unsure``)."""

    verdict: Verdict
    probability: float | None
    source: Literal["llm", "system_one"]
    reason: str | None = None
    tier: str | None = None
    #: each stage's own P(yes) when a cascading judge passed the decision on (``{"encoder": p, "reader": q}``)
    stages: dict[str, float] | None = None
    #: counts by its verdict in a share score, never weighed by ``probability`` (a verdict composed from two
    #: questions: :class:`~deepeval.metrics.pipeline.spec.Contradiction`)
    by_verdict: bool = False
    #: a ``borderline`` (idk) verdict composed on an unsure unit question: where the passing rule does not count
    #: borderline (``penalize_ambiguous_claims``), the unit counts by this P(yes) of the unit question instead of 0
    idk_probability: float | None = None

    @property
    def unsure(self) -> bool:
        return self.verdict == "unsure"

    def as_log(self) -> dict[str, Any]:
        out: dict[str, Any] = {"verdict": self.verdict, "decided_by": self.source}
        if self.tier is not None:
            out["tier"] = self.tier
        if self.probability is not None:
            out["p_yes"] = round(self.probability, 4)
        if self.stages:
            out["stage_p_yes"] = {k: round(v, 4) for k, v in self.stages.items()}
        if self.reason:
            out["reason"] = self.reason
        return out


@dataclass
class MeasureContext:
    """Judges and bookkeeping for one measure. ``llm`` is None in hybrid mode without an LLM and in system_one."""

    metric_name: str
    mode: EvalMode
    llm: DeepEvalBaseLLM | None
    system_one: DeepEvalBaseSystemOneModel | None
    extractor: Extractor | None
    include_reason: bool
    sequential: bool = False
    #: extraction is done by ``llm`` with the metric's own prompts (no user ``extractor=``), so a metric may fold
    #: extraction into its judging calls
    own_extraction: bool = False
    system_one_off: bool = False
    fallback_reasons: list[str] = field(default_factory=list)
    confidences: list[float] = field(default_factory=list)
    llm_used: bool = False  # the LLM made at least one decision
    system_one_used: bool = False
    system_one_version: str | None = None
    sections: list[tuple[str, Any]] = field(default_factory=list)
    verdicts: list[dict[str, Any]] = field(default_factory=list)
    #: a metric's own result attributes of this measure (deepeval's ``knowledges``...): the value carries them
    attributes: dict[str, Any] = field(default_factory=dict)

    async def gather(self, *aws: Awaitable[Any]) -> list[Any]:
        """Run independent judge calls concurrently (one after another in ``async_mode=False``)."""
        return await gather_all(*aws, sequential=self.sequential)

    def log(self, title: str, value: Any) -> None:
        """Record an intermediate step for ``verbose_logs``."""
        self.sections.append((title, value))

    def log_verdicts(self, title: str, judged: list[dict[str, Any]]) -> None:
        """Record the per-item verdicts (statements, facts) for ``verbose_logs`` and for the result row
        (:meth:`result_verdicts`)."""
        self.log(title, judged)
        self.verdicts = judged

    def result_verdicts(self) -> list[dict[str, Any]] | None:
        """The verdicts as the result row keeps them: ``decided_by`` is ``system_one``, ``embedded`` (the System
        One decision came from the embedded offline judge), ``llm``, or ``llm_fallback`` (an LLM decision in hybrid
        mode, where System One decides unless it failed)."""
        if not self.verdicts:
            return None
        embedded = is_embedded(self.system_one)
        out: list[dict[str, Any]] = []
        for item in self.verdicts:
            row = FieldDict(item)  # also reads as attributes (verdict.verdict), as deepeval's verdict objects
            if self.mode is EvalMode.HYBRID and row.get("decided_by") == "llm":
                row["decided_by"] = "llm_fallback"
            elif embedded and row.get("decided_by") == "system_one":
                row["decided_by"] = "embedded"
            out.append(row)
        return out

    def note_answers(self, answers: SystemOneAnswers) -> None:
        self.system_one_used = True
        if answers.model:
            self.system_one_version = answers.model

    def evaluation_model(self) -> str | None:
        """Every judge that contributed, e.g. ``"gpt-5.4 + jev-latest (jev-2026-01)"``
        (:func:`~deepeval.models.plan.evaluation_model_name`)."""
        system_one: str | None = None
        if self.system_one is not None and self.system_one_used:
            system_one = judge_name(self.system_one) or "system-one"
            if self.system_one_version and self.system_one_version not in system_one:
                system_one = f"{system_one} ({self.system_one_version})"
        return evaluation_model_name(
            self.mode,
            llm=None if self.llm is None else judge_name(self.llm) or "llm",
            extractor=None if self.extractor is None else judge_name(self.extractor) or "extractor",
            system_one=system_one,
        )

    def confidence(self) -> float | None:
        return min(self.confidences) if self.confidences else None

    def fallback_reason(self) -> str | None:
        return "; ".join(self.fallback_reasons) or None

    def verbose_logs(self) -> str:
        lines = [f"Eval mode: {self.mode.value}"]
        for title, value in self.sections:
            text = (
                value
                if isinstance(value, str)
                else json.dumps(value, indent=2, ensure_ascii=False, default=str)
            )
            lines.append(f"{title}:\n{text}")
        if self.fallback_reasons:
            lines.append("System One fallback:\n" + "\n".join(self.fallback_reasons))
        return "\n\n".join(lines)
