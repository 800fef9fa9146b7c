"""``Audio``: a piece of audio attached to a conversation turn (voice applications), as deepeval accepts it.

Built from a local file or http(s) URL (``Audio(url=...)``) or from bytes (``Audio.from_bytes(data, mimeType)``).
A local file is read into ``dataBase64`` at construction; a remote URL is only recorded (ours never downloads it).
No metric of ours listens to audio: it is carried and exported with the turn.
"""

from __future__ import annotations

import base64
import mimetypes
import os
from dataclasses import dataclass, field
from urllib.parse import unquote, urlparse


def _local_path(url: str) -> str | None:
    """The file path ``url`` names when it is an existing local file (plain path or ``file://``), else None."""
    if os.path.exists(url):
        return url
    parsed = urlparse(url)
    if parsed.scheme == "file":
        path = unquote(f"//{parsed.netloc}{parsed.path}" if parsed.netloc else parsed.path)
        return path if os.path.exists(path) else None
    return None


@dataclass
class Audio:
    """Audio from ``url`` (local path or http(s)) or ``dataBase64`` + ``mimeType``; ``sampleRate`` (Hz),
    ``encoding``, ``duration`` and ``start_time`` (seconds, >= 0) describe it.

    Raises:
        ValueError: neither source given, base64 without ``mimeType``, a non-http(s) remote URL, or a negative
            ``duration`` / ``start_time``.
    """

    dataBase64: str | None = None
    mimeType: str | None = None
    url: str | None = None
    sampleRate: int | None = None
    encoding: str | None = None
    duration: float | None = None
    start_time: float | None = None
    _local: bool | None = field(default=None, init=False, repr=False)
    _filename: str | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        for name in ("start_time", "duration"):
            value = getattr(self, name)
            if value is not None and value < 0:
                raise ValueError(f"Audio.{name} must be >= 0, got {value!r}")
        if self.dataBase64 is not None:
            if self.mimeType is None:
                raise ValueError("Audio from dataBase64 needs its mimeType (e.g. 'audio/wav')")
            return
        if not self.url:
            raise ValueError(
                "Audio needs a source: url= (file path or http(s) URL) or dataBase64= with mimeType="
            )
        path = _local_path(self.url)
        self._local = path is not None
        if path is not None:
            self._filename = os.path.basename(path)
            self.mimeType = self.mimeType or mimetypes.guess_type(path)[0] or "audio/wav"
            with open(path, "rb") as f:
                self.dataBase64 = base64.b64encode(f.read()).decode("ascii")
            return
        if not self.url.startswith(("http://", "https://")):
            raise ValueError(f"Audio url {self.url!r} is neither an existing file nor an http(s) URL")
        self._filename = os.path.basename(urlparse(self.url).path)
        self.mimeType = self.mimeType or mimetypes.guess_type(self._filename)[0] or "audio/wav"

    @property
    def local(self) -> bool | None:
        """True for a local file, False for a remote URL, None when built from bytes."""
        return self._local

    @property
    def filename(self) -> str | None:
        return self._filename

    def get_bytes(self) -> bytes:
        """The audio bytes. Raises ``ValueError`` for a remote URL (ours does not download it)."""
        if self.dataBase64 is None:
            raise ValueError(
                f"Audio at {self.url!r} is remote and was not downloaded; pass its bytes instead"
            )
        return base64.b64decode(self.dataBase64)

    @classmethod
    def from_bytes(
        cls,
        data: bytes,
        mimeType: str,
        *,
        sampleRate: int | None = None,
        encoding: str | None = None,
        duration: float | None = None,
        start_time: float | None = None,
    ) -> Audio:
        """Audio held in memory (a TTS or voice-connector output)."""
        return cls(
            dataBase64=base64.b64encode(data).decode("ascii"),
            mimeType=mimeType,
            sampleRate=sampleRate,
            encoding=encoding,
            duration=duration,
            start_time=start_time,
        )
