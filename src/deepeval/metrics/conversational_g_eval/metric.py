"""``ConversationalGEval``: GEval over a ``ConversationalTestCase`` (the measure is
:class:`~deepeval.metrics.g_eval.criteria.CriteriaMetric`'s, in every eval mode).

Facts from deepeval 4.3.1 (its behaviour is the reference; the text is ours):

* constructor ``ConversationalGEval(name, evaluation_params=None, criteria=None, evaluation_steps=None,
  model=None, threshold=0.5, top_logprobs=20, rubric=None, async_mode=True, strict_mode=False,
  verbose_mode=False, _include_g_eval_suffix=True, flaky=False, evaluation_template=...)``; ``__name__`` is
  ``"<name> [Conversational GEval]"``;
* ``evaluation_params`` (``MultiTurnParams``) always gets ``CONTENT`` and ``ROLE`` added at the end when missing;
  None is a ``ValueError`` at measure (``GEval requires evaluation_params. ...``); a conversation-level field
  among ``EXPECTED_OUTCOME``, ``SCENARIO``, ``METADATA``, ``TAGS`` that is None is a
  ``MissingTestCaseParamsError`` (``'scenario' in a conversational test case cannot be empty for the '<name>'
  metric.``);
* the judge scores 0-10 and the score is that number / 10 whatever the rubric (the rubric only guides the judge);
  strict mode asks the same question and any score below 1 becomes 0; no log-probability weighting in strict
  mode.

**ours:** the caller's ``evaluation_params`` list is copied, not extended in place; the weighted score reads the
LAST token that spells the score (deepeval's ConversationalGEval reads the first, which can be a number inside the
reason; its GEval reads the last) and a reply whose alternatives are all left out keeps its raw score (deepeval's
ConversationalGEval divides by zero there); a score outside 0-10 is re-asked once then an error.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, ClassVar

from deepeval.config.eval_mode import EvalMode
from deepeval.errors import MissingTestCaseParamsError
from deepeval.metrics._engine.params import require_turns
from deepeval.metrics._engine.template_calls import call_template
from deepeval.metrics.base_metric import BaseConversationalMetric
from deepeval.metrics.conversational_g_eval.prompts import ConversationalGEvalTemplate
from deepeval.metrics.delimit import quote
from deepeval.metrics.g_eval.criteria import CriteriaMetric, field_state, field_text, number_steps
from deepeval.metrics.g_eval.questions import GEvalQuestions
from deepeval.metrics.g_eval.rubric import Rubric, format_rubric, validate_criteria_and_evaluation_steps
from deepeval.models.base_model import DeepEvalBaseLLM, DeepEvalBaseSystemOneModel
from deepeval.test_case import MultiTurnParams

__all__ = ["ConversationalGEval", "ConversationalGEvalTemplate"]

M = MultiTurnParams
#: field names as the prompts show them (deepeval's labels where it has them)
TURN_PARAM_LABELS: dict[MultiTurnParams, str] = {
    M.CONTENT: "Content",
    M.ROLE: "Role",
    M.METADATA: "Metadata",
    M.TAGS: "Tags",
    M.TOOLS_CALLED: "Tools Called",
    M.RETRIEVAL_CONTEXT: "Retrieval Context",
    M.EXPECTED_OUTCOME: "Expected Outcome",
    M.SCENARIO: "Scenario",
    M.AUDIO: "Audio",
    M.PROVIDER_TRANSCRIPT: "Provider Transcript",
    M.CONTEXT: "Context",
    M.USER_DESCRIPTION: "User Description",
    M.CHATBOT_ROLE: "Chatbot Role",
    M.MCP_TOOLS: "MCP Tools Called",
    M.MCP_RESOURCES: "MCP Resources Called",
    M.MCP_PROMPTS: "MCP Prompts Called",
}
#: conversation-level fields that must be set when named (deepeval 4.3.1 checks exactly these)
CHECKED_CONVERSATION_FIELDS = (M.EXPECTED_OUTCOME, M.SCENARIO, M.METADATA, M.TAGS)
#: fields that belong to each turn (the rest belong to the conversation)
TURN_FIELDS = frozenset(
    {M.CONTENT, M.ROLE, M.RETRIEVAL_CONTEXT, M.TOOLS_CALLED, M.MCP_TOOLS, M.MCP_RESOURCES, M.MCP_PROMPTS}
)
#: neither shown per turn nor as a conversation field (audio is not judged here; deepeval sends it to audio models)
NOT_SHOWN = frozenset({M.AUDIO, M.PROVIDER_TRANSCRIPT})
NO_PARAMS_HELP = (
    "GEval requires evaluation_params. Provide them at initialization or call pull() before evaluate."
)


class ConversationalGEval(CriteriaMetric, BaseConversationalMetric):
    """deepeval 4.3.1's constructor (positional order kept), plus our keyword-only ``system_one_model``,
    ``eval_mode`` and ``question_set``.

    Raises (constructor):
        ValueError: empty ``evaluation_params``, blank criteria, empty steps, a bad rubric, ``top_logprobs`` < 0.
    """

    suffix: ClassVar[str] = "Conversational GEval"
    params_type = MultiTurnParams
    param_labels = TURN_PARAM_LABELS
    default_template = ConversationalGEvalTemplate
    default_question_set = GEvalQuestions

    def __init__(
        self,
        name: str,
        evaluation_params: Sequence[MultiTurnParams] | None = None,
        criteria: str | None = None,
        evaluation_steps: Sequence[str] | None = None,
        model: str | DeepEvalBaseLLM | None = None,
        threshold: float | None = 0.5,
        top_logprobs: int = 20,
        rubric: Sequence[Rubric] | None = None,
        async_mode: bool = True,
        strict_mode: bool = False,
        verbose_mode: bool = False,
        _include_g_eval_suffix: bool = True,
        flaky: bool = False,
        evaluation_template: Any = ConversationalGEvalTemplate,
        _audio_model: str | DeepEvalBaseLLM | None = None,
        *,
        system_one_model: str | DeepEvalBaseSystemOneModel | None = None,
        eval_mode: str | EvalMode | None = None,
        question_set: Any = None,
    ) -> None:
        if _audio_model is not None:
            raise ValueError(
                "_audio_model is not supported: audio turns are not judged here (MultiTurnParams.AUDIO is left out)"
            )
        params = None if evaluation_params is None else list(evaluation_params)
        if params:
            for needed in (M.CONTENT, M.ROLE):
                if needed not in params and needed.value not in params:
                    params.append(needed)
        self._define(name, params, criteria, evaluation_steps, rubric, top_logprobs, _include_g_eval_suffix)
        super().__init__(
            threshold=threshold,
            model=model,
            system_one_model=system_one_model,
            eval_mode=eval_mode,
            include_reason=True,
            async_mode=async_mode,
            strict_mode=strict_mode,
            verbose_mode=verbose_mode,
            flaky=flaky,
            evaluation_template=evaluation_template,
            question_set=question_set,
        )

    # -- the score scale: 0-10 whatever the rubric (deepeval 4.3.1) ----------------------------------------------
    def _prompt_range(self) -> tuple[int, int]:
        return (0, 10)

    def _normalise(self, raw: float) -> float:
        return float(raw) / 10

    def _strict_is_binary(self) -> bool:
        return False

    # -- the conversation ------------------------------------------------------------------------------------------
    def _check_params(self, test_case: Any) -> None:
        if not self.evaluation_params:
            raise ValueError(NO_PARAMS_HELP)
        validate_criteria_and_evaluation_steps(self.criteria, self._given_steps)
        require_turns(test_case, self.__name__)
        for param in CHECKED_CONVERSATION_FIELDS:
            if param in self.evaluation_params and getattr(test_case, param.value, None) is None:
                raise MissingTestCaseParamsError(
                    f"'{param.value}' in a conversational test case cannot be empty for the '{self.__name__}' metric."
                )

    def _turns(self, test_case: Any) -> list[dict[str, Any]]:
        fields = [p for p in self.evaluation_params or () if p in TURN_FIELDS]
        out = []
        for turn in test_case.turns:
            row = {}
            for p in fields:
                value = getattr(turn, p.value, None)
                if value is not None:
                    row[p.value] = field_state(value)
            out.append(row)
        return out

    def _conversation_fields(self, test_case: Any) -> list[MultiTurnParams]:
        return [
            p
            for p in self.evaluation_params or ()
            if p not in TURN_FIELDS and p not in NOT_SHOWN and hasattr(test_case, p.value)
        ]

    def _content(self, test_case: Any) -> str:
        turns = json.dumps(self._turns(test_case), ensure_ascii=False, indent=1, default=str)
        parts = [f"Turns:\n{quote('data', turns)}"]
        for p in self._conversation_fields(test_case):
            parts.append(f"{self.param_labels[p]}:\n{quote('data', field_text(getattr(test_case, p.value)))}")
        return "\n\n".join(parts)

    def _state(self, test_case: Any) -> dict[str, Any]:
        state: dict[str, Any] = {"turns": self._turns(test_case)}
        for p in self._conversation_fields(test_case):
            state[p.value] = field_state(getattr(test_case, p.value))
        return state

    def _steps_prompt(self) -> str:
        return call_template(
            self.evaluation_template.generate_evaluation_steps,
            criteria=self.criteria,
            parameters=self._params_text(),
        )

    def _results_prompt(self, test_case: Any, steps: Sequence[str], content: str) -> str:
        return call_template(
            self.evaluation_template.generate_evaluation_results,
            evaluation_steps=number_steps(steps),
            test_case_content=content,
            turns=self._turns(test_case),
            parameters=self._params_text(),
            rubric=format_rubric(self.rubric),
        )
