"""The synthesizer's judge calls: every request goes through the structured-output ladder
(:func:`deepeval.models.structured.a_generate_structured`) or :func:`~deepeval.models.structured.a_generate_text`,
under one semaphore of ``max_concurrent`` requests, and is counted by the run's usage tracker
(:mod:`deepeval.models.usage`)."""

from __future__ import annotations

import asyncio
from typing import TypeVar

from pydantic import BaseModel

from deepeval.models.base_model import DeepEvalBaseLLM, judge_name
from deepeval.models.structured import a_generate_structured, a_generate_text

T = TypeVar("T", bound=BaseModel)


def stop_if_cancelled(err: BaseException | None = None) -> None:
    """Raise ``CancelledError`` when the running task is being cancelled. A cancel that reached a judge call
    mid-request can come back as another error or as a late reply (seen on Python 3.11 after the request's timeout),
    and a stopped run must stop before its next request, not record a skipped input and go on."""
    task = asyncio.current_task()
    cancelling = getattr(task, "cancelling", None)
    if task is not None and callable(cancelling) and cancelling() > 0:
        raise asyncio.CancelledError() from err


class Caller:
    """Asks ``model`` with at most ``limit`` requests in flight (shared by every caller built on ``gate``)."""

    def __init__(self, model: DeepEvalBaseLLM, gate: asyncio.Semaphore) -> None:
        self.model = model
        self.gate = gate

    @property
    def name(self) -> str:
        return judge_name(self.model)

    async def structured(self, prompt: str, schema: type[T]) -> T:
        stop_if_cancelled()
        async with self.gate:
            return await a_generate_structured(self.model, prompt, schema)

    async def text(self, prompt: str) -> str:
        stop_if_cancelled()
        async with self.gate:
            reply = await a_generate_text(self.model, prompt)
        return reply.strip()
