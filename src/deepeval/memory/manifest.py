"""Fact manifest: the known facts a conversation states, each with a probe question and its expected answer.

File format (YAML or JSON)::

    name: my-project            # optional
    topic: "an infrastructure team's planning chat"   # optional, used by the generator
    facts:
      - id: db                  # unique, [A-Za-z0-9_.-], 1-64 chars
        statement: "The team chose PostgreSQL for the ledger."
        question: "Which database did the team choose for the ledger?"
        expected: "PostgreSQL"
        kind: stated            # stated (default) | never_stated | superseded (inferred when another supersedes it)
        supersedes: null        # id of an earlier fact this one corrects
        introduced_at: 3        # optional 0-based turn index where the fact should be (or was) stated

Semantics: a ``never_stated`` fact is never said; its probe must be answered "not in memory" (it is scored apart
from recall, as abstention). A fact named by another's ``supersedes`` is ``superseded``: it is stated first and the
later fact corrects it; at any point only the latest stated version is probed.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from deepeval.errors import DeepEvalError

FactKind = Literal["stated", "never_stated", "superseded"]
_ID = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")


class ManifestError(DeepEvalError, ValueError):
    """A fact manifest is invalid or unreadable; the message names the file, the fact and the problem."""


class Fact(BaseModel):
    """One known fact. ``kind`` is None until the manifest infers it (``stated`` or ``superseded``)."""

    model_config = ConfigDict(extra="forbid")

    id: str
    statement: str = Field(min_length=1)
    question: str = Field(min_length=1)
    expected: str = Field(min_length=1)
    kind: FactKind | None = None
    supersedes: str | None = None
    introduced_at: int | None = Field(default=None, ge=0)

    @field_validator("id")
    @classmethod
    def _id_shape(cls, v: str) -> str:
        if not _ID.match(v):
            raise ValueError(f"fact id {v!r} must be 1-64 characters of letters, digits, '_', '.', '-'")
        return v

    @field_validator("statement", "question", "expected")
    @classmethod
    def _not_blank(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("must not be blank")
        return v.strip()


class FactManifest(BaseModel):
    """A validated list of facts.

    Raises (on construction / :func:`load_manifest`): :class:`ManifestError` for duplicate ids, ``supersedes``
    pointing nowhere, at itself, at a never-stated fact or in a cycle, two facts superseding the same one, a
    never-stated fact that supersedes, an explicit kind that contradicts the supersedes links, an empty list.
    """

    model_config = ConfigDict(extra="forbid")

    name: str | None = None
    topic: str | None = None
    facts: list[Fact]

    @model_validator(mode="after")
    def _check(self) -> FactManifest:
        if not self.facts:
            raise ValueError("the manifest has no facts")
        by_id: dict[str, Fact] = {}
        for f in self.facts:
            if f.id in by_id:
                raise ValueError(f"duplicate fact id {f.id!r}")
            by_id[f.id] = f
        superseded_by = _supersedes_links(self.facts, by_id)
        _check_no_cycles(self.facts, by_id)
        for f in self.facts:
            if f.id in superseded_by:
                if f.kind not in (None, "superseded"):
                    raise ValueError(
                        f"fact {f.id!r} has kind {f.kind!r} but {superseded_by[f.id]!r} supersedes it"
                    )
                f.kind = "superseded"
            elif f.kind is None:
                f.kind = "stated"
            elif f.kind == "superseded":
                raise ValueError(f"fact {f.id!r} has kind 'superseded' but no fact supersedes it")
        for f in self.facts:
            if f.supersedes and f.introduced_at is not None:
                old = by_id[f.supersedes]
                if old.introduced_at is not None and old.introduced_at >= f.introduced_at:
                    raise ValueError(
                        f"fact {f.id!r} (introduced_at {f.introduced_at}) must come after the fact it supersedes "
                        f"{old.id!r} (introduced_at {old.introduced_at})"
                    )
        return self

    # -- views --------------------------------------------------------------------------------------------------
    def get(self, fact_id: str) -> Fact:
        for f in self.facts:
            if f.id == fact_id:
                return f
        raise KeyError(fact_id)

    def stated(self) -> list[Fact]:
        """Facts said in the conversation (stated and superseded), in manifest order."""
        return [f for f in self.facts if f.kind != "never_stated"]

    def never_stated(self) -> list[Fact]:
        return [f for f in self.facts if f.kind == "never_stated"]

    def outdated_values(self, fact: Fact) -> list[str]:
        """Expected answers of every earlier version of ``fact`` (its supersedes chain)."""
        out: list[str] = []
        cur = fact
        while cur.supersedes is not None:
            cur = self.get(cur.supersedes)
            out.append(cur.expected)
        return out

    def current_facts(self, introduced: dict[str, int], turn: int | None = None) -> list[Fact]:
        """Facts to probe after ``turn`` (inclusive; None = the end): stated facts introduced by then whose
        successor is not yet introduced. ``introduced`` maps fact id -> turn index."""
        limit = float("inf") if turn is None else turn
        live = {f.id for f in self.stated() if f.id in introduced and introduced[f.id] <= limit}
        return [
            f
            for f in self.stated()
            if f.id in live and not any(g.supersedes == f.id and g.id in live for g in self.facts)
        ]


def manifest_json_schema() -> dict[str, Any]:
    """JSON schema of the manifest file format."""
    return FactManifest.model_json_schema()


def parse_manifest(data: Any, source: str = "<manifest>") -> FactManifest:
    """Validate already-parsed YAML/JSON data.

    Raises:
        ManifestError: invalid data; the message names ``source`` and each problem with its location.
    """
    if isinstance(data, list):
        data = {"facts": data}
    if not isinstance(data, dict):
        raise ManifestError(
            f"{source}: a manifest must be a mapping with a 'facts' list, got {type(data).__name__}"
        )
    try:
        return FactManifest.model_validate(data)
    except ValidationError as err:
        problems = []
        for e in err.errors():
            loc = e.get("loc", ())
            where = ".".join(str(p) for p in loc)
            if len(loc) >= 2 and loc[0] == "facts" and isinstance(loc[1], int):
                facts = data.get("facts") or []
                fid = (
                    facts[loc[1]].get("id")
                    if loc[1] < len(facts) and isinstance(facts[loc[1]], dict)
                    else None
                )
                where = f"fact #{loc[1]}" + (f" ({fid!r})" if fid else "") + "".join(f".{p}" for p in loc[2:])
            msg = str(e.get("msg", "")).removeprefix("Value error, ")
            problems.append(f"{where}: {msg}" if where else msg)
        raise ManifestError(f"{source}: invalid fact manifest: " + "; ".join(problems)) from None


class _DuplicateKey(Exception):
    def __init__(self, key: Any, line: int, first: int) -> None:
        super().__init__(key, line, first)
        self.key, self.line, self.first = key, line, first


class _UniqueKeyLoader(yaml.SafeLoader):
    """``yaml.SafeLoader`` that refuses a mapping naming one key twice (PyYAML keeps the last value silently)."""


def _unique_mapping(loader: yaml.SafeLoader, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
    seen: dict[Any, int] = {}
    for key_node, _ in node.value:
        if key_node.tag == "tag:yaml.org,2002:merge":  # "<<: *anchor" may be overridden by later keys
            continue
        key = loader.construct_object(key_node, deep=True)
        line = key_node.start_mark.line + 1
        try:
            if key in seen:
                raise _DuplicateKey(key, line, seen[key])
        except TypeError:  # an unhashable key: the base constructor reports it
            continue
        seen[key] = line
    return loader.construct_mapping(node, deep=deep)


_UniqueKeyLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _unique_mapping)


def _unique_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key, 0, 0)
        out[key] = value
    return out


def _parse_text(text: str, p: Path) -> Any:
    is_json = p.suffix.lower() == ".json"
    try:
        if is_json:
            return json.loads(text, object_pairs_hook=_unique_pairs)
        return yaml.load(text, Loader=_UniqueKeyLoader)  # a SafeLoader subclass: plain data only
    except (json.JSONDecodeError, yaml.YAMLError) as err:
        raise ManifestError(f"{p}: not valid {'JSON' if is_json else 'YAML'}: {err}") from None
    except RecursionError:
        raise ManifestError(
            f"{p}: the manifest is nested too deeply to read (a manifest is a mapping with a 'facts' list of flat "
            "mappings)"
        ) from None
    except _DuplicateKey as dup:
        where = f"{p}:{dup.line}" if dup.line else str(p)
        first = f" (first at line {dup.first})" if dup.first else ""
        raise ManifestError(
            f"{where}: key {dup.key!r} appears twice in one mapping{first}; which value is meant would be a "
            "guess, so remove one"
        ) from None


#: the largest manifest file read (a 60 MB file of comments took 47 s to parse)
MAX_MANIFEST_BYTES = 16_000_000


def load_manifest(path: str | Path) -> FactManifest:
    """Read a YAML (``.yaml``/``.yml``) or JSON manifest file.

    Raises:
        ManifestError: unreadable or non-UTF-8 file, bad YAML/JSON, nesting too deep to read, a key given twice
            in one mapping (naming the key and line), or an invalid manifest.
    """
    from deepeval._files import read_user_text

    p = Path(path)
    try:
        text = read_user_text(p, MAX_MANIFEST_BYTES)  # a FIFO or /dev/zero is refused, never read forever
    except UnicodeDecodeError as err:
        raise ManifestError(
            f"{p}: the manifest is not UTF-8 text (byte 0x{err.object[err.start]:02x} at offset {err.start}); "
            "save it as UTF-8"
        ) from None
    except OSError as err:
        raise ManifestError(f"{p}: cannot read the manifest ({err.strerror})") from None
    return parse_manifest(_parse_text(text, p), str(p))


def check_introduced(
    manifest: FactManifest,
    n_turns: int,
    introduced: dict[str, int] | None = None,
    conversation: str = "the conversation",
) -> None:
    """Refuse a fact placed beyond the conversation it is graded or generated on: its turn in ``introduced``
    (fact id -> turn index, when given for it) or else its ``introduced_at`` must be a turn index below
    ``n_turns``. Such a fact would otherwise be silently moved (generation) or probed at a turn that does not exist
    (grading).

    Raises:
        ManifestError: naming the fact, the index and the conversation's length.
    """
    for f in manifest.stated():
        given = introduced is not None and f.id in introduced
        at = introduced[f.id] if introduced is not None and given else f.introduced_at
        if at is not None and (not isinstance(at, int) or isinstance(at, bool)):
            raise ManifestError(
                f"fact {f.id!r}: introduced turn {at!r} is not a turn index (an integer from 0)"
            )
        if at is not None and not 0 <= at < n_turns:
            field = "introduced turn" if given else "introduced_at"
            last = f"turns 0-{n_turns - 1}" if n_turns else "no turns"
            raise ManifestError(
                f"fact {f.id!r}: {field} {at} is beyond {conversation} ({n_turns} turns: {last}); fix the "
                "manifest or use a longer conversation"
            )


def _supersedes_links(facts: list[Fact], by_id: dict[str, Fact]) -> dict[str, str]:
    """``{superseded id: superseding id}``, after checking each ``supersedes`` link points at one other stated fact.

    Raises:
        ValueError: a link to itself, to a missing or never-stated fact, from a never-stated fact, or two facts
            superseding the same one.
    """
    superseded_by: dict[str, str] = {}
    for f in facts:
        if f.supersedes is None:
            continue
        if f.supersedes == f.id:
            raise ValueError(f"fact {f.id!r} supersedes itself")
        if f.supersedes not in by_id:
            raise ValueError(f"fact {f.id!r} supersedes {f.supersedes!r}, which is not in the manifest")
        if f.kind == "never_stated":
            raise ValueError(f"fact {f.id!r} is never_stated and cannot supersede another fact")
        if by_id[f.supersedes].kind == "never_stated":
            raise ValueError(f"fact {f.id!r} supersedes {f.supersedes!r}, which is never_stated")
        if f.supersedes in superseded_by:
            raise ValueError(
                f"facts {superseded_by[f.supersedes]!r} and {f.id!r} both supersede {f.supersedes!r}"
            )
        superseded_by[f.supersedes] = f.id
    return superseded_by


def _check_no_cycles(facts: list[Fact], by_id: dict[str, Fact]) -> None:
    """Raises ValueError when ``supersedes`` links form a cycle."""
    for f in facts:
        seen = {f.id}
        cur = f
        while cur.supersedes is not None:
            if cur.supersedes in seen:
                raise ValueError(f"supersedes links form a cycle through {f.id!r}")
            seen.add(cur.supersedes)
            cur = by_id[cur.supersedes]
