"""ConversationalDAGMetric's names: the fields every instance needs (its turns)."""

REQUIRED_PARAMS = ("turns",)
