"""Reading a document's text. ``.txt``, ``.md``, ``.markdown`` and ``.mdx`` are built in; ``.pdf`` needs ``pypdf``
and ``.docx`` needs ``python-docx`` (optional extras, imported only when such a file is read).

Every problem with one document is a :class:`DocumentError` naming the file and what is wrong (missing, a folder,
unsupported type, larger than :data:`MAX_DOCUMENT_BYTES`, binary, not decodable with the encoding, no text, a parser
failure), so the synthesizer can skip that document, name it, and go on with the others.
"""

from __future__ import annotations

import os

from deepeval.base_errors import DeepEvalError

TEXT_SUFFIXES = (".txt", ".md", ".markdown", ".mdx")
SUPPORTED_SUFFIXES = (*TEXT_SUFFIXES, ".pdf", ".docx")
#: documents larger than this are refused (ours: deepeval 4.3.1 reads any size into memory)
MAX_DOCUMENT_BYTES = 32 * 2**20
_SNIFF = 8192


class DocumentError(DeepEvalError, ValueError):
    """A document cannot be read as text. ``path`` and ``reason`` are attributes too."""

    def __init__(self, path: str, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"{path}: {reason}")


def _optional(module: str, package: str, suffix: str, path: str) -> object:
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise DocumentError(
            path, f"reading {suffix} files needs the optional package {package}: pip install {package}"
        ) from None


def _decode(path: str, data: bytes, encoding: str | None) -> str:
    if b"\x00" in data[:_SNIFF] and not data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise DocumentError(path, "looks like a binary file (NUL bytes), not text")
    if encoding is not None:
        try:
            return data.decode(encoding)
        except LookupError:
            raise DocumentError(path, f"unknown encoding {encoding!r}") from None
        except UnicodeDecodeError as err:
            raise DocumentError(path, f"does not decode as {encoding} (byte {err.start})") from None
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as err:
            raise DocumentError(path, f"does not decode as UTF-16 (byte {err.start})") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise DocumentError(
            path,
            f"is not UTF-8 text (byte {err.start}); pass its encoding (ContextConstructionConfig(encoding=...))",
        ) from None


def _pdf_text(path: str) -> str:
    pypdf = _optional("pypdf", "pypdf", ".pdf", path)
    try:
        reader = pypdf.PdfReader(path)  # type: ignore[attr-defined]
        return "\n\n".join((page.extract_text() or "") for page in reader.pages)
    except DocumentError:
        raise
    except Exception as err:
        raise DocumentError(path, f"pypdf could not read it ({type(err).__name__}: {err})") from None


def _docx_text(path: str) -> str:
    docx = _optional("docx", "python-docx", ".docx", path)
    try:
        document = docx.Document(path)  # type: ignore[attr-defined]
        return "\n".join(paragraph.text for paragraph in document.paragraphs)
    except Exception as err:
        raise DocumentError(path, f"python-docx could not read it ({type(err).__name__}: {err})") from None


def load_document(path: str, encoding: str | None = None) -> str:
    """The text of the document at ``path``.

    Raises:
        DocumentError: see the module docstring.
    """
    suffix = os.path.splitext(path)[1].lower()
    if suffix not in SUPPORTED_SUFFIXES:
        shown = suffix or "(no extension)"
        raise DocumentError(
            path, f"unsupported file format {shown}; supported: {', '.join(SUPPORTED_SUFFIXES)}"
        )
    try:
        size = os.stat(path).st_size
    except FileNotFoundError:
        raise DocumentError(path, "no such file") from None
    except OSError as err:
        raise DocumentError(path, f"cannot be read ({err.strerror or err})") from None
    if os.path.isdir(path):
        raise DocumentError(path, "is a folder, not a document")
    if size > MAX_DOCUMENT_BYTES:
        raise DocumentError(
            path, f"is {size} bytes, over the {MAX_DOCUMENT_BYTES}-byte limit for one document"
        )
    if suffix == ".pdf":
        text = _pdf_text(path)
    elif suffix == ".docx":
        text = _docx_text(path)
    else:
        try:
            with open(path, "rb") as handle:
                data = handle.read()
        except OSError as err:
            raise DocumentError(path, f"cannot be read ({err.strerror or err})") from None
        text = _decode(path, data, encoding)
    if not text.strip():
        raise DocumentError(path, "holds no text")
    return text
