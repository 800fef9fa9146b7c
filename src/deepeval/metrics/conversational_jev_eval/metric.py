"""``ConversationalJevEval``: JevEval over a ``ConversationalTestCase`` (System One only).

Facts from deepeval 4.3.1: the constructor is JevEval's with ``MultiTurnParams``; ``evaluation_params`` is
required and non-empty (``ValueError`` at construction), ``CONTENT`` and ``ROLE`` are added when missing; the state
is ``{"turns": [{turn fields}], "test_case": {conversation fields}}`` (``test_case`` only when a conversation-level
field is populated); ``__name__`` ``"<name> [Conversational JevEval]"``; a named ``EXPECTED_OUTCOME``, ``SCENARIO``,
``METADATA``, ``TAGS`` or ``CHATBOT_ROLE`` that is None is a ``MissingTestCaseParamsError``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from deepeval.errors import MissingTestCaseParamsError
from deepeval.metrics._engine.params import require_turns
from deepeval.metrics.base_metric import BaseConversationalMetric
from deepeval.metrics.jev_eval.metric import JevMetric, populated, state_field
from deepeval.metrics.jev_eval.questions import JevQuestion
from deepeval.models.base_model import DeepEvalBaseSystemOneModel
from deepeval.test_case import MultiTurnParams

__all__ = ["ConversationalJevEval"]

M = MultiTurnParams
TURN_LEVEL = (
    M.ROLE,
    M.CONTENT,
    M.RETRIEVAL_CONTEXT,
    M.TOOLS_CALLED,
    M.MCP_TOOLS,
    M.MCP_RESOURCES,
    M.MCP_PROMPTS,
)
CHECKED = (M.EXPECTED_OUTCOME, M.SCENARIO, M.METADATA, M.TAGS, M.CHATBOT_ROLE)
NOT_IN_TURNS = (M.SCENARIO, M.EXPECTED_OUTCOME, M.METADATA, M.TAGS, M.AUDIO)


class ConversationalJevEval(JevMetric, BaseConversationalMetric):
    """deepeval 4.3.1's constructor (see the module docstring)."""

    suffix: ClassVar[str] = "Conversational JevEval"
    evaluation_params: list[MultiTurnParams]

    def __init__(
        self,
        name: str,
        evaluation_params: Sequence[MultiTurnParams] | None = None,
        questions: Sequence[JevQuestion] | None = None,
        system_one_model: str | DeepEvalBaseSystemOneModel | None = None,
        include_reason: bool = True,
        threshold: float | None = 0.5,
        strict_mode: bool = False,
        async_mode: bool = True,
        verbose_mode: bool = False,
        flaky: bool = False,
        _include_jev_eval_suffix: bool = True,
    ) -> None:
        if not evaluation_params:
            raise ValueError(
                "evaluation_params cannot be empty; list the turn and conversation fields your questions refer to."
            )
        params = [MultiTurnParams(getattr(p, "value", p)) for p in evaluation_params]
        for needed in (M.CONTENT, M.ROLE):
            if needed not in params:
                params.append(needed)
        self.evaluation_params = params
        self._setup(
            name=name,
            questions=questions,
            system_one_model=system_one_model,
            include_reason=include_reason,
            threshold=threshold,
            strict_mode=strict_mode,
            async_mode=async_mode,
            verbose_mode=verbose_mode,
            flaky=flaky,
            include_suffix=_include_jev_eval_suffix,
        )

    def _check_params(self, test_case: Any) -> None:
        require_turns(test_case, self.__name__)
        for param in CHECKED:
            if param in self.evaluation_params and getattr(test_case, param.value, None) is None:
                raise MissingTestCaseParamsError(
                    f"'{param.value}' in a conversational test case cannot be empty for the '{self.__name__}' metric."
                )

    def _state(self, test_case: Any) -> dict[str, Any]:
        turn_params = [p for p in self.evaluation_params if p in TURN_LEVEL and p not in NOT_IN_TURNS]
        turns = []
        for turn in test_case.turns:
            row = {}
            for p in turn_params:
                value = getattr(turn, p.value, None)
                if value is not None:
                    row[p.value] = state_field(value)
            turns.append(row)
        fields = {}
        for p in self.evaluation_params:
            if p in TURN_LEVEL:
                continue
            value = getattr(test_case, p.value, None)
            if populated(value):
                fields[p.value] = state_field(value)
        state: dict[str, Any] = {"turns": turns}
        if fields:
            state["test_case"] = fields
        return state
