"""deepeval 4.3.1's settings editors with the commands its docs give: ``set-debug`` / ``unset-debug``
(``--log-level``, ``--verbose``, ``--save``) and ``deepeval settings -l / --set / --unset / --save``. The files
written hold what 4.3.1 writes for the same commands (``LOG_LEVEL=10`` for DEBUG, ``DEEPEVAL_VERBOSE_MODE=1``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from deepeval.cli.main import app
from deepeval.config.dotenv_read import read_dotenv

runner = CliRunner()


def _run(*args: str) -> tuple[int, str]:
    res = runner.invoke(app, list(args))
    return res.exit_code, res.output


def _file(path: Path) -> dict[str, str | None]:
    return dict(read_dotenv(path)) if path.exists() else {}


def test_set_debug_and_unset_debug_write_what_deepeval_writes(isolated: Path) -> None:
    assert _run("set-debug", "--log-level", "DEBUG", "--save=dotenv")[0] == 0
    assert _file(isolated / ".env.local") == {"LOG_LEVEL": "10"}
    code, _ = _run("set-debug", "--verbose", "--log-level", "warning", "--save=dotenv:custom.env")
    assert code == 0 and _file(isolated / "custom.env") == {"LOG_LEVEL": "30", "DEEPEVAL_VERBOSE_MODE": "1"}
    code, out = _run("set-debug", "--log-level", "LOUD", "--save=dotenv")
    assert (
        code == 2
        and "log level must be one of" in out
        and _file(isolated / ".env.local") == {"LOG_LEVEL": "10"}
    )
    assert _run("unset-debug", "--save=dotenv")[0] == 0
    assert _file(isolated / ".env.local") == {}


def test_without_save_nothing_is_written_and_a_note_says_so(isolated: Path) -> None:
    code, out = _run("set-debug", "--log-level", "INFO")
    assert code == 0 and "Not saved (LOG_LEVEL)" in out
    code, out = _run("settings", "-u", "DEEPEVAL_RESULTS_FOLDER=out")
    assert code == 0 and "Not saved (DEEPEVAL_RESULTS_FOLDER)" in out
    assert list(isolated.iterdir()) == []


def test_settings_set_unset_and_list(isolated: Path) -> None:
    code, _ = _run(
        "settings", "-u", "DEEPEVAL_VERBOSE_MODE=1", "--set", "deepeval_results_folder=out", "--save=dotenv"
    )
    assert code == 0
    assert _file(isolated / ".env.local") == {"DEEPEVAL_VERBOSE_MODE": "1", "DEEPEVAL_RESULTS_FOLDER": "out"}
    assert _run("settings", "-U", "results", "--save=dotenv")[0] == 0  # a part of the name, any case
    assert _file(isolated / ".env.local") == {"DEEPEVAL_VERBOSE_MODE": "1"}
    code, out = _run("settings", "-l", "verbose")
    lines = [line.split() for line in out.splitlines()]
    assert code == 0 and ["DEEPEVAL_VERBOSE_MODE", "1"] == next(
        w[:2] for w in lines if w and w[0] == "DEEPEVAL_VERBOSE_MODE"
    )
    assert not any(w and w[0] == "OPENAI_API_KEY" for w in lines)  # filtered out


def test_unknown_settings_are_refused_with_deepevals_message(isolated: Path) -> None:
    for args in (("-u", "NOPE=1"), ("-U", "nope")):
        code, out = _run("settings", *args, "--save=dotenv")
        assert code == 2 and "Unknown setting: 'NOPE'" in out.replace("'nope'", "'NOPE'")
    assert list(isolated.iterdir()) == []


def test_a_secret_set_through_settings_is_never_shown(isolated: Path) -> None:
    secret = "sk-test-0123456789abcdef"
    code, out = _run("settings", "--set", f"OPENAI_API_KEY={secret}", "--save=dotenv")
    assert code == 0 and secret not in out and _file(isolated / ".env.local") == {"OPENAI_API_KEY": secret}
    code, out = _run("settings", "-l", "openai_api")
    assert code == 0 and secret not in out and "OPENAI_API_KEY" in out


def test_log_level_sets_the_deepeval_logger_on_import(isolated: Path) -> None:
    (isolated / ".env.local").write_text("LOG_LEVEL=10\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "DEEPEVAL_DISABLE_DOTENV"}
    out = subprocess.run(
        [sys.executable, "-c", "import logging, deepeval; print(logging.getLogger('deepeval').level)"],
        cwd=isolated,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "10"
