"""Memory metrics for ``evaluate()``: :class:`MemoryRecallMetric` and :class:`MemoryPrecisionMetric`.

Both are conversational metrics (:class:`~deepeval.metrics.base_metric.BaseConversationalMetric`): ``evaluate()``
runs them on a ``ConversationalTestCase`` (the conversation whose memory is measured) and skips them, with that
reason, on an ``LLMTestCase``. Called directly, ``measure()`` also takes an ``LLMTestCase`` whose metadata names the
memory. The test case carries the memory evaluation in ``metadata``::

    metadata = {
        "memory_manifest": {...} | "path/to/manifest.yaml",   # required (a FactManifest, its dict, or a file path)
        "memory_artifact": ...,        # the memory to probe; default: the conversation's turns (transcript)
                                       #   str -> summary text; list of turns -> transcript;
                                       #   {"kind": "wiki", "pages": {name: markdown}} or {"kind": "wiki", "path": dir};
                                       #   {"kind": "summary"|"transcript", "text": ...}; {"kind": "empty"}
        "memory_transcript": [...],    # turns the memory was written from (precision); default: the case's turns
        "memory_introduced": {fact_id: turn_index},   # optional; default: introduced_at or manifest order
    }

Recall score = normalised recall mean((s-1)/4) by default (``recall_type`` "weighted" = mean(s/5), "strict" =
share of 5s). Precision score = mean(s/5) over the memory's claims verified against the transcript (1.0 when the
memory makes no claim); ``score_breakdown`` gives the hallucination rate and the hallucinated claims.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from deepeval._digest import embedded_judge_digest
from deepeval.errors import MissingTestCaseParamsError
from deepeval.memory.artifact import MemoryArtifact
from deepeval.memory.conditions import evaluate_artifact
from deepeval.memory.judges import MemoryJudge, resolve_memory_judge
from deepeval.memory.manifest import FactManifest, check_introduced, load_manifest, parse_manifest
from deepeval.memory.prompts import PROMPT_VERSION, memory_prompt_digest
from deepeval.metrics.base_metric import BaseConversationalMetric
from deepeval.metrics.flow import OwnMetric
from deepeval.metrics.scoring import apply_strict, success_of
from deepeval.models.base_model import DeepEvalBaseLLM

RecallType = Literal["normalised", "weighted", "strict"]


def _manifest(meta: dict[str, Any]) -> FactManifest:
    m = meta.get("memory_manifest")
    if m is None:
        raise MissingTestCaseParamsError(
            "memory metrics need test_case.metadata['memory_manifest'] (a FactManifest, its dict, or a file path)"
        )
    if isinstance(m, FactManifest):
        return m
    if isinstance(m, (str, Path)):
        return load_manifest(m)
    return parse_manifest(m, "metadata['memory_manifest']")


def _turns(test_case: Any) -> list[Any] | None:
    turns = getattr(test_case, "turns", None)
    return list(turns) if turns else None


class _MemoryMetric(OwnMetric, BaseConversationalMetric):
    def __init__(
        self,
        threshold: float | None = 0.5,
        model: str | DeepEvalBaseLLM | MemoryJudge | None = None,
        include_reason: bool = True,
        async_mode: bool = True,
        strict_mode: bool = False,
        verbose_mode: bool = False,
        seed: int = 0,
    ) -> None:
        self.threshold = 1.0 if strict_mode else threshold
        self.model = model
        self.include_reason = include_reason
        self.async_mode = async_mode
        self.strict_mode = strict_mode
        self.verbose_mode = verbose_mode
        self.seed = seed
        self._judge: MemoryJudge | None = None

    def judge(self) -> MemoryJudge:
        if self._judge is None:
            self._judge = resolve_memory_judge(self.model)
        return self._judge

    def cache_config(self) -> dict[str, Any]:
        judge = self.judge().get_model_name()
        cfg = {**super().cache_config(), "judge": judge, "prompt_version": PROMPT_VERSION,
               "prompt_digest": memory_prompt_digest(), "seed": self.seed}  # fmt: skip
        if "embedded" in judge.lower():
            cfg["embedded_judge_digest"] = embedded_judge_digest()
        return cfg

    async def _run_engine(self, test_case: Any, *, sequential: bool) -> None:
        """One measure's result attributes (``measure``/``a_measure``: :class:`~deepeval.metrics.flow.OwnMetric`,
        which clears them first, copies the judge's usage and raises the original exception on a failure)."""
        meta = getattr(test_case, "metadata", None) or {}
        score = apply_strict(await self._run(test_case, meta), self.strict_mode)
        self.score = score
        self.evaluation_model = self.judge().get_model_name()
        self.success = success_of(score, self.threshold)
        if not self.include_reason:
            self.reason = None
        if self.verbose_mode:
            from deepeval._safe_text import terminal

            print(terminal(f"[{self.__name__} verbose logs]\n{self.verbose_logs}"))

    def _artifact(self, test_case: Any, meta: dict[str, Any]) -> MemoryArtifact:
        if "memory_artifact" in meta:
            return MemoryArtifact.from_spec(meta["memory_artifact"])
        turns = _turns(test_case)
        if turns is None:
            raise MissingTestCaseParamsError(
                "memory metrics need metadata['memory_artifact'] or a ConversationalTestCase whose turns are the memory"
            )
        return MemoryArtifact.from_turns(turns)

    async def _run(self, test_case: Any, meta: dict[str, Any]) -> float:
        raise NotImplementedError


class MemoryRecallMetric(_MemoryMetric):
    """Share of the manifest's facts a memory recalls, by QA-probing (see module docstring for the test-case
    shape). ``score_breakdown``: weighted/strict/normalised recall with 95% bootstrap intervals, abstention on
    never-stated facts, and each fact's score."""

    def __init__(self, *args: Any, recall_type: RecallType = "normalised", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if recall_type not in ("normalised", "weighted", "strict"):
            raise ValueError(f"recall_type must be 'normalised', 'weighted' or 'strict', got {recall_type!r}")
        self.recall_type = recall_type

    def cache_config(self) -> dict[str, Any]:
        return {**super().cache_config(), "recall_type": self.recall_type}

    async def _run(self, test_case: Any, meta: dict[str, Any]) -> float:
        manifest = _manifest(meta)
        if turns := _turns(test_case):  # the conversation is known: every fact must lie inside it
            check_introduced(manifest, len(turns), meta.get("memory_introduced"), "the test case's turns")
        report = await evaluate_artifact(
            manifest, self._artifact(test_case, meta), introduced=meta.get("memory_introduced"),
            judge=self.judge(), precision=False, seed=self.seed,
        )  # fmt: skip
        r = report.recall
        value = getattr(r, self.recall_type)
        score = float(value) if value is not None else 0.0
        self.score_breakdown = {
            "recall": r.to_dict(), "abstention": report.abstention.to_dict(),
            "facts": {f.fact_id: f.score for f in report.facts},
        }  # fmt: skip
        weak = [f for f in report.facts if f.score <= 2]
        self.reason = (
            f"{self.recall_type} recall {score:.2f} over {r.n} facts (weighted {r.weighted or 0:.2f}, strict "
            f"{r.strict or 0:.2f})"
            + (
                ". Missed or wrong: " + "; ".join(f"{f.fact_id} ({f.score}: {f.reason})" for f in weak[:5])
                if weak
                else ""
            )
        )
        self.verbose_logs = "\n".join(
            f"{f.fact_id} [{f.kind}] Q: {f.question} | expected: {f.expected} | answer: {f.answer[:200]} -> {f.score}"
            for f in report.facts
        )
        return score


class MemoryPrecisionMetric(_MemoryMetric):
    """Share of a memory's atomic claims supported by the transcript (mean(score/5); a claim scoring 1 is a
    hallucination). ``score_breakdown``: precision with its 95% interval, hallucination rate, hallucinated claims."""

    async def _run(self, test_case: Any, meta: dict[str, Any]) -> float:
        artifact = self._artifact(test_case, meta)
        tr_spec = meta.get("memory_transcript")
        transcript = (
            MemoryArtifact.from_spec(
                tr_spec if not isinstance(tr_spec, str) else {"kind": "transcript", "text": tr_spec}
            )
            if tr_spec is not None
            else (MemoryArtifact.from_turns(t) if (t := _turns(test_case)) else None)
        )
        if transcript is None:
            raise MissingTestCaseParamsError(
                "MemoryPrecisionMetric needs metadata['memory_transcript'] or a ConversationalTestCase's turns"
            )
        from deepeval.memory.conditions import verify_claims
        from deepeval.memory.scoring import precision_summary

        claims = await verify_claims(artifact, transcript, self.judge())
        p = precision_summary([c.score for c in claims], self.seed)
        score = p.precision if p.precision is not None else 1.0
        bad = [c for c in claims if c.hallucinated]
        self.score_breakdown = {**p.to_dict(), "hallucinated_claims": [c.claim for c in bad]}
        self.reason = (
            f"precision {score:.2f} over {p.n_claims} claims, {len(bad)} hallucinated"
            + (": " + "; ".join(c.claim for c in bad[:5]) if bad else "")
            if claims
            else "the memory makes no claims"
        )
        self.verbose_logs = "\n".join(f"{c.score} {c.claim} ({c.reason})" for c in claims)
        return score
