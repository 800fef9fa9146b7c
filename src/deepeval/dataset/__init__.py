"""Datasets: :class:`EvaluationDataset` holds :class:`Golden` (single-turn) or :class:`ConversationalGolden`
(multi-turn) goldens and test cases, loaded from and saved to local JSON, CSV and JSONL files.

Goldens become test cases in user code::

    dataset = EvaluationDataset()
    dataset.add_goldens_from_json_file("goldens.json")
    test_cases = [LLMTestCase(input=g.input, actual_output=app(g.input)) for g in dataset.goldens]
    evaluate(test_cases, [AnswerRelevancyMetric()])

or, with an app instrumented with ``@observe``, ``for golden in dataset.evals_iterator(): app(golden.input)``
(component-level evaluation, :mod:`deepeval.evaluate.components`); :func:`get_current_golden` is the golden of the
iteration the code runs in.
"""

from deepeval.contextvars import get_current_golden
from deepeval.dataset.dataset import EvaluationDataset
from deepeval.dataset.golden import (
    BackgroundNoiseSettings,
    ConversationalGolden,
    Expectations,
    Golden,
    InterruptionBehavior,
    Persona,
)
from deepeval.errors import (
    ConfidentAIRequiredError,
    DatasetError,
    DatasetFileError,
    InvalidGoldenError,
    UnsupportedFeatureError,
)

__all__ = [
    "BackgroundNoiseSettings",
    "ConfidentAIRequiredError",
    "ConversationalGolden",
    "DatasetError",
    "DatasetFileError",
    "EvaluationDataset",
    "Expectations",
    "Golden",
    "InterruptionBehavior",
    "InvalidGoldenError",
    "Persona",
    "UnsupportedFeatureError",
    "get_current_golden",
]
