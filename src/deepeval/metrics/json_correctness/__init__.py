"""JSON correctness: does ``actual_output`` validate against a pydantic schema? Scored in code; an LLM (when one is
configured) only writes the reason of a failure.

Exports are imported on first use, so reading the metric's ``declaration`` (the metric registry) stays light.
"""

from deepeval._lazy import lazy_exports

__all__ = ["PROMPT_VERSION", "JsonCorrectnessMetric", "JsonCorrectnessTemplate"]
__getattr__ = lazy_exports(
    __name__,
    {
        "JsonCorrectnessMetric": "deepeval.metrics.json_correctness.metric",
        "JsonCorrectnessTemplate": "deepeval.metrics.json_correctness.prompts",
        "PROMPT_VERSION": "deepeval.metrics.json_correctness.prompts",
    },
)
