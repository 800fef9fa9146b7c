from __future__ import annotations

import pytest

from deepeval import evaluate
from deepeval.errors import SystemOneError
from deepeval.evaluate import CacheConfig, DisplayConfig, ErrorConfig
from deepeval.evaluate.batching import STATE_PLUS_QUESTION_BUDGET, estimate_tokens, group_plans, split_answers
from deepeval.metrics.base_metric import SystemOnePlan
from deepeval.models.system_one.schema import NoulAnswer, NoulQuestion, SystemOneAnswers
from deepeval.test_case import LLMTestCase

from ._fakes import CountingSystemOne, PlanMetric, ScoreMetric

QUIET = DisplayConfig(show_indicator=False, print_results=False)
NO_CACHE = CacheConfig(write_cache=False)


def tc(i: int = 0) -> LLMTestCase:
    return LLMTestCase(input=f"question {i}", actual_output=f"answer {i}", retrieval_context=[f"ctx {i}"])


def test_plans_on_same_model_merge_into_one_request_and_split_back():
    s1 = CountingSystemOne(p=0.8, level=3.0, cost=0.004, tokens=(400, 0))
    other = CountingSystemOne(p=0.5, level=0.0, cost=0.001, name="other-s1")
    ar = PlanMetric(s1, "AR", n_nouls=2)  # 3 questions
    cr = PlanMetric(s1, "CR", n_nouls=0, fields=["input", "retrieval_context"])  # 1 question
    third = PlanMetric(other, "KR", n_nouls=1)
    llm = ScoreMetric(0.4, name="LLM")
    result = evaluate([tc(0), tc(1)], [ar, cr, llm, third], display_config=QUIET, cache_config=NO_CACHE)

    assert len(s1.requests) == 2 and len(other.requests) == 2  # one merged request per test case and model
    state, questions = s1.requests[0]
    assert state == {"input": "question 0", "actual_output": "answer 0", "retrieval_context": ["ctx 0"]}
    # ids go out as the metrics wrote them; only CR's "level", taken by AR, is prefixed
    assert list(questions) == ["q0", "q1", "level", "m1_level"]
    assert questions["m1_level"].instructions == "CR level"
    assert result.system_one_batches == 4
    assert ar.measured == 0 and cr.measured == 0

    rows = {m.name: m for m in result.test_results[0].metrics_data}
    # AR: (mean P(yes) 0.8 + level 3/3) / 2 = 0.9 ; CR: no nouls -> (1 + 3/3) / 2 = 1.0
    assert rows["AR"].score == pytest.approx(0.9) and rows["CR"].score == pytest.approx(1.0)
    assert rows["AR"].evaluation_cost == pytest.approx(0.004 * 3 / 4)
    assert rows["CR"].evaluation_cost == pytest.approx(0.004 * 1 / 4)
    assert (rows["AR"].input_tokens, rows["CR"].input_tokens) == (300, 100)
    assert rows["AR"].system_one_batch["metrics"] == 2 and rows["AR"].system_one_batch["questions"] == 4
    assert rows["AR"].system_one_requests == 1 and rows["CR"].system_one_requests == 0  # counted once
    assert rows["AR"].confidence == pytest.approx(0.6)
    assert rows["KR"].score == pytest.approx(0.25) and rows["KR"].evaluation_model == "other-s1"
    assert rows["LLM"].score == 0.4
    assert result.totals()["system_one_requests"] == 4
    assert result.total_cost == pytest.approx(2 * (0.004 + 0.001))


def test_conflicting_states_go_out_separately():
    s1 = CountingSystemOne()
    a = PlanMetric(s1, "A", state_override={"input": "x", "view": 1})
    b = PlanMetric(s1, "B", state_override={"input": "x", "view": 2})
    c = PlanMetric(s1, "C", state_override={"input": "x"})
    evaluate([tc()], [a, b, c], display_config=QUIET, cache_config=NO_CACHE)
    assert [sorted(q) for _, q in s1.requests] == [
        ["level", "m1_level", "m1_q0", "m1_q1", "q0", "q1"],  # A and C
        ["level", "q0", "q1"],  # B
    ]
    assert s1.requests[0][0] == {"input": "x", "view": 1}


def test_failed_batch_request_puts_its_error_on_every_member_row():
    s1 = CountingSystemOne(fail=SystemOneError("HTTP 503 from System One", kind="server"))
    result = evaluate(
        [tc()],
        [PlanMetric(s1, "A"), PlanMetric(s1, "B"), ScoreMetric(1.0)],
        display_config=QUIET,
        cache_config=NO_CACHE,
        error_config=ErrorConfig(ignore_errors=True),
    )
    rows = result.test_results[0].metrics_data
    assert [m.error for m in rows] == ["SystemOneError: HTTP 503 from System One"] * 2 + [None]
    assert [m.success for m in rows] == [False, False, True]


def test_missing_answer_becomes_that_metrics_error():
    class Partial(CountingSystemOne):
        async def a_decide(self, state, questions):
            answers, cost = await super().a_decide(state, questions)
            nouls = {k: v for k, v in answers.nouls.items() if k != "m1_q0"}
            return answers.model_copy(update={"nouls": nouls}), cost

    s1 = Partial()
    result = evaluate(
        [tc()],
        [PlanMetric(s1, "A"), PlanMetric(s1, "B")],
        display_config=QUIET,
        cache_config=NO_CACHE,
        error_config=ErrorConfig(ignore_errors=True),
    )
    a, b = result.test_results[0].metrics_data
    assert a.error is None and a.score == pytest.approx(0.9)
    assert b.error == "JudgeError: no answer for ['q0']"


def test_oversized_merge_is_split_by_budget():
    s1 = CountingSystemOne()
    big = "x" * 60_000  # 20,000 tokens: two of them exceed the 32,000-token state budget
    q = {"q": NoulQuestion(instructions="ok?")}
    plans = [
        ("a", SystemOnePlan(s1, {"a": big}, q)),
        ("b", SystemOnePlan(s1, {"b": big}, q)),
        ("c", SystemOnePlan(s1, {"c": "small"}, q)),
    ]
    assert (
        2 * estimate_tokens({"a": big})
        > STATE_PLUS_QUESTION_BUDGET
        > estimate_tokens({"a": big, "c": "small"})
    )
    batches = group_plans(plans)
    assert [[m.key for m in b.members] for b in batches] == [["a", "c"], ["b"]]


def test_split_answers_tokens_add_up_and_cost_none_stays_none():
    s1 = CountingSystemOne()
    q3 = {f"q{i}": NoulQuestion(instructions=str(i)) for i in range(3)}
    q1 = {"q0": NoulQuestion(instructions="x")}
    (batch,) = group_plans([("a", SystemOnePlan(s1, {}, q3)), ("b", SystemOnePlan(s1, {}, q1))])
    answers = SystemOneAnswers(
        nouls={k: NoulAnswer(probability=0.5) for k in batch.questions}, input_tokens=101, output_tokens=3
    )
    (ka, a, ca), (kb, b, cb) = split_answers(batch, answers, None)
    assert (ka, kb, ca, cb) == ("a", "b", None, None)
    assert sorted(a.nouls) == ["q0", "q1", "q2"] and sorted(b.nouls) == ["q0"]
    assert (a.input_tokens, b.input_tokens, a.output_tokens, b.output_tokens) == (75, 26, 2, 1)


def test_model_returning_garbage_gives_clear_error_rows():
    class Garbage(CountingSystemOne):
        async def a_decide(self, state, questions):
            return {"q0": 0.5}, None

    result = evaluate(
        [tc()],
        [PlanMetric(Garbage(), "A"), PlanMetric(Garbage(), "B")],
        display_config=QUIET,
        cache_config=NO_CACHE,
        error_config=ErrorConfig(ignore_errors=True),
    )
    errors = [m.error for m in result.test_results[0].metrics_data]
    assert len(errors) == 2 and errors[0] == errors[1]
    assert errors[0].startswith("SystemOneError: System One model ")
    assert "decide() must return (SystemOneAnswers, cost | None)" in errors[0]
    assert "a dict that is not a SystemOneAnswers" in errors[0]
