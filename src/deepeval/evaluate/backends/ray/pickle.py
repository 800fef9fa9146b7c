"""Ship metrics (and the judges they hold) to Ray workers.

Metrics hold judge clients, and clients hold things that cannot cross a process boundary as they are: thread
locks, context variables, per-event-loop HTTP client pools (weak references to loops). :func:`dumps` pickles with
cloudpickle (so lambdas and closures in scripted judges travel too) and rebuilds those pieces fresh on the worker:

* ``threading.Lock`` / ``RLock``: a new unlocked lock;
* ``contextvars.ContextVar``: a new variable with the same name (and default);
* :class:`~deepeval.models.http.per_loop.PerLoop`: an empty pool with the same factory (clients reopen lazily);
* the process-wide embedded judge: a call to ``get_embedded_judge()`` on the worker, so each worker process loads
  the embedded model once and shares it between all its blocks;
* any other judge (``DeepEvalBaseLLM`` / ``DeepEvalBaseSystemOneModel`` without its own pickling): its attributes
  travel, except ``model`` (what ``load_model()`` returned: an SDK client, weights), which the worker rebuilds by
  calling ``load_model()`` (``None`` if that fails; our clients open their HTTP clients lazily anyway).

API keys inside clients travel in the pickled bytes (they are needed to call the judge); the bytes go through Ray's
object store only and are never logged.
"""

from __future__ import annotations

import contextvars
import inspect
import io
import pickle
import threading
from typing import Any

_LOCK_TYPE = type(threading.Lock())
_RLOCK_TYPE = type(threading.RLock())
_NO_DEFAULT = object()


def _new_lock() -> Any:
    return threading.Lock()


def _new_rlock() -> Any:
    return threading.RLock()


def _new_context_var(name: str, default: Any) -> contextvars.ContextVar[Any]:
    if default is _NO_DEFAULT:
        return contextvars.ContextVar(name)
    return contextvars.ContextVar(name, default=default)


def _context_var_default(var: contextvars.ContextVar[Any]) -> Any:
    # The default is not exposed; a fresh context without a value returns it (or raises LookupError).
    ctx = contextvars.Context()
    try:
        return ctx.run(var.get)
    except LookupError:
        return _NO_DEFAULT


def _embedded_judge() -> Any:
    from deepeval.models.embedded import get_embedded_judge

    return get_embedded_judge()


def _new_judge(cls: type[Any]) -> Any:
    return object.__new__(cls)


def _set_judge_state(obj: Any, state: dict[str, Any]) -> Any:
    obj.__dict__.update(state)
    try:
        obj.model = obj.load_model()
    except Exception:  # a judge whose load_model needs its constructor arguments
        obj.model = None
    return obj


def _plain_pickling(cls: type[Any]) -> bool:
    """Whether ``cls`` pickles as ``object`` does: it defines none of ``__getstate__``, ``__reduce_ex__`` and
    ``__reduce__`` itself (each one found on the class is the very one ``object`` has)."""
    return all(
        inspect.getattr_static(cls, name, None) is inspect.getattr_static(object, name, None)
        for name in ("__getstate__", "__reduce_ex__", "__reduce__")
    )


def _is_judge(obj: Any) -> bool:
    from deepeval.models.base_model import DeepEvalBaseLLM, DeepEvalBaseSystemOneModel

    return isinstance(obj, (DeepEvalBaseLLM, DeepEvalBaseSystemOneModel)) and hasattr(obj, "__dict__")


def _reducer(obj: Any) -> Any:
    """A reduce tuple for the special types above, or ``NotImplemented``."""
    if isinstance(obj, _LOCK_TYPE):
        return (_new_lock, ())
    if isinstance(obj, _RLOCK_TYPE):
        return (_new_rlock, ())
    if isinstance(obj, contextvars.ContextVar):
        return (_new_context_var, (obj.name, _context_var_default(obj)))
    module = type(obj).__module__
    if module == "deepeval.models.http.per_loop" and type(obj).__name__ == "PerLoop":
        return (type(obj), (obj._factory, obj._closer))
    if module == "deepeval.models.embedded.judge" and type(obj).__name__ == "EmbeddedJudge":
        return (_embedded_judge, ())
    if _is_judge(obj) and _plain_pickling(type(obj)):
        state = {k: v for k, v in obj.__dict__.items() if k != "model"}
        # 6-tuple: the object is memoised before its state is pickled, so cycles (bound methods) are fine
        return (_new_judge, (type(obj),), state, None, None, _set_judge_state)
    return NotImplemented


def _name_property_in_class_body(reduced: tuple[Any, ...]) -> tuple[Any, ...]:
    """A class pickled by value (defined in ``__main__``, a notebook, a function) whose ``__name__`` is a property,
    as deepeval's custom metrics have, cannot be rebuilt by cloudpickle: it sets class attributes with ``setattr``
    and ``type`` only takes a string for ``__name__`` (cloudpipe/cloudpickle#243-style limitation). Move that
    entry into the namespace the class is created with instead."""
    if len(reduced) != 6 or getattr(reduced[0], "__name__", "") != "_make_skeleton_class":
        return reduced
    args, state = reduced[1], reduced[2]
    if not (isinstance(args, tuple) and len(args) == 6 and isinstance(state, tuple) and len(state) == 2):
        return reduced
    clsdict = state[0]
    if not isinstance(clsdict, dict) or isinstance(clsdict.get("__name__", ""), str):
        return reduced
    clsdict = dict(clsdict)
    type_kwargs = {**args[3], "__name__": clsdict.pop("__name__")}
    return (reduced[0], (*args[:3], type_kwargs, *args[4:]), (clsdict, state[1]), *reduced[3:])


def _pickler_class() -> type[Any]:
    try:
        from ray import cloudpickle
    except ImportError:  # pragma: no cover - ray ships its own cloudpickle; the standalone one works the same
        import cloudpickle  # type: ignore[no-redef]

    base: type[Any] = cloudpickle.CloudPickler

    class _Pickler(base):  # type: ignore[misc]
        def reducer_override(self, obj: Any) -> Any:
            reduced = _reducer(obj)
            if reduced is not NotImplemented:
                return reduced
            reduced = super().reducer_override(obj)
            if isinstance(obj, type) and isinstance(reduced, tuple):
                return _name_property_in_class_body(reduced)
            return reduced

    return _Pickler


def dumps(obj: Any) -> bytes:
    """Pickle ``obj`` for a Ray worker (see module docstring).

    Raises:
        TypeError: something inside ``obj`` cannot be pickled (the message names its type); pickle's own errors
            (``pickle.PicklingError``) are turned into this too.
    """
    buf = io.BytesIO()
    try:
        _pickler_class()(buf, protocol=pickle.HIGHEST_PROTOCOL).dump(obj)
    except (pickle.PicklingError, TypeError, AttributeError) as err:
        raise TypeError(
            f"cannot send the metrics to Ray workers: {err}. Metrics, judges and test cases must be picklable "
            "(cloudpickle); build unpicklable clients lazily inside the judge instead of in its constructor."
        ) from None
    return buf.getvalue()


def loads(data: bytes) -> Any:
    """Inverse of :func:`dumps` (plain ``pickle.loads``: cloudpickle output is standard pickle)."""
    return pickle.loads(data)
