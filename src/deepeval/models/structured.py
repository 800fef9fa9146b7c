"""Structured output from any :class:`DeepEvalBaseLLM`, without breaking runs.

Ladder for one call: take the model's reply (a string, a schema instance, a dict, or ``(result, cost)``); parse
JSON (code fences stripped); if that fails repair it with ``json_repair``; validate against the pydantic schema and
the caller's extra check (e.g. one verdict per statement); if anything fails, re-ask once with the validation error
appended; if that fails too raise :class:`StructuredOutputError` naming the model and quoting the first 200
characters received.

A custom model whose ``a_generate`` raises ``NotImplementedError`` (it wrote only ``generate``) is called through
``generate`` in a worker thread, so ``async_mode=True`` works with it.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import re
from collections.abc import Callable
from typing import Any, TypeVar

from json_repair import repair_json
from pydantic import BaseModel, ValidationError

from deepeval.errors import StructuredOutputError
from deepeval.models.base_model import DeepEvalBaseLLM
from deepeval.models.usage import record_usage

T = TypeVar("T", bound=BaseModel)

_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL)


def _accepts_schema(fn: Callable[..., Any]) -> bool:
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return True
    return (
        "schema" in params
        or any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
        or len([p for p in params.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]) >= 2
    )


def split_cost(reply: Any) -> tuple[Any, float | None]:
    """``(result, cost)`` tuples are split; anything else has unknown cost."""
    if (
        isinstance(reply, tuple)
        and len(reply) == 2
        and (reply[1] is None or isinstance(reply[1], (int, float)))
    ):
        return reply[0], (float(reply[1]) if reply[1] is not None else None)
    return reply, None


def model_name(model: Any) -> str:
    try:
        return str(model.get_model_name())
    except Exception:  # a broken custom get_model_name must not hide the real error
        return type(model).__name__


def parse_json_text(text: str) -> Any:
    """Parse ``text`` as JSON: strict first, then the first ``{...}``/``[...]`` span, then ``json_repair``.

    Raises:
        ValueError: nothing JSON-like could be recovered.
    """
    m = _FENCE.match(text)
    body = m.group(1) if m else text.strip()
    try:
        return json.loads(body)
    except json.JSONDecodeError:
        pass
    start = min((i for i in (body.find("{"), body.find("[")) if i >= 0), default=-1)
    if start >= 0:
        try:
            return json.loads(body[start : max(body.rfind("}"), body.rfind("]")) + 1])
        except json.JSONDecodeError:
            pass
    repaired = repair_json(body, return_objects=True)
    if repaired in ("", None, [], {}) and body not in ("[]", "{}"):
        raise ValueError("no JSON found in the reply")
    return repaired


def coerce(reply: Any, schema: type[T], check: Callable[[T], None] | None = None) -> T:
    """Turn one reply into a validated ``schema`` instance.

    Raises:
        ValueError: unparseable or invalid (pydantic ``ValidationError`` is a ``ValueError``).
    """
    if isinstance(reply, schema):
        obj = reply
    elif isinstance(reply, BaseModel):
        obj = schema.model_validate(reply.model_dump())
    elif isinstance(reply, (dict, list)):
        obj = schema.model_validate(reply)
    elif isinstance(reply, str):
        obj = schema.model_validate(parse_json_text(reply))
    else:
        raise ValueError(f"unsupported reply type {type(reply).__name__}")
    if check is not None:
        check(obj)
    return obj


async def _call(model: DeepEvalBaseLLM, prompt: str, schema: type[BaseModel] | None) -> Any:
    """One reply from ``model.a_generate``; a model whose ``a_generate`` raises ``NotImplementedError`` (only
    ``generate`` written) is asked through ``generate`` in a worker thread instead.

    Raises:
        NotImplementedError: neither method is implemented; the message names the model.
    """
    try:
        if _accepts_schema(model.a_generate):
            return await model.a_generate(prompt, schema=schema)
        return await model.a_generate(prompt)  # type: ignore[call-arg]
    except NotImplementedError:
        pass
    try:
        if _accepts_schema(model.generate):
            return await asyncio.to_thread(model.generate, prompt, schema=schema)
        return await asyncio.to_thread(model.generate, prompt)  # type: ignore[call-arg]
    except NotImplementedError as err:
        raise NotImplementedError(
            f"judge {model_name(model)} implements neither a_generate nor generate (both raise NotImplementedError)"
        ) from err


async def _counted_call(model: DeepEvalBaseLLM, prompt: str, schema: type[BaseModel] | None) -> Any:
    """:func:`_call`, counted as one ``llm_calls`` whether it succeeds or fails (a call that failed after its
    retries still sent its requests: ``llm_calls + retries`` is what reached the server)."""
    record_usage(llm_calls=1)
    reply = await _call(model, prompt, schema)
    result, cost = split_cost(reply)
    record_usage(cost=cost)
    return result


async def _ask(model: DeepEvalBaseLLM, prompt: str, schema: type[BaseModel]) -> Any:
    return await _counted_call(model, prompt, schema)


def describe_invalid(exc: Exception) -> str:
    """A one-line account of why a reply did not validate: field paths and messages for pydantic errors."""
    if isinstance(exc, ValidationError):
        items = [f"{'.'.join(str(p) for p in e['loc']) or '<root>'}: {e['msg']}" for e in exc.errors()[:3]]
        more = f" (+{exc.error_count() - 3} more)" if exc.error_count() > 3 else ""
        return "; ".join(items)[:300] + more
    return (str(exc).splitlines() or [type(exc).__name__])[0][:300]


def _excerpt(reply: Any) -> str:
    text = reply if isinstance(reply, str) else repr(reply)
    return text[:200]


async def a_generate_structured(
    model: DeepEvalBaseLLM,
    prompt: str,
    schema: type[T],
    *,
    check: Callable[[T], None] | None = None,
) -> T:
    """Ask ``model`` for a ``schema`` instance (see module docstring for the ladder).

    Args:
        check: extra validation; raise ``ValueError`` to trigger the re-ask (e.g. wrong verdict count).

    Raises:
        StructuredOutputError: still invalid after the re-ask.
        JudgeError: the model call itself failed (propagated from the client).
    """
    reply = await _ask(model, prompt, schema)
    try:
        return coerce(reply, schema, check)
    except (ValueError, ValidationError) as first_error:
        problem = describe_invalid(first_error)
    retry_prompt = (
        f"{prompt}\n\nYour previous reply could not be used: {problem}\n"
        "Reply again with only a JSON object that matches the requested format exactly."
    )
    reply = await _ask(model, retry_prompt, schema)
    try:
        return coerce(reply, schema, check)
    except (ValueError, ValidationError) as second_error:
        name = model_name(model)
        raise StructuredOutputError(
            f"judge {name} returned output that does not match {schema.__name__} after one re-ask "
            f"({describe_invalid(second_error)[:200]}); first 200 characters received: {_excerpt(reply)!r}",
            model=name,
        ) from None


async def a_generate_text(model: DeepEvalBaseLLM, prompt: str) -> str:
    """Free-text generation (reasons); accepts the same reply shapes, returns a string."""
    result = await _counted_call(model, prompt, None)
    if isinstance(result, BaseModel):
        dumped = result.model_dump()
        return str(dumped.get("reason", dumped)) if isinstance(dumped, dict) else str(dumped)
    return str(result)
