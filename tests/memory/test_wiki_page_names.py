"""The memory wiki API's page names: no traversal, every listed page readable, save/load keeps every page."""

from __future__ import annotations

from typing import Any

import pytest

from _support.markers import REGRESSION
from deepeval.memory.wiki import Wiki, WikiError

pytestmark = REGRESSION


@pytest.mark.parametrize("name", ["../etc/passwd", "..", "a/../b", "/abs", "a\\b", "a\x00b"])
def test_control_wiki_refuses_traversal(name: str) -> None:
    with pytest.raises(WikiError):
        Wiki().write(name, "x")


def test_every_listed_wiki_page_can_be_read() -> None:
    w = Wiki()
    w.write("notes.md.md", "The ledger runs on PostgreSQL 16.")
    for name in w.list_pages():
        assert w.read(name) == "The ledger runs on PostgreSQL 16."


def test_wiki_save_load_keeps_every_page(tmp_path: Any) -> None:
    w = Wiki()
    w.write("x.md.md", "A")
    w.write("x", "B")
    w.save(tmp_path)
    assert sorted(Wiki.load(tmp_path).pages.values()) == ["A", "B"]
