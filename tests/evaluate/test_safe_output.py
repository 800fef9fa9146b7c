"""What an attacker puts in a test-case name, an output or a judge's reason reaches the terminal and the Markdown
report as inert text: escape sequences are shown as visible escapes (never sent raw), Markdown and HTML are
escaped, and a name with a line break stays on its line (deepeval._safe_text is the one sanitiser)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from rich.console import Console
from typer.testing import CliRunner

from _support.markers import REGRESSION
from deepeval import assert_test, evaluate
from deepeval._safe_text import markdown, terminal
from deepeval.cli.main import app
from deepeval.evaluate import CacheConfig, DisplayConfig, ErrorConfig
from deepeval.evaluate.display import results_renderables
from deepeval.test_case import LLMTestCase

from ._fakes import ScoreMetric

pytestmark = REGRESSION

#: set the window title, clear the screen, an OSC 52 clipboard write, an 8-bit CSI, a bidi override, a bell
PAYLOAD = "ok\x1b]0;PWNED\x07\x1b[2J\x1b]52;c;ZWNobyBoaQ==\x07\x9b31m\u202eevil\x08"
HTML_PAYLOAD = "<img src=x onerror=alert(1)> [click](javascript:alert(1)) *bold* | cell"
RAW = ("\x1b", "\x07", "\x9b", "\u202e", "\x08")


def test_terminal_shows_every_control_character_as_an_escape() -> None:
    shown = terminal(PAYLOAD)
    assert not any(ch in shown for ch in RAW)
    assert shown == "ok\\x1b]0;PWNED\\x07\\x1b[2J\\x1b]52;c;ZWNobyBoaQ==\\x07\\x9b31m\\u202eevil\\x08"
    assert terminal("a\tb\nc\r\nd\re") == "a\tb\nc\nd\\re"  # tabs and line breaks kept, a bare CR shown
    assert terminal("a\nb\r\nc\td", one_line=True) == "a\\nb\\nc d"
    assert terminal("\udcff") == "\ufffd" and terminal(None) == "" and terminal(0.5) == "0.5"
    assert terminal(terminal(PAYLOAD)) == terminal(PAYLOAD)  # escaping twice changes nothing


def test_markdown_is_inert_when_rendered() -> None:
    html = MarkdownIt("commonmark").enable("table").render(f"| a |\n|---|\n| {markdown(HTML_PAYLOAD)} |\n")
    assert "<img" not in html and "href" not in html and "<em>" not in html and "<strong>" not in html
    assert (
        "&lt;img src=x onerror=alert(1)&gt;" in html and html.count("<td>") == 1
    )  # the pipe stayed in the cell
    assert markdown("x\n# heading", one_line=True) == "x\\\\n# heading"  # renders as the text x\n# heading
    assert markdown("a\nb") == "a<br>b"


class _Payload(ScoreMetric):
    def _finish(self, tc, score):  # type: ignore[no-untyped-def]
        out = super()._finish(tc, score)
        self.reason = f"reason {PAYLOAD} {HTML_PAYLOAD}\n# injected heading"
        return out


def _run(**display: object):  # type: ignore[no-untyped-def]
    return evaluate(
        [
            LLMTestCase(
                input=f"q {PAYLOAD}", actual_output=f"a {HTML_PAYLOAD}", name=f"name {PAYLOAD}\n# h1"
            ),
            LLMTestCase(input="q2", actual_output="a2", name="plain"),
        ],
        [_Payload(lambda tc, n: 0.2 if tc.name != "plain" else 0.9)],
        display_config=DisplayConfig(show_indicator=False, print_results=False, **display),  # type: ignore[arg-type]
        cache_config=CacheConfig(write_cache=False),
        error_config=ErrorConfig(ignore_errors=True),
    )


@pytest.mark.parametrize("width", [80, 160])
def test_console_results_send_no_escape_sequence_and_keep_names_on_one_line(width: int) -> None:
    buf = io.StringIO()
    console = Console(file=buf, width=width, force_terminal=True, color_system="truecolor", highlight=False)
    for r in results_renderables(_run(), full_reason=True):
        console.print(r)
    out = buf.getvalue()
    # rich's own colour codes are CSI ... m; nothing else of ESC may reach the terminal
    import re

    others = re.sub(r"\x1b\[[0-9;]*m", "", out)
    assert not any(ch in others for ch in RAW), repr(others[:400])
    plain = re.sub(r"\x1b\[[0-9;]*m", "", out)
    assert "\\x1b]0;PWNED\\x07" in plain.replace("\n", "")
    assert not any(line.startswith("# h1") for line in plain.splitlines())  # the name's line break is shown


def test_markdown_report_renders_no_html_link_or_heading_from_the_run(tmp_path: Path) -> None:
    result = _run(file_output_dir=str(tmp_path), file_type="md")
    text = Path(result.extras["report_path"]).read_text(encoding="utf-8")
    assert not any(ch in text for ch in RAW)
    html = MarkdownIt("commonmark").enable("table").render(text)
    assert "<img" not in html and "<a " not in html and "href" not in html and "<em>" not in html
    assert "<h1>h1" not in html and "<h1>injected" not in html and "<h1>" in html  # only our title
    assert html.count("<h2>") == 2  # one heading per test case: the name stayed on its line
    assert "&lt;img src=x onerror=alert(1)&gt;" in html


def test_assert_test_message_shows_the_reason_inert() -> None:
    with pytest.raises(AssertionError) as info:
        assert_test(LLMTestCase(input="q", actual_output="a", name=f"n {PAYLOAD}"), [_Payload(0.1)])
    message = str(info.value)
    assert not any(ch in message for ch in RAW)
    assert "\\x1b[2J" in message


def test_settings_show_dotenv_values_inert(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DEEPEVAL_DISABLE_DOTENV", raising=False)
    monkeypatch.delenv("ENV_DIR_PATH", raising=False)
    monkeypatch.delenv("OPENAI_MODEL_NAME", raising=False)
    (tmp_path / ".env").write_text(f'OPENAI_MODEL_NAME="gpt{PAYLOAD}"\n', encoding="utf-8")
    result = CliRunner().invoke(app, ["settings"])
    assert result.exit_code == 0, result.output
    assert not any(ch in result.output for ch in RAW)
    assert "gptok\\x1b]0;PWNED\\x07" in result.output


def test_evaluate_command_names_a_bad_line_inert(tmp_path: Path) -> None:
    data = tmp_path / "cases.jsonl"
    data.write_text('{"input": "q", "act\\u001b[2Jual": "a"}\n', encoding="utf-8")
    result = CliRunner().invoke(app, ["evaluate", str(data), "--no-progress"])
    assert result.exit_code == 2
    assert "\x1b" not in result.output and "act\\x1b[2Jual" in result.output


@pytest.mark.regression
def test_escape_sequences_from_test_data_are_inert_in_csv_and_html(tmp_path: Path) -> None:
    """ESC sequences and bidi overrides in test data are shown as visible escapes in the results CSV and the HTML
    report, as on the console (they were written raw: issue 42 item 10); the JSON export keeps them exactly."""
    evil = "clear\x1b[2J title\x1b]0;pwned\x07 rtl\u202e"
    result = evaluate(
        [LLMTestCase(input=evil, actual_output="a", name=evil)],
        [ScoreMetric(0.9, name="M", threshold=0.5)],
        display_config=DisplayConfig(show_indicator=False, print_results=False, results_folder=str(tmp_path)),
        cache_config=CacheConfig(write_cache=False),
    )
    result.to_csv(tmp_path / "rows.csv")
    csv_text = (tmp_path / "rows.csv").read_text(encoding="utf-8")
    [html] = tmp_path.glob("*.html")
    for text in (csv_text, html.read_text(encoding="utf-8")):
        assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text
        assert "\\x1b[2J" in text and "\\u202e" in text
    [export] = tmp_path.glob("*.json")
    assert json.loads(export.read_text(encoding="utf-8"))["test_results"][0]["input"] == evil
