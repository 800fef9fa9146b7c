"""Test cases whose lists were changed after construction (pydantic validates construction and assignment, not
``list.append``), and metadata no report can hold: only that test case's rows carry an error, every other row is
measured, and the result and its exports always come back."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import pytest

from deepeval import evaluate
from deepeval.evaluate import CacheConfig, DisplayConfig, ErrorConfig
from deepeval.evaluate.report import export_test_cases
from deepeval.metrics import AnswerRelevancyMetric, ContextualRelevancyMetric, KnowledgeRetentionMetric
from deepeval.test_case import ConversationalTestCase, LLMTestCase, Turn

from ._fakes import ConvMetric, ScoreMetric

QUIET = DisplayConfig(show_indicator=False, print_results=False)
NO_CACHE = CacheConfig(write_cache=False)
KEEP = ErrorConfig(ignore_errors=True)


def _conversation(first: str) -> ConversationalTestCase:
    return ConversationalTestCase(
        turns=[
            Turn(role="user", content=f"{first} I live in Lisbon."),
            Turn(role="assistant", content="Noted, you live in Lisbon."),
        ]
    )


def test_turn_appended_as_a_str_errors_only_that_case_with_the_field_and_index() -> None:
    good, bad = _conversation("Hi."), _conversation("Hello.")
    bad.turns.append("where do I live?")  # type: ignore[arg-type]
    result = evaluate(
        [good, bad, _conversation("Hey.")],
        [KnowledgeRetentionMetric(), ConvMetric()],
        display_config=QUIET,
        cache_config=NO_CACHE,
        error_config=KEEP,
    )
    rows = [[m.error for m in t.metrics_data] for t in result.test_results]
    assert rows[0] == [None, None] and rows[2] == [None, None]
    assert all(t.metrics_data[0].score is not None for t in (result.test_results[0], result.test_results[2]))
    for error in rows[1]:
        assert error is not None and "invalid test case" in error
        assert "ConversationalTestCase.turns[2]" in error and "str" in error and "AttributeError" not in error
    assert result.test_results[1].success is False
    assert result.test_results[1].turns is not None and result.test_results[1].turns[2] == {
        "content": "where do I live?"
    }
    assert len(bad.turns) == 3 and bad.turns[2] == "where do I live?"  # the caller's object is untouched


def test_turn_appended_as_a_dict_is_a_turn_as_at_construction() -> None:
    changed = _conversation("Hi.")
    changed.turns.append({"role": "user", "content": "Where do I live?"})  # type: ignore[arg-type]
    built = ConversationalTestCase(
        turns=[*_conversation("Hi.").turns, {"role": "user", "content": "Where do I live?"}]
    )
    scores = []
    for tc in (changed, built):
        result = evaluate([tc], [ConvMetric()], display_config=QUIET, cache_config=NO_CACHE)
        row = result.test_results[0].metrics_data[0]
        assert row.error is None
        scores.append(row.score)
        assert result.test_results[0].turns is not None
        assert result.test_results[0].turns[2] == {"role": "user", "content": "Where do I live?"}
    assert scores[0] == scores[1] == pytest.approx(1 / 3)  # one assistant turn of three, both ways
    assert isinstance(changed.turns[2], dict)  # not mutated


def test_turn_that_no_longer_validates_errors_naming_the_nested_field() -> None:
    bad = _conversation("Hi.")
    bad.turns[0].retrieval_context = ["ok"]
    bad.turns[0].retrieval_context.append(7)  # type: ignore[union-attr, arg-type]
    result = evaluate([bad], [ConvMetric()], display_config=QUIET, cache_config=NO_CACHE, error_config=KEEP)
    error = result.test_results[0].metrics_data[0].error
    assert (
        error is not None
        and "ConversationalTestCase.turns[0].retrieval_context[1]" in error
        and "int" in error
    )


@pytest.mark.parametrize(("item", "got"), [(3, "int"), (None, "None"), ({"text": "x"}, "text")])
def test_retrieval_context_item_changed_after_construction_errors_naming_field_and_index(
    item: Any, got: str
) -> None:
    ok = LLMTestCase(
        input="When does the store open?", actual_output="At 9 am.", retrieval_context=["Opens 9 am."]
    )
    bad = LLMTestCase(input="When does it close?", actual_output="At 6 pm.", retrieval_context=["a", "b"])
    bad.retrieval_context[1] = item  # type: ignore[index]
    result = evaluate(
        [ok, bad],
        [ContextualRelevancyMetric(), ScoreMetric(0.8)],
        display_config=QUIET,
        cache_config=NO_CACHE,
        error_config=KEEP,
    )
    first, second = result.test_results
    assert [m.error for m in first.metrics_data] == [None, None] and first.metrics_data[1].score == 0.8
    for m in second.metrics_data:
        assert m.error is not None and "LLMTestCase.retrieval_context[1]" in m.error and got in m.error
        assert "replace" not in m.error and m.score is None and m.success is False


def _circular() -> dict[str, Any]:
    d: dict[str, Any] = {"run": 1}
    d["self"] = d
    return d


def _deep(levels: int) -> dict[str, Any]:
    root: dict[str, Any] = {}
    node = root
    for _ in range(levels):
        node["x"] = {}
        node = node["x"]
    return root


@pytest.mark.parametrize(
    ("metadata", "why"),
    [
        (_circular(), "circular reference"),
        (_deep(5_000), "deeper than 100 levels"),
        ({"n": 10**5_000}, "integer of about 5000 digits"),
    ],
)
def test_unexportable_metadata_is_a_placeholder_the_rows_are_measured_and_all_exports_written(
    tmp_path: Path, metadata: dict[str, Any], why: str
) -> None:
    cases = [
        LLMTestCase(input="When does the store open?", actual_output="At 9 am.", metadata=metadata),
        LLMTestCase(input="When does it close?", actual_output="At 6 pm.", metadata={"shop": "Lisbon"}),
    ]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = evaluate(
            cases,
            [ScoreMetric(0.75), AnswerRelevancyMetric()],
            display_config=DisplayConfig(
                show_indicator=False,
                print_results=False,
                results_folder=str(tmp_path / "out"),
                file_output_dir=str(tmp_path / "cases"),
            ),
            cache_config=CacheConfig(cache_path=str(tmp_path / "c.sqlite")),
            error_config=KEEP,
        )
    assert all(m.error is None for m in result.metric_rows())
    scores = [[m.score for m in t.metrics_data] for t in result.test_results]
    assert [s[0] for s in scores] == [0.75, 0.75] and all(0.0 <= s[1] <= 1.0 for s in scores)  # type: ignore[operator]
    placeholder = result.test_results[0].metadata
    assert (
        isinstance(placeholder, str)
        and placeholder.startswith("<not exported: metadata")
        and why in placeholder
    )
    assert result.test_results[1].metadata == {"shop": "Lisbon"}
    assert "export_error" not in result.extras
    notes = [w for w in caught if "placeholder" in str(w.message)]
    assert len(notes) == 1 and why in str(notes[0].message)
    (json_file,) = (tmp_path / "out").glob("*-*.json")
    data = json.loads(json_file.read_text(encoding="utf-8"))
    assert [t["metadata"] for t in data["test_results"]] == [placeholder, {"shop": "Lisbon"}]
    assert len(list((tmp_path / "out").glob("*.html"))) == 1
    per_case = json.loads((tmp_path / "cases" / "test_case_0.json").read_text(encoding="utf-8"))
    assert per_case["metadata"] == placeholder
    assert len(export_test_cases(result, tmp_path / "again")) == 2


def test_turn_metadata_that_holds_itself_keeps_the_turn_text() -> None:
    conv = ConversationalTestCase(
        turns=[Turn(role="user", content="Hi, I live in Lisbon.", metadata=_circular())]
    )
    result = evaluate([conv], [ConvMetric()], display_config=QUIET, cache_config=NO_CACHE)
    turn = (result.test_results[0].turns or [])[0]
    assert turn["content"] == "Hi, I live in Lisbon." and turn["metadata"].startswith(
        "<not exported: turns[0]"
    )
    assert result.test_results[0].metrics_data[0].error is None
    json.loads(result.to_json())  # the whole run serialises


def test_turn_appended_as_a_str_still_writes_the_html_report_with_every_row(tmp_path: Path) -> None:
    bad = _conversation("Hello.")
    bad.turns.append("where do I live?")  # type: ignore[arg-type]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = evaluate(
            [bad, LLMTestCase(input="When does the store open?", actual_output="At 9 am.")],
            [ScoreMetric(0.75), ConvMetric()],
            display_config=DisplayConfig(
                show_indicator=False, print_results=False, results_folder=str(tmp_path / "out")
            ),
            cache_config=NO_CACHE,
            error_config=KEEP,
        )
    assert not [w for w in caught if "could not write" in str(w.message)]
    assert "export_error" not in result.extras
    (html_file,) = (tmp_path / "out").glob("*.html")
    page = html_file.read_text(encoding="utf-8")
    assert "where do I live?" in page and "When does the store open?" in page
    assert "invalid test case" in page and "ConversationalTestCase.turns[2]" in page
    assert len(list((tmp_path / "out").glob("*-*.json"))) == 1
