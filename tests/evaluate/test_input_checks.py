"""evaluate() / assert_test checks that deepeval 4.3.1 makes before measuring, run with the user code of its docs (a
custom metric of each kind). Each expected message is 4.3.1's, obtained by running the same calls on 4.3.1.

Deliberate difference (ours): a mix of single-turn and conversational test cases runs when each test case has a
metric of its kind (the other pairs are skipped rows with the reason); 4.3.1 refuses every mix."""

from __future__ import annotations

from typing import Any

import pytest

from deepeval import assert_test, evaluate
from deepeval.evaluate import DisplayConfig
from deepeval.metrics import BaseConversationalMetric, BaseMetric
from deepeval.test_case import ConversationalTestCase, LLMTestCase, Turn

QUIET = DisplayConfig(print_results=False, show_indicator=False)


class Single(BaseMetric):
    def __init__(self, threshold: float | None = 0.5, flaky: bool = False) -> None:
        self.threshold = threshold
        self.flaky = flaky

    def measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        self.score = 1.0
        self.success = self.threshold is None or self.score >= self.threshold
        return self.score

    async def a_measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        return self.measure(test_case)

    def is_successful(self) -> bool:
        return bool(self.success)

    @property
    def __name__(self) -> str:  # type: ignore[override]
        return "Single"


class Conv(BaseConversationalMetric):
    def __init__(self, threshold: float = 0.5) -> None:
        self.threshold = threshold

    def measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        self.score, self.success = 1.0, True
        return 1.0

    async def a_measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        return self.measure(test_case)

    def is_successful(self) -> bool:
        return True

    @property
    def __name__(self) -> str:  # type: ignore[override]
        return "Conv"


SINGLE = LLMTestCase(input="q", actual_output="a")
CONVO = ConversationalTestCase(
    turns=[Turn(role="user", content="hi"), Turn(role="assistant", content="hello")]
)
NO_THRESHOLD = "You must provide at least one non-flaky metric with a 'threshold', otherwise test cases can never pass or fail."


@pytest.mark.parametrize(
    ("cases", "metrics", "message"),
    [
        ([SINGLE, CONVO], [Single()], "Metric Single is not a valid metric for ConversationalTestCase."),
        ([SINGLE], [Conv()], "Metric Conv is not a valid metric for LLMTestCase."),
        ([CONVO], [Single(), Conv()], "Metric Single is not a valid metric for ConversationalTestCase."),
        ([SINGLE], [Single(threshold=None)], NO_THRESHOLD),
        ([SINGLE], [Single(flaky=True), Single(threshold=None)], NO_THRESHOLD),
    ],
    ids=[
        "mix-single-turn-metric",
        "conversational-metric-on-llm",
        "single-turn-metric-on-conversation",
        "no-threshold",
        "flaky-or-no-threshold",
    ],
)
def test_evaluate_refuses_what_deepeval_refuses(cases: list[Any], metrics: list[Any], message: str) -> None:
    with pytest.raises(ValueError) as caught:
        evaluate(cases, metrics, display_config=QUIET)
    assert str(caught.value).startswith(message)


def test_a_mix_with_a_metric_for_each_kind_runs_ours() -> None:
    """Ours (deepeval 4.3.1 raises "Metric Conv is not a valid metric for LLMTestCase."): each test case gets its
    kind's metric, the other pair is a skipped row."""
    result = evaluate([SINGLE, CONVO], [Single(), Conv()], display_config=QUIET)
    assert [[m.status for m in t.metrics_data] for t in result.test_results] == [
        ["passed", "skipped"],
        ["skipped", "passed"],
    ]
    assert all(t.success for t in result.test_results)


@pytest.mark.parametrize(
    ("case", "metrics", "message"),
    [
        (SINGLE, [Single(threshold=None)], NO_THRESHOLD),
        (SINGLE, [Conv()], "All 'metrics' for an 'LLMTestCase' must be instances of 'BaseMetric' only."),
        (
            CONVO,
            [Single()],
            "All 'metrics' for an 'ConversationalTestCase' must be instances of 'BaseConversationalMetric' only.",
        ),
    ],
    ids=["no-threshold", "conversational-metric", "single-turn-metric"],
)
def test_assert_test_refuses_what_deepeval_refuses(case: Any, metrics: list[Any], message: str) -> None:
    with pytest.raises(ValueError) as caught:
        assert_test(case, metrics)
    assert str(caught.value) == message


def test_the_cli_reports_the_same_check_in_one_line(tmp_path: Any) -> None:
    from typer.testing import CliRunner

    from deepeval.cli.main import app

    data = tmp_path / "conv.jsonl"
    data.write_text(
        '{"turns": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]}\n'
    )
    res = CliRunner().invoke(app, ["evaluate", str(data), "-m", "answer_relevancy", "--no-progress"])
    assert res.exit_code == 2
    assert "Metric Answer Relevancy is not a valid metric for ConversationalTestCase." in res.output
    assert "Traceback" not in res.output
