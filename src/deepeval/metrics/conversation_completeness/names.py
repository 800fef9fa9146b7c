"""Conversation completeness's names shared by its modules: its own System One question kinds and the test-case
fields it needs."""

#: hybrid: is this user intention satisfied by the assistant's turns?
INTENTION_SATISFIED = "conversation_completeness.intention_satisfied"
#: whole-metric kinds (system_one mode): noul weight 2, noul weight 1, a 4-level share of satisfied intentions
ALL_SATISFIED = "conversation_completeness.all_satisfied"
NONE_IGNORED = "conversation_completeness.none_ignored"
SATISFIED_SHARE = "conversation_completeness.satisfied_share"

#: the test-case fields a measure needs (a ConversationalTestCase always has them)
REQUIRED_PARAMS = ("turns",)
