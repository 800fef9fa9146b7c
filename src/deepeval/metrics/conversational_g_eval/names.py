"""ConversationalGEval's names shared by its modules."""

#: the score question ConversationalGEval sends to System One (hybrid and system_one modes)
CRITERIA_SCORE = "conversational_g_eval.criteria_score"

#: the fields every ConversationalGEval needs (its turns' content and role; each instance adds its own)
REQUIRED_PARAMS = ("turns",)
