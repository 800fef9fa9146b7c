"""The embedded judge gives bit-identical scores in every process: string hashing (and so the iteration order of
a set of words) is randomised per process, and a float sum over a set in that order differed in the last digits
(2 of 240 rows of one run, 8 of 230 blind-dev rows between two hash seeds); sums over unordered words are exactly
rounded (``math.fsum``). The encoder's C engine computes each output from one text in a fixed order, whatever the
batch and thread count; the second process also runs with another OpenMP thread count."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from _support.markers import REGRESSION

pytestmark = REGRESSION

_PROBE = textwrap.dedent(
    """
    from deepeval.metrics import AnswerRelevancyMetric, ContextualRelevancyMetric
    from deepeval.models.embedded import lexical
    from deepeval.models.embedded import text as tx
    from deepeval.test_case import LLMTestCase

    CASES = [
        ("How do I change the delivery address on an order that has already shipped from the warehouse in Leeds?",
         "Once an order has shipped you cannot edit the address online. Call the courier with your tracking "
         "number to redirect it. Our Leeds warehouse ships within a day.",
         ["Orders that have left the warehouse can be redirected by the courier. Use the tracking number from "
          "your email.", "Our warehouse in Leeds opened in 2019 and employs 300 people."]),
        ("What documents does a self-employed plumber need to claim the home office allowance on a tax return?",
         "You need records of the hours you work from home and a utility bill. The flat-rate allowance needs no "
         "receipts. Keep them for five years.",
         ["Self-employed people can claim a flat rate for working from home based on hours worked each month.",
          "Plumbers must hold a Gas Safe registration to work on boilers."]),
        ("Which platform does the overnight sleeper train to Inverness leave from on bank holiday weekends?",
         "The Caledonian Sleeper to Inverness usually leaves from platform 1 at Euston. On bank holiday "
         "weekends check the departure board, as engineering works can move it.",
         ["The Inverness sleeper departs Euston at 21:15, normally from platform 1.",
          "Bank holiday engineering works may change platforms; check the boards on the day."]),
    ]
    for q, a, ctx in CASES:
        words = tx.content_words(q)
        print(repr(lexical.idf_coverage(words, frozenset(sorted(set(words))[:3]))))
        ar = AnswerRelevancyMetric(include_reason=False)
        ar.measure(LLMTestCase(input=q, actual_output=a))
        cr = ContextualRelevancyMetric(include_reason=False)
        cr.measure(LLMTestCase(input=q, actual_output=a, retrieval_context=ctx))
        print(repr(ar.score), repr(cr.score), [repr(v.get("p_yes")) for v in (ar.verdicts or []) + (cr.verdicts or [])])
    """
)


def _run(hash_seed: str, threads: str) -> str:
    env = {
        **os.environ,
        "PYTHONHASHSEED": hash_seed,
        "OMP_NUM_THREADS": threads,
        "DEEPEVAL_DISABLE_DOTENV": "1",
        "PYTHONPATH": os.pathsep.join(sys.path),
    }
    for key in ("OPENAI_API_KEY", "TYPESAFE_API_KEY", "USE_LOCAL_MODEL", "DEEPEVAL_EVAL_MODE"):
        env.pop(key, None)
    proc = subprocess.run(
        [sys.executable, "-c", _PROBE], capture_output=True, text=True, timeout=300, env=env, check=False
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.mark.skipif(
    sys.platform == "win32", reason="PYTHONHASHSEED and OpenMP threads through the environment"
)
def test_two_processes_give_bit_identical_scores() -> None:
    first, second = (
        _run("1", "1"),
        _run("2", "2"),
    )  # hash seeds 1 and 2 summed these words in different orders
    assert first.count("\n") == 6 and "None" not in first
    assert first == second
