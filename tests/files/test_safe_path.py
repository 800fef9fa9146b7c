"""The one rule for where we write (deepeval._safe_path): no symbolic link where a file is written, names joined
under a folder stay inside it, and an output file that can never be written is reported before the work."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from deepeval._files import write_text_atomic
from deepeval._safe_path import UnsafePathError, check_writable_file, inside, refuse_link


def test_unsafe_path_error_is_an_os_error_and_ours() -> None:
    from deepeval.errors import DeepEvalError

    err = UnsafePathError("nope", "/x")
    assert isinstance(err, OSError) and isinstance(err, DeepEvalError)
    assert (str(err), err.path) == ("nope", "/x")


@pytest.mark.parametrize("dangling", [False, True])
def test_atomic_writer_never_writes_through_or_replaces_a_link(tmp_path: Path, dangling: bool) -> None:
    target = tmp_path / "target.txt"
    if not dangling:
        target.write_text("keep me")
    link = tmp_path / "out.json"
    link.symlink_to(target)
    with pytest.raises(UnsafePathError, match=r"out\.json is a symbolic link \(to .*target\.txt\)"):
        write_text_atomic(link, "{}")
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert (target.read_text() == "keep me") if not dangling else not target.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["out.json"] + ([] if dangling else ["target.txt"])
    )


def test_a_linked_folder_above_the_file_is_fine(tmp_path: Path) -> None:
    real = tmp_path / "disk"
    real.mkdir()
    (tmp_path / "results").symlink_to(real)
    write_text_atomic(tmp_path / "results" / "run.json", "{}")
    assert (real / "run.json").read_text() == "{}"
    assert refuse_link(tmp_path / "results" / "run.json") == tmp_path / "results" / "run.json"


@pytest.mark.parametrize(
    "name",
    ["../x", "a/../../x", "..", "/etc/x", "\\\\server\\share", "", "  ", "a\\..\\..\\x"],
)
def test_names_that_leave_their_folder_are_refused(tmp_path: Path, name: str) -> None:
    with pytest.raises(UnsafePathError, match="the option"):
        inside(tmp_path, name, "the option")


def test_names_inside_the_folder_are_joined(tmp_path: Path) -> None:
    assert inside(tmp_path, "a/b", "x") == tmp_path / "a" / "b"
    assert inside(tmp_path, "run..1", "x") == tmp_path / "run..1"  # '..' inside a name is not a component
    (tmp_path / "inner").mkdir()
    (tmp_path / "latest").symlink_to(tmp_path / "inner")  # a link that stays inside is fine
    assert inside(tmp_path, "latest", "x") == tmp_path / "latest"


def test_check_writable_file_reports_before_the_work(tmp_path: Path) -> None:
    (tmp_path / "dir").mkdir()
    with pytest.raises(IsADirectoryError, match=r"--json .* is a directory"):
        check_writable_file(tmp_path / "dir", "--json")
    (tmp_path / "link").symlink_to(tmp_path / "nowhere")
    with pytest.raises(UnsafePathError, match=r"--html .* is a symbolic link"):
        check_writable_file(tmp_path / "link", "--html")
    (tmp_path / "file").write_text("x")
    with pytest.raises(OSError, match=r"--json .*file/out\.json cannot be written"):
        check_writable_file(tmp_path / "file" / "out.json", "--json")
    check_writable_file(tmp_path / "new" / "out.json", "--json")
    assert (tmp_path / "new").is_dir() and list((tmp_path / "new").iterdir()) == []
