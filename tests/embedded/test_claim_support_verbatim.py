"""The shared claim-support scorer (``claim_supported``: Faithfulness offline, memory precision's kind) supports a
claim that a source sentence states word for word; a restriction right after the stated words keeps the fitted
model's answer."""

from __future__ import annotations

import pytest

from deepeval.metrics import FaithfulnessMetric
from deepeval.models.embedded import get_embedded_judge, scorers
from deepeval.models.system_one import kinds as K
from deepeval.models.system_one.schema import NoulQuestion
from deepeval.test_case import LLMTestCase

REFUND = "All customers are eligible for a 30 day full refund."
SOURCE = "All customers are eligible for a 30 day full refund at no extra cost."


def test_the_refund_claim_is_supported_by_the_judge() -> None:
    q = NoulQuestion(
        instructions="supported?", kind=K.CLAIM_SUPPORTED, data={"claim": REFUND, "source": SOURCE}
    )
    answers, _ = get_embedded_judge().decide({}, {"q": q})
    assert answers.nouls["q"].probability == pytest.approx(scorers.P_VERBATIM)


def test_faithfulness_offline_counts_the_refund_claim_as_faithful() -> None:
    # penalized: the offline reading (supported against the rest; the default reading needs a contradiction answer)
    metric = FaithfulnessMetric(eval_mode="hybrid", penalize_ambiguous_claims=True)
    score = metric.measure(LLMTestCase(input="Refund?", actual_output=REFUND, retrieval_context=[SOURCE]))
    assert score == 1.0 and metric.verdicts[0]["verdict"] == "yes"


@pytest.mark.parametrize(
    ("claim", "source", "verbatim"),
    [
        (REFUND, SOURCE, True),
        ("Refunds are free.", "Refunds are free only for members.", False),
        ("Refunds are free.", "Refunds are free unless the box was opened.", False),
        ("The ferry leaves.", "Every day the ferry leaves at nine.", True),
        ("It leaves.", "It leaves at nine.", False),  # two words: too short to count
        ("Arsenal beat Liverpool.", "Liverpool beat Arsenal 3-1.", False),
        ("The user drinks coffee.", "The user does not drink coffee.", False),
    ],
)
def test_stated_verbatim(claim: str, source: str, verbatim: bool) -> None:
    assert scorers.stated_verbatim(claim, source) is verbatim
