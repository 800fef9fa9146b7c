"""Every field of deepeval 4.3.1's AsyncConfig, DisplayConfig, CacheConfig and ErrorConfig is accepted (same names,
order and defaults); bad AsyncConfig values fail at construction; ``hyperparameters`` / ``identifier`` are kept;
``results_subfolder``, ``truncate_passing_cases`` and ``file_type`` do what deepeval documents."""

from __future__ import annotations

import dataclasses
import json
import warnings
from pathlib import Path

import pytest

from deepeval import evaluate
from deepeval.errors import ConfigurationError
from deepeval.evaluate import AsyncConfig, CacheConfig, DisplayConfig, ErrorConfig
from deepeval.evaluate.configs import TestRunResultDisplay
from deepeval.evaluate.display import render_results
from deepeval.test_case import LLMTestCase

from ._fakes import ScoreMetric

LONG_REASON = "The answer covers every point of the question and cites the refund policy in full detail."


class ReasonMetric(ScoreMetric):
    """A ScoreMetric whose reason is a long sentence."""

    def _finish(self, tc: object, score: float) -> float:
        out = super()._finish(tc, score)
        self.reason = LONG_REASON
        return out


def _fields(cls: type) -> list[tuple[str, object]]:
    return [(f.name, f.default) for f in dataclasses.fields(cls) if not f.name.startswith("_")]


def test_config_fields_and_defaults_start_with_deepevals_in_its_order() -> None:
    # deepeval 4.3.1's fields, in order (ours may add fields after them)
    assert _fields(AsyncConfig)[:3] == [("run_async", True), ("throttle_value", 0), ("max_concurrent", 20)]
    assert _fields(DisplayConfig)[:10] == [
        ("show_indicator", True),
        ("print_results", True),
        ("verbose_mode", None),
        ("display_option", TestRunResultDisplay.ALL),
        ("results_folder", None),
        ("results_subfolder", None),
        ("truncate_passing_cases", True),
        ("inspect_after_run", True),
        ("file_type", None),
        ("file_output_dir", None),
    ]
    assert _fields(CacheConfig)[:2] == [("write_cache", True), ("use_cache", False)]
    assert _fields(ErrorConfig) == [("ignore_errors", False), ("skip_on_missing_params", False)]
    # positional construction as deepeval's users write it
    d = DisplayConfig(False, False, True, "failing", "out", "sub", False, False, "md", "files")
    assert (d.results_subfolder, d.truncate_passing_cases, d.inspect_after_run, d.file_type) == (
        "sub",
        False,
        False,
        "md",
    )


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"max_concurrent": 0}, "max_concurrent"),
        ({"max_concurrent": -3}, "max_concurrent"),
        ({"throttle_value": -1}, "throttle_value"),
        ({"throttle_value": float("nan")}, "throttle_value"),
    ],
)
def test_bad_async_config_is_refused_at_construction(kwargs: dict[str, object], field: str) -> None:
    with pytest.raises(ValueError, match=field) as info:  # deepeval raises ValueError here too
        AsyncConfig(**kwargs)  # type: ignore[arg-type]
    assert isinstance(info.value, ConfigurationError)


def test_bad_file_type_is_refused_at_construction() -> None:
    with pytest.raises(ConfigurationError, match="file_type"):
        DisplayConfig(file_type="pdf")  # type: ignore[arg-type]


def _run(tmp_path: Path, **display: object) -> object:
    return evaluate(
        [LLMTestCase(input="q", actual_output="a", name="refund")],
        [ReasonMetric(0.9, name="Good")],
        display_config=DisplayConfig(show_indicator=False, print_results=False, **display),  # type: ignore[arg-type]
        identifier="nightly",
    )


def test_results_subfolder_goes_under_results_folder(tmp_path: Path) -> None:
    _run(tmp_path, results_folder=str(tmp_path / "runs"), results_subfolder="rag-v2")
    assert len(list((tmp_path / "runs" / "rag-v2").glob("nightly-*.json"))) == 1
    assert not list((tmp_path / "runs").glob("*-*.json"))


def test_results_subfolder_applies_to_the_settings_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DEEPEVAL_RESULTS_FOLDER", str(tmp_path / "env"))
    _run(tmp_path, results_subfolder="sub")
    assert len(list((tmp_path / "env" / "sub").glob("*-*.json"))) == 1


@pytest.mark.parametrize(
    ("file_type", "suffix", "marker"), [("html", ".html", "<html"), ("md", ".md", "| Good |")]
)
def test_file_type_writes_that_report_into_file_output_dir(
    tmp_path: Path, file_type: str, suffix: str, marker: str
) -> None:
    _run(tmp_path, file_output_dir=str(tmp_path / "files"), file_type=file_type)
    [report] = list((tmp_path / "files").iterdir())
    assert report.name.startswith("nightly_") and report.suffix == suffix
    text = report.read_text()
    assert marker in text and LONG_REASON in text  # full, never truncated


def test_file_output_dir_without_file_type_keeps_one_json_per_test_case(tmp_path: Path) -> None:
    _run(tmp_path, file_output_dir=str(tmp_path / "files"))
    [report] = list((tmp_path / "files").iterdir())
    assert json.loads(report.read_text())["name"] == "refund"


def test_truncate_passing_cases_shortens_passing_reasons_only(tmp_path: Path) -> None:
    result = evaluate(
        [
            LLMTestCase(input="q", actual_output="a", name="ok"),
            LLMTestCase(input="q", actual_output="a", name="bad"),
        ],
        [ReasonMetric(lambda tc, n: 0.9 if tc.name == "ok" else 0.1, name="Good")],
        display_config=DisplayConfig(show_indicator=False, print_results=False),
    )
    # the table only (the failing-case excerpts under it repeat the failing row's reason)
    short = render_results(result, width=400).split("Failing test cases")[0]
    full = render_results(result, width=400, truncate_passing_cases=False).split("Failing test cases")[0]
    assert short.count(LONG_REASON) == 1  # the failing row keeps its reason; the passing one is cut
    assert LONG_REASON[:40] in short
    assert full.count(LONG_REASON) == 2


def test_inspect_after_run_is_accepted_and_silent() -> None:
    # deepeval offers its trace inspector only for runs with traces; ours records none, so there is nothing to offer
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        DisplayConfig(inspect_after_run=True)
        DisplayConfig(inspect_after_run=False)


def test_hyperparameters_are_kept_as_deepeval_processes_them(tmp_path: Path) -> None:
    result = evaluate(
        [LLMTestCase(input="q", actual_output="a")],
        [ScoreMetric(0.9)],
        hyperparameters={"model": "gpt-4.1", "temperature": 0.0, "chunks": 4, "skip": None},
        display_config=DisplayConfig(show_indicator=False, print_results=False),
    )
    assert result.hyperparameters == {"model": "gpt-4.1", "temperature": "0.0", "chunks": "4"}
    assert result.to_dict()["hyperparameters"] == result.hyperparameters


@pytest.mark.parametrize("bad", [["a"], {1: "x"}, {"k": [1, 2]}])
def test_bad_hyperparameters_raise_type_error_before_measuring(bad: object) -> None:
    metric = ScoreMetric(0.9)
    with pytest.raises(TypeError, match="yperparameter"):
        evaluate([LLMTestCase(input="q", actual_output="a")], [metric], hyperparameters=bad)  # type: ignore[arg-type]
    assert metric.log.calls == []


def test_metric_collection_needs_confident_ai_and_says_so_once() -> None:
    with pytest.warns(UserWarning, match="Confident AI") as record:
        evaluate(
            [LLMTestCase(input="q", actual_output="a")],
            [ScoreMetric(0.9)],
            metric_collection="prod-metrics",
            display_config=DisplayConfig(show_indicator=False, print_results=False),
        )
    assert sum("metric_collection" in str(w.message) for w in record) == 1
