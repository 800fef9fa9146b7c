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
  :data:`SHUTDOWN_GRACE_S` seconds to finish its ``finally`` blocks, then abandoned.

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
import contextvars
import os
import queue
import signal
import threading
from collections.abc import Awaitable, Callable, Coroutine
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


def run_sync(coro: Coroutine[Any, Any, T]) -> T:
    """Run ``coro`` to completion and return its result (exceptions propagate unchanged).

    Raises:
        KeyboardInterrupt: Ctrl-C while it ran (the run was cancelled first; see the module docstring).
    """
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
    interrupted = False
    previous: Any = None

    def on_sigint(signum: int, frame: Any) -> None:
        nonlocal interrupted
        if interrupted or task.done():
            raise KeyboardInterrupt
        interrupted = True
        loop.call_soon_threadsafe(task.cancel)

    if handle_sigint and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        previous = signal.signal(signal.SIGINT, on_sigint)
    try:
        try:
            loop.run_until_complete(task)
        except asyncio.CancelledError:
            if interrupted:
                raise KeyboardInterrupt from None
            raise
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
        _close(loop)


def _close(loop: asyncio.AbstractEventLoop) -> None:
    """Cancel what is still pending, give it :data:`SHUTDOWN_GRACE_S` seconds, shut async generators down (this is
    what closes the per-loop HTTP clients) and close the loop. Tasks that outlive the grace are abandoned."""
    try:
        pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
        for t in pending:
            abandon(t)
        if pending:
            loop.run_until_complete(asyncio.wait(pending, timeout=SHUTDOWN_GRACE_S))
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.run_until_complete(loop.shutdown_default_executor())  # our executor never joins
    finally:
        loop.close()


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
    # cannot run while we block it: put the default handler back while we wait, so Ctrl-C raises here.
    previous = signal.getsignal(signal.SIGINT) if in_main else None
    if previous is not None:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        thread.start()
        while not done.wait(_POLL_S):
            pass
    except BaseException:
        run.started.wait(SHUTDOWN_GRACE_S)
        run.cancel()
        done.wait(SHUTDOWN_GRACE_S)
        raise
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
    if failure:
        raise failure[0]
