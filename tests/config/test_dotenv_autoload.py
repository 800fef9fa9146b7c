"""``import deepeval`` copies the dotenv files' values into ``os.environ`` as deepeval 4.3.1 does (``.env`` <
``.env.<APP_ENV>`` < ``.env.local``, the process environment wins, nothing with ``DEEPEVAL_DISABLE_DOTENV=1``).
The expected lists are what 4.3.1 printed for the same script and files."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from deepeval.config import environment as environment_module
from deepeval.config import settings as settings_module

SCRIPT = (
    "import os, deepeval\n"
    "print([os.environ.get(k) for k in ('A_VAL', 'B_VAL', 'C_VAL', 'D_VAL', 'APP_ENV')])\n"
)


def _files(folder: Path) -> None:
    (folder / ".env").write_text(
        "A_VAL=from-env\nB_VAL=from-env\nAPP_ENV=staging\nD_VAL=env\n", encoding="utf-8"
    )
    (folder / ".env.local").write_text("B_VAL=from-local\nC_VAL=from-local\n", encoding="utf-8")
    (folder / ".env.staging").write_text("D_VAL=staging\nB_VAL=staging\n", encoding="utf-8")


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        ({"C_VAL": "proc"}, "['from-env', 'from-local', 'proc', 'staging', 'staging']"),
        ({"DEEPEVAL_DISABLE_DOTENV": "1"}, "[None, None, None, None, None]"),
        ({"APP_ENV": "none"}, "['from-env', 'from-local', 'from-local', 'env', 'none']"),
    ],
    ids=["environment-wins", "disabled", "app-env-from-the-environment"],
)
def test_import_puts_dotenv_values_into_os_environ(
    extra: dict[str, str], expected: str, tmp_path: Path
) -> None:
    _files(tmp_path)
    env = {
        k: v for k, v in os.environ.items() if k not in {"DEEPEVAL_DISABLE_DOTENV", "ENV_DIR_PATH", "APP_ENV"}
    }
    env.update(extra)
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == expected


def test_settings_read_the_files_fresh_after_the_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ours: a value the import copied from a file counts as the file's, so a file changed later wins over the
    stale copy (``deepeval set-eval-mode --save`` then a run in the same process); a value the user sets in
    ``os.environ`` afterwards still wins over the files."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DEEPEVAL_DISABLE_DOTENV", raising=False)
    monkeypatch.delenv("ENV_DIR_PATH", raising=False)
    monkeypatch.delenv("APP_ENV", raising=False)
    monkeypatch.delenv("DEEPEVAL_EVAL_MODE", raising=False)
    monkeypatch.setattr(environment_module, "AUTOLOADED", {})
    (tmp_path / ".env.local").write_text("DEEPEVAL_EVAL_MODE=hybrid\n", encoding="utf-8")
    try:
        assert settings_module.autoload_dotenv() == {"DEEPEVAL_EVAL_MODE": "hybrid"}
        assert os.environ["DEEPEVAL_EVAL_MODE"] == "hybrid"
        (tmp_path / ".env.local").write_text("DEEPEVAL_EVAL_MODE=llm\n", encoding="utf-8")
        s = settings_module.get_settings()
        assert (s.get("DEEPEVAL_EVAL_MODE"), s.sources["DEEPEVAL_EVAL_MODE"]) == (
            "llm",
            str(tmp_path / ".env.local"),
        )
        os.environ["DEEPEVAL_EVAL_MODE"] = "system_one"  # the user's own, after the import
        assert settings_module.get_settings().get("DEEPEVAL_EVAL_MODE") == "system_one"
    finally:
        os.environ.pop("DEEPEVAL_EVAL_MODE", None)


def test_a_bad_env_dir_does_not_break_the_import(tmp_path: Path) -> None:
    env = dict(os.environ, ENV_DIR_PATH=str(tmp_path / "missing"))
    env.pop("DEEPEVAL_DISABLE_DOTENV", None)
    out = subprocess.run(
        [sys.executable, "-c", "import deepeval"], env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
