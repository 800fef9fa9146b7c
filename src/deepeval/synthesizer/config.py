"""The synthesizer's configuration objects: deepeval 4.3.1's classes, fields and defaults.

Deliberate differences (**ours**): a judge given by name (or left ``None``) is resolved when generation starts, not
when the config is built, so building a config needs no API key; ``embedder=None`` is the bundled offline encoder
(deepeval 4.3.1 defaults to OpenAI's ``text-embedding-3-small``); values that cannot work (a negative count, an
overlap as large as the chunk, a weight below zero) raise ``ValueError`` when the config is built and again when it
is used.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from deepeval.synthesizer.types import Evolution


def _require(ok: bool, message: str) -> None:
    if not ok:
        raise ValueError(message)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _unit(name: str, value: Any) -> None:
    _require(
        isinstance(value, (int, float)) and not isinstance(value, bool) and 0.0 <= value <= 1.0,
        f"`{name}` must be a number from 0 to 1, got {value!r}",
    )


def _count(name: str, value: Any, low: int) -> None:
    _require(_is_int(value) and value >= low, f"`{name}` must be an integer >= {low}, got {value!r}")


@dataclass
class FiltrationConfig:
    """How generated inputs are screened: each is scored by ``critic_model`` (default: the synthesizer's model) and
    rewritten while its score stays under ``synthetic_input_quality_threshold``, at most ``max_quality_retries``
    scorings in all."""

    synthetic_input_quality_threshold: float = 0.5
    max_quality_retries: int = 3
    critic_model: Any = None

    def __post_init__(self) -> None:
        self.check()

    def check(self) -> None:
        _unit("synthetic_input_quality_threshold", self.synthetic_input_quality_threshold)
        _count("max_quality_retries", self.max_quality_retries, 1)


def _uniform() -> dict[Evolution, float]:
    return {evolution: 1 / 7 for evolution in Evolution}


@dataclass
class EvolutionConfig:
    """``num_evolutions`` rewrites per input, each of a kind drawn from ``evolutions`` (kind -> weight)."""

    num_evolutions: int = 1
    evolutions: dict[Evolution, float] = field(default_factory=_uniform)

    def __post_init__(self) -> None:
        self.check()

    def check(self) -> None:
        _count("num_evolutions", self.num_evolutions, 0)
        _require(isinstance(self.evolutions, dict), "`evolutions` must be a dict of Evolution -> weight")
        for kind, weight in self.evolutions.items():
            _require(
                isinstance(kind, Evolution), f"`evolutions` keys must be Evolution members, got {kind!r}"
            )
            _require(
                isinstance(weight, (int, float))
                and not isinstance(weight, bool)
                and math.isfinite(weight)
                and weight >= 0,
                f"the weight of {kind.name} must be a finite number >= 0, got {weight!r}",
            )
        _require(
            self.num_evolutions == 0 or sum(self.evolutions.values()) > 0,
            "`evolutions` needs at least one kind with a weight above 0 when num_evolutions > 0",
        )


@dataclass
class StylingConfig:
    """What single-turn inputs look like: who asks (``scenario``), what the application does (``task``), the shape
    of an input (``input_format``) and of an expected output (``expected_output_format``)."""

    scenario: str | None = None
    task: str | None = None
    input_format: str | None = None
    expected_output_format: str | None = None


@dataclass
class ConversationalStylingConfig:
    """What conversational scenarios look like (the multi-turn counterpart of :class:`StylingConfig`)."""

    scenario_context: str | None = None
    conversational_task: str | None = None
    participant_roles: str | None = None
    scenario_format: str | None = None
    expected_outcome_format: str | None = None


@dataclass
class ContextConstructionConfig:
    """How documents become contexts.

    Each document is cut into chunks of ``chunk_size`` tokens overlapping by ``chunk_overlap``; up to
    ``max_contexts_per_document`` chunks are picked at random, each scored by ``critic_model`` and replaced (at most
    ``max_retries`` tries per context) while under ``context_quality_threshold``; each picked chunk is grouped with
    up to ``max_context_length - 1`` of the document's other chunks whose cosine similarity to it (``embedder``)
    is above ``context_similarity_threshold``. ``encoding`` is the text files' encoding (default: UTF-8).
    """

    embedder: Any = None
    critic_model: Any = None
    encoding: str | None = None
    max_contexts_per_document: int = 3
    min_contexts_per_document: int = 1
    max_context_length: int = 3
    min_context_length: int = 1
    chunk_size: int = 1024
    chunk_overlap: int = 0
    context_quality_threshold: float = 0.5
    context_similarity_threshold: float = 0.0
    max_retries: int = 3
    allow_cross_file_contexts: bool = False
    target_files_per_context: int | None = None
    max_files_per_context: int = 3

    def __post_init__(self) -> None:
        self.check()

    def check(self) -> None:
        _count("chunk_size", self.chunk_size, 1)
        _count("chunk_overlap", self.chunk_overlap, 0)
        _require(
            self.chunk_overlap <= self.chunk_size - 1,
            f"`chunk_overlap` must not exceed {self.chunk_size - 1} (chunk_size - 1), got {self.chunk_overlap}",
        )
        for name in ("max_contexts_per_document", "max_context_length", "max_retries"):
            _count(name, getattr(self, name), 1)
        for name in ("min_contexts_per_document", "min_context_length"):
            _count(name, getattr(self, name), 0)
        _require(
            self.min_contexts_per_document <= self.max_contexts_per_document,
            "`min_contexts_per_document` must not exceed `max_contexts_per_document`",
        )
        _require(
            self.min_context_length <= self.max_context_length,
            "`min_context_length` must not exceed `max_context_length`",
        )
        _unit("context_quality_threshold", self.context_quality_threshold)
        _unit("context_similarity_threshold", self.context_similarity_threshold)
        if self.target_files_per_context is not None:
            _count("target_files_per_context", self.target_files_per_context, 2)
        _count("max_files_per_context", self.max_files_per_context, 2)
