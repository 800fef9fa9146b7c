"""The HTML report says who decided (the embedded judge is named as such, not "System One"), reads a
KnowledgeRetention verdict as kept (green) or forgot (red), colours the histogram by the scores that pass (a
threshold of 1.0 shows perfect scores green), and fits a 400 px wide screen."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from _support.markers import REGRESSION
from deepeval import evaluate
from deepeval.evaluate import CacheConfig, DisplayConfig, ErrorConfig
from deepeval.evaluate.report import render_html, save_html
from deepeval.evaluate.results import EvaluationResult, MetricData, TestResult
from deepeval.metrics import KnowledgeRetentionMetric
from deepeval.test_case import ConversationalTestCase, Turn

pytestmark = REGRESSION

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


@pytest.fixture(scope="module")
def kr_run() -> EvaluationResult:
    """The README's conversation on the embedded judge (hybrid: the embedded judge decides every turn)."""
    convo = ConversationalTestCase(
        name="snack",
        turns=[
            Turn(role="user", content="Hi, I'm Maya and I'm allergic to peanuts."),
            Turn(role="assistant", content="Nice to meet you, Maya. I'll keep your peanut allergy in mind."),
            Turn(role="user", content="Can you suggest a snack for my flight?"),
            Turn(role="assistant", content="Try a bag of peanuts: they are light and filling."),
        ],
    )
    return evaluate(
        [convo],
        [KnowledgeRetentionMetric(threshold=1.0, eval_mode="hybrid")],
        display_config=DisplayConfig(show_indicator=False, print_results=False),
        cache_config=CacheConfig(write_cache=False),
        error_config=ErrorConfig(ignore_errors=True),
    )


def _verdict_rows(html: str) -> list[tuple[str, str, str]]:
    """``(verdict cell class, verdict text, decided-by text)`` of each verdict row."""
    rows = re.findall(
        r'<td class="(v-\w+)">([^<]*)</td><td class="num">[^<]*</td><td>([^<]*)</td></tr>', html
    )
    return [(c, v, d) for c, v, d in rows]


def test_embedded_judge_is_named_as_the_decider_in_json_and_html(kr_run: EvaluationResult) -> None:
    row = kr_run.test_results[0].metrics_data[0]
    assert row.score == 0.5 and row.success is False
    data = json.loads(kr_run.to_json())["test_results"][0]["metrics_data"][0]
    assert [v["decided_by"] for v in data["verdicts"]] == ["embedded", "embedded"]
    html = render_html(kr_run)
    assert _verdict_rows(html) == [
        ("v-good", "kept", "embedded judge"),
        ("v-bad", "forgot", "embedded judge"),
    ]
    table = html.split('<table class="verdicts">', 1)[1].split("</table>", 1)[0]
    assert "System One" not in table and "<th>P(forgets)</th>" in table


def test_relevancy_verdicts_keep_their_words_and_tones() -> None:
    verdicts = [
        {"statement": "a", "verdict": "yes", "decided_by": "system_one", "p_yes": 0.9},
        {"statement": "b", "verdict": "no", "decided_by": "llm_fallback"},
        {"statement": "c", "verdict": "idk", "decided_by": "llm"},
    ]
    result = EvaluationResult(
        test_results=[
            TestResult(
                name="t",
                success=False,
                conversational=False,
                input="q",
                actual_output="a",
                metrics_data=[MetricData("Answer Relevancy", 0.5, False, 0.3, verdicts=verdicts)],
            )
        ]
    )
    assert _verdict_rows(render_html(result)) == [
        ("v-good", "yes", "System One"),
        ("v-bad", "no", "LLM (fallback)"),
        ("v-unsure", "idk", "LLM"),
    ]


def _bars(html: str) -> list[tuple[str, str]]:
    return re.findall(r'<rect class="(bar|bar-pass)"[^>]*height="([\d.]+)"', html)


def _fills(html: str) -> list[str]:
    return re.findall(r'<rect class="bar"[^>]*fill="(#\w+)"', html)


def test_histogram_colours_the_scores_that_pass() -> None:
    rows = [MetricData("KR", 1.0, s >= 1.0, s) for s in [1.0] * 6 + [0.5] * 3]
    result = EvaluationResult(
        test_results=[
            TestResult(name=f"t{i}", success=bool(m.success), conversational=True, metrics_data=[m])
            for i, m in enumerate(rows)
        ]
    )
    fills = _fills(render_html(result))
    assert fills[9] == "#2e9d5b"  # six perfect scores pass a threshold of 1.0: green, not red
    assert fills[5] == "#d2483d"
    mixed = [MetricData("M", 0.55, s >= 0.55, s) for s in (0.5, 0.58, 0.59)]
    html = render_html(
        EvaluationResult(
            test_results=[
                TestResult(name=f"m{i}", success=bool(m.success), conversational=False, metrics_data=[m])
                for i, m in enumerate(mixed)
            ]
        )
    )
    assert _fills(html)[5] == "#d2483d"
    assert ("bar-pass", "80.0") in _bars(html)  # 2 of the bin's 3 scores pass: the green share on top


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install -y chromium)")
@pytest.mark.parametrize("width", [400, 1280])
def test_report_fits_the_screen_with_every_row_open(
    kr_run: EvaluationResult, tmp_path: Path, width: int
) -> None:
    html = render_html(kr_run).replace(
        "</body>",
        "<script>window.addEventListener('load', function () { var d = document.documentElement, wide = []; "
        "document.querySelectorAll('*').forEach(function (e) { var r = e.getBoundingClientRect(); "
        "if (r.right > d.clientWidth + 1) { wide.push(e.tagName + '.' + e.className + ':' + Math.round(r.right)); } "
        "}); document.body.setAttribute('data-wide', wide.slice(0, 12).join(' '));"
        "document.body.setAttribute('data-widths', d.scrollWidth + ' ' + d.clientWidth); });</script></body>",
    )
    path = save_html(EvaluationResult(test_results=[]), tmp_path / "r.html")
    path.write_text(html, encoding="utf-8")
    proc = subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            f"--user-data-dir={tmp_path / 'profile'}",
            f"--window-size={width},900",
            "--virtual-time-budget=3000",
            "--dump-dom",
            path.as_uri() + "#open=1",
        ],
        capture_output=True,
        timeout=90,
    )
    dom = proc.stdout.decode()
    widths = re.search(r'data-widths="(\d+) (\d+)"', dom)
    assert widths is not None, proc.stderr.decode(errors="replace")[-2000:]
    scroll, client = int(widths.group(1)), int(widths.group(2))
    wide = re.search(r'data-wide="([^"]*)"', dom)
    # nothing wider than the window (1 px: sub-pixel rounding): no sideways scrolling
    assert scroll <= client + 1, wide.group(1) if wide else dom[:2000]
    # headless Chromium lays a window out at least 485 px wide (500 less the scrollbar): asked for 400, the
    # page is still laid out by its narrow-screen rules (max-width 640 px)
    assert client <= 640 if width == 400 else client > 1200
    assert re.search(r"<details[^>]*open", dom)  # the rows are open: the verdict table is part of the layout
    assert '<td class="v-bad">forgot</td>' in dom
