"""The toy metric's declaration: the one thing the registry needs."""

from __future__ import annotations

from deepeval.metrics.declaration import JudgeEvalTask, MetricDeclaration

PACKAGE = __name__.rpartition(".")[0]
#: the toy's own System One question kind, answered by the embedded judge through ``embedded.KINDS``
SHARES_WORDS = "toy_overlap.shares_words"
REQUIRED_PARAMS = ("input", "actual_output")

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
