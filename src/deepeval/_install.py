"""How to install one of this distribution's optional extras, said in a command that works.

deepeval-oss is installed from its source folder (README), not from a package index: a hint such as
``pip install "deepeval-oss[<extra>]"`` fails, and would install whatever someone registers under that name. The hint
therefore names the extra's own requirements, read from the installed distribution's metadata (pyproject is their
one place), and falls back to the extra of the source folder when the metadata is absent.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import metadata

from deepeval._version import DISTRIBUTION

_EXTRA = re.compile(r"""extra\s*==\s*["']([^"']+)["']""")


@cache
def extra_requirements(extra: str) -> tuple[str, ...]:
    """The requirements of ``extra`` as declared (``("xllamacpp>=2026.10",)``); empty when unknown."""
    try:
        declared = metadata.requires(DISTRIBUTION) or []
    except metadata.PackageNotFoundError:
        return ()
    out = []
    for line in declared:
        requirement, _, marker = line.partition(";")
        if (m := _EXTRA.search(marker)) and m.group(1) == extra:
            out.append(requirement.strip().replace(" ", ""))
    return tuple(out)


def extra_install_command(extra: str) -> str:
    """``pip install "xllamacpp>=2026.10"`` for ``extra="gguf"``; without metadata, the extra of the source folder."""
    requirements = extra_requirements(extra)
    if requirements:
        return "pip install " + " ".join(f'"{r}"' for r in requirements)
    return f'pip install -e ".[{extra}]" (in the deepeval-oss source folder)'
