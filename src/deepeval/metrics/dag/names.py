"""DAGMetric's names: the fields the declaration lists (each graph requires the fields its nodes name)."""

REQUIRED_PARAMS = ("input", "actual_output")
