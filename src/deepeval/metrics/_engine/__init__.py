"""Machinery shared by our metrics: verdict normalisation, judge resolution, the hybrid decision runner with LLM
fallback, the system_one runner and deterministic reasons, scoring and strict mode, and the LLM-backed extractor."""

from deepeval.metrics._engine.context import Decision, MeasureContext
from deepeval.metrics._engine.decisions import FALLBACK_KINDS, decide
from deepeval.metrics._engine.extractor import LLMExtractor
from deepeval.metrics._engine.metric import EngineMetric, Outcome
from deepeval.metrics._engine.system_one import WeightedQuestion
from deepeval.metrics._engine.verdicts import (
    binary_from_probability,
    normalize_verdict,
    ternary_from_probability,
)
from deepeval.metrics.delimit import DATA_NOTICE, STATE_NOTE, quote, quote_list

__all__ = [
    "DATA_NOTICE",
    "FALLBACK_KINDS",
    "STATE_NOTE",
    "Decision",
    "EngineMetric",
    "LLMExtractor",
    "MeasureContext",
    "Outcome",
    "WeightedQuestion",
    "binary_from_probability",
    "decide",
    "normalize_verdict",
    "quote",
    "quote_list",
    "ternary_from_probability",
]
