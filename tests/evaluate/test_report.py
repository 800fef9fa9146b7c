from __future__ import annotations

import json
import shutil
import subprocess
import zlib
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

from deepeval import evaluate
from deepeval.evaluate import CacheConfig, DisplayConfig, ErrorConfig
from deepeval.evaluate.display import render_results
from deepeval.evaluate.report import histogram, render_html, save_html
from deepeval.test_case import LLMTestCase

from ._fakes import ScoreMetric

GREEN, RED = (0x2E, 0x9D, 0x5B), (0xD2, 0x48, 0x3D)


def make_result():
    cases = [LLMTestCase(input=f"q{i}", actual_output="a") for i in range(10)]
    cases[0] = LLMTestCase(input="q0 <script>alert('x')</script>", actual_output="a", name="evil & co")
    acc = ScoreMetric(lambda tc, n: int(tc.input[1]) / 10, name="Accuracy", threshold=0.5, judge="judge-one")
    rel = ScoreMetric(
        0.95,
        name="Relevance",
        threshold=0.7,
        judge="judge-two",
        cost=0.002,
        fail_on=lambda tc: "bad <b>judge</b> reply" if tc.input == "q9" else None,
    )
    return evaluate(
        cases,
        [acc, rel],
        display_config=DisplayConfig(show_indicator=False, print_results=False),
        cache_config=CacheConfig(write_cache=False),
        error_config=ErrorConfig(ignore_errors=True),
        identifier="report-test",
    )


class _Collect(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)


def test_histogram_bins():
    assert histogram([0.0, 0.05, 0.1, 0.55, 0.99, 1.0, 1.2, -0.1]) == [3, 1, 0, 0, 0, 1, 0, 0, 0, 3]
    # huge, infinite and NaN scores: end bins, none (1e308 * 10 overflowed to inf, then int() raised)
    assert histogram([1e308, float("inf"), -1e308, float("nan")]) == [1, 0, 0, 0, 0, 0, 0, 0, 0, 2]


def test_html_is_self_contained_escaped_and_complete():
    result = make_result()
    html = render_html(result)
    p = _Collect()
    p.feed(html)
    tags = [t for t, _ in p.tags]
    # one inline script, no external assets or URLs
    assert tags.count("script") == 1 and "link" not in tags and "img" not in tags
    assert not any("src" in a or "href" in a for _, a in p.tags)
    assert "url(" not in html and "@import" not in html and "http://" not in html and "https://" not in html
    # content under evaluation is text, not markup
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;" in html and "evil &amp; co" in html
    assert "bad &lt;b&gt;judge&lt;/b&gt; reply" in html
    # one details row per metric row, one histogram per metric with 10 bars
    rows = [a for t, a in p.tags if t == "details"]
    assert len(rows) == 20
    assert [a["data-status"] for a in rows].count("error") == 1
    assert all(a["class"] == f"row row-{a['data-status']}" for a in rows)
    svgs = [a for t, a in p.tags if t == "svg"]
    assert [a["class"] for a in svgs] == ["histogram", "histogram"]
    bars = [a for t, a in p.tags if t == "rect" and a.get("class") == "bar"]
    assert len(bars) == 20
    acc_heights = [float(a["height"]) for a in bars[:10]]
    assert acc_heights == [120.0] * 10  # Accuracy: one score per bin
    acc_fills = [a["fill"] for a in bars[:10]]
    assert acc_fills == ["#d2483d"] * 5 + ["#2e9d5b"] * 5  # bins below / above the 0.5 threshold
    rel_heights = [float(a["height"]) for a in bars[10:]]
    assert rel_heights == [0.0] * 9 + [120.0]  # Relevance: 9 scores of 0.95 (one errored)
    text = " ".join(p.text)
    assert "judge-one" in text and "judge-two" in text
    # Accuracy fails q0..q4, Relevance errors on q9: 4 test cases pass
    assert "Test cases passed<b>4 / 10</b>" in html


def test_console_table_lists_every_row():
    out = render_results(make_result(), width=200)
    assert out.count("Accuracy") >= 10 and "ERROR" in out and "bad <b>judge</b> reply" in out
    assert "4/10 test cases passed" in out and "1 errors" in out


def test_json_export_round_trips(tmp_path):
    result = make_result()
    data = json.loads(result.to_json())
    assert data["totals"]["metric_rows"] == 20 and data["totals"]["errors"] == 1
    assert data["judges"] == ["judge-one", "judge-two"]
    assert data["metrics"]["Relevance"]["mean_score"] == pytest.approx(0.95)
    assert data["totals"]["cost_usd"] == pytest.approx(0.002 * 9)


def _read_png(path: Path) -> np.ndarray:
    """Minimal PNG decoder (8-bit RGB/RGBA, not interlaced) -> array (h, w, channels)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat = 8, b""
    while pos < len(data):
        n = int.from_bytes(data[pos : pos + 4], "big")
        kind, chunk = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            w, h = int.from_bytes(chunk[:4], "big"), int.from_bytes(chunk[4:8], "big")
            assert chunk[8] == 8 and chunk[9] in (2, 6) and chunk[12] == 0
            bpp = 3 if chunk[9] == 2 else 4
        elif kind == b"IDAT":
            idat += chunk
    raw = np.frombuffer(zlib.decompress(idat), dtype=np.uint8).reshape(h, 1 + w * bpp)
    out = np.zeros((h, w * bpp), dtype=np.int32)
    prev = np.zeros(w * bpp, dtype=np.int32)
    for y in range(h):
        f, line = raw[y, 0], raw[y, 1:].astype(np.int32)
        if f == 0:
            cur = line
        elif f == 1:
            cur = np.cumsum(line.reshape(w, bpp), axis=0).reshape(-1) % 256
        elif f == 2:
            cur = (line + prev) % 256
        else:
            cur = line.copy()
            for x in range(w * bpp):
                a = cur[x - bpp] if x >= bpp else 0
                b = prev[x]
                c = prev[x - bpp] if x >= bpp else 0
                if f == 3:
                    cur[x] = (cur[x] + (a + b) // 2) % 256
                else:
                    pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                    pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                    cur[x] = (cur[x] + pred) % 256
        out[y] = cur
        prev = cur
    return out.reshape(h, w, bpp)


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install -y chromium)")
def test_report_renders_in_headless_chromium(tmp_path):
    html_path = save_html(make_result(), tmp_path / "report.html")
    png = tmp_path / "shot.png"
    proc = subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--hide-scrollbars",
            f"--user-data-dir={tmp_path / 'profile'}",
            "--window-size=1200,900",
            f"--screenshot={png}",
            html_path.as_uri(),
        ],
        capture_output=True,
        timeout=90,
    )
    assert png.is_file(), proc.stderr.decode(errors="replace")[-2000:]
    img = _read_png(png)
    assert img.shape[:2] == (900, 1200)
    rgb = img[:, :, :3].reshape(-1, 3)
    non_white = np.mean(np.any(rgb < 245, axis=1))
    assert non_white > 0.02  # text, table borders, bars
    colours = {tuple(c) for c in np.unique(rgb, axis=0)}
    assert len(colours) > 20
    green = np.sum(np.all(rgb == GREEN, axis=1))
    red = np.sum(np.all(rgb == RED, axis=1))
    # bars are 25 px wide and up to 120 px high: both colours cover thousands of pixels
    assert green > 2000 and red > 2000, (green, red)


def _detail_result():
    from deepeval.evaluate.results import EvaluationResult, MetricData, TestResult

    verdicts = [
        {
            "node": 0,
            "statement": "Returns within 30 days.",
            "verdict": "yes",
            "decided_by": "system_one",
            "p_yes": 0.91,
        },
        {
            "node": 1,
            "statement": "Opens at 9.",
            "verdict": "no",
            "decided_by": "llm_fallback",
            "reason": "hours",
        },
    ]
    single = TestResult(
        name="returns",
        success=False,
        conversational=False,
        index=0,
        input="What is the return policy?",
        actual_output="30 days <b>full</b> refund.",
        expected_output="Thirty days.",
        retrieval_context=["Returns within 30 days.", "Opens at 9."],
        metrics_data=[
            MetricData("Contextual Relevancy", 0.5, False, 0.5, reason="half relevant", verdicts=verdicts),
            MetricData("Answer Relevancy", 0.5, False, None, error="JudgeError: timeout"),
        ],
    )
    chat = TestResult(
        name="chat",
        success=True,
        conversational=True,
        index=1,
        turns=[
            {"role": "user", "content": "I live in Porto."},
            {"role": "assistant", "content": "Noted, Porto."},
        ],
        metrics_data=[
            MetricData(
                "Knowledge Retention",
                0.5,
                True,
                1.0,
                verdicts=[
                    {
                        "turn": 1,
                        "assistant_message": "Noted, Porto.",
                        "facts": ["lives in Porto"],
                        "verdict": "no",
                        "attrition": False,
                        "decided_by": "llm",
                    }
                ],
            ),
            MetricData("Answer Relevancy", 0.5, None, None, skipped=True, reason="skipped: conversational"),
        ],
    )
    result = EvaluationResult(test_results=[single, chat], run_id="r" * 32, identifier="nightly")
    result.extras["hyperparameters"] = {"model": "gpt-x", "temperature": 0.2}
    return result


def test_html_rows_open_to_every_detail():
    html = render_html(_detail_result())
    p = _Collect()
    p.feed(html)
    text = " ".join(" ".join(p.text).split())
    rows = [a for t, a in p.tags if t == "details"]
    assert [(a["data-status"], a["data-metric"], a["data-score"]) for a in rows] == [
        ("failed", "Contextual Relevancy", "0.5"),
        ("error", "Answer Relevancy", ""),
        ("passed", "Knowledge Retention", "1.0"),
        ("skipped", "Answer Relevancy", ""),
    ]
    for words in (
        "What is the return policy?",
        "Thirty days.",
        "Returns within 30 days. Opens at 9.",
        "node 0 Returns within 30 days. yes 0.91 System One",
        "node 1 Opens at 9. hours no - LLM (fallback)",
        "turn 1 Noted, Porto. facts: lives in Porto kept - LLM",
        "user I live in Porto.",
        "Error JudgeError: timeout",
        "Reason half relevant",
        "identifier nightly",
        "model gpt-x temperature 0.2",
    ):
        assert words in text, words
    assert "30 days &lt;b&gt;full&lt;/b&gt; refund." in html
    chips = [a["data-filter-status"] for t, a in p.tags if t == "button"]
    assert chips == ["all", "passed", "failed", "error", "skipped", "scored"]


def _dump_dom(html_path: Path, fragment: str, profile: Path) -> str:
    proc = subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            f"--user-data-dir={profile}",
            "--virtual-time-budget=3000",
            "--dump-dom",
            html_path.as_uri() + fragment,
        ],
        capture_output=True,
        timeout=90,
    )
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")[-2000:]
    return proc.stdout.decode()


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install -y chromium)")
def test_report_filters_and_sorts_in_headless_chromium(tmp_path):
    # The page's script applies "#status=...&metric=...&sort=..." by clicking the status chip and setting the
    # selects, so the DOM chromium dumps is the page after a click on the filter.
    html_path = save_html(make_result(), tmp_path / "report.html")

    def visible(dom: str) -> list[dict[str, str | None]]:
        p = _Collect()
        p.feed(dom)
        return [a for t, a in p.tags if t == "details" and "hidden" not in a]

    everything = visible(_dump_dom(html_path, "", tmp_path / "p0"))
    assert len(everything) == 20
    failed = visible(_dump_dom(html_path, "#status=failed", tmp_path / "p1"))
    assert [a["data-status"] for a in failed] == ["failed"] * 5
    dom = _dump_dom(html_path, "#status=error", tmp_path / "p2")
    assert [(a["data-status"], a["data-metric"]) for a in visible(dom)] == [("error", "Relevance")]
    assert 'data-shown="1"' in dom and 'class="chip on" data-filter-status="error"' in dom
    ordered = visible(_dump_dom(html_path, "#metric=Accuracy&sort=score-desc", tmp_path / "p3"))
    assert [a["data-metric"] for a in ordered] == ["Accuracy"] * 10
    assert [float(a["data-score"] or "nan") for a in ordered] == [
        0.9,
        0.8,
        0.7,
        0.6,
        0.5,
        0.4,
        0.3,
        0.2,
        0.1,
        0.0,
    ]


@pytest.mark.parametrize(
    ("identifier", "stem"), [("../../escaped", "_.._escaped"), ("..", "run"), ("nightly", "nightly")]
)
def test_an_identifier_never_names_a_hidden_file(identifier: str, stem: str) -> None:
    """identifier="../../escaped" stayed inside the results folder but named '.._.._escaped-...json', a dotfile
    that `ls` does not show (outside attack 5, L14)."""
    from deepeval.evaluate.report import run_file_stem
    from deepeval.evaluate.results import EvaluationResult

    name = run_file_stem(EvaluationResult(test_results=[], identifier=identifier, run_id="abcdef0123"))
    assert name.startswith(f"{stem}-") and name.endswith("-abcdef01")
