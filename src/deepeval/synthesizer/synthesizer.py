"""``Synthesizer``: goldens from documents, contexts, goldens or nothing, written by any LLM judge of ours.

The public API is deepeval 4.3.1's (constructor, ``generate_goldens_from_docs / _from_contexts / _from_goldens /
_from_scratch``, their conversational and ``a_`` forms, ``synthetic_goldens``, ``save_as``, ``to_pandas``); the
goldens are this package's :class:`~deepeval.dataset.Golden` / :class:`~deepeval.dataset.ConversationalGolden` with
``context``, ``source_file``, ``expected_output`` and ``additional_metadata`` filled as 4.3.1 fills them.

One pipeline serves every method: for each context, one request for ``max_goldens_per_context`` inputs (or
scenarios); each input scored by the critic and rewritten while under the threshold (the best-scored version is kept:
ours); ``num_evolutions`` rewrites of kinds drawn by weight; the styling rewrite when a styling config is set; the
expected output. Every request goes through the structured-output ladder and the usage tracker
(:mod:`deepeval.synthesizer.calls`).

Deliberate differences (**ours**), each so that no finished golden is lost:

* A document that cannot be used, or a context or input whose judge calls failed (a junk reply after the re-ask, a
  server error), is skipped and named on stderr and in :attr:`Synthesizer.skipped`; the others go on. Only a run that
  produced nothing raises (the first error, or a ``ValueError`` naming every skipped document).
* Each finished golden is in :attr:`synthetic_goldens` as soon as it is done, so a run stopped by Ctrl-C or an error
  keeps them (``save_as`` writes them); at the end they are put in a fixed order: context by context, input by input.
* Random choices (chunks, evolution kinds, examples) come from generators seeded from Python's ``random`` when a
  method starts, one per context and input: after ``random.seed(n)`` a run with a deterministic judge gives the same
  goldens whatever order the requests finish in.
* ``async_mode=False`` runs the same pipeline one request at a time.
"""

from __future__ import annotations

import asyncio
import datetime
import functools
import inspect
import os
import random
import sys
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from typing import Any, Concatenate, Literal, ParamSpec, TypeVar

from pydantic import BaseModel

from deepeval import _safe_text
from deepeval._concurrency import run_sync
from deepeval.base_errors import ConfigurationError
from deepeval.dataset.golden import ConversationalGolden, Golden
from deepeval.models.base_model import DeepEvalBaseLLM
from deepeval.models.usage import UsageTracker, sum_costs, track_usage
from deepeval.synthesizer import prompts
from deepeval.synthesizer.calls import Caller, stop_if_cancelled
from deepeval.synthesizer.chunking.context_generator import BuiltContext, ContextGenerator
from deepeval.synthesizer.config import (
    ContextConstructionConfig,
    ConversationalStylingConfig,
    EvolutionConfig,
    FiltrationConfig,
    StylingConfig,
)
from deepeval.synthesizer.embedding import embedder_name, resolve_embedder
from deepeval.synthesizer.progress import SynthesisProgress
from deepeval.synthesizer.schema import (
    ConversationalPromptStyling,
    ConversationalScenario,
    ConversationalScenarioList,
    ConversationalScenarioListWithoutSources,
    InputFeedback,
    PromptStyling,
    RewrittenInput,
    RewrittenScenario,
    ScenarioFeedback,
    SyntheticData,
    SyntheticDataList,
    SyntheticDataListWithoutSources,
)
from deepeval.synthesizer.types import Evolution, PromptEvolution

VALID_FILE_TYPES = ("csv", "json", "jsonl")
#: inputs asked for in one request when generating from scratch (ours: 4.3.1 asks for all of them at once)
SCRATCH_BATCH = 10
#: example inputs shown when extracting a styling from goldens (4.3.1's number)
STYLE_EXAMPLES = 10

G = TypeVar("G", Golden, ConversationalGolden)
F = TypeVar("F", bound=Callable[..., Any])
S = TypeVar("S")
P = ParamSpec("P")
R = TypeVar("R")
AnyGolden = Golden | ConversationalGolden
EvolutionKind = Evolution | PromptEvolution


@dataclass(frozen=True)
class Skipped:
    """Something the run left out: a document (its path), a context (``context #i``) or one input of a context
    (``context #i input #j``), and why."""

    source: str
    reason: str


@dataclass(frozen=True)
class _Flavour:
    """What differs between single-turn goldens and conversational ones."""

    conversational: bool
    list_schema: type[BaseModel]
    #: the list request's schema when its prompt names no source files (see ``SyntheticDataListWithoutSources``)
    plain_list_schema: type[BaseModel]
    item_field: str
    feedback_schema: type[BaseModel]
    rewrite_schema: type[BaseModel]
    rewrite_field: str
    style_schema: type[BaseModel]
    quality_key: str


SINGLE = _Flavour(
    False, SyntheticDataList, SyntheticDataListWithoutSources, "input", InputFeedback, RewrittenInput,
    "rewritten_input", SyntheticData, "synthetic_input_quality",
)  # fmt: skip
CONVERSATIONAL = _Flavour(
    True, ConversationalScenarioList, ConversationalScenarioListWithoutSources, "scenario", ScenarioFeedback,
    RewrittenScenario, "rewritten_scenario", ConversationalScenario, "synthetic_scenario_quality",
)  # fmt: skip


def _error_text(err: BaseException) -> str:
    text = str(err).strip()
    return f"{type(err).__name__}: {text}" if text else type(err).__name__


def _seed_of(*parts: int) -> int:
    value = 0x5EED
    for part in parts:
        value = (value * 1_000_003 + part) % 2**63
    return value


@dataclass
class _Run:
    """The state of one public call: judges, seed, progress, and what finished or was skipped."""

    flavour: _Flavour
    caller: Caller
    critic: Caller
    seed: int
    progress: SynthesisProgress
    sink: list[Any]
    skipped: list[Skipped]
    results: dict[tuple[int, int], Any] = field(default_factory=dict)
    errors: list[BaseException] = field(default_factory=list)
    bar: int | None = None

    def rng(self, *parts: int) -> random.Random:
        return random.Random(_seed_of(self.seed, *parts))

    def keep(self, key: tuple[int, int], golden: Any) -> None:
        self.results[key] = golden
        self.sink.append(golden)

    def skip(self, source: str, err: BaseException | str) -> None:
        reason = err if isinstance(err, str) else _error_text(err)
        if not isinstance(err, str):
            self.errors.append(err)
        self.skipped.append(Skipped(source, reason))
        print(
            _safe_text.terminal(f"Synthesizer: skipped {source}: {reason}", one_line=True),
            file=sys.stderr,
        )

    def ordered(self) -> list[Any]:
        return [self.results[k] for k in sorted(self.results)]


def _check_contexts(contexts: Any) -> list[list[str]]:
    if not isinstance(contexts, (list, tuple)):
        raise TypeError(f"`contexts` must be a list of lists of strings, got {type(contexts).__name__}")
    for i, context in enumerate(contexts):
        if not isinstance(context, (list, tuple)) or not all(isinstance(c, str) for c in context):
            raise TypeError(f"`contexts[{i}]` must be a list of strings, got {context!r:.80}")
        if not any(c.strip() for c in context):
            raise ValueError(f"`contexts[{i}]` holds no text")
    return [list(c) for c in contexts]


def _check_count(name: str, value: Any, low: int = 1) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise ValueError(f"`{name}` must be an integer >= {low}, got {value!r}")


def _sources_of(value: Any) -> list[str]:
    if isinstance(value, (list, tuple)):
        return [str(v) for v in value if v]
    return [str(value)] if value else []


def _names_sources(sources: list[str]) -> bool:
    """Whether a list prompt names the context's source files (and asks which ones each input uses): two or more."""
    return len(sources) > 1


def _format_with_sources(context: list[str], chunk_sources: list[str]) -> list[str]:
    """Chunks labelled ``[SOURCE: file]`` when a context spans two or more files (as 4.3.1 labels them)."""
    if len(chunk_sources) != len(context) or len(set(chunk_sources)) < 2:
        return context
    return [f"[SOURCE: {source}] {chunk}" for source, chunk in zip(chunk_sources, context, strict=True)]


def _named_sources(named: Any, sources: list[str]) -> list[str]:
    """The files of ``sources`` that the judge's ``used_source_files`` names (by path or file name), in its order,
    once each. Ours: 4.3.1 keeps the list as the judge wrote it, and a small model fills it with whatever it saw in
    the prompt (our data markers, made-up paths)."""
    by_name = {os.path.basename(s): s for s in sources}
    out: list[str] = []
    for entry in named if isinstance(named, list) else []:
        text = str(entry).strip()
        source = text if text in sources else by_name.get(os.path.basename(text))
        if source is not None and source not in out:
            out.append(source)
    return out


def _prompt_evolutions(evolutions: dict[Evolution, float]) -> dict[EvolutionKind, float]:
    """The context-free kinds of ``evolutions`` (``MULTICONTEXT`` dropped), as 4.3.1 maps them for scratch runs.

    Raises:
        ValueError: no kind with a weight above 0 is left.
    """
    out: dict[EvolutionKind, float] = {
        PromptEvolution[kind.name]: weight
        for kind, weight in evolutions.items()
        if kind is not Evolution.MULTICONTEXT
    }
    if not any(w > 0 for w in out.values()):
        raise ValueError(
            "evolution_config.evolutions has no kind other than MULTICONTEXT with a weight above 0; goldens without "
            "a context cannot use MULTICONTEXT"
        )
    return out


def _private_keywords_only(method: F) -> F:
    """Let ``method`` take 4.3.1's private keywords (``_send_data``, ``_reset_cost``, ``_progress``...), which change
    nothing here, and refuse any other unknown keyword (a misspelt option must not pass silently).

    Raises (when called):
        TypeError: a keyword that is neither a parameter nor private.
    """

    named = set(inspect.signature(method).parameters)

    def check(kwargs: dict[str, Any]) -> None:
        extra = [k for k in kwargs if k not in named and not k.startswith("_")]
        if extra:
            raise TypeError(f"{method.__name__}() got an unexpected keyword argument {extra[0]!r}")

    if inspect.iscoroutinefunction(method):

        @functools.wraps(method)
        async def async_wrapper(*args: Any, **kwargs: Any) -> Any:
            check(kwargs)
            return await method(*args, **kwargs)

        return async_wrapper  # type: ignore[return-value]

    @functools.wraps(method)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        check(kwargs)
        return method(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


def _sync_form(method: Callable[Concatenate[S, P], Coroutine[Any, Any, R]]) -> Callable[Concatenate[S, P], R]:
    """The sync form of the async method ``a_<name>``: ``<name>(self, ...)`` runs ``self.a_<name>(...)`` (looked up on
    the instance, so a subclass's override is the one run) to completion with the same arguments; it shows the
    async form's signature.
    """
    name = method.__name__

    @functools.wraps(method)
    def sync(self: S, *args: P.args, **kwargs: P.kwargs) -> R:
        return run_sync(getattr(self, name)(*args, **kwargs))

    sync.__name__ = name.removeprefix("a_")
    owner, _, _ = method.__qualname__.rpartition(".")
    sync.__qualname__ = f"{owner}.{sync.__name__}" if owner else sync.__name__
    sync.__doc__ = f"Sync form of :meth:`{name}`."
    return sync


def _clamp(score: float) -> float:
    return min(1.0, max(0.0, float(score)))


class Synthesizer:
    """Generates goldens (see the module docstring).

    Args:
        model: the LLM that writes: a ``DeepEvalBaseLLM`` (OpenAI, OpenAI-compatible ``LocalModel``, ``GGUFModel``,
            your own), an OpenAI model name, or None for the configured one.
        async_mode: run requests concurrently (up to ``max_concurrent`` at once); False runs one at a time.
        max_concurrent: the most requests in flight at once.
        filtration_config, evolution_config, styling_config, conversational_styling_config: see
            :mod:`deepeval.synthesizer.config`.
        cost_tracking: print the run's cost (when the model reports one) after each generation.
    """

    def __init__(
        self,
        model: str | DeepEvalBaseLLM | None = None,
        async_mode: bool = True,
        max_concurrent: int = 100,
        filtration_config: FiltrationConfig | None = None,
        evolution_config: EvolutionConfig | None = None,
        styling_config: StylingConfig | None = None,
        conversational_styling_config: ConversationalStylingConfig | None = None,
        cost_tracking: bool = False,
    ) -> None:
        from deepeval.models.resolve import resolve_llm

        _check_count("max_concurrent", max_concurrent)
        self.model: DeepEvalBaseLLM | None = resolve_llm(model)
        self.using_native_model = self.model is not None and type(self.model).__module__.startswith(
            "deepeval.models."
        )
        self.async_mode = async_mode
        self.max_concurrent = max_concurrent
        self.synthetic_goldens: list[Golden] = []
        self.synthetic_conversational_goldens: list[ConversationalGolden] = []
        self.filtration_config = (
            filtration_config if filtration_config is not None else FiltrationConfig(critic_model=self.model)
        )
        self.evolution_config = evolution_config if evolution_config is not None else EvolutionConfig()
        self.styling_config = styling_config if styling_config is not None else StylingConfig()
        self.conversational_styling_config = (
            conversational_styling_config
            if conversational_styling_config is not None
            else ConversationalStylingConfig()
        )
        self.set_styling_config = styling_config is not None
        self.set_conversational_styling_config = conversational_styling_config is not None
        self.cost_tracking = cost_tracking
        self.synthesis_cost: float | None = 0.0 if self.using_native_model else None
        #: ours: what the last generation left out, and the judge usage of the last generation
        self.skipped: list[Skipped] = []
        self.usage = UsageTracker()
        #: ours: progress on stderr (rich); False hides it
        self.show_progress = True

    # ---- judges ---------------------------------------------------------------------------------------------

    def _judge(self) -> DeepEvalBaseLLM:
        if self.model is None:
            raise ConfigurationError(
                "The Synthesizer needs an LLM to write goldens and none is configured: pass model= (an OpenAI model "
                "name or a DeepEvalBaseLLM such as LocalModel or GGUFModel), or configure one (OPENAI_API_KEY, "
                "`deepeval set-local-model`, or GGUF_MODEL_PATH). The embedded offline judge cannot write text."
            )
        return self.model

    def _resolve_critic(self, critic: Any) -> DeepEvalBaseLLM:
        from deepeval.models.resolve import resolve_llm

        if critic is None:
            return self._judge()
        resolved = resolve_llm(critic)
        return resolved if resolved is not None else self._judge()

    def _begin(self, flavour: _Flavour, critic_model: Any) -> _Run:
        self.skipped = []
        sink: list[Any]
        if flavour.conversational:
            self.synthetic_conversational_goldens = []
            sink = self.synthetic_conversational_goldens
        else:
            self.synthetic_goldens = []
            sink = self.synthetic_goldens
        self.filtration_config.check()
        self.evolution_config.check()
        gate = asyncio.Semaphore(self.max_concurrent if self.async_mode else 1)
        judge = self._judge()
        critic = self._resolve_critic(critic_model)
        return _Run(
            flavour=flavour,
            caller=Caller(judge, gate),
            critic=Caller(critic, gate),
            seed=random.getrandbits(62),
            progress=SynthesisProgress(self.show_progress),
            sink=sink,
            skipped=self.skipped,
        )

    async def _tracked(self, run: _Run, work: Callable[[], Awaitable[None]]) -> list[Any]:
        """Run ``work`` with usage tracking and progress; then order the goldens, report the cost, and raise when
        nothing came out of a run that had failures."""
        with track_usage() as tracker, run.progress:
            self.usage = tracker
            try:
                await work()
            finally:
                self.synthesis_cost = tracker.cost if tracker.cost is not None else self.synthesis_cost
                ordered = run.ordered()
                run.sink[:] = ordered
        if self.cost_tracking and self.synthesis_cost is not None:
            print(f"💰 API cost: {self.synthesis_cost:.6f}")
        if not ordered and run.errors:
            raise run.errors[0]
        return ordered

    # ---- the pipeline ---------------------------------------------------------------------------------------

    async def _each(self, jobs: list[Callable[[], Awaitable[None]]]) -> None:
        """Run ``jobs`` concurrently (``async_mode``), else one after the other in order."""
        if self.async_mode:
            await asyncio.gather(*(job() for job in jobs))
            return
        for job in jobs:
            await job()

    async def _filter(self, run: _Run, context: list[str] | None, text: str) -> tuple[str, float]:
        """Score ``text`` and rewrite it while under the threshold; the best-scored version and its score."""
        config = self.filtration_config
        flavour = run.flavour
        rate = prompts.rate_scenario if flavour.conversational else prompts.rate_input
        rewrite = prompts.rewrite_scenario if flavour.conversational else prompts.rewrite_input
        best_text, best_score = text, -1.0
        current = text
        for attempt in range(config.max_quality_retries):
            feedback: Any = await run.critic.structured(rate(current), flavour.feedback_schema)
            score = _clamp(feedback.score)
            if score > best_score:
                best_text, best_score = current, score
            if score >= config.synthetic_input_quality_threshold or attempt == config.max_quality_retries - 1:
                break
            rewritten: Any = await run.caller.structured(
                rewrite(context or [], current, str(feedback.feedback)), flavour.rewrite_schema
            )
            current = self._non_empty(getattr(rewritten, flavour.rewrite_field), "rewrite")
        return best_text, best_score

    @staticmethod
    def _non_empty(text: str, what: str) -> str:
        if not isinstance(text, str) or not text.strip():
            raise ValueError(f"the judge returned an empty {what}")
        return text.strip()

    async def _evolve(
        self,
        run: _Run,
        text: str,
        context: list[str] | None,
        evolutions: dict[EvolutionKind, float],
        rng: random.Random,
    ) -> tuple[str, list[str]]:
        used: list[str] = []
        kinds = list(evolutions)
        weights = [evolutions[k] for k in kinds]
        for _ in range(self.evolution_config.num_evolutions):
            kind = rng.choices(kinds, weights)[0]
            prompt = prompts.evolve(kind.value, text, context, conversational=run.flavour.conversational)
            text = self._non_empty(await run.caller.text(prompt), f"{kind.value} evolution")
            used.append(kind.value)
        return text, used

    def _should_style(self, conversational: bool) -> bool:
        if conversational:
            c = self.conversational_styling_config
            return bool(
                c.participant_roles or c.scenario_context or c.conversational_task or c.scenario_format
            )
        s = self.styling_config
        return bool(s.input_format or s.scenario or s.task)

    async def _style(self, run: _Run, text: str) -> str:
        if run.flavour.conversational:
            c = self.conversational_styling_config
            prompt = prompts.style_scenario(
                text,
                scenario_context=c.scenario_context,
                conversational_task=c.conversational_task,
                participant_roles=c.participant_roles,
                scenario_format=c.scenario_format,
            )
        else:
            s = self.styling_config
            prompt = prompts.style_input(text, scenario=s.scenario, task=s.task, input_format=s.input_format)
        reply: Any = await run.caller.structured(prompt, run.flavour.style_schema)
        return self._non_empty(getattr(reply, run.flavour.item_field), "styled input")

    async def _expected(self, run: _Run, text: str, context: list[str]) -> str:
        joined = "\n".join(context)
        if run.flavour.conversational:
            fmt = self.conversational_styling_config.expected_outcome_format
            return await run.caller.text(prompts.expected_outcome(text, joined, fmt))
        return await run.caller.text(
            prompts.expected_output(text, joined, self.styling_config.expected_output_format)
        )

    def _draft_prompt(
        self, run: _Run, context: list[str], n: int, sources: list[str], target: int | None
    ) -> str:
        shown = sources if _names_sources(sources) else None
        if run.flavour.conversational:
            c = self.conversational_styling_config
            return prompts.generate_scenarios(
                context,
                n,
                scenario_context=c.scenario_context,
                conversational_task=c.conversational_task,
                participant_roles=c.participant_roles,
                scenario_format=c.scenario_format,
                source_files=shown,
                target_files=target,
            )
        s = self.styling_config
        return prompts.generate_inputs(
            context,
            n,
            scenario=s.scenario,
            task=s.task,
            input_format=s.input_format,
            source_files=shown,
            target_files=target,
        )

    def _golden(
        self,
        run: _Run,
        text: str,
        item: BuiltContext,
        expected: str | None,
        metadata: dict[str, Any],
    ) -> AnyGolden:
        sources = item.source_files
        if run.flavour.conversational:
            metadata = {**metadata, "source_files": sources[0] if sources else None}
            return ConversationalGolden(
                scenario=text, context=item.context, expected_outcome=expected, additional_metadata=metadata
            )
        return Golden(
            input=text,
            context=item.context,
            expected_output=expected,
            source_file=sources[0] if sources else None,
            additional_metadata=metadata,
        )

    async def _one_input(
        self,
        run: _Run,
        index: tuple[int, int],
        item: BuiltContext,
        formatted: list[str],
        draft: Any,
        include_expected: bool,
    ) -> None:
        i, j = index
        try:
            text, score = await self._filter(run, formatted, getattr(draft, run.flavour.item_field))
            evolutions: dict[EvolutionKind, float] = {
                k: w for k, w in self.evolution_config.evolutions.items()
            }
            text, used = await self._evolve(run, text, formatted, evolutions, run.rng(i, j))
            if self._should_style(run.flavour.conversational):
                text = await self._style(run, text)
            expected = await self._expected(run, text, item.context) if include_expected else None
            metadata = {
                "evolutions": used,
                run.flavour.quality_key: score,
                "context_source_files": list(item.source_files),
                "used_source_files": _named_sources(
                    getattr(draft, "used_source_files", None), item.source_files
                ),
                "context_quality": item.score,
            }
            run.keep(index, self._golden(run, text, item, expected, metadata))
        except Exception as err:
            stop_if_cancelled(err)
            run.skip(f"context #{i} input #{j}{self._named(item)}", err)
        finally:
            run.progress.advance(run.bar)

    @staticmethod
    def _named(item: BuiltContext) -> str:
        return f" ({', '.join(item.source_files)})" if item.source_files else ""

    async def _one_context(
        self, run: _Run, i: int, item: BuiltContext, n: int, include_expected: bool, target: int | None
    ) -> None:
        formatted = _format_with_sources(item.context, item.chunk_source_files)
        try:
            reply: Any = await run.caller.structured(
                self._draft_prompt(run, formatted, n, item.source_files, target),
                run.flavour.list_schema
                if _names_sources(item.source_files)
                else run.flavour.plain_list_schema,
            )
            drafts = [d for d in reply.data if str(getattr(d, run.flavour.item_field)).strip()][:n]
        except Exception as err:
            stop_if_cancelled(err)
            run.skip(f"context #{i}{self._named(item)}", err)
            run.progress.advance(run.bar, n)
            return
        if len(drafts) < n:
            run.progress.advance(run.bar, n - len(drafts))
        await self._each(
            [
                functools.partial(self._one_input, run, (i, j), item, formatted, d, include_expected)
                for j, d in enumerate(drafts)
            ]
        )

    async def _from_built(
        self, run: _Run, items: list[BuiltContext], n: int, include_expected: bool, target: int | None = None
    ) -> None:
        run.bar = run.progress.add("Generating goldens", len(items) * n)
        await self._each(
            [
                functools.partial(self._one_context, run, i, item, n, include_expected, target)
                for i, item in enumerate(items)
            ]
        )

    @staticmethod
    def _built(
        contexts: list[list[str]],
        source_files: Sequence[Any] | None,
        chunk_source_files: Sequence[Sequence[str]] | None,
        scores: Sequence[float] | None,
    ) -> list[BuiltContext]:
        out: list[BuiltContext] = []
        for i, context in enumerate(contexts):
            sources = (
                _sources_of(source_files[i]) if source_files is not None and i < len(source_files) else []
            )
            chunks = (
                [str(s) for s in chunk_source_files[i]]
                if chunk_source_files is not None and i < len(chunk_source_files)
                else []
            )
            score = scores[i] if scores is not None and i < len(scores) else None
            out.append(BuiltContext(context, sources, chunks, score))
        return out

    async def _scratch(self, run: _Run, num_goldens: int) -> None:
        evolutions = _prompt_evolutions(self.evolution_config.evolutions)
        run.bar = run.progress.add("Generating goldens", num_goldens)
        batches = [min(SCRATCH_BATCH, num_goldens - start) for start in range(0, num_goldens, SCRATCH_BATCH)]
        await self._each(
            [functools.partial(self._scratch_batch, run, b, k, evolutions) for b, k in enumerate(batches)]
        )

    def _scratch_prompt(self, run: _Run, k: int) -> str:
        if run.flavour.conversational:
            c = self.conversational_styling_config
            return prompts.scratch_scenarios(
                k,
                scenario_context=str(c.scenario_context),
                conversational_task=str(c.conversational_task),
                participant_roles=str(c.participant_roles),
            )
        s = self.styling_config
        return prompts.scratch_inputs(
            k, scenario=str(s.scenario), task=str(s.task), input_format=str(s.input_format)
        )

    async def _scratch_batch(self, run: _Run, b: int, k: int, evolutions: dict[EvolutionKind, float]) -> None:
        try:
            reply: Any = await run.caller.structured(
                self._scratch_prompt(run, k), run.flavour.plain_list_schema
            )
            drafts = [d for d in reply.data if str(getattr(d, run.flavour.item_field)).strip()][:k]
        except Exception as err:
            stop_if_cancelled(err)
            run.skip(f"batch #{b}", err)
            run.progress.advance(run.bar, k)
            return
        run.progress.advance(run.bar, k - len(drafts))

        async def one(j: int, draft: Any) -> None:
            try:
                text = str(getattr(draft, run.flavour.item_field)).strip()
                text, used = await self._evolve(run, text, None, evolutions, run.rng(b, j))
                golden: AnyGolden
                if run.flavour.conversational:
                    golden = ConversationalGolden(scenario=text, additional_metadata={"evolutions": used})
                else:
                    golden = Golden(input=text, additional_metadata={"evolutions": used})
                run.keep((b, j), golden)
            except Exception as err:
                stop_if_cancelled(err)
                run.skip(f"batch #{b} input #{j}", err)
            finally:
                run.progress.advance(run.bar)

        await self._each([functools.partial(one, j, d) for j, d in enumerate(drafts)])

    def _check_scratch_styling(self, conversational: bool) -> None:
        if conversational:
            c = self.conversational_styling_config
            if c.scenario_context is None or c.conversational_task is None or c.participant_roles is None:
                raise TypeError(
                    "`scenario_context`, `conversational_task`, and `participant_roles` in "
                    "`conversational_styling_config` must not be None when generating conversational goldens from "
                    "scratch."
                )
            return
        s = self.styling_config
        if s.scenario is None or s.task is None or s.input_format is None:
            raise TypeError(
                "`scenario`, `task`, and `input_format` in `styling_config` must not be None when generating goldens "
                "from scratch."
            )

    # ---- from contexts --------------------------------------------------------------------------------------

    async def _a_contexts(
        self,
        flavour: _Flavour,
        contexts: Any,
        include_expected: bool,
        max_goldens_per_context: int,
        source_files: Sequence[Any] | None,
        context_chunk_source_files: Sequence[Sequence[str]] | None,
        target_files_per_context: int | None,
        context_scores: Sequence[float] | None,
    ) -> list[Any]:
        checked = _check_contexts(contexts)
        _check_count("max_goldens_per_context", max_goldens_per_context)
        run = self._begin(flavour, self.filtration_config.critic_model)
        items = self._built(checked, source_files, context_chunk_source_files, context_scores)

        async def work() -> None:
            await self._from_built(
                run, items, max_goldens_per_context, include_expected, target_files_per_context
            )

        return await self._tracked(run, work)

    @_private_keywords_only
    async def a_generate_goldens_from_contexts(
        self,
        contexts: list[list[str]],
        include_expected_output: bool = True,
        max_goldens_per_context: int = 2,
        source_files: list[str | list[str]] | None = None,
        context_chunk_source_files: list[list[str]] | None = None,
        target_files_per_context: int | None = None,
        _context_scores: list[float] | None = None,
        **_private: Any,
    ) -> list[Golden]:
        """Up to ``max_goldens_per_context`` goldens per context (a context is a list of text chunks).
        ``source_files[i]`` (a path or a list of paths) names where context ``i`` comes from."""
        return await self._a_contexts(
            SINGLE,
            contexts,
            include_expected_output,
            max_goldens_per_context,
            source_files,
            context_chunk_source_files,
            target_files_per_context,
            _context_scores,
        )

    generate_goldens_from_contexts = _private_keywords_only(_sync_form(a_generate_goldens_from_contexts))

    @_private_keywords_only
    async def a_generate_conversational_goldens_from_contexts(
        self,
        contexts: list[list[str]],
        include_expected_outcome: bool = True,
        max_goldens_per_context: int = 2,
        source_files: list[str | list[str]] | None = None,
        context_chunk_source_files: list[list[str]] | None = None,
        target_files_per_context: int | None = None,
        _context_scores: list[float] | None = None,
        **_private: Any,
    ) -> list[ConversationalGolden]:
        """Up to ``max_goldens_per_context`` conversational goldens (scenarios) per context."""
        return await self._a_contexts(
            CONVERSATIONAL,
            contexts,
            include_expected_outcome,
            max_goldens_per_context,
            source_files,
            context_chunk_source_files,
            target_files_per_context,
            _context_scores,
        )

    generate_conversational_goldens_from_contexts = _private_keywords_only(
        _sync_form(a_generate_conversational_goldens_from_contexts)
    )

    # ---- from documents -------------------------------------------------------------------------------------

    async def _a_docs(
        self,
        flavour: _Flavour,
        document_paths: Any,
        include_expected: bool,
        max_goldens_per_context: int,
        config: ContextConstructionConfig | None,
    ) -> list[Any]:
        if not document_paths or isinstance(document_paths, (str, bytes)):
            raise ValueError("`document_paths` is empty or missing (a list of file paths).")
        _check_count("max_goldens_per_context", max_goldens_per_context)
        config = config if config is not None else ContextConstructionConfig()
        config.check()
        run = self._begin(flavour, self.filtration_config.critic_model)
        critic = Caller(self._resolve_critic(config.critic_model), run.caller.gate)
        embedder = resolve_embedder(config.embedder)
        paths = [os.fspath(p) for p in document_paths]

        async def work() -> None:
            docs_bar = run.progress.add(f"Reading {len(paths)} document(s)", len(paths))
            generator = ContextGenerator(
                config,
                critic,
                embedder,
                seed=run.seed,
                on_skip=run.skip,
                on_document=lambda: run.progress.advance(docs_bar),
            )
            items = await generator.a_generate_contexts(paths)
            used = len({c for item in items for c in item.context})
            print(
                f"Synthesizer: {len(items)} context(s) from {used} of {generator.total_chunks} chunk(s) "
                f"(embedder: {embedder_name(embedder)})",
                file=sys.stderr,
            )
            if not items:
                # in the order given (documents are read concurrently, so they are skipped in any order)
                order = {str(p): i for i, p in enumerate(paths)}
                skipped = sorted(run.skipped, key=lambda s: order.get(str(s.source), len(order)))
                named = "; ".join(f"{s.source}: {s.reason}" for s in skipped) or "no contexts"
                raise ValueError(f"No document could be used ({named})")
            await self._from_built(
                run, items, max_goldens_per_context, include_expected, config.target_files_per_context
            )

        return await self._tracked(run, work)

    @_private_keywords_only
    async def a_generate_goldens_from_docs(
        self,
        document_paths: list[str],
        include_expected_output: bool = True,
        max_goldens_per_context: int = 2,
        context_construction_config: ContextConstructionConfig | None = None,
        **_private: Any,
    ) -> list[Golden]:
        """Goldens from documents (``.txt``, ``.md``, ``.pdf``, ``.docx``): contexts built as
        ``context_construction_config`` says, then :meth:`a_generate_goldens_from_contexts` on them."""
        return await self._a_docs(
            SINGLE,
            document_paths,
            include_expected_output,
            max_goldens_per_context,
            context_construction_config,
        )

    generate_goldens_from_docs = _private_keywords_only(_sync_form(a_generate_goldens_from_docs))

    @_private_keywords_only
    async def a_generate_conversational_goldens_from_docs(
        self,
        document_paths: list[str],
        include_expected_outcome: bool = True,
        max_goldens_per_context: int = 2,
        context_construction_config: ContextConstructionConfig | None = None,
        **_private: Any,
    ) -> list[ConversationalGolden]:
        """Conversational goldens from documents."""
        return await self._a_docs(
            CONVERSATIONAL,
            document_paths,
            include_expected_outcome,
            max_goldens_per_context,
            context_construction_config,
        )

    generate_conversational_goldens_from_docs = _private_keywords_only(
        _sync_form(a_generate_conversational_goldens_from_docs)
    )

    # ---- from scratch ---------------------------------------------------------------------------------------

    async def _a_scratch(self, flavour: _Flavour, num_goldens: int) -> list[Any]:
        self._check_scratch_styling(flavour.conversational)
        _check_count("num_goldens", num_goldens)
        _prompt_evolutions(self.evolution_config.evolutions)
        run = self._begin(flavour, self.filtration_config.critic_model)

        async def work() -> None:
            await self._scratch(run, num_goldens)

        return await self._tracked(run, work)

    @_private_keywords_only
    async def a_generate_goldens_from_scratch(self, num_goldens: int, **_private: Any) -> list[Golden]:
        """``num_goldens`` goldens (inputs only) from the styling config alone: ``scenario``, ``task`` and
        ``input_format`` must be set (else ``TypeError``, as in 4.3.1)."""
        return await self._a_scratch(SINGLE, num_goldens)

    generate_goldens_from_scratch = _private_keywords_only(_sync_form(a_generate_goldens_from_scratch))

    @_private_keywords_only
    async def a_generate_conversational_goldens_from_scratch(
        self, num_goldens: int, **_private: Any
    ) -> list[ConversationalGolden]:
        """``num_goldens`` conversational goldens from the conversational styling config alone."""
        return await self._a_scratch(CONVERSATIONAL, num_goldens)

    generate_conversational_goldens_from_scratch = _private_keywords_only(
        _sync_form(a_generate_conversational_goldens_from_scratch)
    )

    # ---- from goldens ---------------------------------------------------------------------------------------

    def _add_usage(self, extra: UsageTracker) -> None:
        """Count ``extra`` (the styling extraction of a from-goldens run) in the run's usage and cost."""
        self.usage.add(
            input_tokens=extra.input_tokens,
            output_tokens=extra.output_tokens,
            cost=extra.cost,
            llm_calls=extra.llm_calls,
            retries=extra.retries,
        )
        if extra.cost is not None:
            self.synthesis_cost = sum_costs((self.synthesis_cost, extra.cost))

    async def _extract_styling(self, examples: list[str], conversational: bool) -> None:
        if not examples:
            return
        judge = Caller(self._judge(), asyncio.Semaphore(1))
        if conversational:
            c: Any = await judge.structured(prompts.scenario_style(examples), ConversationalPromptStyling)
            self.conversational_styling_config = ConversationalStylingConfig(
                scenario_context=c.scenario_context,
                conversational_task=c.conversational_task,
                participant_roles=c.participant_roles,
                expected_outcome_format=None,
            )
        else:
            s: Any = await judge.structured(prompts.input_style(examples), PromptStyling)
            self.styling_config = StylingConfig(
                scenario=s.scenario, task=s.task, input_format=s.input_format, expected_output_format=None
            )

    async def _a_goldens(
        self, flavour: _Flavour, goldens: Sequence[Any], max_goldens_per_golden: int, include_expected: bool
    ) -> list[Any]:
        """New goldens like ``goldens`` (see :meth:`a_generate_goldens_from_goldens`), of either flavour."""
        conversational = flavour.conversational
        items = list(goldens)
        if not items:
            kind = "conversational golden" if conversational else "golden"
            raise ValueError(f"`goldens` is empty: give at least one {kind} to generate from")
        _check_count("max_goldens_per_golden", max_goldens_per_golden)
        with_context = [g for g in items if g.context is not None]
        rng = random.Random(random.getrandbits(62))
        examples = rng.sample(
            [getattr(g, flavour.item_field) for g in items], min(len(items), STYLE_EXAMPLES)
        )
        styled = self.set_conversational_styling_config if conversational else self.set_styling_config
        with track_usage() as styling_usage:
            if not styled:
                await self._extract_styling(examples, conversational=conversational)
        kind = "conversational_goldens" if conversational else "goldens"
        if not with_context:
            result = await getattr(self, f"a_generate_{kind}_from_scratch")(
                len(items) * max_goldens_per_golden
            )
        else:
            contexts = [list(g.context or []) for g in with_context]
            # single-turn goldens name their source files; conversational ones are generated without (as before)
            sources = [] if conversational else [[g.source_file or [] for g in with_context]]
            result = await getattr(self, f"a_generate_{kind}_from_contexts")(
                contexts, include_expected, max_goldens_per_golden, *sources
            )
        self._add_usage(styling_usage)
        return result  # type: ignore[no-any-return]

    async def a_generate_goldens_from_goldens(
        self,
        goldens: list[Golden],
        max_goldens_per_golden: int = 2,
        include_expected_output: bool = True,
    ) -> list[Golden]:
        """New goldens like ``goldens``: from their contexts when they have some, else from scratch
        (``len(goldens) * max_goldens_per_golden``). Without a styling config of yours, the styling is first read
        from up to 10 of their inputs (one request) and kept on this synthesizer, as in 4.3.1."""
        return await self._a_goldens(SINGLE, goldens, max_goldens_per_golden, include_expected_output)

    generate_goldens_from_goldens = _sync_form(a_generate_goldens_from_goldens)

    async def a_generate_conversational_goldens_from_goldens(
        self,
        goldens: list[ConversationalGolden],
        max_goldens_per_golden: int = 2,
        include_expected_outcome: bool = True,
    ) -> list[ConversationalGolden]:
        """New conversational goldens like ``goldens`` (see :meth:`a_generate_goldens_from_goldens`)."""
        return await self._a_goldens(
            CONVERSATIONAL, goldens, max_goldens_per_golden, include_expected_outcome
        )

    generate_conversational_goldens_from_goldens = _sync_form(a_generate_conversational_goldens_from_goldens)

    # ---- evolution helpers (4.3.1's public names) -----------------------------------------------------------

    def transform_distribution(self, evolutions: dict[Evolution, float]) -> dict[PromptEvolution, float]:
        """``evolutions`` without ``MULTICONTEXT``, as their ``PromptEvolution`` kinds."""
        return {PromptEvolution[k.name]: w for k, w in evolutions.items() if k is not Evolution.MULTICONTEXT}

    def map_evolution_to_prompt_evolution(self, evolution: Evolution) -> PromptEvolution:
        try:
            return PromptEvolution[evolution.name]
        except KeyError:
            raise KeyError(f"Evolution '{evolution.name}' not available for this method.") from None

    # ---- output ---------------------------------------------------------------------------------------------

    def _goldens_to_save(self) -> list[AnyGolden]:
        if self.synthetic_goldens:
            return list(self.synthetic_goldens)
        return list(self.synthetic_conversational_goldens)

    def save_as(
        self,
        file_type: Literal["json", "csv", "jsonl"],
        directory: str,
        file_name: str | None = None,
        quiet: bool = False,
    ) -> str:
        """Write the synthetic goldens (single-turn ones when there are any, else the conversational ones) to
        ``directory/<file_name or YYYYMMDD_HHMMSS>.<file_type>`` in the dataset file layout
        (:meth:`deepeval.dataset.EvaluationDataset.save_as`; it loads back with ``add_goldens_from_*_file`` here and
        in deepeval 4.3.1) and return the path.

        Raises:
            ValueError: unknown file type, a ``file_name`` with a period, or no goldens.
        """
        from deepeval.dataset.writer import write_goldens

        if str(file_type).lower() not in VALID_FILE_TYPES:
            raise ValueError(
                f"Invalid file type {file_type!r}. Available file types to save as: csv, json, jsonl"
            )
        if file_name and "." in file_name:
            raise ValueError(
                "file_name should not contain periods or file extensions. The file extension will be added based on "
                "the file_type parameter."
            )
        goldens = self._goldens_to_save()
        if not goldens:
            raise ValueError("No synthetic goldens found. Please generate goldens before saving goldens.")
        name = file_name or datetime.datetime.now().strftime("%Y%m%d_%H%M%S")
        path = write_goldens(goldens, str(file_type).lower(), directory, name)  # type: ignore[arg-type]
        if not quiet:
            print(f"Synthetic goldens saved at {path}!")
        return path

    def to_pandas(self) -> Any:
        """The synthetic goldens as a ``pandas.DataFrame`` (4.3.1's columns).

        Raises:
            ModuleNotFoundError: pandas is not installed.
        """
        try:
            import pandas as pd
        except ModuleNotFoundError:
            raise ModuleNotFoundError(
                "Please install pandas to use this method. 'pip install pandas'"
            ) from None
        rows = (
            [_single_row(g) for g in self.synthetic_goldens]
            if self.synthetic_goldens
            else [_conversational_row(g) for g in self.synthetic_conversational_goldens]
        )
        frame = pd.DataFrame(rows)
        if "evolutions" in frame:
            frame["evolutions"] = frame["evolutions"].apply(lambda x: x if x is not None else "None")
        return frame


def _context_sizes(context: list[str] | None) -> tuple[int | None, int | None]:
    if context is None:
        return None, None
    return len(context), sum(len(c) for c in context)


def _single_row(golden: Golden) -> dict[str, Any]:
    meta = golden.additional_metadata or {}
    n_chunks, length = _context_sizes(golden.context)
    return {
        "input": golden.input,
        "actual_output": golden.actual_output,
        "expected_output": golden.expected_output,
        "context": golden.context,
        "retrieval_context": golden.retrieval_context,
        "n_chunks_per_context": n_chunks,
        "context_length": length,
        "evolutions": meta.get("evolutions"),
        "context_quality": meta.get("context_quality"),
        "synthetic_input_quality": meta.get("synthetic_input_quality"),
        "source_file": golden.source_file,
    }


def _conversational_row(golden: ConversationalGolden) -> dict[str, Any]:
    meta = golden.additional_metadata or {}
    n_chunks, length = _context_sizes(golden.context)
    return {
        "scenario": golden.scenario,
        "expected_outcome": golden.expected_outcome,
        "context": golden.context,
        "n_chunks_per_context": n_chunks,
        "context_length": length,
        "evolutions": meta.get("evolutions"),
        "synthetic_scenario_quality": meta.get("synthetic_scenario_quality"),
        "source_files": meta.get("source_files"),
    }
