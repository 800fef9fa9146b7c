"""How many bytes a GGUF file must have, read from its header (format versions 2 and 3, little-endian): the tensor data
starts after the metadata and tensor infos, aligned to ``general.alignment`` (32 by default), and the last tensor
starts at the largest offset. A file that ends before that is truncated (an interrupted download or copy), which
llama.cpp reports only when it loads the file ("Failed to init server"). Our own reader of the public format spec;
it reads the header only and never the tensors."""

from __future__ import annotations

import struct
from typing import BinaryIO

#: byte sizes of the fixed-size metadata value types (GGUF spec: uint8 ... float64; 7 is bool)
_FIXED = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8}
_STRING, _ARRAY = 8, 9
#: sanity bounds: a header beyond them is corrupt, not a model
_MAX_COUNT = 1 << 24
_MAX_STRING = 1 << 26
_DEFAULT_ALIGNMENT = 32


class HeaderError(ValueError):
    """The GGUF header cannot be read (corrupt or cut inside the header)."""


def _read(fh: BinaryIO, n: int) -> bytes:
    data = fh.read(n)
    if len(data) != n:
        raise HeaderError("the file ends inside its header")
    return data


def _u32(fh: BinaryIO) -> int:
    return int(struct.unpack("<I", _read(fh, 4))[0])


def _u64(fh: BinaryIO) -> int:
    return int(struct.unpack("<Q", _read(fh, 8))[0])


def _count(fh: BinaryIO, what: str) -> int:
    n = _u64(fh)
    if n > _MAX_COUNT:
        raise HeaderError(f"implausible {what} count {n}")
    return n


def _string(fh: BinaryIO) -> bytes:
    n = _u64(fh)
    if n > _MAX_STRING:
        raise HeaderError(f"implausible string length {n}")
    return _read(fh, n)


def _skip_value(fh: BinaryIO, kind: int) -> int | None:
    """Skip one metadata value of ``kind``; return it when it is an unsigned 32-bit integer (the alignment's type)."""
    if kind == 4:
        return _u32(fh)
    if kind in _FIXED:
        _read(fh, _FIXED[kind])
    elif kind == _STRING:
        _string(fh)
    elif kind == _ARRAY:
        item = _u32(fh)
        n = _count(fh, "array item")
        if item in _FIXED:
            _read(fh, _FIXED[item] * n)
        else:
            for _ in range(n):
                _skip_value(fh, item)
    else:
        raise HeaderError(f"unknown metadata value type {kind}")
    return None


def required_size(fh: BinaryIO) -> int | None:
    """The least size in bytes of the GGUF file open in ``fh`` (at its start): where its last tensor's data begins,
    plus one byte. None for a format version this reader does not know (1, or a future one) or a file without
    tensors.

    Raises:
        HeaderError: not a GGUF file, or a header that is corrupt or cut short.
    """
    if _read(fh, 4) != b"GGUF":
        raise HeaderError("it does not start with 'GGUF'")
    if _u32(fh) not in (2, 3):
        return None
    tensors, kvs = _count(fh, "tensor"), _count(fh, "metadata")
    alignment = _DEFAULT_ALIGNMENT
    for _ in range(kvs):
        key = _string(fh)
        value = _skip_value(fh, _u32(fh))
        if key == b"general.alignment" and value:
            alignment = value
    last = -1
    for _ in range(tensors):
        _string(fh)
        dims = _u32(fh)
        if dims > 8:
            raise HeaderError(f"implausible tensor rank {dims}")
        _read(fh, 8 * dims + 4)  # the dimensions and the tensor type
        last = max(last, _u64(fh))
    if last < 0:
        return None
    data_start = -(-fh.tell() // alignment) * alignment
    return data_start + last + 1
