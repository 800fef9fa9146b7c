"""``Contestant`` and ``ArenaTestCase``: one input answered by several contestants, for arena metrics
(``ArenaGEval``). deepeval 4.3.1's fields and checks: contestant names unique; every contestant's test case has the
same ``input`` and the same ``expected_output``; ``multimodal`` is True when any contestant's test case is."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict

from deepeval.test_case._llm import LLMTestCase


class Contestant(BaseModel):
    """One contestant: its name, its test case, and the hyperparameters it ran with (informative)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    name: str
    test_case: LLMTestCase
    hyperparameters: dict[str, Any] | None = None


@dataclass
class ArenaTestCase:
    """The contestants of one arena round.

    Raises:
        ValueError: fewer than two contestants, a repeated name, or contestants with different ``input`` or
            ``expected_output``.
    """

    contestants: list[Contestant]
    multimodal: bool = field(default=False)

    def __post_init__(self) -> None:
        if len(self.contestants) < 2:
            raise ValueError("An ArenaTestCase needs at least two contestants.")
        names = [c.name for c in self.contestants]
        if len(names) != len(set(names)):
            raise ValueError("All contestant names must be unique.")
        cases = [c.test_case for c in self.contestants]
        if any(c.input != cases[0].input for c in cases[1:]):
            raise ValueError("All contestants must have the same 'input'.")
        if any(c.expected_output != cases[0].expected_output for c in cases[1:]):
            raise ValueError("All contestants must have the same 'expected_output'.")
        if any(c.multimodal for c in cases):
            self.multimodal = True
