"""GEval's declaration (read by :mod:`deepeval.metrics.registry`).

No ``cli_default`` and no judge-eval task: a GEval is defined by its user (name, criteria or steps, the fields it
judges), so ``deepeval evaluate`` runs it only when named and there is no fixed labelled set for it. Its score
question carries the kind ``g_eval.criteria_score`` (names.py) for local judges, but the declaration lists no
question kind: no offline tier answers free criteria (the metric says what to configure instead).
"""

from __future__ import annotations

from deepeval.metrics.declaration import MetricDeclaration
from deepeval.metrics.g_eval.names import REQUIRED_PARAMS

DECLARATIONS = (
    MetricDeclaration(
        name="g_eval",
        public_name="GEval",
        cls="deepeval.metrics.g_eval.metric:GEval",
        conversational=False,
        required_params=REQUIRED_PARAMS,
        user_defined=True,
        takes_eval_mode=True,
        helpers=(
            "deepeval.metrics.g_eval.prompts:GEvalTemplate",
            # an arena metric is no BaseMetric (evaluate() does not run it), so it has no declaration of its own
            "deepeval.metrics.arena_g_eval.metric:ArenaGEval",
        ),
    ),
)
