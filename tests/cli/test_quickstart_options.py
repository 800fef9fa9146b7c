"""`deepeval quickstart` options with bad values."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from _support.markers import REGRESSION
from deepeval.cli.main import app

pytestmark = REGRESSION


def test_quickstart_eval_mode_typo_is_a_usage_error() -> None:
    result = CliRunner().invoke(app, ["quickstart", "--eval-mode", "hybird", "--limit", "1", "--no-table"])
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 2
    assert "hybird" in result.output


def test_quickstart_does_not_claim_reports_it_could_not_write(tmp_path: Path) -> None:
    folder = "/proc/deepeval-breaker-reports"
    result = CliRunner().invoke(app, ["quickstart", "--limit", "1", "--no-table", "--results-folder", folder])
    assert not Path(folder).exists()
    assert f"Reports written to {folder}" not in result.output


def test_quickstart_offline_uses_the_embedded_judge_even_with_a_key_set(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a configured OpenAI judge on a loopback port nothing listens on: any call would be a connection error row
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-SECRET123")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    result = CliRunner().invoke(app, ["quickstart", "--offline", "--limit", "2", "--no-table"])
    assert result.exit_code == 0, result.output
    assert (
        "Judge(s): deepeval-local-1 deterministic extraction + deepeval-local-1 (embedded, offline)"
        in " ".join(result.output.split())
    )
    assert "SECRET123" not in result.output and "errored" not in result.output.lower()


def test_quickstart_offline_refuses_an_llm_mode() -> None:
    result = CliRunner().invoke(app, ["quickstart", "--offline", "--eval-mode", "llm", "--limit", "1"])
    assert result.exit_code == 2 and "--offline has no LLM judge" in result.output


def test_quickstart_offline_scores_as_with_nothing_configured(monkeypatch: pytest.MonkeyPatch) -> None:
    # --offline is the default judge set-up (hybrid: deterministic extractor, embedded decider), not another mode
    args = ["quickstart", "--limit", "4", "--no-table"]
    plain = CliRunner().invoke(app, args)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-SECRET123")
    monkeypatch.setenv("TYPESAFE_API_KEY", "ts-test-SECRET456")
    offline = CliRunner().invoke(app, [*args, "--offline"])
    assert plain.exit_code == offline.exit_code == 0, offline.output
    summary = [line for line in plain.output.splitlines() if "│" in line and "wall time" not in line]
    assert summary and summary == [
        line for line in offline.output.splitlines() if "│" in line and "wall time" not in line
    ]


def test_the_shipped_blind_test_summary_is_the_report_s_blind_test_numbers() -> None:
    import json

    from deepeval.cli.quickstart import _BLIND_ROWS, blind_test_table

    root = Path(__file__).resolve().parents[2]
    report = json.loads((root / "training" / "report.json").read_text())["blind"]
    shipped = json.loads(
        (root / "src" / "deepeval" / "models" / "embedded" / "data" / "blind_test_summary.json").read_text()
    )
    for key, _label, measured, baseline, _what in _BLIND_ROWS:
        for name in (measured, baseline):
            if name is not None:
                assert shipped[key][name] == report[key]["blind_test"][name], (key, name)
    assert blind_test_table().row_count == len(_BLIND_ROWS)
