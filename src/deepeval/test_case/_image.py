"""``MLLMImage``: an image (or PDF) placed in test-case text, as deepeval 4.3.1 places it.

``f"What is in {MLLMImage(url='photo.png')}?"`` formats as ``What is in [DEEPEVAL:IMAGE:<id>]?``: the placeholder
keeps the image's place in the text, and the image stays findable by its id (:meth:`MLLMImage.parse_multimodal_string`
turns such text back into pieces of text and images). An :class:`~deepeval.test_case.LLMTestCase` whose text holds a
placeholder is ``multimodal``. Our metrics judge text only: they see the placeholder, not the image.

A local path (or ``file://`` URL) is read into ``dataBase64`` at once (its ``mimeType`` guessed from the name,
``image/jpeg`` when unknown); a remote URL must be ``http(s)://`` and is not fetched; ``dataBase64`` needs
``mimeType``.
"""

from __future__ import annotations

import base64
import mimetypes
import os
import re
import threading
import uuid
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote, urlparse

#: ``[DEEPEVAL:IMAGE:<id>]`` or ``[DEEPEVAL:PDF:<id>]`` in text; group 1 is the id
PLACEHOLDER = re.compile(r"\[DEEPEVAL:(?:IMAGE|PDF):(.*?)\]")

_REGISTRY: dict[str, MLLMImage] = {}
_LOCK = threading.Lock()


@dataclass
class MLLMImage:
    """An image or PDF for a test case (deepeval's fields: ``dataBase64``, ``mimeType``, ``url``, ``local``,
    ``filename``).

    Raises:
        ValueError: neither ``url`` nor ``dataBase64``; ``dataBase64`` without ``mimeType``; a ``url`` that is no
            existing file and not ``http://`` or ``https://`` (a ``file://`` URL of a missing file included).
        AssertionError: ``local`` given and contradicting the ``url`` (as deepeval).
    """

    dataBase64: str | None = None
    mimeType: str | None = None
    url: str | None = None
    local: bool | None = None
    filename: str | None = None
    _id: str = field(default_factory=lambda: uuid.uuid4().hex)

    def __post_init__(self) -> None:
        if not self.url and not self.dataBase64:
            raise ValueError(
                "MLLMImage needs a url (a local path or an http(s) URL), or dataBase64 with mimeType"
            )
        if self.dataBase64 is not None:
            if self.mimeType is None:
                raise ValueError("MLLMImage(dataBase64=...) needs mimeType (e.g. 'image/png')")
        else:
            self._from_url(str(self.url))
        with _LOCK:
            _REGISTRY[self._id] = self

    def _from_url(self, url: str) -> None:
        is_local = self.is_local_path(url)
        if self.local is not None:
            assert self.local == is_local, f"MLLMImage(local={self.local}) does not match {url!r}"
        self.local = is_local
        if is_local:
            path = self.process_url(url)
            self.filename = os.path.basename(path)
            self.mimeType = mimetypes.guess_type(path)[0] or "image/jpeg"
            self._load_base64(path)
            return
        if not url.startswith(("http://", "https://")):
            raise ValueError(f"MLLMImage url {url!r} is neither a local file nor an http:// or https:// URL")
        self.filename = os.path.basename(urlparse(url).path)
        self.mimeType = mimetypes.guess_type(self.filename)[0]
        self.dataBase64 = None

    def _load_base64(self, path: str) -> None:
        with open(path, "rb") as f:
            self.dataBase64 = base64.b64encode(f.read()).decode("ascii")

    def ensure_images_loaded(self) -> MLLMImage:
        """Read a local image's bytes if they are not loaded yet; returns the image."""
        if self.local and self.dataBase64 is None and self.url:
            self._load_base64(self.process_url(self.url))
        return self

    def _placeholder(self) -> str:
        kind = "PDF" if self.mimeType == "application/pdf" else "IMAGE"
        return f"[DEEPEVAL:{kind}:{self._id}]"

    def __str__(self) -> str:
        return self._placeholder()

    def __repr__(self) -> str:
        return self._placeholder()

    def __format__(self, format_spec: str) -> str:
        return self._placeholder()

    def as_data_uri(self) -> str | None:
        """``data:<mimeType>;base64,<data>``, or None when the bytes are not loaded (a remote image)."""
        if not self.dataBase64 or not self.mimeType:
            return None
        return f"data:{self.mimeType};base64,{self.dataBase64}"

    @staticmethod
    def process_url(url: str) -> str:
        """The file path of a local path or ``file://`` URL (percent-decoding undone); other URLs unchanged."""
        if os.path.exists(url):
            return url
        parsed = urlparse(url)
        if parsed.scheme == "file":
            return unquote(f"//{parsed.netloc}{parsed.path}" if parsed.netloc else parsed.path)
        return url

    @staticmethod
    def is_local_path(url: str) -> bool:
        """True when ``url`` names an existing file (a path, or a ``file://`` URL)."""
        if os.path.exists(url):
            return True
        return urlparse(url).scheme == "file" and os.path.exists(MLLMImage.process_url(url))

    @staticmethod
    def parse_multimodal_string(s: str) -> list[Any]:
        """``s`` split at its placeholders: text pieces and the :class:`MLLMImage` of each placeholder (one made
        from the id as its URL when this process never made that image)."""
        out: list[Any] = []
        last = 0
        for m in PLACEHOLDER.finditer(s):
            if m.start() > last:
                out.append(s[last : m.start()])
            with _LOCK:
                image = _REGISTRY.get(m.group(1))
            out.append(image if image is not None else MLLMImage(url=m.group(1), _id=m.group(1)))
            last = m.end()
        if last < len(s):
            out.append(s[last:])
        return out


def images_in(texts: list[str | None]) -> dict[str, MLLMImage]:
    """The images of this process whose placeholders appear in ``texts``, by id."""
    found: dict[str, MLLMImage] = {}
    for text in texts:
        for image_id in PLACEHOLDER.findall(text or ""):
            with _LOCK:
                image = _REGISTRY.get(image_id)
            if image is not None:
                found[image_id] = image
    return found


def has_placeholder(text: str | None) -> bool:
    return bool(text) and PLACEHOLDER.search(text or "") is not None


__all__ = ["PLACEHOLDER", "MLLMImage", "has_placeholder", "images_in"]
