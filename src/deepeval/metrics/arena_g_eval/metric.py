"""``ArenaGEval``: which of several contestants (an :class:`~deepeval.test_case.ArenaTestCase`) best meets the
user's criteria. An arena metric (``measure`` returns the winner's name), not a ``BaseMetric``: ``evaluate()`` does
not run it.

Facts from deepeval 4.3.1: ``ArenaGEval(name, evaluation_params, criteria=None, evaluation_steps=None, model=None,
async_mode=True, verbose_mode=False, _include_g_eval_suffix=True, evaluation_template=...)``; criteria and steps are
checked at construction (``Either 'criteria' or 'evaluation_steps' must be provided.``); every contestant's test
case must hold the named fields (``MissingTestCaseParamsError``); contestants are shown to the judge under masked
names (``Alice``, ``Bob``...), in shuffled order, with ``input`` / ``expected_output`` once and each contestant's
other named fields; the judge names a winner and its reason is given back with the real names; ``success`` is True.

**ours:** the masks and the order come from a hash of the contestants (the same arena gets the same prompt, so it
can be cached, and the judge still cannot learn which position or name is whose); the reason's masked names are
replaced by the real ones without a second LLM call (deepeval asks the LLM to rewrite it); a winner that is not one
of the masked names is re-asked once, then an error; the steps are cached as GEval's.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from typing import Any

from deepeval._concurrency import run_sync
from deepeval.errors import ConfigurationError, MissingTestCaseParamsError
from deepeval.metrics._engine.judges import NO_LLM_HELP
from deepeval.metrics._engine.template_calls import call_template
from deepeval.metrics.arena_g_eval.prompts import ArenaGEvalTemplate
from deepeval.metrics.arena_g_eval.schema import Winner
from deepeval.metrics.base_metric import BaseArenaMetric
from deepeval.metrics.delimit import quote
from deepeval.metrics.g_eval.criteria import field_state, number_steps, params_text, written_steps
from deepeval.metrics.g_eval.rubric import validate_criteria_and_evaluation_steps
from deepeval.models.base_model import DeepEvalBaseLLM, judge_name
from deepeval.models.resolve import resolve_llm
from deepeval.models.structured import a_generate_structured
from deepeval.models.usage import track_usage
from deepeval.test_case import ArenaTestCase, SingleTurnParams

__all__ = ["ArenaGEval", "ArenaGEvalTemplate"]

FAKE_NAMES = ("Alice", "Bob", "Charlie", "Diana", "Eve", "Frank", "Grace", "Henry", "Iris", "Jack")
SHARED = (SingleTurnParams.INPUT, SingleTurnParams.EXPECTED_OUTPUT)


def masks(test_case: ArenaTestCase) -> tuple[dict[str, str], list[str]]:
    """``(mask -> real name, real names in the order shown)``, both from a hash of the contestants."""
    digest = hashlib.sha256(
        json.dumps([[c.name, c.test_case.actual_output] for c in test_case.contestants], default=str).encode()
    ).digest()
    names = [c.name for c in test_case.contestants]
    pool = list(FAKE_NAMES) + [f"Contestant{i + 1}" for i in range(max(0, len(names) - len(FAKE_NAMES)))]
    order = sorted(range(len(pool)), key=lambda i: (digest[i % len(digest)], i))
    fake = [pool[i] for i in order[: len(names)]]
    shown = sorted(names, key=lambda n: hashlib.sha256(digest + n.encode()).digest())
    return dict(zip(fake, names, strict=True)), shown


class ArenaGEval(BaseArenaMetric):
    """See the module docstring.

    Raises (constructor):
        ValueError: no criteria and no steps, blank criteria, empty steps, empty ``evaluation_params``.
    """

    def __init__(
        self,
        name: str,
        evaluation_params: Sequence[SingleTurnParams],
        criteria: str | None = None,
        evaluation_steps: Sequence[str] | None = None,
        model: str | DeepEvalBaseLLM | None = None,
        async_mode: bool = True,
        verbose_mode: bool = False,
        _include_g_eval_suffix: bool = True,
        evaluation_template: Any = ArenaGEvalTemplate,
    ) -> None:
        validate_criteria_and_evaluation_steps(criteria, evaluation_steps)
        if not evaluation_params:
            raise ValueError("evaluation_params cannot be an empty list.")
        self.name = name
        self.evaluation_params = [SingleTurnParams(getattr(p, "value", p)) for p in evaluation_params]
        self.criteria = criteria
        self.evaluation_steps: list[str] | None = list(evaluation_steps) if evaluation_steps else None
        self._given_steps = tuple(evaluation_steps) if evaluation_steps else None
        self.model_argument = model
        self._llm: DeepEvalBaseLLM | None = model if isinstance(model, DeepEvalBaseLLM) else None
        self.evaluation_model = (
            judge_name(self._llm) if self._llm is not None else (model if isinstance(model, str) else None)
        )
        self.async_mode = async_mode
        self.verbose_mode = verbose_mode
        self._include_g_eval_suffix = _include_g_eval_suffix
        self.evaluation_template = evaluation_template

    @property
    def __name__(self) -> str:  # type: ignore[override]
        return f"{self.name} [Arena GEval]" if self._include_g_eval_suffix else self.name

    @property
    def model(self) -> DeepEvalBaseLLM:
        """The LLM judge (resolved on first use from ``model=`` or the settings).

        Raises:
            ConfigurationError: no LLM judge is configured.
        """
        if self._llm is None:
            llm = resolve_llm(self.model_argument)
            if llm is None:
                raise ConfigurationError(f"{self.__name__} needs an LLM judge, but {NO_LLM_HELP}")
            self._llm = llm
            self.evaluation_model = judge_name(llm)
        return self._llm

    def measure(self, test_case: ArenaTestCase, *args: Any, **kwargs: Any) -> str:
        """The winner's name (sets ``winner``, ``reason``, ``success``, cost and tokens)."""
        return run_sync(self.a_measure(test_case))

    async def a_measure(self, test_case: ArenaTestCase, *args: Any, **kwargs: Any) -> str:
        self._record(None, None, None, "")
        self._check(test_case)
        llm = self.model
        with track_usage() as usage:
            steps = self._given_steps or await written_steps(llm, self._steps_prompt())
            self.evaluation_steps = list(steps)
            by_mask, shown = masks(test_case)
            real_to_mask = {real: mask for mask, real in by_mask.items()}
            prompt = call_template(
                self.evaluation_template.generate_arena_winner,
                evaluation_steps=number_steps(steps),
                test_case_contents=self._contents(test_case, real_to_mask, shown),
                parameters=params_text(self.evaluation_params),
                multimodal=False,
            )

            def known(reply: Winner) -> None:
                if reply.winner.strip() not in by_mask:
                    raise ValueError(f"the winner must be one of {', '.join(by_mask)}, got {reply.winner!r}")

            reply = await a_generate_structured(llm, prompt, Winner, check=known)
        winner = by_mask[reply.winner.strip()]
        reason = _unmask(reply.reason, by_mask)
        logs = "\n\n".join(
            [
                f"Criteria:\n{self.criteria}",
                f"Evaluation Steps:\n{number_steps(steps)}",
                f"Masked names: {json.dumps(by_mask)}",
                f"Winner: {winner}",
                f"Reason: {reason}",
            ]
        )
        self._record(winner, reason, usage, logs)
        if self.verbose_mode:
            from deepeval._safe_text import terminal

            print(terminal(f"[{self.__name__} verbose logs]\n{logs}"))
        return winner

    def _record(self, winner: str | None, reason: str | None, usage: Any, logs: str) -> None:
        """The one place an arena measure writes its results (an arena metric is no BaseMetric: its value is a
        winner, not a score, so it does not go through ``flow.apply``); ``winner=None`` clears them."""
        counted = usage is not None and bool(usage.input_tokens or usage.output_tokens)
        self.winner = winner
        self.reason = reason
        self.success = None if winner is None else True
        self.error = None
        self.evaluation_cost = None if usage is None else usage.cost
        self.input_tokens = usage.input_tokens if counted else None
        self.output_tokens = usage.output_tokens if counted else None
        self.verbose_logs = logs or None

    def _check(self, test_case: Any) -> None:
        if not isinstance(test_case, ArenaTestCase):
            raise ValueError(f"Expected ArenaTestCase, got {type(test_case).__name__}")
        for contestant in test_case.contestants:
            for p in self.evaluation_params:
                if getattr(contestant.test_case, p.value) is None:
                    raise MissingTestCaseParamsError(
                        f"{self.__name__} needs the test-case field {p.value}, which is None for contestant "
                        f"{contestant.name!r}"
                    )

    def _steps_prompt(self) -> str:
        return call_template(
            self.evaluation_template.generate_evaluation_steps,
            criteria=self.criteria,
            parameters=params_text(self.evaluation_params),
            multimodal=False,
        )

    def _contents(self, test_case: ArenaTestCase, real_to_mask: dict[str, str], shown: list[str]) -> str:
        first = test_case.contestants[0].test_case
        parts = []
        for p in SHARED:
            if p in self.evaluation_params:
                parts.append(f"{p.value}:\n{quote('data', str(getattr(first, p.value)))}")
        own = [p for p in self.evaluation_params if p not in SHARED]
        by_name = {c.name: c.test_case for c in test_case.contestants}
        for real in shown:
            fields = {p.value: field_state(getattr(by_name[real], p.value)) for p in own}
            parts.append(
                f"Contestant {real_to_mask[real]}:\n{quote('data', json.dumps(fields, ensure_ascii=False, indent=1))}"
            )
        return "\n\n".join(parts)


def _unmask(text: str, by_mask: dict[str, str]) -> str:
    if not by_mask:
        return text
    pattern = re.compile(
        r"\b(" + "|".join(re.escape(m) for m in sorted(by_mask, key=len, reverse=True)) + r")\b"
    )
    return pattern.sub(lambda m: by_mask[m.group(1)], text)
