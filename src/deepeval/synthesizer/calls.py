"""The synthesizer's judge calls: every request goes through the structured-output ladder
(:func:`deepeval.models.structured.a_generate_structured`) or :func:`~deepeval.models.structured.a_generate_text`,
under one semaphore of ``max_concurrent`` requests, and is counted by the run's usage tracker
(:mod:`deepeval.models.usage`).

Every text that comes back (a free-text reply, each string of a structured one) is cleaned of our data markers
(:func:`strip_markers`): the prompts quote their material between ``<<<BEGIN ... #token>>>`` / ``<<<END ...>>>``
markers (:mod:`deepeval.metrics.delimit`), and a small model asked to rewrite a quoted input tends to echo them
around its answer (Qwen2.5-Coder-1.5B did on 1 input of 3, and filled ``used_source_files`` with them), which would
put them into the goldens.

A model that constrains its decoding to the schema (``constrains_item_counts``: llama.cpp) is sent list schemas whose
inputs / scenarios have a length limit (:func:`deepeval.synthesizer.schema.bounded`).
"""

from __future__ import annotations

import asyncio
import re
from typing import Any, TypeVar

from pydantic import BaseModel

from deepeval.models.base_model import DeepEvalBaseLLM, judge_name
from deepeval.models.structured import a_generate_structured, a_generate_text
from deepeval.synthesizer.schema import bounded

T = TypeVar("T", bound=BaseModel)

#: one of our data markers as a model echoes it: ``<<<BEGIN TEXT #7aa654299d1f>>>``, ``<<< END TEXTS #ab12cd>>``, or
#: defused as quoted content shows it (``<< <BEGIN TEXTS #...>>>``): any label, a hex token of 6 or more digits, 0 to 3
#: closing brackets
_MARKER = re.compile(r"<<\s*<\s*(?:BEGIN|END)\b[^<>\n#]*#[0-9a-fA-F]{6,}\s*>{0,3}", re.IGNORECASE)


def strip_markers(text: str) -> str:
    """``text`` without our data markers (see the module docstring), trimmed."""
    return _MARKER.sub("", text).strip() if "<<" in text else text.strip()


def _clean(value: Any) -> Any:
    if isinstance(value, str):
        return strip_markers(value)
    if isinstance(value, list):
        cleaned = [_clean(v) for v in value]
        return [v for v in cleaned if v != ""]
    if isinstance(value, BaseModel):
        return value.model_copy(
            update={name: _clean(getattr(value, name)) for name in type(value).model_fields}
        )
    return value


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
        sent = bounded(schema) if getattr(self.model, "constrains_item_counts", False) else schema
        async with self.gate:
            reply = await a_generate_structured(self.model, prompt, sent)
        cleaned: T = _clean(reply)
        return cleaned

    async def text(self, prompt: str) -> str:
        stop_if_cancelled()
        async with self.gate:
            reply = await a_generate_text(self.model, prompt)
        return strip_markers(reply)
