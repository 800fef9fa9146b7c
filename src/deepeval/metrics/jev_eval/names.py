"""JevEval's names shared by its modules: the fields the declaration lists (each instance requires the fields its
``evaluation_params`` name). Its questions are the user's, so it has no question kind of its own."""

REQUIRED_PARAMS = ("input", "actual_output")
