"""The shared ``claim_contradicted`` decision kind and what it gives offline: Faithfulness' three verdicts (supported
-> yes, contradicted -> no, else idk) and Hallucination's per-document verdicts, decided by the encoder where it can
rule a contradiction out and by a scripted local reader (a Python-level model answering from its prompt) otherwise."""

from __future__ import annotations

import math
import warnings

import pytest

from deepeval.errors import ConfigurationError
from deepeval.metrics import FaithfulnessMetric, HallucinationMetric
from deepeval.models.embedded import cascade, scorers
from deepeval.models.embedded.judge import EmbeddedJudge
from deepeval.models.embedded.question_kinds import KINDS
from deepeval.models.embedded.reader import READER_KEY, Reader
from deepeval.models.embedded.reader_prompts import PROMPTS
from deepeval.models.logprobs import LogprobCompletion, TokenLogprob
from deepeval.models.system_one import kinds as K
from deepeval.test_case import LLMTestCase

CONTRADICT_Q = "Does the source contradict the claim?"


class ScriptedReader:
    """P(yes) by the question the prompt ends with and the claim it quotes: ``contradicted`` (claim -> P) for the
    contradiction question, ``stated`` for the others; 0.5 for anything else. Records every prompt."""

    def __init__(self, contradicted: dict[str, float], stated: dict[str, float] | None = None) -> None:
        self.contradicted = contradicted
        self.stated = stated or {}
        self.prompts: list[str] = []

    def get_model_name(self) -> str:
        return "scripted-reader"

    async def a_generate_with_logprobs(
        self, prompt: str, top_logprobs: int = 20, max_tokens: int = 1
    ) -> tuple[LogprobCompletion, float | None]:
        self.prompts.append(prompt)
        table = self.contradicted if CONTRADICT_Q in prompt else self.stated
        tail = prompt[-800:]
        p = next((v for k, v in table.items() if k in tail), 0.5)
        top = {"Yes": math.log(max(p, 1e-9)), "No": math.log(max(1 - p, 1e-9))}
        first = "Yes" if p >= 0.5 else "No"
        return LogprobCompletion(first, [TokenLogprob(first, top[first], top)], 10, 1), 0.0


@pytest.fixture
def plain_reader_calibration(monkeypatch: pytest.MonkeyPatch) -> None:
    """The reader's P(contradicted) taken as it comes (identity calibration, unsure between 0.3 and 0.7)."""
    monkeypatch.setitem(
        cascade.READER_CALIBRATION,
        K.CLAIM_CONTRADICTED,
        cascade.Calibration(0.0, 1.0, cascade.Band(0.3, 0.7)),
    )


def judge_with(reader: ScriptedReader | None) -> EmbeddedJudge:
    return EmbeddedJudge(None if reader is None else Reader(lambda: reader, "scripted-reader"))


SHOP = LLMTestCase(
    input="Tell me about the shop.",
    actual_output="The shop opens at 9am every day. Parking at the shop is free. The shop sells bicycles.",
    retrieval_context=["The shop opens at 9am every day.", "Parking at the shop costs 2 EUR per hour."],
)
SUPPORTED, CONTRADICTED, NOT_STATED = (
    "The shop opens at 9am every day",
    "Parking at the shop is free",
    "The shop sells bicycles",
)


# -- the kind -----------------------------------------------------------------------------------------------------
def test_the_kind_is_a_shared_decision_kind_with_a_reader_prompt_and_an_encoder_rule() -> None:
    assert K.CLAIM_CONTRADICTED == "claim_contradicted" and K.CLAIM_CONTRADICTED in K.DECISION_KINDS
    assert KINDS[K.CLAIM_CONTRADICTED].fields == ("claim", "source")
    prompt = PROMPTS[K.CLAIM_CONTRADICTED]({"claim": "Parking is free.", "source": "Parking costs 2 EUR."})
    assert prompt.text().startswith(prompt.head) and prompt.labels == ("yes", "no")
    assert "Source:\nParking costs 2 EUR." in prompt.body and prompt.body.endswith("Claim: Parking is free.")
    assert prompt.question == f"{CONTRADICT_Q} Answer Yes or No."
    # the encoder rules a contradiction out for a supported claim and cannot tell otherwise
    source = "The shop opens at 9am every day."
    assert scorers.claim_contradicted("The shop opens at 9am every day.", source) <= 0.2
    assert scorers.claim_contradicted("The shop is closed on Mondays.", source) == cascade.ENCODER_CANNOT_TELL
    assert cascade.needs_reader(K.CLAIM_CONTRADICTED, cascade.ENCODER_CANNOT_TELL)
    assert not cascade.needs_reader(K.CLAIM_CONTRADICTED, 0.05)


def test_the_judge_answers_the_kind_only_with_a_reader_that_reads_it(
    plain_reader_calibration: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert judge_with(ScriptedReader({})).answers(K.CLAIM_CONTRADICTED)
    assert not judge_with(None).answers(K.CLAIM_CONTRADICTED)  # its "yes" is the reader's alone
    assert judge_with(None).answers(K.CLAIM_SUPPORTED)
    assert not judge_with(None).answers("hallucination.context_agrees")
    monkeypatch.delitem(cascade.READER_CALIBRATION, K.CLAIM_CONTRADICTED)  # not measured: never read
    assert not judge_with(ScriptedReader({})).answers(K.CLAIM_CONTRADICTED)


# -- Faithfulness: three verdicts ---------------------------------------------------------------------------------
@pytest.mark.parametrize("async_mode", [True, False])
@pytest.mark.parametrize(("penalize", "score"), [(False, 2 / 3), (True, 1 / 3)])
def test_faithfulness_offline_reads_supported_contradicted_and_not_stated_as_yes_no_idk(
    plain_reader_calibration: None, async_mode: bool, penalize: bool, score: float
) -> None:
    reader = ScriptedReader(
        {CONTRADICTED: 0.92, NOT_STATED: 0.08}, stated={CONTRADICTED: 0.05, NOT_STATED: 0.05}
    )
    metric = FaithfulnessMetric(
        system_one_model=judge_with(reader), async_mode=async_mode, penalize_ambiguous_claims=penalize
    )
    assert metric.measure(SHOP) == pytest.approx(score)
    verdicts = {v["claim"]: v for v in metric.verdicts}
    assert [verdicts[c]["verdict"] for c in (SUPPORTED, CONTRADICTED, NOT_STATED)] == [
        "yes",
        "no",
        "borderline",
    ]
    assert verdicts[CONTRADICTED]["tier"] == "reader" and verdicts[NOT_STATED]["tier"] == "reader"
    assert verdicts[CONTRADICTED]["stage_p_yes"]["contradicted"] == pytest.approx(0.92, abs=1e-3)
    assert (
        "stage_p_yes" not in verdicts[SUPPORTED] or "contradicted" not in verdicts[SUPPORTED]["stage_p_yes"]
    )
    b = metric.score_breakdown
    assert (b["yes"], b["no"], b["borderline"], b["weighted_by_probability"]) == (1, 1, 1, False)
    # the supported claim never reached the contradiction question
    asked = [p for p in reader.prompts if CONTRADICT_Q in p]
    assert len(asked) == 2 and not any(f"Claim: {SUPPORTED}" in p for p in asked)
    assert CONTRADICTED in metric.reason


def test_faithfulness_default_reading_refuses_offline_without_a_contradiction_answer() -> None:
    # 4.3.1's reading counts an unstated claim as faithful and a contradicted one not: with no measured answer to
    # the contradiction question, the embedded judge could only call both idk (a score of 1.0 whatever the output
    # says), so it refuses and names the setting that runs offline
    metric = FaithfulnessMetric(system_one_model=judge_with(None))
    with pytest.raises(ConfigurationError) as err:
        metric.measure(SHOP)
    message = str(err.value)
    assert "claim_contradicted" in message and "penalize_ambiguous_claims=True" in message
    assert metric.score is None
    # penalized: no contradiction answer needed; an idk whose support the encoder was unsure of counts by its
    # P(supported), as before this kind
    penalized = FaithfulnessMetric(system_one_model=judge_with(None), penalize_ambiguous_claims=True)
    score = penalized.measure(SHOP)
    weights = [v["weight"] for v in penalized.verdicts if v["verdict"] == "borderline"]
    assert len(weights) == 2 and all(0.0 < w < 1.0 for w in weights)
    assert score == pytest.approx((1 + sum(weights)) / 3, abs=1e-3)  # weights are shown rounded
    assert [v["verdict"] for v in penalized.verdicts[:1]] == ["yes"]
    assert [v["stage_p_yes"]["supported"] for v in penalized.verdicts[1:]] == [
        v["p_yes"] for v in penalized.verdicts[1:]
    ]


def test_an_unsure_contradiction_answer_is_idk(plain_reader_calibration: None) -> None:
    reader = ScriptedReader(
        {CONTRADICTED: 0.5, NOT_STATED: 0.6}, stated={CONTRADICTED: 0.05, NOT_STATED: 0.05}
    )
    metric = FaithfulnessMetric(system_one_model=judge_with(reader))
    metric.measure(SHOP)
    verdicts = {v["claim"]: v for v in metric.verdicts}
    assert {verdicts[c]["verdict"] for c in (CONTRADICTED, NOT_STATED)} == {"borderline"}
    assert {verdicts[c]["tier"] for c in (CONTRADICTED, NOT_STATED)} == {"unsure"}


# -- Hallucination ------------------------------------------------------------------------------------------------
DEPOT = LLMTestCase(
    input="When does the depot close?",
    actual_output="The depot closes at 6pm and is open on Sundays.",
    context=["The depot closes at 6pm.", "The depot is closed on Sundays.", "Staff wear blue uniforms."],
)


def _hallucination(judge: EmbeddedJudge) -> HallucinationMetric:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return HallucinationMetric(system_one_model=judge)


def test_hallucination_offline_asks_each_document_the_contradiction_question(
    plain_reader_calibration: None,
) -> None:
    reader = ScriptedReader({"closed on Sundays": 0.95, "blue uniforms": 0.05, "closes at 6pm.": 0.5})
    metric = _hallucination(judge_with(reader))
    score = metric.measure(DEPOT)
    verdicts = [v["verdict"] for v in metric.verdicts]
    tiers = [v["tier"] for v in metric.verdicts]
    # doc 1: the encoder rules a contradiction out (the output states it) or the reader is unsure; doc 2
    # contradicted; doc 3 not contradicted (the output does not mention it)
    assert verdicts[1:] == ["no", "yes"] and tiers[1:] == ["reader", "reader"]
    first = metric.verdicts[0]
    if first["verdict"] == "unsure":  # the reader's 0.5: counted by P(not contradicted)
        assert score == pytest.approx((first["p_yes"] + 1.0) / 3, abs=1e-3)
    else:
        assert first["verdict"] == "yes" and score == pytest.approx(2 / 3)
    assert metric.score_breakdown["decided_by_system_one"] == 3
    assert all("Does the source contradict the claim?" in p for p in reader.prompts)
    assert all(f"Claim: {DEPOT.actual_output}" in p for p in reader.prompts)


def test_hallucination_without_a_reader_refuses_and_says_the_reader_is_what_is_missing(
    plain_reader_calibration: None,
) -> None:
    with pytest.raises(ConfigurationError) as err:
        _hallucination(judge_with(None)).measure(DEPOT)
    message = str(err.value)
    assert "hallucination.context_agrees" in message and "only the local reader answers" in message
    assert f"no reader is configured (set {READER_KEY}" in message and "configure an LLM judge" in message


def test_hallucination_refuses_with_a_reader_whose_answers_to_the_kind_are_not_calibrated(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delitem(cascade.READER_CALIBRATION, K.CLAIM_CONTRADICTED, raising=False)
    reader = ScriptedReader({})
    with pytest.raises(ConfigurationError, match="the reader's answers to it are not used"):
        _hallucination(judge_with(reader)).measure(DEPOT)
    assert reader.prompts == []
