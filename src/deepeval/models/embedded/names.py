"""Names of the embedded judge's parts, importable without loading the judge (metrics name their judges at
construction from these)."""

from __future__ import annotations

#: ``EmbeddedJudge.get_model_name()``
MODEL_NAME = "deepeval-local-1 (embedded, offline)"
#: ``DeterministicExtractor.get_model_name()``
EXTRACTOR_NAME = "deepeval-local-1 deterministic extraction"
