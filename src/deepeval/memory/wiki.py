"""A controlled markdown wiki that a model under test maintains as its long-term memory.

Operations: ``list_pages``, ``read``, ``write`` (create or replace), ``append``. Every call, successful or not, is
logged in :attr:`Wiki.log`. Page names are 1-64 characters of letters, digits, space, ``_``, ``-`` and ``.``,
starting with a letter or digit, with no ``..`` and no path separators, so a page can never escape its directory
when saved; one ``.md`` extension is dropped (see :func:`validate_page_name`, the one name mapping every operation
uses). Limits: ``max_pages`` pages, ``max_page_chars`` characters per page, ``max_total_chars`` overall.
The same operations are exposed as OpenAI tool definitions (:func:`tool_definitions`) and dispatched by
:meth:`Wiki.call_tool`, which returns errors as text to the model instead of raising.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from deepeval._files import read_user_text
from deepeval.errors import DeepEvalError

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _.-]{0,63}$")


class WikiError(DeepEvalError, ValueError):
    """A wiki operation was refused (bad page name, missing page, size limit)."""


@dataclass
class WikiOp:
    """One logged operation: ``op`` in {list, read, write, append}; ``chars`` written or read; ``error`` or None."""

    op: str
    page: str | None
    chars: int
    ok: bool
    error: str | None
    at: float


def validate_page_name(name: Any) -> str:
    """The canonical page name for ``name``, or :class:`WikiError` saying why it is refused.

    This one function maps every name the wiki is given (``write``, ``append``, ``read``, ``from_pages``,
    ``load``) to the page it means. Surrounding spaces are dropped, and so is one ``.md`` file extension when what
    is left does not itself end in ``.md``: ``"Team.md"`` is page ``"Team"``, while ``"notes.md.md"`` stays
    ``"notes.md.md"`` (dropping one ``.md`` would name page ``"notes"``). The mapping is idempotent, so every name
    that :meth:`Wiki.list_pages` returns reads back the same page, and a page ``P`` is saved as ``P.md``, which
    :meth:`Wiki.load` turns back into ``P``.
    """
    if not isinstance(name, str):
        raise WikiError(f"page name must be a string, got {type(name).__name__}")
    n = name.strip()
    if n.lower().endswith(".md") and not n[:-3].lower().endswith(".md"):
        n = n[:-3]
    if ".." in n or "/" in n or "\\" in n or "\x00" in n:
        raise WikiError(f"page name {name!r} is refused: no '..', '/' or '\\' allowed")
    if not _NAME.match(n):
        raise WikiError(
            f"page name {name!r} is refused: use 1-64 letters, digits, spaces, '_', '-' or '.', "
            "starting with a letter or digit"
        )
    return n


class Wiki:
    """In-memory markdown wiki with validated names, size limits and an operation log."""

    def __init__(
        self, max_pages: int = 200, max_page_chars: int = 20_000, max_total_chars: int = 400_000
    ) -> None:
        self.max_pages = max_pages
        self.max_page_chars = max_page_chars
        self.max_total_chars = max_total_chars
        self._pages: dict[str, str] = {}
        self.log: list[WikiOp] = []

    # -- operations ---------------------------------------------------------------------------------------------
    def _record(self, op: str, page: str | None, chars: int, error: str | None = None) -> None:
        self.log.append(WikiOp(op, page, chars, error is None, error, time.time()))

    def list_pages(self) -> list[str]:
        """Page names, sorted."""
        self._record("list", None, 0)
        return sorted(self._pages)

    def read(self, name: str) -> str:
        """Content of page ``name``. Raises :class:`WikiError` for a bad name or a missing page."""
        try:
            n = validate_page_name(name)
            if n not in self._pages:
                raise WikiError(f"page {n!r} does not exist")
        except WikiError as err:
            self._record("read", str(name)[:80], 0, str(err))
            raise
        self._record("read", n, len(self._pages[n]))
        return self._pages[n]

    def _check_size(self, n: str, new_content: str) -> None:
        if not isinstance(new_content, str):
            raise WikiError(f"page content must be a string, got {type(new_content).__name__}")
        if len(new_content) > self.max_page_chars:
            raise WikiError(
                f"page {n!r} would hold {len(new_content)} characters; the limit is {self.max_page_chars}"
            )
        if n not in self._pages and len(self._pages) >= self.max_pages:
            raise WikiError(f"the wiki already has {self.max_pages} pages; the limit is {self.max_pages}")
        total = sum(len(v) for k, v in self._pages.items() if k != n) + len(new_content)
        if total > self.max_total_chars:
            raise WikiError(f"the wiki would hold {total} characters; the limit is {self.max_total_chars}")

    def write(self, name: str, content: str) -> None:
        """Create or replace page ``name``. Raises :class:`WikiError` (nothing changes) on a bad name or limit."""
        try:
            n = validate_page_name(name)
            self._check_size(n, content)
        except WikiError as err:
            self._record("write", str(name)[:80], 0, str(err))
            raise
        self._pages[n] = content
        self._record("write", n, len(content))

    def append(self, name: str, content: str) -> None:
        """Append ``content`` to page ``name`` (created if missing), on a new line."""
        try:
            n = validate_page_name(name)
            if not isinstance(content, str):
                raise WikiError(f"page content must be a string, got {type(content).__name__}")
            old = self._pages.get(n, "")
            new = f"{old}\n{content}" if old and not old.endswith("\n") else old + content
            self._check_size(n, new)
        except WikiError as err:
            self._record("append", str(name)[:80], 0, str(err))
            raise
        self._pages[n] = new
        self._record("append", n, len(content))

    # -- views --------------------------------------------------------------------------------------------------
    @property
    def pages(self) -> dict[str, str]:
        """A copy of every page (name -> markdown); not logged."""
        return dict(self._pages)

    def log_dicts(self) -> list[dict[str, Any]]:
        return [asdict(op) for op in self.log]

    def save(self, directory: str | Path) -> None:
        """Write each page ``P`` as ``P.md`` under ``directory`` (created if needed); :meth:`load` reads it back.
        Each file is written whole or not at all (:func:`deepeval._files.write_text_atomic`).

        Raises:
            WikiError: two pages would be the same file (names differing only in case on a case-insensitive file
                system); the page that would be overwritten is named, the second file is not written.
            UnsafePathError: a page's file is already a symbolic link (planted in the folder: it is never written
                through or replaced, see :mod:`deepeval._safe_path`). Every path is checked before any page is
                written, so nothing is written then.
        """
        from deepeval._files import write_text_atomic
        from deepeval._safe_path import inside, refuse_link

        d = Path(directory)
        d.mkdir(parents=True, exist_ok=True)
        targets = {name: inside(d, refuse_link(d / f"{name}.md", "wiki page file").name, "wiki page file")
                   for name in self._pages}  # fmt: skip
        written: dict[Path, str] = {}
        for name, path in targets.items():
            if path.exists():
                for other, other_name in written.items():
                    if path.samefile(other):
                        raise WikiError(
                            f"pages {other_name!r} and {name!r} would be the same file {path.name!r} in {d} "
                            "(case-insensitive file system); rename one of them before saving"
                        )
            write_text_atomic(path, self._pages[name])
            written[path] = name

    @classmethod
    def from_pages(cls, pages: dict[str, str], **limits: int) -> Wiki:
        """A wiki holding ``pages`` (validated like writes; the load is not logged).

        Raises:
            WikiError: a bad name or size limit, or two names that are the same page (``"x.md"`` and ``"x"``).
        """
        w = cls(**limits)
        given: dict[str, str] = {}
        for name, text in pages.items():
            page = validate_page_name(name)
            if page in given:
                raise WikiError(
                    f"page names {given[page]!r} and {name!r} are both page {page!r}; keep only one"
                )
            given[page] = name
            w.write(page, text)
        w.log.clear()
        return w

    @classmethod
    def load(cls, directory: str | Path, **limits: int) -> Wiki:
        """Read every ``*.md`` file directly under ``directory`` (no recursion, symlinks refused): file ``F.md``
        is page ``validate_page_name(F)``.

        Raises:
            WikiError: not a directory, a symlink, a bad page name, two files that are the same page (``x.md``
                and ``x.md.md``), or a size limit exceeded.
        """
        d = Path(directory)
        if not d.is_dir():
            raise WikiError(f"{d} is not a directory")
        pages: dict[str, str] = {}
        files: dict[str, str] = {}
        max_bytes = 4 * cls(**limits).max_page_chars  # UTF-8: at most 4 bytes a character
        for p in sorted(d.glob("*.md")):
            if p.is_symlink():
                raise WikiError(f"{p} is a symbolic link; wiki pages must be plain files")
            page = validate_page_name(p.name[:-3])
            if page in files:
                raise WikiError(
                    f"files {files[page]!r} and {p.name!r} in {d} are both page {page!r}; remove or rename one"
                )
            files[page] = p.name
            try:  # a FIFO named *.md would block the read forever; a page over the size limit is refused
                pages[page] = read_user_text(p, max_bytes, errors="replace")
            except OSError as err:
                raise WikiError(f"{p}: cannot read this wiki page ({err.strerror or err})") from None
        return cls.from_pages(pages, **limits)

    # -- tools --------------------------------------------------------------------------------------------------
    def call_tool(self, name: str, arguments: str | dict[str, Any]) -> str:
        """Run one tool call (OpenAI function name + JSON arguments); return the text result for the model.
        Errors (unknown tool, bad JSON, refused operation) come back as ``"error: ..."`` and are logged."""
        try:
            args = json.loads(arguments) if isinstance(arguments, str) else dict(arguments)
            if not isinstance(args, dict):
                raise WikiError("tool arguments must be a JSON object")
        except (json.JSONDecodeError, TypeError, ValueError) as err:
            self._record(name[:40], None, 0, f"bad arguments: {err}")
            return f"error: arguments are not a JSON object ({err})"
        try:
            if name == "wiki_list_pages":
                pages = self.list_pages()
                return "\n".join(pages) if pages else "(no pages yet)"
            if name == "wiki_read_page":
                return self.read(args.get("name"))  # type: ignore[arg-type]
            if name == "wiki_write_page":
                self.write(args.get("name"), args.get("content"))  # type: ignore[arg-type]
                return "ok"
            if name == "wiki_append_to_page":
                self.append(args.get("name"), args.get("content"))  # type: ignore[arg-type]
                return "ok"
        except WikiError as err:
            return f"error: {err}"
        self._record(name[:40], None, 0, "unknown tool")
        return f"error: unknown tool {name!r}"


def tool_definitions() -> list[dict[str, Any]]:
    """The wiki operations as OpenAI chat-completions ``tools``."""

    def fn(name: str, desc: str, props: dict[str, Any]) -> dict[str, Any]:
        return {
            "type": "function",
            "function": {
                "name": name,
                "description": desc,
                "parameters": {
                    "type": "object",
                    "properties": props,
                    "required": list(props),
                    "additionalProperties": False,
                },
            },
        }

    page = {
        "type": "string",
        "description": "Page name: letters, digits, spaces, '_', '-', '.'; max 64 chars.",
    }
    content = {"type": "string", "description": "Markdown text."}
    return [
        fn("wiki_list_pages", "List the names of all wiki pages.", {}),
        fn("wiki_read_page", "Read one wiki page.", {"name": page}),
        fn(
            "wiki_write_page",
            "Create a page or replace its whole content.",
            {"name": page, "content": content},
        ),
        fn(
            "wiki_append_to_page",
            "Append text to a page (creating it if needed).",
            {"name": page, "content": content},
        ),
    ]
