"""Base of the judged agent metrics (task completion, argument correctness, plan and step checks): an
:class:`~deepeval.metrics._engine.metric.EngineMetric` whose llm/hybrid path always starts with the LLM (it reads
the task, plan or outcome from the trace with the metric's own prompts) and whose questions no offline tier answers.

With no LLM in llm or hybrid mode (the embedded default when nothing is configured), and with only the embedded
judge in system_one mode, a measure raises a :class:`~deepeval.errors.ConfigurationError` naming what to configure
(REFERENCE §10, the offline rule) instead of scoring with a judge nobody measured on these questions.
"""

from __future__ import annotations

from typing import Any, ClassVar

from deepeval.metrics._engine.context import MeasureContext
from deepeval.metrics._engine.extractor import LLMExtractor
from deepeval.metrics._engine.judges import Judges
from deepeval.metrics._engine.metric import EngineMetric
from deepeval.metrics._engine.single_score import is_embedded_judge, no_judge_error
from deepeval.metrics.result import MeasureResult
from deepeval.models.base_model import DeepEvalBaseLLM
from deepeval.models.extraction import Extractor


class AgentJudgedMetric(EngineMetric):
    """See the module docstring. ``judged_what`` names the check in the configuration error."""

    judged_what: ClassVar[str] = "agent check"

    def _make_extractor(self, llm: DeepEvalBaseLLM) -> Extractor:
        return LLMExtractor(llm)  # not used: the metric extracts with its own prompts

    async def _measure_llm_hybrid(self, test_case: Any, judges: Judges, sequential: bool) -> MeasureResult:
        if judges.llm is None:
            raise no_judge_error(self.__name__, self.judged_what)
        return await super()._measure_llm_hybrid(test_case, judges, sequential)

    def _context(self, judges: Judges, sequential: bool) -> MeasureContext:
        ctx = super()._context(judges, sequential)
        if is_embedded_judge(
            ctx.system_one
        ):  # it answers no agent kind: the LLM decides (no refusal to fall back from)
            ctx.system_one = None
        return ctx

    def system_one_judge(self) -> Any:
        """The System One model of system_one mode.

        Raises:
            ConfigurationError: none, or only the embedded judge.
        """
        s1 = self.judges().system_one
        if s1 is None or is_embedded_judge(s1):
            raise no_judge_error(self.__name__, self.judged_what)
        return s1
