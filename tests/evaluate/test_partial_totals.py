"""A run's cost and token totals know when some measures' usage is unknown (outside attack 8, MEDIUM 4): a judge
server that sends ``usage: {prompt_tokens: null, completion_tokens: null}`` behind a priced GPTModel, beside a custom
metric that reports its cost, printed "cost $0.030000; tokens 0 in / 0 out" and wrote that sum as the run's whole
cost. A total with unknown parts is a lower bound that says so (console, HTML, our run file) or is left out
(deepeval's test_run file, whose readers cannot tell), and token counts never reported are unknown, not 0."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from _support.judge_replies import AR_ALL_RELEVANT
from _support.markers import REGRESSION
from _support.priced_metric import PricedMetric
from deepeval import evaluate
from deepeval.evaluate import DisplayConfig
from deepeval.evaluate.configs import CacheConfig
from deepeval.evaluate.display import summary_line
from deepeval.evaluate.results import EvaluationResult, MetricData, TestResult
from deepeval.metrics import AnswerRelevancyMetric
from deepeval.models import GPTModel
from deepeval.models.usage import CostTotal, CountTotal, cost_total
from deepeval.test_case import LLMTestCase
from deepeval.test_run import TestRun
from deepeval.testing.servers import OpenAIChatServer

pytestmark = REGRESSION

#: gpt-4.1 at $2 / $8 per million tokens; AnswerRelevancy makes 3 calls a row, each 10 tokens in / 5 out here
AR_ROW_COST = 3 * (10 * 2.00 + 5 * 8.00) / 1e6  # 0.00018


def _run(tmp_path: Path, usage: dict[str, Any], custom_cost: float | None) -> EvaluationResult:
    replies = AR_ALL_RELEVANT

    def respond(request: dict[str, Any]) -> dict[str, Any]:
        return {"content": replies[request["response_format"]["json_schema"]["name"]], "usage": usage}

    with OpenAIChatServer(respond) as server:
        judge = GPTModel(model="gpt-4.1", base_url=server.base_url, api_key="sk-test")
        return evaluate(
            [
                LLMTestCase(input=f"q{i} Where is Paris?", actual_output="Paris is the capital.")
                for i in range(2)
            ],
            [AnswerRelevancyMetric(model=judge, eval_mode="llm"), PricedMetric(custom_cost)],
            display_config=DisplayConfig(show_indicator=False, results_folder=str(tmp_path)),
            cache_config=CacheConfig(write_cache=False, use_cache=False),
        )


def _files(result: EvaluationResult) -> tuple[dict[str, Any], dict[str, Any]]:
    ours = json.loads(Path(result.extras["json_path"]).read_text(encoding="utf-8"))
    theirs = json.loads(Path(result.extras["test_run_path"]).read_text(encoding="utf-8"))
    return ours["totals"], theirs


def test_all_known(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = _run(tmp_path, {"prompt_tokens": 10, "completion_tokens": 5}, 0.01)
    out = capsys.readouterr().out
    assert "cost $0.020360; tokens 60 in / 30 out;" in out
    totals, test_run = _files(result)
    assert totals["cost_usd"] == pytest.approx(2 * (AR_ROW_COST + 0.01))
    assert (totals["cost_partial"], totals["cost_unknown_measures"], totals["cost_measures"]) == (False, 0, 4)
    assert (totals["input_tokens"], totals["output_tokens"], totals["tokens_partial"]) == (60, 30, False)
    assert (totals["tokens_unknown_measures"], totals["token_measures"]) == (0, 2)
    assert test_run["evaluationCost"] == pytest.approx(2 * (AR_ROW_COST + 0.01))
    assert [c["evaluationCost"] for c in test_run["testCases"]] == pytest.approx([AR_ROW_COST + 0.01] * 2)


def test_all_unknown(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = _run(tmp_path, {"prompt_tokens": None, "completion_tokens": None}, None)
    out = capsys.readouterr().out
    assert "cost unknown; tokens unknown;" in out
    assert "tokens 0 in" not in out
    totals, test_run = _files(result)
    assert (totals["cost_usd"], totals["cost_partial"], totals["cost_unknown_measures"]) == (None, False, 2)
    assert (totals["input_tokens"], totals["output_tokens"], totals["tokens_unknown_measures"]) == (
        None,
        None,
        2,
    )
    assert "evaluationCost" not in test_run
    assert all("evaluationCost" not in c for c in test_run["testCases"])


def test_mixed_is_a_lower_bound_that_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Regression: the judge's rows (cost and tokens unknown) beside a custom metric costing 0.01 a row."""
    result = _run(tmp_path, {"prompt_tokens": None, "completion_tokens": None}, 0.01)
    assert [[m.evaluation_cost for m in t.metrics_data] for t in result.test_results] == [[None, 0.01]] * 2
    out = capsys.readouterr().out
    assert "cost >= $0.020000 (the cost of 2 of 4 measures is unknown); tokens unknown;" in out
    assert "cost $0.020000" not in out and "tokens 0 in" not in out
    totals, test_run = _files(result)
    assert totals["cost_usd"] == pytest.approx(0.02)
    assert (totals["cost_partial"], totals["cost_unknown_measures"], totals["cost_measures"]) == (True, 2, 4)
    assert (totals["input_tokens"], totals["output_tokens"]) == (None, None)
    # deepeval's file: no whole-run or test-case cost (its readers would take a partial sum as the cost), the
    # rows' own costs kept
    assert "evaluationCost" not in test_run
    for case in test_run["testCases"]:
        assert "evaluationCost" not in case
        assert [m.get("evaluationCost") for m in case["metricsData"]] == [None, 0.01]
    session = TestRun.from_evaluation_result(result)
    assert session.evaluation_cost is None
    html = Path(result.extras["html_path"]).read_text(encoding="utf-8")
    assert "&ge; 0.020000" in html and "the cost of 2 of 4 measures is unknown" in html


def _row(
    cost: float | None, tokens: tuple[int, int] | None, calls: int = 1, skipped: bool = False
) -> MetricData:
    return MetricData(
        name="m",
        evaluation_cost=cost,
        input_tokens=None if tokens is None else tokens[0],
        output_tokens=None if tokens is None else tokens[1],
        llm_calls=calls,
        skipped=skipped,
    )


def test_mixed_tokens_and_rows_that_are_no_part() -> None:
    """Tokens: a row that made calls and reported none is unknown; a skipped row, and one that made no call and
    reports nothing, is no part of either total."""
    rows = [
        _row(0.5, (30, 15)),
        _row(None, None),  # a judge that reported neither
        _row(None, None, calls=0),  # a user metric that reports nothing: no part
        _row(None, None, skipped=True),
    ]
    result = EvaluationResult([TestResult(name="t", success=True, metrics_data=rows, conversational=False)])
    tot = result.totals()
    assert (tot["cost_usd"], tot["cost_partial"], tot["cost_unknown_measures"], tot["cost_measures"]) == (
        0.5,
        True,
        1,
        2,
    )
    assert (tot["input_tokens"], tot["output_tokens"], tot["tokens_partial"]) == (30, 15, True)
    assert (tot["tokens_unknown_measures"], tot["token_measures"]) == (1, 2)
    assert (
        "cost >= $0.500000 (the cost of 1 of 2 measures is unknown); "
        "tokens >= 30 in / 15 out (1 of 2 measures reported none);" in summary_line(result)
    )
    assert result.total_cost == 0.5


def test_cost_and_count_totals_count_their_unknown_parts() -> None:
    total = cost_total([0.25, None, float("nan"), 0.5])
    assert (total.value, total.parts, total.unknown, total.partial, total.whole) == (0.75, 4, 2, True, None)
    whole = cost_total([0.25, 0.5])
    assert (whole.value, whole.partial, whole.whole) == (0.75, False, 0.75)
    assert (cost_total([None, None]).value, cost_total([None]).partial) == (None, False)
    overflowed = cost_total([1e308, 1e308, 1.0])
    assert (overflowed.value, overflowed.partial) == (None, False)
    merged = CostTotal()
    merged.merge(total)
    merged.merge(whole)
    assert (merged.value, merged.parts, merged.unknown) == (1.5, 6, 2)
    counts = CountTotal()
    for n in (3, None, 4):
        counts.add(n)
    assert (counts.value, counts.unknown, counts.partial) == (7, 1, True)
    none_known = CountTotal()
    none_known.add(None)
    assert (none_known.value, none_known.partial, CountTotal().value) == (None, False, 0)
