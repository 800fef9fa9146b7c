"""Per-item scorers of the embedded judge: calibrated P(yes) for one decision.

Each scorer computes its features (:mod:`deepeval.models.embedded.features`) and applies the calibrated model of
its kind (:mod:`deepeval.models.embedded.calibrated`). All return a probability in [0.005, 0.995].
"""

from __future__ import annotations

from collections.abc import Sequence

from deepeval.models.embedded import features as ft
from deepeval.models.embedded.calibrated import get_model


def statement_relevant(question: str, statement: str) -> float:
    """P(``statement`` is relevant to ``question``)."""
    return get_model("statement_relevant").probability(ft.relevance_features(question, statement))


def context_statement_relevant(question: str, statement: str, node: str | None = None) -> float:
    """P(``statement``, a sentence of the retrieved passage ``node``, helps answer ``question``). Trained on ClapNQ
    passage sentences (annotator-selected vs the other sentences of the same passage), not on answer statements;
    without ``node`` the statement is read as a passage of one sentence."""
    return get_model("context_statement_relevant").probability(
        ft.context_statement_features(question, statement, node)
    )


def node_relevant(question: str, node: str) -> float:
    """P(context ``node`` holds something relevant to ``question``)."""
    return get_model("context_node_relevant").probability(ft.node_features(question, node))


def claim_supported(claim: str, source: str) -> float:
    """P(``claim`` is supported by ``source``)."""
    return get_model("claim_supported").probability(ft.support_features(claim, source))


def turn_probabilities(
    facts: Sequence[str], assistant_message: str, user_message: str | None = None
) -> dict[str, float]:
    """``{"forgets": p, "reasks": p, "attrition": p}`` for one assistant turn against the user's known facts.

    With no facts there is nothing to forget or re-ask: every probability is the floor (0.005).
    """
    if not [f for f in facts if f.strip()] and not user_message:
        return {"forgets": 0.005, "reasks": 0.005, "attrition": 0.005}
    feats = ft.retention_features(facts, assistant_message, user_message)
    return {
        "forgets": get_model("turn_forgets").probability(feats),
        "reasks": get_model("turn_reasks").probability(feats),
        "attrition": get_model("turn_attrition").probability(feats),
    }
