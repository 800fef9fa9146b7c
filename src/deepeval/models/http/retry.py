"""Retries of judge calls, in one place (tenacity).

Policy: retry rate limits (429), server errors (5xx, 408, 409), timeouts and connection errors with exponential
backoff and full jitter (``uniform(0, min(max_delay, base_delay * 2**n))``, the "full jitter" scheme of AWS's
"Exponential Backoff and Jitter", 2015); a 429 waits at least the server's ``retry-after-ms`` / ``Retry-After``
instead. Never retry 400/401/403/404/422 or other client errors. Each attempt runs under a deadline
(``DEEPEVAL_JUDGE_TIMEOUT``, default 60 s); at most ``DEEPEVAL_JUDGE_MAX_RETRIES`` (default 4) retries follow the
first attempt. Every retry is recorded with ``record_usage(retries=1)``.

Clients turn failures into :class:`~deepeval.errors.JudgeError` with :mod:`deepeval.models.http.errors` (the one
mapping of transport errors, statuses and reply bodies; ``error_for_status``, ``timeout_error``,
``connection_error`` and ``parse_retry_after`` stay importable from here) and run attempts through
:func:`call_with_retries`.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from tenacity import AsyncRetrying, RetryCallState, retry_if_exception, stop_after_attempt

from deepeval.config.settings import Settings, get_settings
from deepeval.errors import ConfigurationError, ErrorKind, JudgeError
from deepeval.models.http.errors import connection_error as connection_error
from deepeval.models.http.errors import error_for_status as error_for_status
from deepeval.models.http.errors import parse_retry_after as parse_retry_after
from deepeval.models.http.errors import timeout_error as timeout_error
from deepeval.models.http.rate_limit import AdaptiveLimiter
from deepeval.models.usage import record_usage

T = TypeVar("T")

DEFAULT_TIMEOUT = 60.0
DEFAULT_MAX_RETRIES = 4


@dataclass(frozen=True)
class RetryPolicy:
    """How a client retries.

    Attributes:
        max_retries: retries after the first attempt (>= 0).
        timeout: seconds per attempt (> 0).
        base_delay: first backoff ceiling in seconds; the n-th retry waits ``uniform(0, min(max_delay,
            base_delay * 2**n))``.
        max_delay: ceiling of one backoff wait, seconds.
        max_retry_after: a ``Retry-After`` longer than this (seconds) is not waited for: the call fails at once
            with a retryable rate-limit error (so hybrid mode can fall back instead of stalling).
        timeout_note: where ``timeout`` came from, named in a timeout error's message.
    """

    max_retries: int = DEFAULT_MAX_RETRIES
    timeout: float = DEFAULT_TIMEOUT
    base_delay: float = 0.5
    max_delay: float = 20.0
    max_retry_after: float = 120.0
    timeout_note: str = "DEEPEVAL_JUDGE_TIMEOUT"

    def __post_init__(self) -> None:
        if self.max_retries < 0:
            raise ConfigurationError(f"max_retries must be >= 0, got {self.max_retries}")
        if not self.timeout > 0:
            raise ConfigurationError(f"the judge timeout must be > 0 seconds, got {self.timeout}")
        if self.base_delay < 0 or self.max_delay < 0:
            raise ConfigurationError("backoff delays must be >= 0 seconds")

    @classmethod
    def from_settings(
        cls,
        settings: Settings | None = None,
        *,
        max_retries: int | None = None,
        timeout: float | None = None,
        **overrides: Any,
    ) -> RetryPolicy:
        """Policy from ``DEEPEVAL_JUDGE_MAX_RETRIES`` / ``DEEPEVAL_JUDGE_TIMEOUT``; explicit arguments win.

        Raises:
            ConfigurationError: a setting that is not a number or out of range.
        """
        s = settings or get_settings()
        if max_retries is None:
            raw = s.get_float("DEEPEVAL_JUDGE_MAX_RETRIES", DEFAULT_MAX_RETRIES)
            max_retries = int(raw if raw is not None else DEFAULT_MAX_RETRIES)
        if timeout is None:
            raw_timeout = s.get_float("DEEPEVAL_JUDGE_TIMEOUT", DEFAULT_TIMEOUT)
            timeout = (
                DEFAULT_TIMEOUT if raw_timeout is None else raw_timeout
            )  # 0 is refused below, not defaulted
        return cls(max_retries=max_retries, timeout=timeout, **overrides)

    def backoff(self, retry_number: int, rng: random.Random | None = None) -> float:
        """Full-jitter wait before retry ``retry_number`` (0-based), seconds."""
        ceiling = min(self.max_delay, self.base_delay * (2**retry_number))
        return (rng or random).uniform(0.0, ceiling)


# -- the retry loop ------------------------------------------------------------------------------------------------


async def call_with_retries(
    attempt: Callable[[], Awaitable[T]],
    *,
    policy: RetryPolicy,
    model: str,
    limiter: AdaptiveLimiter | None = None,
    error_cls: type[JudgeError] = JudgeError,
    sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    rng: random.Random | None = None,
) -> T:
    """Run ``attempt()`` with the policy's deadline and retries; return its result.

    ``attempt`` raises :class:`JudgeError` (with ``retry_after`` set for 429s) on failure; anything else propagates
    unchanged. Each attempt holds a ``limiter`` slot; a 429 tells the limiter to back off (once per congestion
    event) and pause; a success tells it to grow.

    Raises:
        JudgeError: the last error once retries are spent or the error is not retryable; its message ends with the
            number of attempts made when more than one was.
    """
    attempts = 0

    async def one() -> T:
        nonlocal attempts
        attempts += 1
        epoch = 0
        if limiter is not None:
            await limiter.acquire()
            epoch = limiter.epoch
        try:
            try:
                result = await asyncio.wait_for(attempt(), timeout=policy.timeout)
            except asyncio.TimeoutError:
                raise timeout_error(model, policy.timeout, error_cls, note=policy.timeout_note) from None
        except JudgeError as exc:
            if limiter is not None and exc.kind == ErrorKind.rate_limit:
                limiter.on_rate_limited(exc.retry_after, started_epoch=epoch)
            raise
        finally:
            if limiter is not None:
                limiter.release()
        if limiter is not None:
            limiter.on_success()
        return result

    def wait(state: RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome else None
        backoff = policy.backoff(state.attempt_number - 1, rng)
        retry_after = exc.retry_after if isinstance(exc, JudgeError) else None
        if retry_after is not None:  # honour the server: at least Retry-After, plus up to 10% jitter (<= 1 s)
            return float(retry_after) + (rng or random).uniform(0.0, min(0.1 * retry_after, 1.0))
        return backoff

    def should_retry(exc: BaseException) -> bool:
        if not (isinstance(exc, JudgeError) and exc.retryable):
            return False
        return (exc.retry_after or 0.0) <= policy.max_retry_after

    def before_sleep(state: RetryCallState) -> None:
        record_usage(retries=1)

    retrying = AsyncRetrying(
        retry=retry_if_exception(should_retry),
        stop=stop_after_attempt(policy.max_retries + 1),
        wait=wait,
        sleep=sleep,
        before_sleep=before_sleep,
        reraise=True,
    )
    try:
        return await retrying(one)
    except JudgeError as exc:
        if attempts > 1 and exc.args:
            exc.args = (f"{exc.args[0]} (gave up after {attempts} attempts)", *exc.args[1:])
        exc.attempts = attempts
        raise
