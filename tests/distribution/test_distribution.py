"""What the package says it is, and the metadata-only ``deepeval`` distribution (packaging/deepeval-compat) for
environments where another package requires deepeval (README, "Installing").

deepeval 4.3.1 answers ``deepeval.__version__ == "4.3.1"`` and ``importlib.metadata.version("deepeval") ==
"4.3.1"``; ours says ``4.3.1+oss.0.1.0`` (the API it follows, and deepeval-oss's version as a local label), and
``importlib.metadata.version("deepeval")`` answers that once the compat distribution is installed."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import zipfile
from pathlib import Path

from packaging.specifiers import SpecifierSet
from packaging.version import Version

import deepeval
from deepeval import _version

COMPAT = Path(__file__).resolve().parents[2] / "packaging" / "deepeval-compat"


def test_version_says_the_api_it_follows_and_the_distribution_that_provides_it() -> None:
    assert deepeval.__version__ == "4.3.1+oss.0.1.0"
    v = Version(deepeval.__version__)
    assert (v.public, v.local) == ("4.3.1", "oss.0.1.0")
    # a check written for deepeval compares as for 4.3.1
    assert v in SpecifierSet(">=4.0,<5") and v in SpecifierSet("==4.3.1") and v not in SpecifierSet(">=4.4")
    assert (_version.DISTRIBUTION, _version.OSS_VERSION, _version.API_VERSION) == (
        "deepeval-oss",
        "0.1.0",
        "4.3.1",
    )


def test_pyproject_reads_the_distribution_version_from_the_package() -> None:
    text = (COMPAT.parents[1] / "pyproject.toml").read_text()
    assert 'name = "deepeval-oss"' in text and 'dynamic = ["version"]' in text
    assert 'version = {attr = "deepeval._version.OSS_VERSION"}' in text


def _compat_backend():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("compat_backend", COMPAT / "compat_backend.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_compat_distribution_carries_this_version_and_requires_this_distribution() -> None:
    backend = _compat_backend()
    assert backend.VERSION == deepeval.__version__
    assert backend.REQUIRES == [f"deepeval-oss=={_version.OSS_VERSION}"]


def test_the_compat_wheel_builds_offline_and_satisfies_a_deepeval_requirement(tmp_path: Path) -> None:
    out = tmp_path / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-index", "-q", "-w", str(out), str(COMPAT)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    (wheel,) = out.glob("*.whl")
    assert wheel.name == "deepeval-4.3.1+oss.0.1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as zf:
        names = sorted(zf.namelist())
        metadata = zf.read("deepeval-4.3.1+oss.0.1.0.dist-info/METADATA").decode()
    assert names == [  # metadata only: no code that could shadow the deepeval package
        "deepeval-4.3.1+oss.0.1.0.dist-info/METADATA",
        "deepeval-4.3.1+oss.0.1.0.dist-info/RECORD",
        "deepeval-4.3.1+oss.0.1.0.dist-info/WHEEL",
    ]
    assert "Name: deepeval\nVersion: 4.3.1+oss.0.1.0\n" in metadata
    assert "Requires-Dist: deepeval-oss==0.1.0" in metadata
    site = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "--no-index",
            "-q",
            "--target",
            str(site),
            str(wheel),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    env = {"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    probe = subprocess.run(
        [sys.executable, "-c", "import importlib.metadata as m; print(m.version('deepeval'))"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert probe.stdout.strip() == "4.3.1+oss.0.1.0", probe.stderr
    # pip sees `deepeval>=4.0,<5` as met: nothing to install, nothing fetched (--no-index)
    dry = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--dry-run", "--no-index", "deepeval>=4.0,<5"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert dry.returncode == 0, dry.stdout + dry.stderr
    assert "Requirement already satisfied: deepeval<5,>=4.0" in dry.stdout
    assert "Would install" not in dry.stdout
