"""The toy metric's declaration: the one thing the registry needs."""

from __future__ import annotations

from deepeval.metrics.declaration import JudgeEvalTask, MetricDeclaration

from .names import REQUIRED_PARAMS, SHARES_WORDS

PACKAGE = __name__.rpartition(".")[0]

DECLARATION = MetricDeclaration(
    name="toy_overlap",
    public_name="ToyOverlapMetric",
    cls=f"{PACKAGE}.metric:ToyOverlapMetric",
    conversational=False,
    required_params=REQUIRED_PARAMS,
    question_kinds=(SHARES_WORDS,),
    embedded_kinds=f"{PACKAGE}.embedded:KINDS",
    judge_eval=(
        JudgeEvalTask(
            name="toy_overlap",
            labels=("overlaps", "disjoint"),
            check=f"{PACKAGE}.judge_eval:check_item",
            runner=f"{PACKAGE}.judge_eval:run_item",
            baseline="always overlaps",
        ),
    ),
)
DECLARATIONS = (DECLARATION,)
