"""Export folders: an unusable results_folder is refused before measuring; a late export failure keeps the result."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from deepeval import evaluate
from deepeval.errors import ConfigurationError
from deepeval.evaluate import CacheConfig, DisplayConfig, ErrorConfig, EvaluationError
from deepeval.test_case import LLMTestCase

from ._fakes import ScoreMetric

REPORT = importlib.import_module("deepeval.evaluate.report")  # the package also has a report() function
NO_CACHE = CacheConfig(write_cache=False)
TC = [LLMTestCase(input="q0", actual_output="a0")]


def _display(**kw: str) -> DisplayConfig:
    return DisplayConfig(show_indicator=False, print_results=False, **kw)


@pytest.mark.parametrize("option", ["results_folder", "file_output_dir"])
@pytest.mark.parametrize("nested", [False, True])
def test_folder_that_is_a_file_is_refused_before_measuring(tmp_path: Path, option: str, nested: bool) -> None:
    blocker = tmp_path / "out"
    blocker.write_text("keep me")
    folder = blocker / "sub" if nested else blocker
    metric = ScoreMetric(0.7)
    with pytest.raises(ConfigurationError) as info:
        evaluate(TC, [metric], display_config=_display(**{option: str(folder)}), cache_config=NO_CACHE)
    msg = str(info.value)
    assert option in msg and str(folder) in msg and "not a directory" in msg
    assert metric.log.calls == []  # nothing was measured
    assert blocker.read_text() == "keep me"


def test_results_folder_from_the_environment_is_checked_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "env-out"
    blocker.write_text("x")
    monkeypatch.setenv("DEEPEVAL_RESULTS_FOLDER", str(blocker))
    metric = ScoreMetric(0.7)
    with pytest.raises(ConfigurationError, match="env-out"):
        evaluate(TC, [metric], display_config=_display(), cache_config=NO_CACHE)
    assert metric.log.calls == []


def test_missing_results_folder_is_created(tmp_path: Path) -> None:
    folder = tmp_path / "a" / "b"
    result = evaluate(
        TC, [ScoreMetric(0.7)], display_config=_display(results_folder=str(folder)), cache_config=NO_CACHE
    )
    assert sorted(p.suffix for p in folder.iterdir()) == [".html", ".json", ".json"]
    assert result.extras["json_path"].startswith(str(folder))
    assert "export_error" not in result.extras


def _failing_export(*args: object, **kwargs: object) -> None:
    raise OSError(28, "No space left on device")


def test_export_failure_after_measuring_keeps_the_result(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(REPORT, "export_run", _failing_export)
    metric = ScoreMetric(0.7)
    with pytest.warns(RuntimeWarning, match="No space left on device"):
        result = evaluate(
            TC, [metric], display_config=_display(results_folder=str(tmp_path / "r")), cache_config=NO_CACHE
        )
    assert result.test_results[0].metrics_data[0].score == 0.7
    assert "No space left on device" in result.extras["export_error"]
    assert "json_path" not in result.extras
    assert len(metric.log.calls) == 1


def test_export_failure_with_errored_rows_still_raises_evaluation_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(REPORT, "export_test_cases", _failing_export)
    metric = ScoreMetric(0.5, fail_on=lambda tc: "judge down")
    with pytest.warns(RuntimeWarning), pytest.raises(EvaluationError) as info:
        evaluate(
            TC,
            [metric],
            display_config=_display(file_output_dir=str(tmp_path / "f")),
            cache_config=NO_CACHE,
            error_config=ErrorConfig(ignore_errors=False),
        )
    assert info.value.result.test_results[0].metrics_data[0].error == "RuntimeError: judge down"
    assert "export_error" in info.value.result.extras


@pytest.mark.regression
@pytest.mark.parametrize("subfolder", ["../../x", "../x", "a/../../x", "ABSOLUTE"])
def test_results_subfolder_must_stay_inside_the_results_folder(tmp_path: Path, subfolder: str) -> None:
    """Deliberate (docs: deepeval._safe_path): ``results_subfolder`` is a name inside ``results_folder``; deepeval
    4.3.1 would write wherever an absolute or ``..`` path points."""
    folder = tmp_path / "deep" / "er" / "runs"
    if subfolder == "ABSOLUTE":
        subfolder = str(tmp_path / "elsewhere")
    metric = ScoreMetric(0.7)
    config = _display(results_folder=str(folder), results_subfolder=subfolder)
    with pytest.raises(ConfigurationError, match="results_subfolder") as info:
        evaluate(TC, [metric], display_config=config, cache_config=NO_CACHE)
    assert repr(subfolder) in str(info.value) and "nothing was measured" in str(info.value)
    assert metric.log.calls == []
    assert sorted(p.name for p in tmp_path.rglob("*")) == []  # no folder made anywhere


@pytest.mark.regression
def test_results_subfolder_link_leading_out_of_the_results_folder_is_refused(tmp_path: Path) -> None:
    folder, elsewhere = tmp_path / "runs", tmp_path / "elsewhere"
    folder.mkdir()
    elsewhere.mkdir()
    (folder / "latest").symlink_to(elsewhere)
    with pytest.raises(ConfigurationError, match="through a symbolic link"):
        evaluate(
            TC,
            [ScoreMetric(0.7)],
            display_config=_display(results_folder=str(folder), results_subfolder="latest"),
            cache_config=NO_CACHE,
        )
    assert list(elsewhere.iterdir()) == []


def test_nested_results_subfolder_is_written_inside_the_results_folder(tmp_path: Path) -> None:
    folder = tmp_path / "runs"
    result = evaluate(
        TC,
        [ScoreMetric(0.7)],
        display_config=_display(results_folder=str(folder), results_subfolder="exp/one"),
        cache_config=NO_CACHE,
    )
    assert sorted(p.suffix for p in (folder / "exp" / "one").iterdir()) == [".html", ".json", ".json"]
    assert result.extras["json_path"].startswith(str(folder / "exp" / "one"))
