"""Memory artifacts: what gets probed (a transcript, a summary, a wiki, or nothing), split into passages.

Lone surrogates in the text (e.g. from a JSON ``\\udcff`` escape) become U+FFFD here, as for metrics (see
:mod:`deepeval.test_case.encodable`), so judges can always encode what they are sent."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from deepeval.memory.wiki import Wiki
from deepeval.test_case import Turn
from deepeval.test_case.encodable import encodable

ArtifactKind = Literal["transcript", "summary", "wiki", "empty"]
_MAX_PASSAGE = 600


@dataclass(frozen=True)
class Passage:
    """A retrievable unit: ``text`` and where it comes from (``source``, e.g. ``"turn 12"`` or ``"page Team"``)."""

    text: str
    source: str
    position: int


@dataclass
class MemoryArtifact:
    """A memory to probe. ``text`` is the full rendering (given to an LLM judge); ``passages`` feed retrieval."""

    kind: ArtifactKind
    text: str
    passages: list[Passage] = field(default_factory=list)
    pages: dict[str, str] | None = None
    #: turns of the conversation a transcript holds (None for other kinds): what ``introduced_at`` is checked against
    turn_count: int | None = None

    @property
    def is_empty(self) -> bool:
        return not self.text.strip()

    @classmethod
    def empty(cls) -> MemoryArtifact:
        return cls("empty", "", [])

    @classmethod
    def from_turns(cls, turns: Sequence[Turn | dict[str, Any]], upto: int | None = None) -> MemoryArtifact:
        """Transcript of ``turns[:upto+1]`` (all when None); one passage per turn, long turns split in sentences."""
        items = [encodable(t if isinstance(t, Turn) else Turn.model_validate(t)) for t in turns]
        if upto is not None:
            items = items[: upto + 1]
        lines: list[str] = []
        passages: list[Passage] = []
        for i, t in enumerate(items):
            line = f"[{i}] {t.role}: {t.content}"
            lines.append(line)
            for chunk in _chunks(t.content):
                passages.append(Passage(chunk, f"turn {i}", len(passages)))
        return cls("transcript", "\n".join(lines), passages, turn_count=len(items))

    @classmethod
    def from_text(cls, text: str, kind: ArtifactKind = "summary") -> MemoryArtifact:
        """A free-text memory (summary, notes); one passage per sentence or line (a list item under a markdown
        heading carries the heading: "Ledger service: Database: PostgreSQL 16")."""
        text = encodable(text)
        passages = [Passage(c, f"sentence {i}", i) for i, c in enumerate(_sentences(text))]
        return cls(kind, text, passages)

    @classmethod
    def from_wiki(cls, wiki: Wiki | dict[str, str]) -> MemoryArtifact:
        """A wiki (object or name -> markdown); passages are page lines/sentences prefixed with the page name."""
        pages = encodable(wiki.pages if isinstance(wiki, Wiki) else dict(wiki))
        passages: list[Passage] = []
        parts: list[str] = []
        for name in sorted(pages):
            body = pages[name]
            parts.append(f"## Page: {name}\n{body}")
            for s in _sentences(body):
                text = s if s.lower().startswith(f"{name.lower()}: ") else f"{name}: {s}"
                passages.append(Passage(text, f"page {name}", len(passages)))
        return cls("wiki", "\n\n".join(parts), passages, pages)

    @classmethod
    def from_wiki_dir(cls, directory: str | Path) -> MemoryArtifact:
        return cls.from_wiki(Wiki.load(directory))

    @classmethod
    def from_spec(cls, spec: Any) -> MemoryArtifact:
        """From a metadata value: a string (summary), a list of turns (transcript), or a dict
        ``{"kind": "transcript"|"summary"|"wiki"|"empty", "turns"|"text"|"pages"|"path": ...}``.

        Raises:
            ValueError: an unknown shape or kind.
        """
        if spec is None:
            return cls.empty()
        if isinstance(spec, MemoryArtifact):
            return spec
        if isinstance(spec, str):
            return cls.from_text(spec)
        if isinstance(spec, list):
            return cls.from_turns(spec)
        if isinstance(spec, dict):
            kind = spec.get("kind", "summary")
            if kind == "empty":
                return cls.empty()
            if kind == "transcript" and "turns" in spec:
                return cls.from_turns(spec["turns"])
            if kind == "wiki" and "pages" in spec:
                return cls.from_wiki(spec["pages"])
            if kind == "wiki" and "path" in spec:
                return cls.from_wiki_dir(spec["path"])
            if "text" in spec and kind in ("summary", "transcript"):
                return cls.from_text(spec["text"], kind)
            raise ValueError(
                f"memory artifact of kind {kind!r} needs 'turns' (transcript), 'text' (summary/transcript), "
                "'pages' or 'path' (wiki)"
            )
        raise ValueError(f"cannot read a memory artifact from {type(spec).__name__}")


def _strip_md(line: str) -> str:
    line = re.sub(r"^\s*(#{1,6}\s+|[-*+]\s+|\d+[.)]\s+|>\s*)", "", line)
    return line.replace("**", "").replace("__", "").replace("`", "").strip()


def _sentences(text: str) -> list[str]:
    """Sentences and list items of ``text`` (markdown stripped), split by the package's one sentence splitter
    (:func:`deepeval.models.embedded.text.split_sentences`: "Dr.", "Mrs.", "e.g." do not end a sentence)."""
    from deepeval.models.embedded.text import split_sentences

    out: list[str] = []
    heading = ""
    heading_at: int | None = None  # where the heading's own passage is, until an item carries it
    for raw in text.splitlines():
        line = _strip_md(raw)
        if not line or set(line) <= set("-=|: "):
            continue
        if _HEADING.match(raw):
            heading, heading_at = line, len(out)
        elif heading and _ITEM.match(raw):
            line = f"{heading}: {line}"  # "## Ledger service" / "- Database: PostgreSQL 16"
            if heading_at is not None and heading_at < len(out) and out[heading_at] == heading:
                del out[heading_at]  # the items carry the heading: its own passage would answer nothing
            heading_at = None
        out.extend(s.strip() for s in split_sentences(line) if len(s.strip()) > 1)
    return out


#: a markdown heading; the list items under it speak about what it names, so each passage of one carries
#: it ("Ledger service: Database: PostgreSQL 16"), as a wiki page's passages carry the page's name
_HEADING = re.compile(r"^\s*#{1,6}\s+\S")
_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+\S")


def _chunks(content: str) -> list[str]:
    if len(content) <= _MAX_PASSAGE:
        return [content]
    out: list[str] = []
    cur = ""
    for s in _sentences(content):
        if cur and len(cur) + len(s) > _MAX_PASSAGE:
            out.append(cur)
            cur = ""
        cur = f"{cur} {s}".strip()
    if cur:
        out.append(cur)
    return out
