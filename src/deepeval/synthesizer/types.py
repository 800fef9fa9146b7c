"""The evolution kinds (deepeval 4.3.1's names and values).

``Evolution`` rewrites an input grounded in its context; ``PromptEvolution`` is the context-free set used when there
is no context (goldens from scratch): the same kinds without ``MULTICONTEXT``.
"""

from __future__ import annotations

from enum import Enum


class Evolution(Enum):
    REASONING = "Reasoning"
    MULTICONTEXT = "Multi-context"
    CONCRETIZING = "Concretizing"
    CONSTRAINED = "Constrained"
    COMPARATIVE = "Comparative"
    HYPOTHETICAL = "Hypothetical"
    IN_BREADTH = "In-Breadth"


class PromptEvolution(Enum):
    REASONING = "Reasoning"
    CONCRETIZING = "Concretizing"
    CONSTRAINED = "Constrained"
    COMPARATIVE = "Comparative"
    HYPOTHETICAL = "Hypothetical"
    IN_BREADTH = "In-Breadth"
