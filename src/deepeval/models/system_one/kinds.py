"""Question kinds: ids that tell a local System One model what a question asks and which fields it gets.

Fields come from the request ``state`` (when it is a dict) merged with the question's ``data``.
A local model that does not know a kind raises :class:`deepeval.errors.UnsupportedQuestionError` naming it.

These are the decision kinds every metric may ask; a metric's own whole-metric kinds (system_one mode, state = the
raw test case, named ``"<metric>.<question>"``) are declared in its folder (``declaration.py``) and listed by
the metric registry (:mod:`deepeval.metrics.registry`, ``question_kinds``).
"""

from __future__ import annotations

# --- decision kinds (hybrid mode, memory grading) ---------------------------------------------------------------
#: noul. fields: input, statement. P(yes) = the statement is relevant to the input.
STATEMENT_RELEVANT = "statement_relevant"
#: noul. fields: input, statement. P(yes) = this statement of a retrieved context passage helps answer the input
#: (a separate kind from :data:`STATEMENT_RELEVANT`, which judges statements of an answer).
CONTEXT_STATEMENT_RELEVANT = "context_statement_relevant"
#: noul. fields: input, node. P(yes) = the context node holds something relevant to the input.
CONTEXT_NODE_RELEVANT = "context_node_relevant"
#: noul. fields: input, expected_output, node. P(yes) = the retrieved context node holds information needed to
#: arrive at ``expected_output`` as the answer to ``input`` (ContextualPrecision asks it of every node).
CONTEXT_NODE_USEFUL = "context_node_useful"
#: noul. fields: facts (list[str], user facts known before this turn), assistant_message, user_message (optional,
#: the user turn just before). P(yes) = the assistant message forgets or contradicts a known fact, or re-asks for
#: information already given (clarifying or confirming does not count) = knowledge attrition.
TURN_ATTRITION = "turn_attrition"
#: noul. same fields. P(yes) = the assistant message forgets or contradicts a known fact.
TURN_FORGETS = "turn_forgets"
#: noul. same fields. P(yes) = the assistant message asks again for information the user already gave.
TURN_REASKS = "turn_reasks"
#: noul or score (5 levels, 1..5 as index 0..4). fields: claim, source. Is the claim supported by the source?
CLAIM_SUPPORTED = "claim_supported"
#: noul. fields: claim, source. P(yes) = the source contradicts the claim: it states something that cannot hold at
#: the same time (another number, date, name or place for the same thing, the opposite, a negation). A claim the
#: source is silent on, or only partly covers, is "no" (not stated is not contradicted). Faithfulness asks it of
#: the claims the source does not support (its idk vs no); Hallucination of the output against each document.
CLAIM_CONTRADICTED = "claim_contradicted"
#: score, 5 levels (index 0..4 = grades 1..5). fields: question, expected, answer.
ANSWER_MATCHES_EXPECTED = "answer_matches_expected"
#: noul. fields: text, and fact (a statement) or question. P(yes) = the text states the fact (or states the answer
#: to the question); something on the same topic that does not say it is "no". Memory never-stated probes and
#: claim support ask it.
FACT_STATED = "fact_stated"

DECISION_KINDS = frozenset(
    {
        STATEMENT_RELEVANT,
        CONTEXT_STATEMENT_RELEVANT,
        CONTEXT_NODE_RELEVANT,
        CONTEXT_NODE_USEFUL,
        TURN_ATTRITION,
        TURN_FORGETS,
        TURN_REASKS,
        CLAIM_SUPPORTED,
        CLAIM_CONTRADICTED,
        ANSWER_MATCHES_EXPECTED,
        FACT_STATED,
    }
)
