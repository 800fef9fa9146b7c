"""deepeval 4.3.1's module path ``deepeval.metrics.dag.dag`` (``DAGMetric``, ``DeepAcyclicGraph``)."""

from deepeval.metrics.dag.graph import DeepAcyclicGraph
from deepeval.metrics.dag.metric import DAGMetric

__all__ = ["DAGMetric", "DeepAcyclicGraph"]
