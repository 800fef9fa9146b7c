"""The toy's pipeline: the claims of the output, each asked whether the input supports it (the shared
``claim_supported`` kind, which the embedded judge answers)."""

from __future__ import annotations

from deepeval.metrics.pipeline import (
    UNIT,
    Pipeline,
    Reason,
    ShareScore,
    UnitQuestion,
    Units,
    WholeMetricQuestion,
)

from .schema import ToyClaims, ToyReason, ToyVerdicts

PIPELINE = Pipeline(
    name="toy_support",
    display_name="ToySupport",
    required=("input", "actual_output"),
    units=(Units("claims", "actual_output", "generate_claims", ToyClaims, extraction="claims"),),
    question=UnitQuestion(
        units="claims",
        kind="claim_supported",
        text="Does `source` support this claim?",
        fields={"claim": UNIT, "source": "input"},
        label="toy claim",
        prompt="generate_verdicts",
        schema=ToyVerdicts,
        inputs=("input",),
        gold_labels=("supported", "unsupported"),
    ),
    score=ShareScore(passing=("yes",), empty=1.0, empty_reason="No claims."),
    reason=Reason(schema=ToyReason, unit="claim", passes="supported", fails="unsupported"),
    whole_metric=(
        WholeMetricQuestion(
            "all_supported", "Does `input` support every claim of `actual_output`?", "all", 2.0
        ),
        WholeMetricQuestion(
            "share",
            "How much of `actual_output` does `input` support?",
            "share",
            answer="score",
            levels=("none", "some", "most", "all"),
            offline="share",
        ),
    ),
    whole_metric_fields=("input", "actual_output"),
    labels=("toy answer", "toy question", "toy claims", "toy claim", "toy judged"),
)
