"""Install hints name commands that work: deepeval-oss is installed from its source folder, so a hint such as
``pip install "deepeval-oss[gguf]"`` fails (no such project on the index) and would install whoever registers the
name (outside attack 5, M4). Every extra's hint names the extra's own requirements from pyproject."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from deepeval._install import extra_install_command

ROOT = Path(__file__).resolve().parents[2]


def _extras() -> dict[str, list[str]]:
    """pyproject's [project.optional-dependencies] (one-line lists, as it writes them; no TOML parser on 3.10)."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    block = text.split("[project.optional-dependencies]", 1)[1].split("\n[", 1)[0]
    found = re.findall(r"^(\w+) = \[(.*?)\]", block, flags=re.M | re.S)
    return {name: re.findall(r'"([^"]+)"', body) for name, body in found}


EXTRAS = _extras()


@pytest.mark.parametrize("extra", sorted(EXTRAS))
def test_an_extras_hint_installs_its_declared_requirements(extra: str) -> None:
    assert extra_install_command(extra) == "pip install " + " ".join(f'"{r}"' for r in EXTRAS[extra])


def test_an_unknown_extra_points_at_the_source_folder() -> None:
    assert extra_install_command("nope") == 'pip install -e ".[nope]" (in the deepeval-oss source folder)'


def test_no_message_installs_the_distribution_by_name_from_an_index() -> None:
    by_name = re.compile(r"""pip install\s+["']?deepeval(-oss)?\[""")
    offenders = [
        f"{p.relative_to(ROOT)}:{n}"
        for p in sorted((ROOT / "src").rglob("*.py"))
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if by_name.search(line) and "fails" not in line
    ]
    assert offenders == []
