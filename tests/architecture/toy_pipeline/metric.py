"""The toy's class: its pipeline and its prompts, nothing else."""

from __future__ import annotations

from deepeval.metrics.pipeline import PipelineMetric

from .pipeline import PIPELINE
from .prompts import ToySupportTemplate


class ToySupportMetric(PipelineMetric):
    pipeline = PIPELINE
    default_template = ToySupportTemplate
