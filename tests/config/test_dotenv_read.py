"""Reading dotenv files (deepeval.config.dotenv_read): python-dotenv's values, linear time, and a clear error for a
file that is not UTF-8."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from dotenv import dotenv_values

from deepeval.config import get_settings
from deepeval.config.dotenv_read import read_dotenv
from deepeval.errors import ConfigurationError

ODD_LINES = [
    "A=1",
    "export B = two words  # a comment",
    "C='single # not a comment'",
    'D="double\\nline \\"quoted\\" \\t tab \\\\ back"',
    "E='it\\'s'",
    'F="spans\nlines"',
    "G='also\nspans'",
    "H=",
    "I= # only a comment",
    "J=#novalue",
    "# a comment line",
    "   ",
    "K",
    "'L L'=quoted key",
    "M=${A}-${UNSET:-fallback}-${HOME_NOT_SET}",
    "N=${M}",
    "=no key",
    'O="unterminated',
    "P='unterminated",
    "Q=a b",
    "R x=broken",
    "export",
    "export S=exported",
    "T=value\r",
    "U=\u00e9\u2028x",
    "A=redefined ${A}",
    "V=a\\nb",
    "W=  spaced  ",
    "X=\t",
    'Y="a" trailing',
]


def _same_as_python_dotenv(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FROM_PROCESS", "p")
    assert read_dotenv(path) == dotenv_values(path)


@pytest.mark.parametrize("line", ODD_LINES)
def test_each_odd_line_reads_as_python_dotenv_reads_it(
    tmp_path: Path, line: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / ".env"
    path.write_text(f"BEFORE=1\n{line}\nAFTER=${{BEFORE}}${{FROM_PROCESS}}\n", encoding="utf-8", newline="")
    _same_as_python_dotenv(path, monkeypatch)


@pytest.mark.parametrize("seed", range(40))
def test_random_files_of_odd_lines_read_as_python_dotenv_reads_them(
    tmp_path: Path, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(seed)
    ends = ["\n", "\r\n", "\r", "\n\n", " \n"]
    text = ("\ufeff" if seed % 5 == 0 else "") + "".join(
        rng.choice(ODD_LINES) + rng.choice(ends) for _ in range(rng.randint(1, 25))
    )
    path = tmp_path / ".env"
    path.write_text(text, encoding="utf-8", newline="")
    _same_as_python_dotenv(path, monkeypatch)


@pytest.mark.regression
def test_reading_never_uses_python_dotenvs_per_line_interpolation(
    isolated: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """python-dotenv's ``resolve_variables`` copies the whole environment for every line (quadratic: 20,000 lines
    took 16 s, 40,000 took 90 s); the ratios are measured in bench/dotenv_scale.py."""
    import dotenv.main

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("quadratic interpolation used")

    monkeypatch.setattr(dotenv.main, "resolve_variables", refuse)
    (isolated / ".env").write_text("".join(f"KEY_{i}=v{i}\n" for i in range(20_000)) + "LAST=${KEY_7}\n")
    settings = get_settings()
    assert settings.get("KEY_19999") == "v19999" and settings.get("LAST") == "v7"


@pytest.mark.regression
@pytest.mark.parametrize("name", [".env", ".env.local"])
def test_invalid_utf8_names_the_file_and_line(isolated: Path, name: str) -> None:
    (isolated / name).write_bytes(b"A=1\nB=caf\xe9\n")
    with pytest.raises(ConfigurationError) as info:
        get_settings()
    assert str(info.value) == (
        f"{isolated / name} is not valid UTF-8 (line 2: byte 0xe9 at offset 9); save it as UTF-8 or fix that line"
    )


@pytest.mark.regression
@pytest.mark.parametrize(
    ("args", "prefix", "code"),
    [
        (["settings"], "Error: ", 1),
        (["evaluate", "cases.jsonl", "-m", "answer_relevancy"], "deepeval evaluate: ", 2),
    ],
)
def test_cli_names_the_file_that_is_not_utf8_in_one_line(
    isolated: Path, args: list[str], prefix: str, code: int
) -> None:
    from typer.testing import CliRunner

    from deepeval.cli.main import app

    (isolated / "cases.jsonl").write_text('{"input": "q", "actual_output": "a"}\n')
    (isolated / ".env.local").write_bytes(b"A=1\nB=caf\xe9\n")
    result = CliRunner().invoke(app, [*args, "--no-progress"] if args[0] == "evaluate" else args)
    assert result.exit_code == code and not isinstance(result.exception, UnicodeError)
    assert result.output == (
        f"{prefix}{isolated / '.env.local'} is not valid UTF-8 (line 2: byte 0xe9 at offset 9); save it as UTF-8 "
        "or fix that line\n"
    )


@pytest.mark.regression
def test_metric_constructor_names_the_file_that_is_not_utf8(isolated: Path) -> None:
    from deepeval.metrics import AnswerRelevancyMetric

    (isolated / ".env.local").write_bytes(b"\xff\xfeA=1\n")
    with pytest.raises(ConfigurationError, match=r"\.env\.local is not valid UTF-8 \(line 1: byte 0xff"):
        AnswerRelevancyMetric()
