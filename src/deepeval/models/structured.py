"""Structured output from any :class:`DeepEvalBaseLLM`, without breaking runs.

Ladder for one call (:func:`run_ladder`, the only place that re-asks): take the model's reply (a string, a schema
instance, a dict, or ``(result, cost)``); parse JSON (code fences stripped); if the reply is not JSON as a whole, take
the JSON values embedded in it (:func:`json_candidates`, linear and bounded) that match the schema: one is the
answer, several different ones are ambiguous (:class:`AmbiguousReply`: one may be JSON quoted from the material
under evaluation, so none is picked), and so is one beside another object for the schema that is malformed; with
none, repair the reply with ``json_repair`` (bounded in size and depth), unless the objects it starts for the schema,
repaired one by one, differ (the repair of the whole would keep the last); validate against the pydantic schema and the caller's extra check (e.g. one verdict per statement);
if anything fails, re-ask once with the validation error appended; if that fails too raise
:class:`StructuredOutputError` naming the model and quoting the first 200 characters received.

A list of the wrong length (:class:`ItemCount`, e.g. 2 verdicts for 3 statements: small models lose count) gets a
targeted re-ask instead: the model sees its own reply and is told how many items it gave, how many are needed and
what each one stands for. A model that constrains decoding to a schema (``constrains_item_counts``, llama.cpp's
grammar) is sent the exact length in the schema itself (``minItems`` = ``maxItems``), so it cannot miscount.

A model that implements :class:`StructuredAttempts` (our OpenAI-compatible clients) hands back one raw reply per
request, so the ladder runs here once, whether the caller is this layer or the client's own ``a_generate(prompt,
schema)``; any other model is asked through ``a_generate`` and its reply goes through the same ladder. Every request
counts in ``llm_calls`` (see :func:`deepeval.models.usage.counted_call`).

A custom model whose ``a_generate`` raises ``NotImplementedError`` (it wrote only ``generate``) is called through
``generate`` in a worker thread, so ``async_mode=True`` works with it.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import json
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated, Any, Protocol, TypeVar, get_args, get_origin, runtime_checkable

from json_repair import repair_json
from pydantic import BaseModel, Field, ValidationError, create_model

from deepeval import _json
from deepeval.errors import StructuredOutputError
from deepeval.models.base_model import DeepEvalBaseLLM, judge_name
from deepeval.models.usage import counted_call, known_cost, record_usage

T = TypeVar("T", bound=BaseModel)


@runtime_checkable
class StructuredAttempts(Protocol):
    """A model that returns one unvalidated reply per request for a schema (the ladder runs in this module)."""

    async def a_structured_attempt(self, prompt: str, schema: type[BaseModel]) -> tuple[Any, float | None]:
        """One request for ``schema``: ``(raw reply, cost)``; counts itself with ``record_llm_request``."""
        ...


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
    """``(result, cost)`` tuples are split (a custom model's ``generate`` returns either); anything else has unknown
    cost. A cost that is not a finite number >= 0 (``nan``, ``inf``, ``-1``, ``True``, ``"0.1"``, ``[1]``,
    ``{"usd": 1}``) is unknown too (:func:`~deepeval.models.usage.known_cost`), and the result is used as it is:
    one such row once made a whole run's total ``$nan``, and a string, list or dict cost made the whole tuple the
    reply ("invalid JSON")."""
    if isinstance(reply, tuple) and len(reply) == 2:
        return reply[0], known_cost(reply[1])
    return reply, None


#: the longest reply text :func:`parse_json_text` hands to ``json_repair`` (judge replies are a few KB)
REPAIR_MAX_CHARS = 1_000_000
#: the most ``{``/``[`` positions the JSON search tries outside the JSON it found (a judge reply has a handful)
MAX_JSON_STARTS = 1_000
#: the deepest bracket nesting handed to ``json_repair`` (a judge's JSON nests a few levels; the repair costs about
#: 0.4 ms per unclosed bracket, so a reply of 40,000 ``{`` would hold the event loop for 16 s)
REPAIR_MAX_DEPTH = 64

_JSON_START = re.compile(r"[\[{]")


class AmbiguousReply(ValueError):
    """The reply holds several different JSON values that each match the schema (e.g. the judge's own verdicts and
    verdicts quoted from the material under evaluation): which one the judge meant is not ours to guess."""


def _strip_fence(text: str) -> str:
    m = _FENCE.match(text)
    return m.group(1) if m else text.strip()


def json_candidates(text: str) -> list[Any]:
    """Every JSON object or array embedded in ``text`` (see :func:`json_spans`), left to right.

    Raises:
        ValueError: the search gave up.
    """
    return [value for _start, _end, value in json_spans(text)]


def json_spans(text: str) -> list[tuple[int, int, Any]]:
    """Every JSON object or array embedded in ``text`` as ``(start, end, value)``, left to right, found in time
    linear in ``len(text)``.

    Each ``{``/``[`` outside the JSON found so far is tried with the standard decoder; a value that decodes is taken
    whole (the JSON inside it is part of it, never a candidate of its own) and the search goes on after it. The
    search gives up (a ``ValueError``) after :data:`MAX_JSON_STARTS` tries or after scanning eight times the text,
    so a reply of many brackets costs milliseconds, not seconds.

    Raises:
        ValueError: the search gave up.
    """
    decoder = json.JSONDecoder()
    found: list[tuple[int, int, Any]] = []
    budget = 8 * len(text) + 10_000
    tries = 0
    pos = 0
    too_deep = False
    while (m := _JSON_START.search(text, pos)) is not None:
        start = m.start()
        tries += 1
        if tries > MAX_JSON_STARTS:
            raise ValueError(f"no usable JSON in the reply: more than {MAX_JSON_STARTS:,} '{{' or '[' tried")
        try:
            value, end = decoder.raw_decode(text, start)
        except json.JSONDecodeError as err:
            budget -= max(err.pos - start, 1)
            pos = start + 1
        except RecursionError:
            budget -= len(text) - start
            pos = start + 1
            too_deep = True
        else:
            found.append((start, end, value))
            pos = end
        if budget < 0:
            what = "JSON nested too deeply to read" if too_deep else "unbalanced brackets"
            raise ValueError(f"no usable JSON in the reply ({len(text):,} characters of {what})")
    return found


def _nesting_depth(text: str) -> int:
    """The deepest bracket nesting of ``text``, strings ignored (an upper bound of what a JSON parser meets)."""
    depth = deepest = 0
    for ch in re.findall(r"[\[\]{}]", text):
        if ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif depth:
            depth -= 1
    return deepest


def _repair(body: str) -> Any:
    if len(body) > REPAIR_MAX_CHARS:
        # json_repair is pure Python: a multi-megabyte non-JSON reply would hold the event loop for minutes, out of
        # reach of the per-attempt timeout
        raise ValueError(
            f"no JSON found in the reply ({len(body):,} characters; replies over {REPAIR_MAX_CHARS:,} are not repaired)"
        )
    if _nesting_depth(body) > REPAIR_MAX_DEPTH:
        raise ValueError(
            f"no JSON found in the reply (brackets nested over {REPAIR_MAX_DEPTH} deep are not repaired)"
        )
    try:
        repaired = repair_json(body, return_objects=True)
    except RecursionError:
        raise ValueError("no JSON found in the reply (nested too deeply to parse)") from None
    if repaired in ("", None, [], {}) and body not in ("[]", "{}"):
        raise ValueError("no JSON found in the reply")
    return repaired


def _distinct(values: list[Any]) -> list[Any]:
    seen: dict[str, Any] = {}
    for value in values:
        key = value.model_dump_json() if isinstance(value, BaseModel) else json.dumps(value, sort_keys=True)
        seen.setdefault(key, value)
    return list(seen.values())


def parse_json_text(text: str) -> Any:
    """Parse ``text`` as JSON: strict first, then the one JSON value embedded in it, then ``json_repair``.

    Raises:
        AmbiguousReply: the text embeds several different JSON values.
        ValueError: nothing JSON-like could be recovered.
    """
    body = _strip_fence(text)
    try:
        return _json.loads(body)
    except json.JSONDecodeError:
        pass
    found = _distinct(json_candidates(body))
    if len(found) > 1:
        raise AmbiguousReply(f"the reply holds {len(found)} different JSON values; reply with exactly one")
    if found:
        return found[0]
    return _repair(body)


def _numeric(annotation: Any) -> bool:
    """Whether a field's type is a number (``float``, ``int``, optionally ``| None`` or constrained)."""
    if get_origin(annotation) is Annotated:
        return _numeric(get_args(annotation)[0])
    args = [a for a in get_args(annotation) if a is not type(None)]
    if args and get_origin(annotation) is not list and get_origin(annotation) is not dict:
        return all(_numeric(a) for a in args)
    return annotation in (float, int)


def _submodels(annotation: Any) -> list[type[BaseModel]]:
    """The models a field holds, directly or as list items (``list[Verdict]``, ``Verdict | None``)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [m for a in get_args(annotation) for m in _submodels(a)]


def _boolean_number(schema: type[BaseModel], value: Any, path: str = "") -> str | None:
    """The path of the first number field that ``value`` fills with JSON true / false (pydantic reads them as 1
    and 0: a judge that answers ``"score": true`` gave no score), else None."""
    if not isinstance(value, dict):
        return None
    for name, field in schema.model_fields.items():
        item = value.get(field.alias or name)
        if isinstance(item, bool) and _numeric(field.annotation):
            return f"{path}{name}"
        for model in _submodels(field.annotation):
            for i, sub in enumerate(item if isinstance(item, list) else [item]):
                where = f"{path}{name}[{i}]." if isinstance(item, list) else f"{path}{name}."
                found = _boolean_number(model, sub, where)
                if found:
                    return found
    return None


def _validated(schema: type[T], value: Any) -> T:
    """``schema.model_validate(value)``, refusing JSON true / false where the schema asks for a number.

    Raises:
        ValueError: a boolean number (naming its field), or pydantic's ``ValidationError``.
    """
    where = _boolean_number(schema, value)
    if where is not None:
        raise ValueError(f"{where}: the value must be a number, not true or false")
    return schema.model_validate(value)


def validate_text(text: str, schema: type[T]) -> T:
    """The one ``schema`` instance that ``text`` holds: the whole text as JSON, else the embedded JSON values that
    validate (several different ones are ambiguous, never one picked), else the repaired text.

    Raises:
        AmbiguousReply: several different embedded values validate.
        ValueError: nothing validates (pydantic's ``ValidationError`` of the closest candidate where there was one).
    """
    body = _strip_fence(text)
    try:
        whole = _json.loads(body)
    except json.JSONDecodeError:
        pass
    else:
        return _validated(schema, whole)
    valid: list[T] = []
    spans: list[tuple[int, int]] = []
    invalid: ValueError | None = None  # pydantic's ValidationError, or a boolean given for a number
    for start, end, value in json_spans(body):
        try:
            valid.append(_validated(schema, value))
        except ValueError as err:
            invalid = invalid or err
        else:
            spans.append((start, end))
    distinct = _distinct(valid)
    if len(distinct) > 1:
        raise AmbiguousReply(
            f"the reply holds {len(distinct)} different JSON objects that each match {schema.__name__} (one may be "
            "quoted from the material under evaluation); reply with exactly one JSON object, your own"
        )
    if distinct:
        _no_rival(body, spans, schema)
        return distinct[0]
    rivals = _repaired_rivals(body, schema)
    if len(rivals) > 1:
        raise AmbiguousReply(
            f"the reply holds {len(rivals)} different malformed JSON objects for {schema.__name__} (one may be quoted "
            "from the material under evaluation); reply with exactly one JSON object, your own"
        )
    try:
        return _validated(schema, _repair(body))
    except ValueError:
        if invalid is not None:
            raise invalid from None
        raise


#: the most objects for the schema a reply that needs repair may start (each is repaired on its own to compare them)
MAX_REPAIR_REGIONS = 16


def _field_keys(schema: type[BaseModel]) -> re.Pattern[str] | None:
    """A pattern of ``schema``'s top-level field names as JSON keys (``"verdicts":``); None for no fields."""
    names = [f.alias or n for n, f in schema.model_fields.items()]
    if not names:
        return None
    return re.compile(r'"(?:' + "|".join(re.escape(n) for n in names) + r')"\s*:')


def _repaired_rivals(body: str, schema: type[T]) -> list[T]:
    """The different ``schema`` instances that the objects a reply starts (at a ``{`` before one of the schema's
    keys) give when each is repaired on its own: more than one means the repair of the whole reply would pick one.

    Raises:
        AmbiguousReply: the reply starts more than :data:`MAX_REPAIR_REGIONS` such objects.
    """
    key = _field_keys(schema)
    if key is None:
        return []
    starts: list[int] = []
    since = 0  # a key's object starts after the previous key (so the look-back is linear in all)
    for m in key.finditer(body):
        start = body.rfind("{", since, m.start())
        since = m.end()
        if start >= 0:
            starts.append(start)
        if len(starts) > MAX_REPAIR_REGIONS:
            raise AmbiguousReply(
                f"the reply starts over {MAX_REPAIR_REGIONS} JSON objects for {schema.__name__}; reply with one"
            )
    if len(starts) < 2:
        return []
    found: list[T] = []
    for start, end in zip(starts, [*starts[1:], len(body)], strict=True):
        try:
            found.append(_validated(schema, _repair(body[start:end])))
        except ValueError:
            continue
    return _distinct(found)


def _no_rival(body: str, spans: list[tuple[int, int]], schema: type[BaseModel]) -> None:
    """Refuse the one matching object when the text around it starts another object for ``schema`` (one of its
    field names as a JSON key) that did not parse or did not match: the judge's own answer may be that malformed one,
    and the matching one quoted from the material under evaluation.

    Raises:
        AmbiguousReply: such a rival is there.
    """
    key = _field_keys(schema)
    if key is None:
        return
    pos = 0
    for start, end in [*spans, (len(body), len(body))]:
        rival = key.search(body, pos, start)
        if rival is not None:
            raise AmbiguousReply(
                f"besides the JSON object that matches {schema.__name__}, the reply starts another one that does not "
                f"({rival.group(0)[:40]!r} at character {rival.start()}); reply with exactly one JSON object, your own"
            )
        pos = end


class CutReply(str):
    """Reply text the server cut off at its token cap (``finish_reason: "length"``): it is accepted only when it is
    whole JSON all the same, never repaired (a cut list would come back shorter, and look like a miscount)."""

    output_tokens: int | None

    def __new__(cls, text: str, output_tokens: int | None = None) -> CutReply:
        obj = super().__new__(cls, text)
        obj.output_tokens = output_tokens
        return obj


def _whole_json(reply: CutReply) -> Any:
    try:
        return _json.loads(_strip_fence(reply))
    except json.JSONDecodeError:
        tokens = f" after {reply.output_tokens} tokens" if reply.output_tokens else ""
        raise ValueError(
            f"the reply was cut off at the token cap{tokens}, before its JSON ended; keep every text field short"
        ) from None


def coerce(reply: Any, schema: type[T], check: Callable[[T], None] | None = None) -> T:
    """Turn one reply into a validated ``schema`` instance.

    Raises:
        ValueError: unparseable or invalid (pydantic ``ValidationError`` is a ``ValueError``), or a
            :class:`CutReply` that is not whole JSON.
    """
    if isinstance(reply, CutReply):
        obj = _validated(schema, _whole_json(reply))
    elif isinstance(reply, schema):
        obj = reply
    elif isinstance(reply, BaseModel):
        obj = schema.model_validate(reply.model_dump())
    elif isinstance(reply, (dict, list)):
        obj = _validated(schema, reply)
    elif isinstance(reply, str):
        obj = validate_text(reply, schema)
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
        return await model.a_generate(prompt)
    except NotImplementedError:
        pass
    try:
        if _accepts_schema(model.generate):
            return await asyncio.to_thread(model.generate, prompt, schema=schema)
        return await asyncio.to_thread(model.generate, prompt)
    except NotImplementedError as err:
        raise NotImplementedError(
            f"judge {judge_name(model)} implements neither a_generate nor generate (both raise NotImplementedError)"
        ) from err


async def _counted_call(model: DeepEvalBaseLLM, prompt: str, schema: type[BaseModel] | None) -> Any:
    """One call, counted as one ``llm_calls`` whether it succeeds or fails (a call that failed after its retries
    still sent its requests: ``llm_calls + retries`` is what reached the server). Its cost is recorded."""
    with counted_call():
        if schema is not None and isinstance(model, StructuredAttempts):
            reply = await model.a_structured_attempt(prompt, schema)
        else:
            reply = await _call(model, prompt, schema)
    result, cost = split_cost(reply)
    record_usage(cost=cost)
    return result


class CountMismatch(ValueError):
    """A reply whose list has the wrong number of items (raised by :class:`ItemCount`)."""

    def __init__(self, want: ItemCount, got: int) -> None:
        self.want = want
        self.got = got
        super().__init__(
            f"expected exactly {want.expected} {want.item}s, one per {want.unit} and in order, got {got}"
        )


@dataclass(frozen=True)
class ItemCount:
    """A ``check=`` for :func:`a_generate_structured`: the list field ``field`` holds exactly ``expected`` items,
    one ``item`` per ``unit`` of the prompt, in order (e.g. ``ItemCount("verdicts", 3, item="verdict",
    unit="statement")``). A wrong count gets the targeted re-ask of the module docstring.

    Raises (when called):
        CountMismatch: the count differs.
    """

    field: str
    expected: int
    item: str = "item"
    unit: str = "entry"

    def __call__(self, reply: Any) -> None:
        got = len(getattr(reply, self.field))
        if got != self.expected:
            raise CountMismatch(self, got)


def count_reask_prompt(prompt: str, previous: Any, mismatch: CountMismatch) -> str:
    """The re-ask after a wrong count: the original prompt, the model's own reply, and exactly what is wrong
    (our wording)."""
    want, got = mismatch.want, mismatch.got
    n = want.expected
    if got < n:
        fix = (
            f"{n - got} {want.unit}{'s have' if n - got > 1 else ' has'} no {want.item}: go through the {n} "
            f"{want.unit}s one by one and add the missing {want.item}{'s' if n - got > 1 else ''} where "
            f"{'they belong' if n - got > 1 else 'it belongs'}."
        )
    else:
        fix = (
            f"{got - n} {want.item}{'s are' if got - n > 1 else ' is'} too many: give one {want.item} per "
            f"{want.unit}, never two for the same {want.unit} and none for anything that is not one of the {n}."
        )
    shown = previous if isinstance(previous, str) else _dump(previous)
    return (
        f"{prompt}\n\nYour previous reply was:\n{shown[:4000]}\n\nIt was rejected: {mismatch}. {fix} Reply with "
        f'the whole JSON object again, with exactly {n} {want.item}{"s" if n != 1 else ""} in "{want.field}": '
        f"the first for {want.unit} 1, the last for {want.unit} {n}."
    )


def _dump(reply: Any) -> str:
    if isinstance(reply, BaseModel):
        return reply.model_dump_json()
    try:
        return json.dumps(reply, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(reply)


@functools.lru_cache(maxsize=256)
def counted_schema(schema: type[T], field: str, expected: int) -> type[T]:
    """``schema`` with the list field ``field`` required to hold exactly ``expected`` items (``minItems`` and
    ``maxItems`` in its JSON schema), or ``schema`` itself when ``field`` is not a plain list field. A subclass, so
    what validates against it is a ``schema`` instance."""
    info = schema.model_fields.get(field)
    if info is None or get_origin(info.annotation) is not list:
        return schema
    (item_type,) = get_args(info.annotation) or (Any,)
    constrained: Any = Annotated[list[item_type], Field(min_length=expected, max_length=expected)]  # type: ignore[valid-type]
    tight: type[T] = create_model(schema.__name__, __base__=schema, **{field: (constrained, ...)})  # type: ignore[call-overload]
    return tight


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


def reask_prompt(prompt: str, problem: str) -> str:
    """The prompt of the one re-ask: the original one and why its reply was rejected (our wording)."""
    return (
        f"{prompt}\n\nYour previous reply was rejected ({problem}). Reply once more with just the JSON object, "
        "exactly in the requested format."
    )


#: the sentence deepeval 4.3.1 raises (a ValueError) for a judge reply it cannot parse; ours starts with it, then says
#: what was wrong, so code matching deepeval's documented text still matches
INVALID_JSON_SENTENCE = "Evaluation LLM outputted an invalid JSON. Please use a better evaluation model."


async def run_ladder(
    ask: Callable[[str], Awaitable[Any]],
    prompt: str,
    schema: type[T],
    *,
    name: str,
    check: Callable[[T], None] | None = None,
) -> T:
    """The ladder of the module docstring over ``ask(prompt) -> reply``: at most two calls of ``ask``.

    Raises:
        StructuredOutputError: still invalid after the re-ask.
    """
    reply = await ask(prompt)
    try:
        return coerce(reply, schema, check)
    except CountMismatch as mismatch:
        second = count_reask_prompt(prompt, reply, mismatch)
    except (ValueError, ValidationError) as first_error:
        second = reask_prompt(prompt, describe_invalid(first_error))
    reply = await ask(second)
    try:
        return coerce(reply, schema, check)
    except (ValueError, ValidationError) as second_error:
        raise StructuredOutputError(
            f"{INVALID_JSON_SENTENCE} Judge {name} returned output that does not match {schema.__name__} after one re-ask "
            f"({describe_invalid(second_error)[:200]}); first 200 characters received: {_excerpt(reply)!r}",
            model=name,
        ) from None


async def a_generate_structured(
    model: DeepEvalBaseLLM,
    prompt: str,
    schema: type[T],
    *,
    check: Callable[[T], None] | None = None,
) -> T:
    """Ask ``model`` for a ``schema`` instance (see module docstring for the ladder).

    Args:
        check: extra validation; raise ``ValueError`` to trigger the re-ask. An :class:`ItemCount` (a list's
            length) gets the targeted re-ask, and its length goes into the schema sent to a model whose
            ``constrains_item_counts`` is true.

    Raises:
        StructuredOutputError: still invalid after the re-ask.
        JudgeError: the model call itself failed (propagated from the client).
    """
    sent: type[BaseModel] = schema
    if isinstance(check, ItemCount) and getattr(model, "constrains_item_counts", False):
        sent = counted_schema(schema, check.field, check.expected)

    async def ask(text: str) -> Any:
        return await _counted_call(model, text, sent)

    return await run_ladder(ask, prompt, schema, name=judge_name(model), check=check)


async def a_generate_text(model: DeepEvalBaseLLM, prompt: str) -> str:
    """Free-text generation (reasons); accepts the same reply shapes, returns a string."""
    result = await _counted_call(model, prompt, None)
    if isinstance(result, BaseModel):
        dumped = result.model_dump()
        return str(dumped.get("reason", dumped)) if isinstance(dumped, dict) else str(dumped)
    return str(result)
