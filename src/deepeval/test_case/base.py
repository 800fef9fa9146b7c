"""Shared pydantic base for test-case types: camelCase aliases, unknown fields ignored (as deepeval's), and an
:class:`~deepeval.errors.InvalidTestCaseError` (a pydantic ``ValidationError`` and a ``TypeError``) naming the field
on bad input."""

from __future__ import annotations

import warnings
from types import UnionType
from typing import Annotated, Any, ClassVar, Self, Union, get_args, get_origin

from pydantic import (
    AliasChoices,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    ValidationError,
    ValidationInfo,
    model_validator,
)
from pydantic._internal._model_construction import ModelMetaclass
from pydantic.alias_generators import to_camel
from pydantic_core import ErrorDetails, PydanticCustomError

from deepeval.errors import InvalidTestCaseError


def _not_a_bool(value: Any) -> Any:
    if isinstance(value, bool):
        raise ValueError("expected a number, not a bool")
    return value


#: A number field as deepeval's pydantic models take it (lax): an int, a float, a numeric string (``"0.1"``,
#: ``" 1e-3 "``, as CSV and pandas give them) or a numpy number, stored as ``float``. Ours: a bool is refused.
Number = Annotated[float, BeforeValidator(_not_a_bool)]
#: A count (tokens) taken as deepeval takes it: an int, a float or numeric string with no fraction (``10.0``,
#: ``"10"``, a pandas column with gaps), a numpy integer, stored as ``int``; ``10.5`` is refused. Ours: a bool too.
Count = Annotated[int, BeforeValidator(_not_a_bool)]

# Union members appear in pydantic error locations as type tags ("str", "int", "RetrievedContextData"); they are not
# field names, so they are folded into the message instead of the path.
_TYPE_TAGS = frozenset({"str", "int", "float", "bool", "dict", "list", "none", "bytes"})


def _is_type_tag(part: object) -> bool:
    return (
        isinstance(part, str)
        and part != "[key]"
        and (part in _TYPE_TAGS or part[:1].isupper() or "[" in part)
    )


def _path(parts: list[Any]) -> str:
    out = ""
    for part in parts:
        if part == "[key]":  # pydantic marks a bad dict key this way; the key itself is the previous part
            out += " (key)"
        elif isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def _type_name(value: object) -> str:
    return "None" if value is None else type(value).__name__


def _clean(msg: str) -> str:
    for prefix in ("Value error, ", "Assertion failed, "):
        if msg.startswith(prefix):
            return msg[len(prefix) :]
    return msg


_DUPLICATE = "field_given_twice"
_COUNT = {2: "two", 3: "three"}

#: ``metadata`` also accepts deepeval's deprecated name ``additional_metadata`` (and its camelCase) on input.
MetadataAlias = AliasChoices("metadata", "additionalMetadata", "additional_metadata")
_METADATA_DEPRECATION = "'additional_metadata' is deprecated. Use 'metadata' instead."


def deprecated_metadata_alias() -> property:
    """The ``additional_metadata`` attribute: reads and writes ``metadata`` with deepeval's DeprecationWarning
    (construction with ``additional_metadata=`` is silent, as in deepeval)."""

    def _get(self: Any) -> Any:
        warnings.warn(_METADATA_DEPRECATION, DeprecationWarning, stacklevel=2)
        return self.metadata

    def _set(self: Any, value: Any) -> None:
        warnings.warn(_METADATA_DEPRECATION, DeprecationWarning, stacklevel=2)
        self.metadata = value

    return property(_get, _set, doc="Deprecated name of ``metadata``.")


def _spellings(name: str, field: Any) -> list[str]:
    """Every input name of a field: its own name, its alias and its validation alias choices."""
    out = [name]
    for alias in (field.alias, field.validation_alias):
        choices = alias.choices if isinstance(alias, AliasChoices) else [alias]
        out += [c for c in choices if isinstance(c, str) and c not in out]
    return out


def input_names(model: type[BaseModel]) -> set[str]:
    """Every name ``model``'s constructor reads a field from (field names, camelCase aliases, validation alias
    choices); other keyword arguments are ignored by the constructor, as deepeval's are."""
    return {n for name, field in model.model_fields.items() for n in _spellings(name, field)}


def describe_validation_error(err: ValidationError, owner: str) -> str:
    """One readable line per wrong field: ``Owner.field[index].sub: what was expected (got <type>)``.

    Union alternatives are merged (``expected str or RetrievedContextData, got int``); when an alternative failed
    deeper inside a nested object, only those deeper failures are reported (they are what the user got wrong).
    """
    groups: dict[str, list[tuple[list[Any], ErrorDetails]]] = {}
    order: list[str] = []
    for e in err.errors():
        loc = list(e["loc"])
        cut = next((i for i, p in enumerate(loc) if _is_type_tag(p)), len(loc))
        key = _path(loc[:cut])
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append((loc[cut:], e))
    lines: list[str] = []
    for key in order:
        members = groups[key]
        where = f"{owner}.{key}" if key else owner
        if len(members) == 1 and not members[0][0]:
            e = members[0][1]
            if e["type"] == "missing":
                lines.append(f"{where} is required")
            elif e["type"] == _DUPLICATE and e.get("ctx"):
                for name, given in e["ctx"]["pairs"]:
                    lines.append(
                        f"{where}.{name}: given twice, as {' and '.join(repr(g) for g in given)} "
                        f"({_COUNT.get(len(given), str(len(given)))} spellings of one field); pass it once"
                    )
            elif e["type"] == "extra_forbidden":
                lines.append(f"{where}: unknown field (check the spelling; snake_case or camelCase)")
            else:
                lines.append(f"{where}: {_clean(e['msg'])} (got {_type_name(e.get('input'))})")
            continue
        deeper = [(rest, e) for rest, e in members if len(rest) > 1]
        if deeper:
            for _rest, e in deeper:
                sub = f"{owner}.{_path([p for p in e['loc'] if not _is_type_tag(p)])}"
                if e["type"] == "missing":
                    lines.append(f"{sub} is required")
                else:
                    lines.append(f"{sub}: {_clean(e['msg'])} (got {_type_name(e.get('input'))})")
            continue
        tags = [str(rest[0]) for rest, _ in members if rest]
        got = _type_name(members[0][1].get("input"))
        lines.append(f"{where}: expected {' or '.join(tags)}, got {got}")
    return "; ".join(lines)


def invalid_input(cls: Any, err: ValidationError) -> Exception:
    """What bad input to ``cls`` raises: its ``invalid_input_error`` with the readable message; an
    :class:`~deepeval.errors.InvalidTestCaseError` keeps ``err``'s pydantic ``.errors()``."""
    message = describe_validation_error(err, cls.__name__)
    error: type[Exception] = getattr(cls, "invalid_input_error", InvalidTestCaseError)
    if issubclass(error, InvalidTestCaseError):
        return error.wrap(err, message)
    return error(message)


class _CaseMeta(ModelMetaclass):
    """Turns a construction-time ``ValidationError`` into the class's ``invalid_input_error`` at the outermost call
    only.

    Nested objects (a dict turned into a ``Turn`` inside ``ConversationalTestCase``) are validated by pydantic without
    going through this ``__call__``, so the error keeps its full path from the outer object.
    """

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().__call__(*args, **kwargs)
        except ValidationError as err:
            raise invalid_input(cls, err) from None


class CaseModel(BaseModel, metaclass=_CaseMeta):
    """Accepts snake_case and camelCase field names, serialises camelCase, ignores unknown keywords (as deepeval's
    test cases do, so ``LLMTestCase(**row)`` with extra keys works), raises ``invalid_input_error`` on bad input.

    Raises:
        InvalidTestCaseError: (a pydantic ``ValidationError``, ``ValueError`` and ``TypeError``) on construction,
            ``model_validate``/``model_validate_json`` and assignment, when a field has the wrong type, a required
            field is missing, or one field is given under both spellings (``actual_output`` and ``actualOutput``);
            the message names the field as it was spelled, with list indexes (e.g.
            ``ConversationalTestCase.turns[1].role``).
    """

    #: what bad input raises (the message is the same whatever the class); goldens raise
    #: :class:`~deepeval.errors.InvalidGoldenError`
    invalid_input_error: ClassVar[type[Exception]] = InvalidTestCaseError

    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        serialize_by_alias=False,  # model_dump() by field name, as deepeval; by_alias=True gives camelCase
        extra="ignore",
        arbitrary_types_allowed=False,
        validate_assignment=True,
    )

    @model_validator(mode="before")
    @classmethod
    def _one_spelling_per_field(cls, data: Any, info: ValidationInfo) -> Any:
        """Refuse a field given under both spellings (``actual_output=`` and ``actualOutput=``): which one wins
        would be arbitrary, so neither does. Skipped on assignment, where pydantic passes every stored field plus
        the assigned name (``info.field_name``), so an assigned alias is reported as an unknown attribute."""
        assigning = isinstance(data, dict) and info.field_name in data and set(cls.model_fields) <= set(data)
        if isinstance(data, dict) and not assigning:
            pairs = []
            for name, field in cls.model_fields.items():
                given = [s for s in _spellings(name, field) if s in data]
                if len(given) > 1:
                    pairs.append((name, given))
            if pairs:
                raise PydanticCustomError(
                    _DUPLICATE,
                    "fields given twice (under two spellings): {names}",
                    {"names": ", ".join("/".join(given) for _, given in pairs), "pairs": pairs},
                )
        return data

    @classmethod
    def model_validate(cls, obj: Any, *args: Any, **kwargs: Any) -> Self:
        try:
            return super().model_validate(obj, *args, **kwargs)
        except ValidationError as err:
            raise invalid_input(cls, err) from None

    @classmethod
    def model_validate_json(cls, json_data: Any, *args: Any, **kwargs: Any) -> Self:
        try:
            return super().model_validate_json(json_data, *args, **kwargs)
        except ValidationError as err:
            raise invalid_input(cls, err) from None

    def __setattr__(self, name: str, value: Any) -> None:
        try:
            super().__setattr__(name, value)
        except ValidationError as err:
            raise invalid_input(type(self), err) from None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict with camelCase keys; fields left at their default (None, ``flaky=False``, a
        ``FUNCTION`` tool call type) are left out."""
        return self.model_dump(mode="json", by_alias=True, exclude_none=True, exclude_defaults=True)


# Models nest at most case -> turn -> retrieved context / tool call; the depth bound also ends a case held by itself.
_MAX_MODEL_DEPTH = 4


def _is_list_field(annotation: Any) -> bool:
    args = get_args(annotation) if get_origin(annotation) in (Union, UnionType) else (annotation,)
    return any(get_origin(a) is list for a in args)


def _current_fields(model: BaseModel, depth: int) -> dict[str, Any]:
    """The model's field values as validation input: list fields rebuilt (their models as field dicts, so that
    pydantic checks them again); every other value as it is (``metadata`` is never walked)."""
    out: dict[str, Any] = {}
    for name, field in type(model).model_fields.items():
        value = getattr(model, name, None)
        if isinstance(value, list) and depth < _MAX_MODEL_DEPTH and _is_list_field(field.annotation):
            value = [_current_fields(v, depth + 1) if isinstance(v, CaseModel) else v for v in value]
        out[name] = value
    return out


def revalidated(case: CaseModel) -> CaseModel:
    """``case`` checked again as it is now, for the values that can change without validation: items appended to
    or replaced in its lists after construction (``tc.turns.append("hi")``, ``tc.retrieval_context[0] = 3``).

    Returns ``case`` itself when nothing changed its meaning, else a validated copy (a turn appended as a dict
    becomes a :class:`Turn`, as at construction); ``case`` is never modified.

    Raises:
        TypeError: (the class's ``invalid_input_error``) naming the field path and index, as at construction
            (``ConversationalTestCase.turns[2]: expected Turn, got str``).
    """
    copy = type(case).model_validate(_current_fields(case, 0))
    private = getattr(case, "__pydantic_private__", None)
    if (
        private
    ):  # what a component run attached (the trace of ``_trace_dict``, dataset bookkeeping) travels along
        object.__setattr__(copy, "__pydantic_private__", dict(private))
    try:
        same = bool(copy == case)
    except RecursionError:  # a self-holding metadata dict: compare what validation can change
        same = False
    return case if same else copy
