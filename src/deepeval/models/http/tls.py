"""One TLS context per process and HTTP library, shared by every judge client.

Building an ``ssl.SSLContext`` loads the whole CA bundle: 40-90 ms of CPU on the bench machine. httpx builds one
for every transport it creates, i.e. for every new client (we open one per judge per event loop, so one per
``evaluate()`` call) and again for every proxy it mounts from ``HTTP(S)_PROXY``; that was most of the fixed
start-up before a run's first judge request (3 contexts per client with proxies set, ~0.1-0.3 s per run).
The context is built once by the library's own ``create_ssl_context()``, so the CA bundle and the
``SSL_CERT_FILE``/``SSL_CERT_DIR`` handling stay the library's defaults; an ``SSLContext`` may be shared by any
number of connections and threads. A client given its own ``verify=`` (or ``http_client=``) keeps it.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import ssl
from types import ModuleType


def shared_context(http_library: ModuleType) -> ssl.SSLContext | None:
    """The process-wide default-verification context of ``http_library`` (``httpx`` or ``httpx2``), or None when
    the library has no public ``create_ssl_context`` (older versions: they keep building their own)."""
    if not callable(getattr(http_library, "create_ssl_context", None)):
        return None
    return _context_of(http_library.__name__)


@functools.lru_cache(maxsize=4)
def _context_of(library_name: str) -> ssl.SSLContext:
    context: ssl.SSLContext = importlib.import_module(library_name).create_ssl_context()
    return context


def library_of(client_class: type) -> ModuleType | None:
    """The top-level package of the HTTP library ``client_class`` derives from (e.g. the openai SDK's
    ``DefaultAsyncHttpxClient`` -> ``httpx2`` or ``httpx``, depending on the SDK version)."""
    for base in client_class.__mro__:
        module = inspect.getmodule(base)
        if module is None:
            continue
        top = module.__name__.split(".", 1)[0]
        if top in ("httpx", "httpx2"):
            return importlib.import_module(top)
    return None
