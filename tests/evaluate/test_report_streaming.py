"""JSON and HTML reports are written one test case at a time: the same bytes as the whole-text renderers, without
holding a large run's whole report in memory."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import pytest

from deepeval import evaluate
from deepeval._files import write_chunks_atomic
from deepeval.evaluate import CacheConfig, DisplayConfig, ErrorConfig
from deepeval.evaluate.report import iter_html, render_html, save_html, save_json
from deepeval.evaluate.results import EvaluationResult
from deepeval.test_case import ConversationalTestCase, LLMTestCase, Turn

from ._fakes import ConvMetric, ScoreMetric

QUIET = DisplayConfig(show_indicator=False, print_results=False)


def _result(n: int) -> EvaluationResult:
    cases: list[object] = [
        LLMTestCase(input=f'q{i} naïve "quoted"\nline two \udcff', actual_output=f"a{i} ✓") for i in range(n)
    ]
    cases.append(
        ConversationalTestCase(
            turns=[Turn(role="user", content="hi\tthere"), Turn(role="assistant", content="ok")]
        )
    )
    metrics = [
        ScoreMetric(lambda tc, k: (k % 10) / 10, name="Acc", threshold=0.5),
        ConvMetric(0.75),
        ScoreMetric(0.5, name="Broken", fail_on=lambda tc: "boom <b>" if "q3 " in str(tc.input) else None),
    ]
    if n == 0:  # a conversation alone: a single-turn metric would measure nothing (a ValueError, as deepeval)
        metrics = metrics[1:2]
    return evaluate(
        cases,  # type: ignore[arg-type]
        metrics,
        display_config=QUIET,
        cache_config=CacheConfig(write_cache=False),
        error_config=ErrorConfig(ignore_errors=True),
        identifier="stream",
    )


@pytest.mark.parametrize("n", [0, 1, 7])
def test_json_pieces_join_to_exactly_to_json(n: int, tmp_path: Path) -> None:
    result = _result(n)
    assert "".join(result.iter_json()) == result.to_json()
    path = save_json(result, tmp_path / "r.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert len(data["test_results"]) == n + 1
    assert data == json.loads(result.to_json())
    if n:
        assert data["test_results"][0]["input"].endswith("line two \udcff")  # the lone surrogate round-trips


def test_html_pieces_join_to_exactly_render_html(tmp_path: Path) -> None:
    result = _result(5)
    pieces = list(iter_html(result))
    assert len(pieces) > 10 and "".join(pieces) == render_html(result)
    html = save_html(result, tmp_path / "r.html").read_bytes()
    assert html == render_html(result).encode("utf-8", errors="backslashreplace")
    assert b"boom &lt;b&gt;" in html and b"<b>boom" not in html


def test_a_failing_piece_leaves_no_file(tmp_path: Path) -> None:
    def pieces():
        yield "partial"
        raise RuntimeError("template broke")

    with pytest.raises(RuntimeError, match="template broke"):
        write_chunks_atomic(tmp_path / "out.json", pieces())
    assert list(tmp_path.iterdir()) == []


def _write_peaks(result: EvaluationResult, folder: Path) -> tuple[int, int]:
    """Peak traced memory while writing the JSON, then the HTML report of ``result``."""
    save_html(result, folder / "warm.html")  # compile the template outside the measurement
    tracemalloc.start()
    try:
        save_json(result, folder / "r.json")
        _, json_peak = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        save_html(result, folder / "r.html")
        _, html_peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return json_peak, html_peak


def test_writing_a_large_run_never_holds_its_whole_text(tmp_path: Path) -> None:
    small, large = _result(150), _result(1500)
    (tmp_path / "s").mkdir()
    (tmp_path / "l").mkdir()
    small_peaks, large_peaks = _write_peaks(small, tmp_path / "s"), _write_peaks(large, tmp_path / "l")
    json_size = (tmp_path / "l" / "r.json").stat().st_size
    html_size = (tmp_path / "l" / "r.html").stat().st_size
    assert json_size == len(large.to_json().encode("utf-8", "backslashreplace")) and json_size > 1_000_000
    # 10x the test cases: the files grow ~10x, the peak while writing them barely moves (writing the whole text
    # at once peaked above the file's own size)
    assert large_peaks[0] - small_peaks[0] < json_size / 10, (small_peaks, large_peaks, json_size)
    assert large_peaks[1] - small_peaks[1] < html_size / 5, (small_peaks, large_peaks, html_size)
