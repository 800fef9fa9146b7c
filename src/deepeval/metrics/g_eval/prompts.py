"""Prompts of :class:`GEval` (our own wording). Bump ``PROMPT_VERSION`` on any change: it feeds the cache key.

Override by passing ``evaluation_template=`` a class with the same static methods (a subclass of
:class:`GEvalTemplate`, as deepeval 4.3.1's users write it). Each method is called with the keywords it names, as
deepeval calls them: ``generate_evaluation_steps(parameters, criteria, multimodal)``,
``generate_evaluation_results(evaluation_steps, test_case_content, parameters, rubric, score_range,
_additional_context, multimodal)``, ``generate_strict_evaluation_results(evaluation_steps, test_case_content,
parameters, _additional_context, multimodal)`` and our ``generate_reason(evaluation_steps, test_case_content,
parameters, score, score_range, rubric)`` (hybrid mode: the reason for a score System One gave).

``test_case_content`` holds the fields named by ``evaluation_params``, each between data markers
(:mod:`deepeval.metrics.delimit`); the criteria, steps and rubric are the metric author's own text and are not
fenced.
"""

from __future__ import annotations

from deepeval.metrics.delimit import DATA_NOTICE

PROMPT_VERSION = "g_eval/2026-3"

_IMAGES = "Images appear as placeholders in the material; judge what the text says about them."


def _extra(additional_context: str | None) -> str:
    return (
        f"\n\nMore context from the application under test:\n{additional_context}"
        if additional_context
        else ""
    )


class GEvalTemplate:
    """Prompt builders of GEval (see the module docstring)."""

    PROMPT_VERSION = PROMPT_VERSION

    @staticmethod
    def generate_evaluation_steps(parameters: str, criteria: str, multimodal: bool = False) -> str:
        """Turn the criteria into 3-4 steps; reply ``{"steps": [...]}`` (``Steps``)."""
        images = f"\n{_IMAGES}" if multimodal else ""
        return f"""You are preparing to grade test cases of an AI application against the criteria below; the \
grader will see each test case's {parameters}. Write 3 or 4 short evaluation steps, each a check of one thing the \
criteria ask for, phrased so that the grader can judge how well the test case meets it (fully, partly or not at \
all). Check only what the criteria state; add no requirement of your own, such as identical wording.{images}

Criteria:
{criteria}

Reply with JSON only, of the form {{"steps": ["first step", "second step", ...]}}."""

    @staticmethod
    def generate_evaluation_results(
        evaluation_steps: str,
        test_case_content: str,
        parameters: str,
        rubric: str | None = None,
        score_range: tuple[int, int] = (0, 10),
        _additional_context: str | None = None,
        multimodal: bool = False,
    ) -> str:
        """Score the test case on ``score_range``; reply ``{"reason": "...", "score": n}`` (``ReasonScore``)."""
        low, high = score_range
        scale = (
            f"Use the rubric to choose the score (a whole number from {low} to {high})."
            if rubric
            else f"Give a whole number from {low} (does not follow the steps at all) to {high} (follows them fully)."
        )
        rubric_block = f"\n\nRubric:\n{rubric}" if rubric else ""
        images = f"\n{_IMAGES}" if multimodal else ""
        return f"""Grade a test case of an AI application by following the evaluation steps.{images}

Evaluation steps:
{evaluation_steps}{rubric_block}

{scale} The reason names the concrete strengths and faults in the {parameters} that led to the score, in one \
or two sentences, without stating the score itself.

{DATA_NOTICE}

Test case ({parameters}):
{test_case_content}{_extra(_additional_context)}

Reply with JSON only: {{"reason": "<why>", "score": <whole number from {low} to {high}>}}"""

    @staticmethod
    def generate_strict_evaluation_results(
        evaluation_steps: str,
        test_case_content: str,
        parameters: str,
        _additional_context: str | None = None,
        multimodal: bool = False,
    ) -> str:
        """Pass/fail: 1 only when every step is fully met, else 0; reply ``{"reason": "...", "score": 0|1}``."""
        images = f"\n{_IMAGES}" if multimodal else ""
        return f"""Decide whether a test case of an AI application fully meets the evaluation steps.{images}

Evaluation steps:
{evaluation_steps}

The score is 1 when the {parameters} meet every step completely and 0 otherwise. The reason names what decided \
it, in one or two sentences, without stating the score itself.

{DATA_NOTICE}

Test case ({parameters}):
{test_case_content}{_extra(_additional_context)}

Reply with JSON only: {{"reason": "<why>", "score": <0 or 1>}}"""

    @staticmethod
    def generate_reason(
        evaluation_steps: str,
        test_case_content: str,
        parameters: str,
        score: float,
        score_range: tuple[int, int] = (0, 10),
        rubric: str | None = None,
    ) -> str:
        """Explain a score another judge gave (hybrid mode); reply ``{"reason": "..."}`` (``Reason``)."""
        low, high = score_range
        rubric_block = f"\n\nRubric:\n{rubric}" if rubric else ""
        return f"""A test case of an AI application was graded {score:.1f} on a scale from {low} to {high} by \
following the evaluation steps below. Explain that grade in one or two sentences, naming the concrete strengths \
and faults in the {parameters}; do not state the number.

Evaluation steps:
{evaluation_steps}{rubric_block}

{DATA_NOTICE}

Test case ({parameters}):
{test_case_content}

Reply with JSON only: {{"reason": "<why>"}}"""
