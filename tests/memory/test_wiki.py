from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from deepeval.memory.wiki import Wiki, WikiError, tool_definitions, validate_page_name


@pytest.mark.parametrize(
    "name", ["../etc/passwd", "a/b", "a\\b", "..", "", " ", ".hidden", "x" * 65, "a\x00b", 3]
)
def test_bad_page_names_refused(name: object) -> None:
    with pytest.raises(WikiError, match="page name"):
        validate_page_name(name)


def test_operations_limits_and_log() -> None:
    w = Wiki(max_pages=2, max_page_chars=50, max_total_chars=80)
    w.write("Team.md", "Alice owns auth.")
    w.append("Team", "Bob owns billing.")
    assert w.read("Team") == "Alice owns auth.\nBob owns billing."
    with pytest.raises(WikiError, match="limit is 50"):
        w.append("Team", "x" * 40)
    assert w.read("Team") == "Alice owns auth.\nBob owns billing."  # nothing lost
    w.write("Infra", "PostgreSQL 16.")
    with pytest.raises(WikiError, match="already has 2 pages"):
        w.write("Third", "x")
    with pytest.raises(WikiError, match="does not exist"):
        w.read("Nope")
    with pytest.raises(WikiError, match="limit is 80"):
        w.write("Infra", "y" * 48)
    assert w.list_pages() == ["Infra", "Team"]
    ops = [(o.op, o.page, o.ok) for o in w.log]
    assert ops[:3] == [("write", "Team", True), ("append", "Team", True), ("read", "Team", True)]
    assert ("append", "Team", False) in ops and ("read", "Nope", False) in ops
    assert len(w.log) == 10


def test_tool_calls() -> None:
    w = Wiki()
    names = [t["function"]["name"] for t in tool_definitions()]
    assert names == ["wiki_list_pages", "wiki_read_page", "wiki_write_page", "wiki_append_to_page"]
    assert w.call_tool("wiki_list_pages", "{}") == "(no pages yet)"
    assert w.call_tool("wiki_write_page", json.dumps({"name": "Notes", "content": "hi"})) == "ok"
    assert w.call_tool("wiki_read_page", {"name": "Notes"}) == "hi"
    assert w.call_tool("wiki_write_page", '{"name": "../x", "content": "a"}').startswith("error: page name")
    assert w.call_tool("wiki_read_page", "not json").startswith("error: arguments")
    assert w.call_tool("rm_rf", "{}") == "error: unknown tool 'rm_rf'"
    assert w.pages == {"Notes": "hi"}


def test_save_and_load(tmp_path: Path) -> None:
    w = Wiki.from_pages({"A": "one", "B b": "two"})
    w.save(tmp_path / "wiki")
    assert sorted(p.name for p in (tmp_path / "wiki").iterdir()) == ["A.md", "B b.md"]
    assert Wiki.load(tmp_path / "wiki").pages == {"A": "one", "B b": "two"}
    os.symlink(tmp_path / "wiki" / "A.md", tmp_path / "wiki" / "C.md")
    with pytest.raises(WikiError, match="symbolic link"):
        Wiki.load(tmp_path / "wiki")
    with pytest.raises(WikiError, match="not a directory"):
        Wiki.load(tmp_path / "missing")


@pytest.mark.parametrize(
    ("given", "page"),
    [
        ("Team", "Team"),
        (" Team.md ", "Team"),
        ("Team.MD", "Team"),
        ("notes.md.md", "notes.md.md"),
        ("notes.md.md.md", "notes.md.md.md"),
        ("v1.2", "v1.2"),
    ],
)
def test_page_name_is_canonical_and_idempotent(given: str, page: str) -> None:
    assert validate_page_name(given) == page
    assert validate_page_name(page) == page


@pytest.mark.parametrize("name", ["notes.md.md", "Team.md", "a.md.md.md", "plain"])
def test_listed_pages_read_append_and_round_trip(tmp_path: Path, name: str) -> None:
    w = Wiki()
    w.write(name, "one")
    [listed] = w.list_pages()
    assert w.read(listed) == "one"
    w.append(listed, "two")
    assert w.pages == {listed: "one\ntwo"}
    w.save(tmp_path)
    assert Wiki.load(tmp_path).pages == {listed: "one\ntwo"}


def test_distinct_pages_survive_save_and_load(tmp_path: Path) -> None:
    w = Wiki()
    for name, text in [("x.md.md", "A"), ("x", "B"), ("x.md.md.md", "C"), ("y.md", "D")]:
        w.write(name, text)
    assert w.list_pages() == ["x", "x.md.md", "x.md.md.md", "y"]
    w.save(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.md", "x.md.md.md", "x.md.md.md.md", "y.md"]
    assert Wiki.load(tmp_path).pages == w.pages


def test_two_names_for_one_page_are_refused(tmp_path: Path) -> None:
    with pytest.raises(WikiError, match=re.escape("'x.md' and 'x' are both page 'x'")):
        Wiki.from_pages({"x.md": "A", "x": "B"})
    (tmp_path / "x.md").write_text("A")
    (tmp_path / "x.md.md").write_text("B")  # a hand-made file: 'x.md' minus its extension is page 'x' too
    with pytest.raises(WikiError, match=r"'x\.md' and 'x\.md\.md' in .* are both page 'x'"):
        Wiki.load(tmp_path)
    assert sorted(p.read_text() for p in tmp_path.iterdir()) == ["A", "B"]  # nothing touched


@pytest.mark.regression
def test_save_never_writes_through_a_link_planted_in_the_folder(tmp_path: Path) -> None:
    from deepeval._safe_path import UnsafePathError

    outside = tmp_path / "outside.txt"
    outside.write_text("keep me")
    folder = tmp_path / "wiki"
    folder.mkdir()
    (folder / "page.md").symlink_to(outside)
    w = Wiki.from_pages({"a first page": "A", "page": "model text"})
    with pytest.raises(UnsafePathError, match=r"page\.md is a symbolic link"):
        w.save(folder)
    assert outside.read_text() == "keep me"
    assert (folder / "page.md").is_symlink()
    assert sorted(p.name for p in folder.iterdir()) == ["page.md"]  # checked before anything was written
