"""How the embedded judge answers the toy's kind: the share of the input's words found in the output."""

from __future__ import annotations

import re

from deepeval.models.embedded.kind_spec import Asked, KindSpec

from .names import SHARES_WORDS


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", text.lower()))


def shared_share(a: Asked) -> float:
    asked = _words(a.text("input"))
    return len(asked & _words(a.text("actual_output"))) / len(asked) if asked else 0.0


KINDS = {SHARES_WORDS: KindSpec(("input", "actual_output"), shared_share)}
