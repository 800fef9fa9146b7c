"""ConversationalJevEval's names: the fields every instance needs (its turns; each adds the fields it names)."""

REQUIRED_PARAMS = ("turns",)
