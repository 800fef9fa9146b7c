"""PEP 517 backend of the metadata-only ``deepeval`` distribution (no build dependency, so it builds offline).

The wheel holds only ``deepeval-<version>.dist-info`` (METADATA, WHEEL, RECORD): installing it records that
``deepeval`` is present, at :data:`VERSION`, and requires deepeval-oss, which provides the ``deepeval`` package.
"""

from __future__ import annotations

import base64
import hashlib
import os
import zipfile

NAME = "deepeval"
#: deepeval.__version__ of deepeval-oss 0.1.0 (tests/distribution/test_distribution.py keeps them equal)
VERSION = "4.3.1+oss.0.1.0"
REQUIRES = ["deepeval-oss==0.1.0"]
TAG = "py3-none-any"

METADATA = f"""Metadata-Version: 2.1
Name: {NAME}
Version: {VERSION}
Summary: Metadata only: deepeval as provided by deepeval-oss (an independent implementation of the deepeval API)
Requires-Python: >=3.10
""" + "".join(f"Requires-Dist: {r}\n" for r in REQUIRES) + """
This distribution has no code. It tells installers and importlib.metadata that `deepeval` is present, provided by
deepeval-oss, so that packages requiring deepeval can be installed beside deepeval-oss without pulling deepeval.
"""

WHEEL = f"""Wheel-Version: 1.0
Generator: deepeval-compat
Root-Is-Purelib: true
Tag: {TAG}
"""


def get_requires_for_build_wheel(config_settings: object = None) -> list[str]:
    return []


def get_requires_for_build_sdist(config_settings: object = None) -> list[str]:
    return []


def _record_line(path: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def build_wheel(wheel_directory: str, config_settings: object = None, metadata_directory: object = None) -> str:
    dist_info = f"{NAME}-{VERSION}.dist-info"
    files = {f"{dist_info}/METADATA": METADATA.encode(), f"{dist_info}/WHEEL": WHEEL.encode()}
    record_path = f"{dist_info}/RECORD"
    record = "\n".join([*(_record_line(p, d) for p, d in files.items()), f"{record_path},,"]) + "\n"
    files[record_path] = record.encode()
    name = f"{NAME}-{VERSION}-{TAG}.whl"
    with zipfile.ZipFile(os.path.join(wheel_directory, name), "w", zipfile.ZIP_DEFLATED) as whl:
        for path, data in files.items():
            whl.writestr(path, data)
    return name


def build_sdist(sdist_directory: str, config_settings: object = None) -> str:
    import io
    import tarfile

    base = f"{NAME}-{VERSION}"
    name = f"{base}.tar.gz"
    here = os.path.dirname(os.path.abspath(__file__))
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz") as tar:
        for file in ("pyproject.toml", "compat_backend.py"):
            tar.add(os.path.join(here, file), arcname=f"{base}/{file}")
        info = tarfile.TarInfo(f"{base}/PKG-INFO")
        data = METADATA.encode()
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    return name
