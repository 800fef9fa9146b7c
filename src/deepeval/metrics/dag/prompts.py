"""Prompts of :class:`DAGMetric`'s nodes (our own wording). Bump ``PROMPT_VERSION`` on any change: it feeds the cache
key. ``text`` is the node's material: its parents' task outputs and the test-case fields it names, each between
data markers (:mod:`deepeval.metrics.delimit`); instructions and criteria are the metric author's own text."""

from __future__ import annotations

from deepeval.metrics.delimit import DATA_NOTICE, quote

PROMPT_VERSION = "dag/2026-1"


class DAGTemplate:
    """``generate_task_output``, ``generate_binary_verdict``, ``generate_non_binary_verdict``, ``generate_reason``."""

    PROMPT_VERSION = PROMPT_VERSION

    @staticmethod
    def generate_task_output(instructions: str, text: str) -> str:
        """Reply ``{"output": ...}`` (``TaskNodeOutput``: a string, a list of strings or a string map)."""
        return f"""Carry out the task below on the material that follows it.

Task:
{instructions}

{DATA_NOTICE}

{text}

Reply with JSON only: {{"output": <the result: a string, a list of strings, or an object of strings>}}"""

    @staticmethod
    def generate_binary_verdict(criteria: str, text: str) -> str:
        """Reply ``{"reason": "...", "verdict": true|false}`` (``BinaryJudgementVerdict``)."""
        return f"""Decide whether the material below meets this criterion; answer true or false.

Criterion:
{criteria}

{DATA_NOTICE}

{text}

Reply with JSON only: {{"reason": "<one sentence>", "verdict": <true or false>}}"""

    @staticmethod
    def generate_non_binary_verdict(criteria: str, text: str, options: list[str]) -> str:
        """Reply ``{"reason": "...", "verdict": <one of options>}`` (``NonBinaryJudgementVerdict``)."""
        listed = ", ".join(f'"{o}"' for o in options)
        return f"""Choose the one verdict that fits the material below for this criterion.

Criterion:
{criteria}

Verdicts to choose from: {listed}

{DATA_NOTICE}

{text}

Reply with JSON only: {{"reason": "<one sentence>", "verdict": <exactly one of {listed}>}}"""

    @staticmethod
    def generate_reason(name: str, score: float, verbose_steps: list[str]) -> str:
        """Explain the score from the path the graph took; reply ``{"reason": "..."}`` (``MetricScoreReason``)."""
        path = quote("data", "\n\n".join(verbose_steps))
        return f"""A decision graph scored a test case for the metric "{name}". Explain the score {score:.2f} in one or \
two sentences, naming the decisions along the path that led to it.

{DATA_NOTICE}

The path, node by node:
{path}

Reply with JSON only: {{"reason": "The score is {score:.2f} because ..."}}"""
