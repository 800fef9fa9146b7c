"""Writing goldens to a dataset file (one rule for :meth:`deepeval.dataset.EvaluationDataset.save_as` and
:meth:`deepeval.synthesizer.Synthesizer.save_as`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from deepeval._files import write_text_atomic
from deepeval._safe_path import inside
from deepeval.dataset import _write
from deepeval.dataset.golden import ConversationalGolden, Golden


def write_goldens(
    goldens: Sequence[Golden | ConversationalGolden],
    file_type: Literal["json", "csv", "jsonl"],
    directory: str,
    name: str,
) -> str:
    """Write ``goldens`` (all of one kind) to ``directory/<name>.<file_type>`` in the layout
    :meth:`EvaluationDataset.save_as` writes (whole or not at all; the same path rules) and return the path. The
    Synthesizer's ``save_as`` writes through it too.

    Raises:
        UnsafePathError: ``name`` leaves ``directory``, or the file's path is a symbolic link.
    """
    path = str(inside(directory, f"{name}.{file_type}", "save_as file_name"))
    write_text_atomic(path, _write.render(list(goldens), file_type))  # type: ignore[arg-type]
    return path
