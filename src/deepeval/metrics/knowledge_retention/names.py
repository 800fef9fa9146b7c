"""Knowledge retention's names shared by its modules: its own System One question kinds and the test-case fields it
needs (the declaration lists them; the questions, the embedded scorers and the metric use them)."""

#: whole-metric System One kinds (system_one mode): noul weight 2, noul weight 1, a 4-level retention level
#: (forgets most / several / one minor / none)
NO_FORGETTING = "knowledge_retention.no_forgetting"
NO_REASKING = "knowledge_retention.no_reasking"
RETENTION_LEVEL = "knowledge_retention.retention_level"

#: the test-case fields a measure needs (a ConversationalTestCase always has them)
REQUIRED_PARAMS = ("turns",)
