"""Summarization's names shared by its modules: its own System One question kinds and the test-case fields it needs."""

#: whole-metric System One kinds (system_one mode): noul weight 2, noul weight 1, a 4-level share, and one noul per
#: user-supplied assessment question
ALIGNED = "summarization.aligned"
COVERS_MAIN_POINTS = "summarization.covers_main_points"
PRESERVED_SHARE = "summarization.preserved_share"
QUESTION_ANSWERABLE = "summarization.question_answerable"

#: the test-case fields a measure needs: the original text is ``input``, the summary ``actual_output``
REQUIRED_PARAMS = ("input", "actual_output")
