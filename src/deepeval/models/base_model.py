"""Base classes for judges: :class:`DeepEvalBaseLLM` (text generation) and :class:`DeepEvalBaseSystemOneModel`
(typed decisions with probabilities). User code written against deepeval subclasses these unchanged."""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from typing import Any, ClassVar

from deepeval.models.system_one.schema import (
    ChoiceAnswer,
    ChoiceQuestion,
    NoulAnswer,
    NoulQuestion,
    Questions,
    ScoreAnswer,
    ScoreQuestion,
    SystemOneAnswers,
)


class DeepEvalBaseLLM(ABC):
    """An LLM judge.

    ``__init__`` stores the model name in ``self.name`` and calls :meth:`load_model`, storing the result in
    ``self.model``. ``generate(prompt, schema=None)`` may return a string, an instance of ``schema`` (a pydantic
    model class), or a ``(result, cost_usd)`` tuple; a ``generate`` that takes no ``schema`` works too. Metrics call
    models through :func:`deepeval.models.structured.a_generate_structured`, which handles all of these.

    A subclass may skip ``super().__init__()`` and set its own attributes (deepeval's documented custom-model
    pattern): ``name`` and ``model`` then default to None on the class, and judges are named by
    :meth:`get_model_name` only.
    """

    name: str | None = None
    model: Any = None

    def __init__(self, model: str | None = None, *args: Any, **kwargs: Any) -> None:
        self.name = model
        self.model = self.load_model(*args, **kwargs)

    @abstractmethod
    def load_model(self, *args: Any, **kwargs: Any) -> Any:
        """Load and return the underlying client or weights."""

    @abstractmethod
    def generate(self, prompt: str, schema: Any = None) -> Any:
        """Return the completion for ``prompt`` (see class docstring for accepted return shapes)."""

    async def a_generate(self, prompt: str, schema: Any = None) -> Any:
        """Async :meth:`generate`; the default runs ``generate`` in a worker thread."""
        return await asyncio.to_thread(self.generate, prompt, schema)

    @abstractmethod
    def get_model_name(self) -> str:
        """The judge's name as shown in results (``evaluation_model``)."""

    def __repr__(self) -> str:  # never shows keys: subclasses keep them in private attributes
        return f"{type(self).__name__}(model={self.name!r})"


class DeepEvalBaseSystemOneModel(ABC):
    """A System One (decision) model: answers typed questions about a ``state`` with probabilities.

    Subclasses implement :meth:`load_model`, :meth:`decide` (returning ``(SystemOneAnswers, cost_usd | None)``),
    optionally :meth:`a_decide`, and :meth:`get_model_name`. A question missing from the answers is a failed
    decision for the caller. Errors are :class:`deepeval.errors.SystemOneError` subclasses. As with
    :class:`DeepEvalBaseLLM`, a subclass need not call ``super().__init__()``.

    ``enforce_request_budget``: True (default, as deepeval does for every System One model) refuses a request over
    the System One token budget before it reaches :meth:`a_decide` (see :mod:`deepeval.models.system_one.call`);
    a model with no context window of its own may set it False.
    """

    name: str | None = None
    model: Any = None
    enforce_request_budget: ClassVar[bool] = True

    def __init__(self, model: str | None = None, *args: Any, **kwargs: Any) -> None:
        self.name = model
        self.model = self.load_model(*args, **kwargs)

    @abstractmethod
    def load_model(self, *args: Any, **kwargs: Any) -> Any:
        """Load and return the underlying client or weights."""

    @abstractmethod
    def decide(self, state: Any, questions: Questions) -> tuple[SystemOneAnswers, float | None]:
        """Answer every question about ``state`` (a string, dict or list); return answers and cost (USD or None)."""

    async def a_decide(self, state: Any, questions: Questions) -> tuple[SystemOneAnswers, float | None]:
        """Async :meth:`decide`; the default runs ``decide`` in a worker thread."""
        return await asyncio.to_thread(self.decide, state, questions)

    @abstractmethod
    def get_model_name(self) -> str:
        """The judge's name as shown in results."""

    def share_weight(self, probability: float) -> float | None:
        """How much one statement this model decided with P(yes) = ``probability`` counts towards a share score
        (AnswerRelevancy, ContextualRelevancy). ``None``, the default and deepeval's rule, counts its verdict (1 or
        0); a model whose probabilities are calibrated may return a weight in [0, 1] so that unsure statements
        count in part (ours)."""
        return None

    # -- per-type helpers --------------------------------------------------------------------------------------
    def noul(
        self, state: Any, questions: dict[str, NoulQuestion]
    ) -> tuple[dict[str, NoulAnswer], float | None]:
        answers, cost = self.decide(state, questions)
        return answers.nouls, cost

    def choice(
        self, state: Any, questions: dict[str, ChoiceQuestion]
    ) -> tuple[dict[str, ChoiceAnswer], float | None]:
        answers, cost = self.decide(state, questions)
        return answers.choices, cost

    def score(
        self, state: Any, questions: dict[str, ScoreQuestion]
    ) -> tuple[dict[str, ScoreAnswer], float | None]:
        answers, cost = self.decide(state, questions)
        return answers.scores, cost

    async def a_noul(
        self, state: Any, questions: dict[str, NoulQuestion]
    ) -> tuple[dict[str, NoulAnswer], float | None]:
        answers, cost = await self.a_decide(state, questions)
        return answers.nouls, cost

    async def a_choice(
        self, state: Any, questions: dict[str, ChoiceQuestion]
    ) -> tuple[dict[str, ChoiceAnswer], float | None]:
        answers, cost = await self.a_decide(state, questions)
        return answers.choices, cost

    async def a_score(
        self, state: Any, questions: dict[str, ScoreQuestion]
    ) -> tuple[dict[str, ScoreAnswer], float | None]:
        answers, cost = await self.a_decide(state, questions)
        return answers.scores, cost

    def __repr__(self) -> str:
        return f"{type(self).__name__}(model={self.name!r})"


def judge_endpoint(judge: Any) -> str:
    """``"@<base URL>"`` (credentials, query and fragment left out) for a judge object that talks to a server
    (``base_url``), else ``""``: two servers serving the same model name are two judges in the cache key."""
    url = getattr(judge, "base_url", None)
    if not isinstance(url, str) or not url:
        return ""
    from deepeval.config.redaction import display_url

    return f"@{display_url(url)}"


def judge_name(judge: Any) -> str:
    """A judge's name for results, keys and messages: its ``get_model_name()``, else its class name (a broken custom
    ``get_model_name`` must not hide the real error). The one helper for naming a judge object (LLM, System One
    model, extractor, memory judge)."""
    try:
        return str(judge.get_model_name())
    except Exception:
        return type(judge).__name__
