"""Contextual relevancy's names shared by its modules: its own System One question kinds and the test-case fields it
needs (the declaration lists them; the questions, the embedded scorers and the metric use them)."""

#: whole-metric System One kinds (system_one mode): noul weight 2, noul weight 1, a 4-level share
ALL_RELEVANT = "contextual_relevancy.all_relevant"
EVERY_NODE_RELEVANT = "contextual_relevancy.every_node_relevant"
RELEVANT_SHARE = "contextual_relevancy.relevant_share"

#: the test-case fields a measure needs (checked by the metric, listed by the declaration)
REQUIRED_PARAMS = ("input", "actual_output", "retrieval_context")
