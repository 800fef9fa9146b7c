"""The README's relevancy examples ("What if these shoes don't fit?" / the 30-day refund) on the default judge, as a
user gets it: no model configured, so the embedded judge, with the local reader when one is installed.

    DEEPEVAL_READER=off python bench/cascade_seed.py                          # the encoder alone
    DEEPEVAL_MODELS_DIR=/work/models python bench/cascade_seed.py             # the reader, found by itself

Prints each metric's score, seconds, who decided (``score_breakdown``) and the load average.
"""

from __future__ import annotations

import os
import time

from deepeval.metrics import AnswerRelevancyMetric, ContextualRelevancyMetric
from deepeval.test_case import LLMTestCase

QUESTION = "What if these shoes don't fit?"
ANSWER = "We offer a 30-day full refund at no extra cost."
CASES = (
    ("AnswerRelevancy", AnswerRelevancyMetric, LLMTestCase(input=QUESTION, actual_output=ANSWER)),
    (
        "ContextualRelevancy",
        ContextualRelevancyMetric,
        LLMTestCase(
            input=QUESTION,
            actual_output=ANSWER,
            retrieval_context=["All customers are eligible for a 30 day full refund at no extra cost."],
        ),
    ),
    (
        "ContextualRelevancy, off-topic context",
        ContextualRelevancyMetric,
        LLMTestCase(
            input=QUESTION, actual_output=ANSWER, retrieval_context=["Our store opens at 9 am on weekdays."]
        ),
    ),
)


def main() -> None:
    for name, metric_class, case in CASES:
        metric = metric_class(threshold=0.7)
        t0 = time.perf_counter()
        metric.measure(case)
        seconds = time.perf_counter() - t0
        print(
            f"{name}: score={metric.score:.3f} seconds={seconds:.1f} breakdown={metric.score_breakdown}",
            flush=True,
        )
        print(f"  reason: {metric.reason}", flush=True)
    print(
        f"DEEPEVAL_READER={os.environ.get('DEEPEVAL_READER', '(unset: auto)')} load average={os.getloadavg()}"
    )


if __name__ == "__main__":
    main()
