"""The toy's names shared by its modules (the declaration lists them; the metric and its scorer use them)."""

#: the toy's own System One question kind, answered by the embedded judge through ``embedded.KINDS``
SHARES_WORDS = "toy_overlap.shares_words"
REQUIRED_PARAMS = ("input", "actual_output")
