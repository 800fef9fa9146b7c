"""Run a coroutine from sync code, whether or not an event loop is already running in this thread, and bound how
long anything we start may hold the caller.

No ``nest_asyncio``: with no running loop we run our own; inside a running loop (Jupyter, FastAPI, pytest-asyncio)
we run the coroutine on a fresh loop in a daemon worker thread and wait for it there.

Nothing we wait on may outlive its deadline or a Ctrl-C:

* A measure past its ``measure_timeout`` is *abandoned* (:func:`bounded`): cancelled and never awaited again, so a
  metric that swallows cancellation, or a sync ``measure`` blocked in a thread (a thread cannot be killed), does
  not hold the run. Sync code runs on :class:`DaemonThreadExecutor` threads, which neither ``asyncio``'s executor
  shutdown nor interpreter exit joins, so an abandoned thread holds neither the call nor the process.
* Ctrl-C: on our own loop in the main thread, the first SIGINT cancels the run (its ``finally`` blocks run, the
  result cache keeps every row already written) and :func:`run_sync` raises ``KeyboardInterrupt``; a second one
  raises at once. From inside a running loop the main thread waits for the worker in short slices with the default
  SIGINT handler in place, so Ctrl-C raises there too; the worker's run is cancelled and given
  :data:`SHUTDOWN_GRACE_S` seconds to finish its ``finally`` blocks, then abandoned, except while it writes the
  interrupted run's reports (:func:`writing_interrupted_results`): those are waited for, so one Ctrl-C never leaves
  a report half written. A second Ctrl-C during the grace is held until a report of the finished rows is written
  (:func:`_wait_holding_ctrl_c`); after that it stops the wait, the report still being written is removed at exit
  and named on stderr (:func:`deepeval._files.abandon_unfinished_writes`), and so are the reports not yet begun
  (:func:`deepeval._files.pending_save`).
* SIGTERM is handled the same way while :func:`run_sync` waits in the main thread, when nothing else handles it
  (its handler is the default): the run is cancelled, unwinds (``evaluate()`` writes the rows it finished, see
  :mod:`deepeval.evaluate.api`), and :func:`run_sync` raises ``SystemExit(143)`` (128 + 15, the status of a
  process ended by SIGTERM); a second SIGTERM exits at once. :func:`stop_reason` names the signal for the run
  being cancelled. The first signal names the stop and its exit status: a second one of the other kind (SIGTERM
  then Ctrl-C) acts as a second of the first (:func:`_raise_for`).
* A run awaited on the caller's own loop (``await a_evaluate(...)`` under ``asyncio.run``) gets the same from
  :func:`signals_cancel_this_task`; the application's own code between our calls (``evals_iterator``'s app phase)
  from :func:`signals_raise_here`. A :func:`stop_handler` (the pytest plugin's SIGTERM) is stood in for as Python's
  defaults are, then called.

The coroutine's return value is handed back through a box, not as the main task's result: on CPython 3.11
``asyncio.run`` (from the main thread) calls ``signal.getsignal(SIGINT)`` after the task ends, which formats a
``ValueError`` message with ``repr()`` of its SIGINT handler, a ``functools.partial`` holding the main task; the
task's repr includes ``repr()`` of its result. For ``evaluate()`` that result is the whole ``EvaluationResult``, so
every run built a throw-away string of all its rows (about 36 KB per test case on the scale bench: 36 MiB of peak
RSS at 1,000 test cases, growing with N). A task whose result is None has a short repr.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import contextvars
import os
import queue
import signal
import threading
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from typing import Any, TypeVar

T = TypeVar("T")

#: seconds a cancelled run gets to finish its ``finally`` blocks (close the cache, HTTP clients) before it is
#: abandoned
SHUTDOWN_GRACE_S = 1.0
#: how often the main thread wakes while it waits for a worker thread (signal handlers run between waits)
_POLL_S = 0.1


class DaemonThreadExecutor(concurrent.futures.ThreadPoolExecutor):
    """A thread pool of daemon threads that nobody joins (a ``ThreadPoolExecutor`` subclass only because
    ``loop.set_default_executor`` demands one: every method that starts or stops threads is its own).

    ``concurrent.futures.ThreadPoolExecutor`` threads are joined by ``asyncio``'s executor shutdown and again at
    interpreter exit, so one blocked call holds both. Here :meth:`shutdown` only tells idle threads to end, and a
    thread still blocked in an abandoned call dies with the process. Threads are started on demand up to
    ``max_workers`` and reused while idle."""

    def __init__(self, max_workers: int | None = None, thread_name_prefix: str = "deepeval-worker") -> None:
        super().__init__(max_workers=1)  # starts nothing; its own queue and threads stay unused
        self._max_workers = max_workers or min(32, (os.cpu_count() or 1) + 4)
        self._prefix = thread_name_prefix
        self._daemon_threads = 0
        self._work: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._idle = threading.Semaphore(0)
        self._pool_lock = threading.Lock()
        self._closed = False

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[T]:
        future: concurrent.futures.Future[T] = concurrent.futures.Future()
        with self._pool_lock:
            if self._closed:
                raise RuntimeError("cannot schedule new work after shutdown")
            self._work.put((future, fn, args, kwargs))
            if not self._idle.acquire(blocking=False) and self._daemon_threads < self._max_workers:
                self._daemon_threads += 1
                name = f"{self._prefix}-{self._daemon_threads}"
                threading.Thread(target=self._serve, name=name, daemon=True).start()
        return future

    def _serve(self) -> None:
        while True:
            item = self._work.get()
            if item is None:
                return
            future, fn, args, kwargs = item
            del item
            if future.set_running_or_notify_cancel():
                try:
                    future.set_result(fn(*args, **kwargs))
                except BaseException as exc:  # handed to the waiter, as ThreadPoolExecutor does
                    future.set_exception(exc)
            del future, fn, args, kwargs
            self._idle.release()

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Stop accepting work and let idle threads end; never joins (``wait`` is accepted and ignored)."""
        with self._pool_lock:
            self._closed = True
            for _ in range(self._daemon_threads):
                self._work.put(None)


_SHARED_EXECUTOR: DaemonThreadExecutor | None = None
_SHARED_LOCK = threading.Lock()


def daemon_executor() -> DaemonThreadExecutor:
    """The process-wide :class:`DaemonThreadExecutor` for sync calls made from async code (never shut down)."""
    global _SHARED_EXECUTOR
    with _SHARED_LOCK:
        if _SHARED_EXECUTOR is None:
            _SHARED_EXECUTOR = DaemonThreadExecutor(thread_name_prefix="deepeval-sync-measure")
        return _SHARED_EXECUTOR


async def to_daemon_thread(fn: Callable[..., T], /, *args: Any) -> T:
    """``asyncio.to_thread`` on :func:`daemon_executor` (the caller's context is copied into the thread)."""
    ctx = contextvars.copy_context()
    return await asyncio.get_running_loop().run_in_executor(daemon_executor(), ctx.run, fn, *args)


def abandon(task: asyncio.Future[Any]) -> None:
    """Cancel ``task`` and stop caring about it: no "never retrieved" or "destroyed but pending" noise later."""
    task.cancel()
    task.add_done_callback(_consume)
    if isinstance(task, asyncio.Task):
        task._log_destroy_pending = False  # type: ignore[attr-defined]


def _consume(task: asyncio.Future[Any]) -> None:
    if not task.cancelled():
        task.exception()


async def bounded(work: Awaitable[T], timeout: float | None) -> T:
    """Await ``work`` for at most ``timeout`` seconds and return its result; with ``timeout=None``, simply await
    it (in the caller's task: no extra loop turn between its end and the caller's next step).

    Unlike ``asyncio.wait_for``, a timeout or a cancellation of the caller never waits for ``work`` to acknowledge
    its cancellation: ``work`` is cancelled and abandoned, so code that ignores cancellation, or a thread that
    cannot be stopped, does not hold the caller.

    Raises:
        asyncio.TimeoutError: ``work`` did not finish within ``timeout`` seconds.
    """
    if timeout is None:
        return await work
    return await detached(work, timeout)


async def detached(work: Awaitable[T], timeout: float | None = None) -> T:
    """:func:`bounded` that always runs ``work`` as a task of its own, so that even without a timeout a
    cancellation of the caller is not held up by ``work`` ignoring it (it is cancelled and abandoned)."""
    task = asyncio.ensure_future(work)
    try:
        done, _ = await asyncio.wait({task}, timeout=timeout)
    except asyncio.CancelledError:
        abandon(task)
        raise
    if not done:
        abandon(task)
        raise asyncio.TimeoutError
    return task.result()


_stop_reason: str | None = None


def stop_reason() -> str | None:
    """The name of the signal (``"SIGINT"``, ``"SIGTERM"``) that cancelled the current run (:func:`run_sync`,
    :func:`signals_cancel_this_task`), or None when it was cancelled otherwise (or not at all)."""
    return _stop_reason


def _stopping(signum: int) -> None:
    global _stop_reason
    _stop_reason = signal.Signals(signum).name


def note_stop(signum: int) -> None:
    """Record ``signum`` as what is stopping the run (:func:`stop_reason`), for a stop handler of our own outside
    this module (:func:`stop_handler`)."""
    _stopping(signum)


#: the attribute that marks a signal handler of ours: ``"run"`` (it cancels a run this module started) or
#: ``"stop"`` (it ends the process or the pytest session: see :func:`stop_handler`)
_MARK = "_deepeval_signal"


def stop_handler(handler: Callable[[int, Any], Any]) -> Callable[[int, Any], Any]:
    """Mark ``handler`` (a signal handler that raises to end the process or the pytest session: the pytest plugin's
    SIGTERM, ``evals_iterator``'s app phase) as one a run may stand in for, the way it stands in for Python's
    defaults: while :func:`run_sync` or :func:`signals_cancel_this_task` runs, the signal cancels the run, the run
    writes what it finished, and then ``handler`` is called and raises its own exception."""
    setattr(handler, _MARK, "stop")
    return handler


def _ours(handler: Any, kind: str) -> bool:
    return getattr(handler, _MARK, None) == kind


def _raise_for(signum: int, previous: Any = None) -> None:
    """Raise what a run stopped by ``signum`` ends in, once it has unwound: the exception of the
    :func:`stop_handler` it stood in for, else ``KeyboardInterrupt`` (SIGINT) or ``SystemExit(128 + signum)``
    (SIGTERM: 143, the status of a process ended by it). A second signal raises what the first one's stop ends in,
    whichever its kind: the first signal names the stop and the exit status (SIGTERM then Ctrl-C is 143, not 130;
    outside attack 7, L1)."""
    if _ours(previous, "stop"):
        previous(signum, None)  # raises its own exception
    raise KeyboardInterrupt() if signum == signal.SIGINT else SystemExit(128 + signum)


def _asyncio_runs_sigint() -> bool:
    """Whether SIGINT's handler is the one ``asyncio.run`` installs (Python 3.11+): it only cancels the main task,
    which cannot reach the application's synchronous code, so a Ctrl-C there was lost (outside attack 6, A). The
    app phase of ``evals_iterator`` takes SIGINT over from it, as from Python's default, and gives it back."""
    runner = getattr(asyncio, "Runner", None)
    handler: Any = signal.getsignal(signal.SIGINT)
    handler = getattr(
        handler, "func", handler
    )  # a functools.partial of the bound method, as asyncio installs it
    return runner is not None and getattr(handler, "__func__", None) is getattr(
        runner, "_on_sigint", object()
    )


def _handled_signals() -> list[int]:
    """The signals we may handle now: SIGINT while Python's default handler is in place, SIGTERM while its
    default action is (a handler of the application's own is left alone), and either while its handler is a
    :func:`stop_handler` of ours."""
    out: list[int] = []
    sigint, sigterm = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    if sigint is signal.default_int_handler or _ours(sigint, "stop"):
        out.append(signal.SIGINT)
    if sigterm == signal.SIG_DFL or _ours(sigterm, "stop"):
        out.append(signal.SIGTERM)
    return out


def run_sync(coro: Coroutine[Any, Any, T]) -> T:
    """Run ``coro`` to completion and return its result (exceptions propagate unchanged).

    Raises:
        KeyboardInterrupt: Ctrl-C while it ran (the run was cancelled first; see the module docstring).
        SystemExit: status 143 after SIGTERM (the run was cancelled first).
    """
    global _stop_reason
    _stop_reason = None
    box: list[T] = []
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        running = False  # (run outside this handler, so the exceptions it raises carry no "no running loop")
    else:
        running = True
    if running:
        _run_on_worker_thread(_into(box, coro))
    else:
        _run_on_own_loop(
            _into(box, coro), handle_sigint=threading.current_thread() is threading.main_thread()
        )
    return box[0]


async def _into(box: list[T], coro: Coroutine[Any, Any, T]) -> None:
    """Await ``coro`` and put its result in ``box`` (the task itself returns None; see the module docstring)."""
    box.append(await coro)


class _LoopRun:
    """The loop and main task of one :func:`_run_on_own_loop`, for a thread that must cancel it."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.task: asyncio.Task[None] | None = None
        self.started = threading.Event()

    def cancel(self) -> None:
        loop, task = self.loop, self.task
        if loop is not None and task is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(task.cancel)
            except RuntimeError:  # closed meanwhile
                pass


def _run_on_own_loop(
    main: Coroutine[Any, Any, None], handle_sigint: bool, run: _LoopRun | None = None
) -> None:
    """Run ``main`` on a new event loop (default executor: daemon threads), then close the loop without waiting on
    anything that ignores cancellation (see :func:`_close`). With ``handle_sigint`` (main thread only) the first
    Ctrl-C cancels ``main`` and raises ``KeyboardInterrupt`` once it has unwound; a second one raises at once."""
    loop = asyncio.new_event_loop()
    loop.set_default_executor(DaemonThreadExecutor(thread_name_prefix="deepeval-loop-worker"))
    task = loop.create_task(main)
    if run is not None:
        run.loop, run.task = loop, task
        run.started.set()
    interrupted = 0  # the signal that cancelled the run
    previous: dict[int, Any] = {}

    def on_signal(signum: int, frame: Any) -> None:
        nonlocal interrupted
        if interrupted or task.done():
            # a second signal, of either kind, is a second of the first (_raise_for)
            first = interrupted or signum
            _raise_for(first, previous.get(first))
        interrupted = signum
        _stopping(signum)
        loop.call_soon_threadsafe(task.cancel)

    setattr(on_signal, _MARK, "run")
    for signum in _handled_signals() if handle_sigint else ():
        previous[signum] = signal.signal(signum, on_signal)
    try:
        try:
            loop.run_until_complete(task)
        except asyncio.CancelledError:
            if interrupted:
                try:
                    _raise_for(interrupted, previous.get(interrupted))
                except BaseException as exc:
                    raise exc from None
            raise
    finally:
        try:
            _close(
                loop
            )  # its grace for what ignores cancellation is still the run's: a signal there is a second
        finally:
            for signum, handler in previous.items():
                signal.signal(signum, handler)


def _close(loop: asyncio.AbstractEventLoop) -> None:
    """Cancel what is still pending, give it :data:`SHUTDOWN_GRACE_S` seconds, shut async generators down (this is
    what closes the per-loop HTTP clients) and close the loop. Tasks that outlive the grace are abandoned."""
    try:
        pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
        for t in pending:
            abandon(t)
        if pending:
            _complete(loop, asyncio.wait(pending, timeout=SHUTDOWN_GRACE_S))
        _complete(loop, loop.shutdown_asyncgens())
        _complete(loop, loop.shutdown_default_executor())  # our executor never joins
    finally:
        loop.close()


def _complete(loop: asyncio.AbstractEventLoop, work: Coroutine[Any, Any, Any]) -> None:
    """``loop.run_until_complete(work)``, resumed once if a stop left over from the run stops the loop first: a
    signal's exception raised inside a task leaves ``run_until_complete`` while the main task's own stop callback
    is still queued, and the first step here ran it ("Event loop stopped before Future completed" replaced the
    run's KeyboardInterrupt or SystemExit)."""
    future = asyncio.ensure_future(work, loop=loop)
    try:
        loop.run_until_complete(future)
    except RuntimeError:
        if future.done():
            raise
        loop.run_until_complete(future)


def _run_on_worker_thread(main: Coroutine[Any, Any, None]) -> None:
    """Run ``main`` on its own loop in a daemon thread and wait for it; Ctrl-C (or any exception) in the waiting
    thread cancels it, waits up to :data:`SHUTDOWN_GRACE_S` seconds for it to unwind, and re-raises."""
    ctx = contextvars.copy_context()  # keep usage trackers and other context visible in the worker
    run = _LoopRun()
    failure: list[BaseException] = []
    done = threading.Event()

    def target() -> None:
        try:
            ctx.run(_run_on_own_loop, main, False, run)
        except BaseException as exc:  # handed to the waiting thread
            failure.append(exc)
        finally:
            done.set()

    thread = threading.Thread(target=target, name="deepeval-sync", daemon=True)
    in_main = threading.current_thread() is threading.main_thread()
    # Inside a running loop the main thread's SIGINT handler is often asyncio's, which only cancels a task that
    # cannot run while we block it: put the default handler back while we wait, so Ctrl-C raises here. SIGTERM
    # (when nobody handles it) raises SystemExit(143) here, which cancels the run the same way.
    previous: dict[int, Any] = {}
    if in_main:
        previous[signal.SIGINT] = signal.signal(signal.SIGINT, signal.default_int_handler)
        if signal.SIGTERM in _handled_signals():
            previous[signal.SIGTERM] = signal.signal(signal.SIGTERM, _raise_for_sigterm)
    try:
        thread.start()
        while not done.wait(_POLL_S):
            pass
    except BaseException as exc:
        signum = (
            signal.SIGINT
            if isinstance(exc, KeyboardInterrupt)
            else signal.SIGTERM
            if isinstance(exc, _Terminated)
            else 0
        )
        if not signum:
            _unwind(run, done)
            raise
        _stopping(signum)
        if signum == signal.SIGINT and signal.SIGTERM in previous:
            signal.signal(signal.SIGTERM, signal.default_int_handler)  # a SIGTERM now is a second Ctrl-C
        try:
            _unwind(run, done)
        except (KeyboardInterrupt, SystemExit):
            pass  # a second signal stopped the waits: whichever its kind, the run ends as the first one's stop does
        # the stop handler's own exception (the session's, the app phase's), else KeyboardInterrupt or Python's
        # own SystemExit(143): never our private _Terminated (outside attack 7, L3)
        try:
            _raise_for(signum, previous.get(signum))
        except BaseException as first:
            raise first.with_traceback(exc.__traceback__) from None
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    if failure:
        raise failure[0]


def _unwind(run: _LoopRun, done: threading.Event) -> None:
    """Cancel a worker's run and wait while it unwinds and writes what it finished (see the module docstring)."""
    _wait_holding_ctrl_c(run.started, SHUTDOWN_GRACE_S)
    run.cancel()
    _wait_holding_ctrl_c(done, SHUTDOWN_GRACE_S)
    _wait_for_results_written(done)


class _CallerRuns:
    """The runs awaited on the caller's own event loop in the main thread (``await a_evaluate(...)`` under
    ``asyncio.run``), for :func:`signals_cancel_this_task`: one set of handlers for them all, installed while any
    runs."""

    def __init__(self) -> None:
        self.tasks: list[tuple[asyncio.AbstractEventLoop, asyncio.Task[Any]]] = []
        self.previous: dict[int, Any] = {}
        self.fired = 0  # the signal that cancelled them

    def install(self) -> None:
        """Put our handlers in place, if any signal is ours to handle now (``self.previous`` stays empty if not)."""
        global _stop_reason
        handlers: dict[int, Any] = {signum: self.on_signal for signum in _handled_signals()}
        sigint = signal.getsignal(signal.SIGINT)
        if signal.SIGINT not in handlers and callable(sigint) and not _ours(sigint, "run"):
            # asyncio.run's own Ctrl-C handler (it cancels the main task, then raises KeyboardInterrupt): kept,
            # and the run it cancels says it was SIGINT
            handlers[signal.SIGINT] = _noting(sigint)
        if handlers:
            _stop_reason, self.fired = None, 0
        for signum, handler in handlers.items():
            self.previous[signum] = signal.signal(signum, handler)

    def restore(self) -> None:
        for signum, handler in self.previous.items():
            signal.signal(signum, handler)
        self.previous = {}

    def on_signal(self, signum: int, frame: Any) -> None:
        if self.fired or not self.tasks:
            _raise_for(signum, self.previous.get(signum))  # a second one: at once
        self.fired = signum
        _stopping(signum)
        for loop, task in self.tasks:
            loop.call_soon_threadsafe(task.cancel)


def _noting(handler: Callable[[int, Any], Any]) -> Callable[[int, Any], Any]:
    def noting(signum: int, frame: Any) -> Any:
        _stopping(signum)
        return handler(signum, frame)

    setattr(noting, _MARK, "run")
    return noting


_CALLER = _CallerRuns()
setattr(_CALLER.on_signal.__func__, _MARK, "run")  # type: ignore[attr-defined]


@contextlib.contextmanager
def signals_cancel_this_task() -> Iterator[None]:
    """Around a run awaited on the caller's event loop (``await a_evaluate(...)``): SIGINT and SIGTERM stop it as
    they stop :func:`run_sync`'s. In the main thread, while Python's defaults (or a :func:`stop_handler`) are in
    place, the signal cancels the awaiting task; the run writes what it finished (``evaluate()``'s
    ``on_interrupt``), and the cancellation leaves this block as ``KeyboardInterrupt`` / ``SystemExit(143)`` (or
    the stop handler's exception), as from :func:`run_sync`. Under ``asyncio.run`` Ctrl-C keeps asyncio's own
    handling (the main task is cancelled) and is named in :func:`stop_reason`. Elsewhere (another thread, inside
    :func:`run_sync`'s own handling, an application's own handlers) it changes nothing."""
    try:
        task = asyncio.current_task()
    except RuntimeError:
        task = None
    if task is None or threading.current_thread() is not threading.main_thread():
        yield
        return
    entry = (task.get_loop(), task)
    if not _CALLER.tasks:
        _CALLER.install()
        if not _CALLER.previous:
            yield  # nothing ours to handle (run_sync's handlers, or the application's)
            return
    _CALLER.tasks.append(entry)
    try:
        yield
    except asyncio.CancelledError:
        if _CALLER.fired:
            try:
                _raise_for(_CALLER.fired, _CALLER.previous.get(_CALLER.fired))
            except BaseException as exc:
                raise exc from None
        raise
    finally:
        _CALLER.tasks.remove(entry)
        if not _CALLER.tasks:
            _CALLER.restore()


class SignalSeen:
    """What :func:`signals_raise_here` saw: the signal that stopped the code it ran around (``signum``, 0: none),
    and the handlers it stood in for."""

    def __init__(self) -> None:
        self.signum = 0
        self.previous: dict[int, Any] = {}

    def end_process_if_terminated(self) -> None:
        """After SIGTERM, when the exception it raised may never reach the top (raised in a generator's
        ``close()`` that Python calls itself, which it only reports as "Exception ignored" and then goes on):
        end the process now, as SIGTERM's default action does (status 143), when that default is what it
        stood in for. The caller has written what was finished."""
        if self.signum == signal.SIGTERM and self.previous.get(signal.SIGTERM) == signal.SIG_DFL:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGTERM)


@contextlib.contextmanager
def signals_raise_here() -> Iterator[SignalSeen]:
    """Around code of the application we call in the main thread (``evals_iterator``'s app phase: the loop body):
    SIGINT raises ``KeyboardInterrupt`` and SIGTERM ``SystemExit(143)`` where they land (or the
    :func:`stop_handler` in place raises its own exception), as Python's defaults do or would (SIGTERM's default
    ends the process with nothing written), and each is noted (:func:`stop_reason`, ``.signum`` of what this
    yields) so that the caller can write what was finished and say why it stopped. A run started meanwhile
    (:func:`run_sync`) stands in for these handlers as for Python's. Only the signals :func:`_handled_signals`
    allows; elsewhere than the main thread it changes nothing."""
    seen = SignalSeen()
    previous = seen.previous

    @stop_handler
    def on_signal(signum: int, frame: Any) -> None:
        seen.signum = seen.signum or signum
        _stopping(signum)
        _raise_for(signum, previous.get(signum))

    if threading.current_thread() is threading.main_thread():
        for signum in _handled_signals() + ([signal.SIGINT] if _asyncio_runs_sigint() else []):
            previous[signum] = signal.signal(signum, on_signal)
    try:
        yield seen
    finally:
        for signum, handler in previous.items():
            if signal.getsignal(signum) is on_signal:  # not if the application set its own meanwhile
                signal.signal(signum, handler)


_SAVES = 0  # interrupted runs whose results are being written now (:func:`writing_interrupted_results`)
_SAVES_LOCK = threading.Lock()


@contextlib.contextmanager
def writing_interrupted_results() -> Iterator[None]:
    """Marks the writing of an interrupted run's results (its JSON and HTML reports): a thread that waits for the
    run on a worker thread (:func:`run_sync` inside a running loop) lets it finish, past
    :data:`SHUTDOWN_GRACE_S`, so one Ctrl-C never leaves a report half written."""
    global _SAVES
    with _SAVES_LOCK:
        _SAVES += 1
    try:
        yield
    finally:
        with _SAVES_LOCK:
            _SAVES -= 1


def _wait_holding_ctrl_c(event: threading.Event, seconds: float) -> None:
    """Wait up to ``seconds`` for ``event`` while a cancelled run unwinds towards writing the rows it finished; a
    second Ctrl-C in that short wait is held (one stderr line says so), not raised: raised there it ended the process
    before any report was begun, and every finished row vanished with no line naming them (outside attack M1). Once
    a report of the finished rows is written, a Ctrl-C raises and stops the wait for the rest, as in
    :func:`_wait_for_results_written`."""
    import sys
    import time

    from deepeval._files import completed_writes

    deadline = time.monotonic() + seconds
    written_before = completed_writes()
    held = False
    while not event.is_set():
        left = deadline - time.monotonic()
        if left <= 0:
            return
        try:
            event.wait(min(_POLL_S, left))
        except KeyboardInterrupt:
            if _SAVES and completed_writes() > written_before:
                raise  # a report of the finished rows is saved: a second Ctrl-C stops the rest (named at exit)
            if not held:
                held = True
                print(
                    "deepeval: still stopping: the finished rows are saved first (Ctrl-C again while the reports "
                    "are written stops that)",
                    file=sys.stderr,
                )


def _wait_for_results_written(done: threading.Event) -> None:
    """After the grace, wait while the worker writes its interrupted run's results (until it ends). The wait is in
    short slices with the default SIGINT handler in place: a second Ctrl-C raises here and stops waiting; a report
    still being written then is removed at exit and named (:func:`deepeval._files.abandon_unfinished_writes`)."""
    import sys

    announced = False
    while _SAVES and not done.is_set():
        if not announced:
            announced = True
            print(
                "deepeval: writing the interrupted run's reports (Ctrl-C again to stop; an unfinished report is "
                "removed)",
                file=sys.stderr,
            )
        done.wait(_POLL_S)


class _Terminated(SystemExit):
    """SIGTERM in the main thread while it waits for a worker's run (exit status 143); it never leaves
    :func:`_run_on_worker_thread`, which raises a plain ``SystemExit`` in its place."""


def _raise_for_sigterm(signum: int, frame: Any) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a second SIGTERM ends the process at once
    raise _Terminated(128 + signum)


setattr(_raise_for_sigterm, _MARK, "run")
