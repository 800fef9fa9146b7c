"""The embedded judge's question-kind registry: one entry per kind the System One contract names, each checking
its own fields before its scorer runs."""

from __future__ import annotations

import pytest

from deepeval.errors import SystemOneError
from deepeval.metrics import registry
from deepeval.metrics.contextual_relevancy.names import RELEVANT_SHARE as CR_RELEVANT_SHARE
from deepeval.models.embedded import get_embedded_judge
from deepeval.models.embedded.question_kinds import KINDS, spec_for, supported_kinds
from deepeval.models.system_one import kinds as K
from deepeval.models.system_one.schema import NoulQuestion, ScoreQuestion

METRIC_KINDS = {k for d in registry.declarations() for k in d.question_kinds}


def test_registry_holds_exactly_the_contract_kinds() -> None:
    """Walked, not listed: the shared decision kinds, and each declared metric's own kinds that it says the embedded
    judge answers (an ``embedded_kinds`` table, or a pipeline's whole-metric questions with an offline rule over a
    unit kind the embedded judge answers); a metric whose kinds no offline tier answers says what to configure
    instead."""
    assert set(KINDS) == set(K.DECISION_KINDS)
    assert METRIC_KINDS and all(k.partition(".")[0] in registry.names() for k in METRIC_KINDS)
    supported = supported_kinds()
    assert K.DECISION_KINDS <= supported <= K.DECISION_KINDS | METRIC_KINDS
    for d in registry.declarations():
        if d.embedded_kinds is not None:
            assert set(d.question_kinds) <= supported, d.name
        if d.pipeline is not None and d.pipeline.question.kind in KINDS:
            answered = {d.pipeline.kind_of(w) for w in d.pipeline.whole_metric if w.offline is not None}
            assert answered <= supported, d.name
    assert all(spec.fields for k in supported if (spec := spec_for(k)) is not None)


@pytest.mark.parametrize("kind", sorted(supported_kinds()))
def test_each_kind_names_its_first_missing_field(kind: str) -> None:
    spec = spec_for(kind)
    assert spec is not None
    first = spec.fields[0]
    with pytest.raises(SystemOneError) as info:
        get_embedded_judge().decide({}, {"q": NoulQuestion(instructions="x", kind=kind)})
    assert info.value.kind == "bad_request"
    assert f"question kind {kind!r} needs the field {first!r}" in str(info.value)


def test_kind_with_its_own_scale_fits_the_asked_levels() -> None:
    state = {
        "input": "What is the capital of France?",
        "retrieval_context": ["Paris is the capital of France."],
    }
    judge = get_embedded_judge()
    four = ScoreQuestion(instructions="x", kind=CR_RELEVANT_SHARE, levels=list("1234"))
    five = ScoreQuestion(instructions="x", kind=CR_RELEVANT_SHARE, levels=list("12345"))
    answers, _ = judge.decide(state, {"four": four, "five": five})
    assert set(answers.scores["four"].probabilities) == {0, 1, 2, 3}
    assert set(answers.scores["five"].probabilities) == {0, 1, 2, 3, 4}
    # the same relative expected level on both scales
    assert answers.scores["four"].score / 3 == pytest.approx(answers.scores["five"].score / 4, abs=1e-9)
