"""FaithfulnessMetric on its declared pipeline: deepeval 4.3.1's algorithm in llm mode (truths, claims, one verdict
per claim; yes and idk faithful unless ``penalize_ambiguous_claims``; no claims -> 1), hybrid (System One decides each
claim with the shared ``claim_supported`` kind), system_one (three whole-metric questions) and the embedded default."""

from __future__ import annotations

from typing import Any

import pytest

from deepeval.errors import ConfigurationError, MissingTestCaseParamsError
from deepeval.metrics import FaithfulnessMetric
from deepeval.models.system_one import kinds as K
from deepeval.test_case import LLMTestCase
from deepeval.testing.scripted import ScriptedLLM, ScriptedSystemOne

from .helpers import block

CONTEXT = ["The Arlo ferry leaves at 9:00 and 15:00. Dogs on a lead travel free."]
OUTPUT = "The ferry leaves at 9:00. Dogs pay 4 euros. The ferry has a cafe."
CLAIMS = ["The ferry leaves at 9:00.", "Dogs pay 4 euros.", "The ferry has a cafe."]
TRUTHS = ["The Arlo ferry leaves at 9:00 and 15:00.", "Dogs on a lead travel free."]


def judge(verdicts: list[str], claims: list[str] = CLAIMS, truths: list[str] = TRUTHS) -> ScriptedLLM:
    def respond(prompt: str, schema: Any) -> Any:
        name = schema.__name__
        if name == "Truths":
            return {"truths": truths}
        if name == "Claims":
            return {"claims": claims}
        if name == "Verdicts":
            return {"verdicts": [{"reason": f"r{i}", "verdict": v} for i, v in enumerate(verdicts)]}
        assert name == "FaithfulnessScoreReason"
        return {"reason": "scripted reason"}

    return ScriptedLLM(respond)


def case(output: str = OUTPUT, context: list[str] | None = CONTEXT) -> LLMTestCase:
    return LLMTestCase(input="When does the ferry leave?", actual_output=output, retrieval_context=context)


@pytest.mark.parametrize(
    ("verdicts", "penalize", "score"),
    [
        (["yes", "no", "idk"], False, 2 / 3),
        (["yes", "no", "idk"], True, 1 / 3),
        (["yes", "yes", "yes"], False, 1.0),
        (["no", "no", "no"], False, 0.0),
        (["idk", "idk", "idk"], True, 0.0),
    ],
)
@pytest.mark.parametrize("async_mode", [True, False])
def test_llm_mode_scores_the_share_of_faithful_claims(
    verdicts: list[str], penalize: bool, score: float, async_mode: bool
) -> None:
    llm = judge(verdicts)
    m = FaithfulnessMetric(
        model=llm, eval_mode="llm", penalize_ambiguous_claims=penalize, async_mode=async_mode
    )
    assert m.measure(case()) == pytest.approx(score)
    assert sorted(c.schema.__name__ for c in llm.calls) == sorted(
        ["Truths", "Claims", "Verdicts", "FaithfulnessScoreReason"]
    )
    assert m.claims == CLAIMS and m.truths == TRUTHS and m.reason == "scripted reason"
    assert m.score_breakdown["claims"] == 3 and m.score_breakdown["truths"] == 2
    assert [v["verdict"] for v in m.verdicts] == [v.replace("idk", "borderline") for v in verdicts]
    verdict_prompt = next(c.prompt for c in llm.calls if c.schema.__name__ == "Verdicts")
    assert TRUTHS[1] in block(verdict_prompt, "FACTS") and CLAIMS[2] in block(verdict_prompt, "CLAIMS")


def test_no_claims_scores_one_without_a_verdict_call() -> None:
    llm = judge([], claims=[])
    m = FaithfulnessMetric(model=llm, eval_mode="llm")
    assert m.measure(case()) == 1.0
    assert "no claims" in (m.reason or "")
    assert "Verdicts" not in [c.schema.__name__ for c in llm.calls]


def test_truths_extraction_limit_reaches_the_prompt_and_negative_counts_as_zero() -> None:
    llm = judge(["yes", "yes", "yes"])
    FaithfulnessMetric(model=llm, eval_mode="llm", truths_extraction_limit=2).measure(case())
    assert "2 most important facts" in next(c.prompt for c in llm.calls if c.schema.__name__ == "Truths")
    assert FaithfulnessMetric(model=llm, truths_extraction_limit=-3).truths_extraction_limit == 0


@pytest.mark.parametrize("missing", ["actual_output", "retrieval_context"])
def test_a_missing_field_raises_naming_it(missing: str) -> None:
    m = FaithfulnessMetric(model=judge([]), eval_mode="llm")
    with pytest.raises(MissingTestCaseParamsError, match=missing):
        m.measure(
            LLMTestCase(**{"input": "q", "actual_output": "a", "retrieval_context": ["c"], missing: None})
        )


def test_strict_mode_zeroes_a_score_below_one() -> None:
    m = FaithfulnessMetric(model=judge(["yes", "no", "yes"]), eval_mode="llm", strict_mode=True)
    assert m.measure(case()) == 0.0 and m.threshold == 1 and m.success is False


def test_hybrid_asks_system_one_the_shared_claim_kind_and_skips_truths() -> None:
    llm = judge(["yes", "yes", "yes"])
    s1 = ScriptedSystemOne(lambda state, qs: dict(zip(qs, [0.9, 0.1, 0.5], strict=True)))
    m = FaithfulnessMetric(model=llm, system_one_model=s1, eval_mode="hybrid")
    assert m.measure(case()) == pytest.approx(2 / 3)  # yes, no, borderline (faithful)
    assert [c.schema.__name__ for c in llm.calls] == ["Claims", "FaithfulnessScoreReason"]
    (call,) = s1.calls
    assert {q.kind for q in call.questions.values()} == {K.CLAIM_SUPPORTED}
    assert call.state["source"] == CONTEXT[0]
    assert [v["decided_by"] for v in m.verdicts] == ["system_one"] * 3


def test_hybrid_falls_back_to_the_llm_for_what_system_one_did_not_answer() -> None:
    llm = judge(["no"])
    s1 = ScriptedSystemOne(lambda state, qs: {k: 0.9 for k in list(qs)[:2]})
    m = FaithfulnessMetric(model=llm, system_one_model=s1, eval_mode="hybrid")
    assert m.measure(case()) == pytest.approx(2 / 3)
    assert "Truths" in [c.schema.__name__ for c in llm.calls]  # extracted for the verdict prompt only now
    assert m.verdicts[2]["decided_by"] == "llm_fallback" and "1 of 3" in (m.system_one_fallback_reason or "")


def test_system_one_mode_asks_the_three_whole_metric_questions() -> None:
    s1 = ScriptedSystemOne(
        lambda state, qs: {"all_supported": 1.0, "no_contradiction": 0.0, "grounded_share": 3.0}
    )
    m = FaithfulnessMetric(system_one_model=s1, eval_mode="system_one")
    assert m.measure(case()) == pytest.approx((2 * 1.0 + 0.0 + 1.0) / 4)
    (call,) = s1.calls
    assert call.state == {"actual_output": OUTPUT, "retrieval_context": CONTEXT}
    assert [q.kind for q in call.questions.values()] == [
        "faithfulness.all_supported",
        "faithfulness.no_contradiction",
        "faithfulness.grounded_share",
    ]


def test_the_embedded_default_decides_each_claim_offline_only_when_penalizing() -> None:
    test_case = case(output="The Arlo ferry leaves at 9:00 and 15:00. The ferry leaves at midnight.")
    # 4.3.1's reading needs contradicted told from unstated, which no offline tier answers: refused, named
    with pytest.raises(ConfigurationError, match="penalize_ambiguous_claims=True"):
        FaithfulnessMetric(eval_mode="hybrid").measure(test_case)
    # penalized, supported against the rest is enough: each claim decided by the embedded judge
    m = FaithfulnessMetric(eval_mode="hybrid", penalize_ambiguous_claims=True)
    score = m.measure(test_case)
    assert len(m.verdicts) == 2 and all(v["decided_by"] == "embedded" for v in m.verdicts)
    assert m.verdicts[0]["p_yes"] > m.verdicts[1]["p_yes"]
    assert m.verdicts[0]["verdict"] == "yes" and 0.0 < score < 1.0
    assert m.reason is not None and m.reason.startswith(f"The score is {score:.2f}")


def test_the_embedded_judge_answers_the_whole_metric_kinds() -> None:
    m = FaithfulnessMetric(eval_mode="system_one")
    assert 0.0 <= m.measure(case()) <= 1.0
    assert set(m.score_breakdown["questions"]) == {"all_supported", "no_contradiction", "grounded_share"}


@pytest.mark.parametrize("context", [[], [""], ["  ", "!!"]], ids=["empty", "blank_node", "no_words"])
@pytest.mark.parametrize("mode", ["llm", "hybrid", "system_one"])
def test_no_facts_scores_without_a_judge_call(context: list[str], mode: str) -> None:
    llm = judge(["yes"] * len(CLAIMS))
    s1 = ScriptedSystemOne(lambda state, qs: dict.fromkeys(qs, 0.9))
    metric = FaithfulnessMetric(model=llm, system_one_model=s1, eval_mode=mode)
    assert metric.measure(case(context=context)) == 1.0
    assert metric.reason is not None and "holds no facts" in metric.reason
    assert llm.call_count == 0 and s1.call_count == 0
    strict = FaithfulnessMetric(
        model=llm, system_one_model=s1, eval_mode=mode, penalize_ambiguous_claims=True
    )
    assert strict.measure(case(context=context)) == 0.0
    assert strict.reason is not None and "no claim of the actual output can be supported" in strict.reason
    assert llm.call_count == 0 and s1.call_count == 0
