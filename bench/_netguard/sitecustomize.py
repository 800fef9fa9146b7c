"""Loaded by the benchmark subprocesses (``PYTHONPATH=bench/_netguard``): refuses every connection and name
lookup that is not loopback, and appends one line per refusal to ``$BENCH_NETGUARD_LOG``, so a benchmark can prove
that nothing left 127.0.0.1 (telemetry, update checks, hosted judges)."""

from __future__ import annotations

import ipaddress
import os
import socket

_LOG = os.environ.get("BENCH_NETGUARD_LOG")
_LOCAL_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost"}


def _note(what: str) -> None:
    if _LOG:
        with open(_LOG, "a", encoding="utf-8") as fh:
            fh.write(what + "\n")


def _is_loopback(host: object) -> bool:
    if host is None:
        return True
    h = host.decode() if isinstance(host, bytes) else str(host)
    if h.lower() in _LOCAL_NAMES:
        return True
    try:
        return ipaddress.ip_address(h.split("%")[0]).is_loopback
    except ValueError:
        return False


_orig_getaddrinfo = socket.getaddrinfo
_orig_connect = socket.socket.connect
_orig_connect_ex = socket.socket.connect_ex


def _getaddrinfo(host, *args, **kwargs):  # type: ignore[no-untyped-def]
    if not _is_loopback(host):
        _note(f"lookup {host}")
        raise socket.gaierror(
            socket.EAI_NONAME, f"bench netguard: lookup of {host!r} refused (loopback only)"
        )
    return _orig_getaddrinfo(host, *args, **kwargs)


def _check(sock: socket.socket, address: object) -> None:
    if sock.family in (socket.AF_INET, socket.AF_INET6) and isinstance(address, tuple):
        if not _is_loopback(address[0]):
            _note(f"connect {address[0]}")
            raise ConnectionRefusedError(
                f"bench netguard: connection to {address[0]!r} refused (loopback only)"
            )


def _connect(self, address):  # type: ignore[no-untyped-def]
    _check(self, address)
    return _orig_connect(self, address)


def _connect_ex(self, address):  # type: ignore[no-untyped-def]
    _check(self, address)
    return _orig_connect_ex(self, address)


socket.getaddrinfo = _getaddrinfo
socket.socket.connect = _connect  # type: ignore[method-assign]
socket.socket.connect_ex = _connect_ex  # type: ignore[method-assign]
