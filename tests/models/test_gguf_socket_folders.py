"""The socket folders of the in-process llama.cpp server, without a model: a folder left by a killed process
(SIGKILL cannot run our clean-up) is removed at the next start; a live process's folder, a folder holding anything
else, a link, or a socket somebody answers on is never touched."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from deepeval.models.llms import gguf_server
from deepeval.models.llms.gguf_server import remove_stale_folders


@pytest.fixture
def parent() -> Iterator[Path]:
    # a short parent: a unix-socket path must stay under 108 bytes (pytest's tmp_path can be longer)
    with tempfile.TemporaryDirectory(prefix="dgs-", dir="/tmp") as folder:
        yield Path(folder)


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def _folder(parent: Path, name: str, *, sock: str | None = None) -> Path:
    """A socket folder as the server makes it (0700); ``sock``: "dead" leaves a socket nobody listens on (as
    SIGKILL does), "live" returns it still listening (kept open on the returned path's attribute)."""
    folder = parent / name
    folder.mkdir(mode=0o700)
    if sock is not None:
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind(str(folder / "llama.sock"))
        server.listen(1)
        if sock == "dead":
            server.close()
        else:
            _LISTENING.append(server)
    return folder


_LISTENING: list[socket.socket] = []


@pytest.fixture(autouse=True)
def _close_listening() -> Iterator[None]:
    yield
    while _LISTENING:
        _LISTENING.pop().close()


def test_a_killed_processs_folder_goes_and_a_live_ones_stays(parent: Path) -> None:
    dead = _dead_pid()
    stale = _folder(parent, f"deepeval-gguf-{dead}-abc_12xy", sock="dead")
    stale_empty = _folder(
        parent, f"deepeval-gguf-{dead}-q0w9e8r7"
    )  # killed before llama.cpp bound its socket
    ours = _folder(parent, f"deepeval-gguf-{os.getpid()}-live1234", sock="dead")  # this process: alive
    ours_empty = _folder(parent, f"deepeval-gguf-{os.getpid()}-live5678")  # alive, still loading its model
    assert remove_stale_folders([parent]) == sorted([stale, stale_empty])
    assert not stale.exists() and not stale_empty.exists()
    assert ours.is_dir() and (ours / "llama.sock").exists() and ours_empty.is_dir()
    assert remove_stale_folders([parent]) == []  # nothing left to remove


def test_only_our_own_socket_folders_are_touched(parent: Path) -> None:
    dead = _dead_pid()
    answering = _folder(parent, f"deepeval-gguf-{dead}-answer01", sock="live")  # somebody serves on it
    with_data = _folder(parent, f"deepeval-gguf-{dead}-data0001")
    (with_data / "notes.txt").write_text("not ours to delete")
    target = _folder(parent, "elsewhere")
    (parent / f"deepeval-gguf-{dead}-link0001").symlink_to(target, target_is_directory=True)
    (parent / f"deepeval-gguf-{dead}-file0001").write_text("a file, not a folder")
    other_name = _folder(parent, f"deepeval-gguf-{dead}-Upper-Case")
    assert remove_stale_folders([parent]) == []
    assert (answering / "llama.sock").exists() and (
        with_data / "notes.txt"
    ).read_text() == "not ours to delete"
    assert (parent / f"deepeval-gguf-{dead}-link0001").is_symlink() and target.is_dir()
    assert (parent / f"deepeval-gguf-{dead}-file0001").is_file() and other_name.is_dir()


def test_a_folder_named_before_the_pid_was_recorded_goes_only_with_a_dead_socket(parent: Path) -> None:
    old_dead = _folder(parent, "deepeval-gguf-0lguyz5c", sock="dead")
    old_empty = _folder(parent, "deepeval-gguf-7kp3s0dt")  # may be a process still loading: kept
    old_live = _folder(parent, "deepeval-gguf-2zc33zxb", sock="live")
    assert remove_stale_folders([parent]) == [old_dead]
    assert old_empty.is_dir() and (old_live / "llama.sock").exists()


def test_a_new_folder_carries_this_pid_and_clears_stale_ones_first(
    parent: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(parent))
    stale = _folder(parent, f"deepeval-gguf-{_dead_pid()}-zz99yy88", sock="dead")
    made = gguf_server._private_folder()
    try:
        assert made.parent == parent and made.name.startswith(f"deepeval-gguf-{os.getpid()}-")
        assert (made.stat().st_mode & 0o777) == 0o700
        assert not stale.exists()
        assert made in [parent / p for p in os.listdir(parent)]
    finally:
        made.rmdir()
