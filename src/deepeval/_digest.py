"""Content digests for cache keys: what a result depends on, hashed from the content itself (the prompt text
actually produced, the questions actually built, the embedded judge's files), so a changed text misses the cache
even when nobody bumped a version label. Version constants (``PROMPT_VERSION``...) stay as labels only."""

from __future__ import annotations

import enum
import functools
import hashlib
import inspect
import json
import os
from pathlib import Path
from typing import Any

#: the embedded judge's package: its rule code and data file (``data/embedded_judge.json``)
EMBEDDED_DIR = Path(__file__).resolve().parent / "models" / "embedded"

_PROBE_TEXT = "probe text for the cache key"


def _probe_value(param: inspect.Parameter) -> Any:
    """A fixed argument for ``param``, chosen from its annotation (strings under ``from __future__ import
    annotations``) so prompt builders render their full text."""
    ann = param.annotation if isinstance(param.annotation, str) else getattr(param.annotation, "__name__", "")
    ann = str(ann).replace(" ", "")
    if ann.startswith(("float", "int")):
        return 0.5 if ann.startswith("float") else 1
    if ann.startswith("bool"):
        return False
    if ann.startswith(("Sequence[Mapping", "list[dict", "Sequence[dict", "list[Mapping")):
        return [{"statement": _PROBE_TEXT, "verdict": "yes", "reason": _PROBE_TEXT, "decided_by": "llm"}]
    if ann.startswith(("Sequence", "list", "tuple", "Iterable")):
        return [_PROBE_TEXT, _PROBE_TEXT + " two"]
    if ann.startswith(("Mapping", "dict")):
        return {"probe": _PROBE_TEXT}
    return _PROBE_TEXT


def _render(fn: Any) -> Any:
    try:
        params = [
            p
            for p in inspect.signature(fn).parameters.values()
            if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
        ]
        args = {p.name: _probe_value(p) for p in params if p.default is inspect.Parameter.empty}
        return fn(**args)
    except Exception as exc:  # a builder that needs other probe values: its failure is still content
        return f"<{type(exc).__name__}>"


def _members(obj: Any) -> dict[str, Any]:
    """Public prompt builders and text constants of a class, instance or module (version labels left out)."""
    out: dict[str, Any] = {}
    module = obj.__name__ if inspect.ismodule(obj) else None
    for name in sorted(dir(obj)):
        if name.startswith("_") or name.endswith("VERSION"):
            continue
        try:
            value = getattr(obj, name)
        except Exception:
            continue
        if module is not None and getattr(value, "__module__", module) != module:
            continue  # imported into the module, not its own
        if isinstance(value, str):
            out[name] = value
        elif (
            callable(value)
            and not inspect.isclass(value)
            and not inspect.iscoroutinefunction(value)
            and (module is None or name.endswith("_prompt"))  # a module's prompt builders only
        ):
            out[name] = _render(value)
    return out


def _json_default(value: Any) -> Any:
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        return dump(mode="json")
    if isinstance(value, enum.Enum):
        return value.value
    name = getattr(value, "get_model_name", None)
    if callable(name):
        return {"judge": type(value).__qualname__, "name": name()}
    if isinstance(value, (set, frozenset)):
        return sorted(map(str, value))
    # Unknown object: its repr may hold a memory address, which makes the key miss (safe, never a false hit).
    return f"{type(value).__module__}.{type(value).__qualname__}:{value!r}"


def canonical_json(value: Any) -> str:
    """Deterministic JSON text: sorted keys, compact separators, UTF-8 kept (the cache key and the content
    digests hash it)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=_json_default)


def content_digest(*objs: Any) -> str:
    """sha256 (hex, 16 characters) of what the prompt builders / question builders of ``objs`` (classes,
    instances, or modules: their ``*_prompt`` functions) produce for a fixed probe, plus their text constants; a
    string is taken as it is."""
    text = canonical_json([o if isinstance(o, str) else _members(o) for o in objs])
    return hashlib.sha256(text.encode("utf-8", errors="surrogatepass")).hexdigest()[:16]


def embedded_judge_digest(root: Path | None = None) -> str:
    """sha256 (hex, 16 characters) of every file of the embedded judge's package (rule code and data file),
    recomputed only when a file's size or modification time changes."""
    base = root or EMBEDDED_DIR
    files = sorted(
        p for p in base.rglob("*") if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
    )
    stamp = tuple((str(p.relative_to(base)), *_stat(p)) for p in files)
    return _hash_files(str(base), stamp)


def _stat(path: Path) -> tuple[int, int]:
    st = os.stat(path)
    return st.st_size, st.st_mtime_ns


@functools.lru_cache(maxsize=8)
def _hash_files(base: str, stamp: tuple[tuple[str, int, int], ...]) -> str:
    h = hashlib.sha256()
    for rel, _size, _mtime in stamp:
        h.update(json.dumps(rel).encode())
        h.update(Path(base, rel).read_bytes())
    return h.hexdigest()[:16]
