"""Keep a run's full garbage collections short: objects older than the run are frozen while it lasts.

CPython's cyclic collector occasionally makes a full (generation 2) pass over every tracked object in the process. In
an evaluation process that is mostly what was there before the run: imported modules (the openai SDK alone brings
~100k objects), the user's data, a loaded model. Measured in ``bench/side_by_side.py``'s worker: one full pass
takes 20-75 ms, and it stalls the event loop that sends every judge call. :func:`gc.freeze` moves the objects that
exist now into a permanent generation that collections skip; :func:`gc.unfreeze` puts them back when the run ends, so
anything that became garbage meanwhile is still collected later. Nothing is collected less, only later.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_depth = 0
_ours = False  # whether the outermost block froze; a process that froze objects itself keeps its freeze


@contextmanager
def older_objects_frozen() -> Iterator[None]:
    """Freeze the objects that exist now for the duration of the block (re-entrant and thread-safe: the freeze
    lasts until the last of overlapping blocks ends). When the process already has frozen objects (its own
    ``gc.freeze()``, e.g. after preloading in a pre-fork server) nothing is done: unfreezing at the end would undo
    the caller's freeze, which ``gc`` cannot tell apart from ours."""
    global _depth, _ours
    with _lock:
        if _depth == 0:
            _ours = gc.get_freeze_count() == 0
            if _ours:
                gc.freeze()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _ours:
                gc.unfreeze()
                _ours = False
