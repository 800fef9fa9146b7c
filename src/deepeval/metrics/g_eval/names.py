"""GEval's names shared by its modules: its System One question kind and the test-case fields named by
``evaluation_params`` (the declaration lists the fields a GEval may name; each instance requires its own)."""

#: the score question GEval sends to System One (hybrid and system_one modes)
CRITERIA_SCORE = "g_eval.criteria_score"

#: the test-case fields every GEval needs: none fixed (each instance requires the fields its ``evaluation_params``
#: name); the declaration lists the two real code names most
REQUIRED_PARAMS = ("input", "actual_output")
