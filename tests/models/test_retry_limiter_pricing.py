"""Unit tests: Retry-After parsing, retry policy settings, AdaptiveLimiter (AIMD + pause), price lookup."""

from __future__ import annotations

import asyncio
import email.utils
import threading

import pytest

from deepeval.errors import ConfigurationError, JudgeError
from deepeval.models.http.rate_limit import AdaptiveLimiter
from deepeval.models.http.retry import RetryPolicy, call_with_retries, error_for_status, parse_retry_after
from deepeval.models.pricing import lookup_price, resolve_price
from deepeval.models.usage import track_usage


def test_parse_retry_after_forms() -> None:
    assert parse_retry_after({"retry-after-ms": "250", "Retry-After": "9"}) == 0.25  # ms wins
    assert parse_retry_after({"Retry-After": "3"}) == 3.0
    assert parse_retry_after({"retry-after": "0.5"}) == 0.5
    date = email.utils.formatdate(1_000_010, usegmt=True)
    assert parse_retry_after({"Retry-After": date}, now=1_000_000) == pytest.approx(10.0)
    assert parse_retry_after({"Retry-After": "soon"}) is None
    assert parse_retry_after({}) is None and parse_retry_after({"retry-after": "-4"}) == 0.0


def test_policy_from_settings(monkeypatch) -> None:
    assert RetryPolicy.from_settings() == RetryPolicy(max_retries=4, timeout=60.0)
    monkeypatch.setenv("DEEPEVAL_JUDGE_MAX_RETRIES", "0")
    monkeypatch.setenv("DEEPEVAL_JUDGE_TIMEOUT", "7.5")
    policy = RetryPolicy.from_settings()
    assert policy.max_retries == 0 and policy.timeout == 7.5
    assert RetryPolicy.from_settings(max_retries=2).max_retries == 2
    monkeypatch.setenv("DEEPEVAL_JUDGE_TIMEOUT", "fast")
    with pytest.raises(ConfigurationError, match="DEEPEVAL_JUDGE_TIMEOUT"):
        RetryPolicy.from_settings()
    with pytest.raises(ConfigurationError):
        RetryPolicy(max_retries=-1)


def test_backoff_is_full_jitter_under_the_ceiling() -> None:
    policy = RetryPolicy(base_delay=0.5, max_delay=3.0)
    waits = [policy.backoff(n) for n in range(8) for _ in range(20)]
    assert all(0.0 <= w <= 3.0 for w in waits)
    assert max(policy.backoff(0) for _ in range(50)) <= 0.5


def test_status_classification() -> None:
    cases = {
        400: ("bad_request", False),
        401: ("auth", False),
        403: ("auth", False),
        404: ("bad_request", False),
        408: ("timeout", True),
        413: ("context_limit", False),
        422: ("bad_request", False),
        429: ("rate_limit", True),
        500: ("server", True),
        503: ("server", True),
    }
    for status, (kind, retryable) in cases.items():
        err = error_for_status(status, model="m")
        assert (err.kind, err.retryable, err.status_code) == (kind, retryable, status)
        assert str(err).startswith("judge m: HTTP")


def test_retry_after_above_cap_is_not_waited_for() -> None:
    calls = 0

    async def attempt() -> str:
        nonlocal calls
        calls += 1
        raise error_for_status(429, model="m", retry_after=3600)

    slept: list[float] = []

    async def fake_sleep(s: float) -> None:
        slept.append(s)

    with pytest.raises(JudgeError) as info:
        asyncio.run(
            call_with_retries(attempt, policy=RetryPolicy(max_retry_after=60), model="m", sleep=fake_sleep)
        )
    assert calls == 1 and slept == [] and info.value.retryable


def test_fake_sleep_sees_retry_after_and_counts_retries() -> None:
    outcomes = [error_for_status(429, model="m", retry_after=2.0), error_for_status(502, model="m"), "done"]

    async def attempt() -> str:
        item = outcomes.pop(0)
        if isinstance(item, JudgeError):
            raise item
        return item

    slept: list[float] = []

    async def fake_sleep(s: float) -> None:
        slept.append(s)

    policy = RetryPolicy(base_delay=0.1, max_delay=0.1)
    with track_usage() as usage:
        assert asyncio.run(call_with_retries(attempt, policy=policy, model="m", sleep=fake_sleep)) == "done"
    assert usage.retries == 2 and len(slept) == 2
    assert 2.0 <= slept[0] <= 2.2 and 0.0 <= slept[1] <= 0.1


# -- AdaptiveLimiter ------------------------------------------------------------------------------------------------


def test_limiter_halves_on_429_and_grows_back() -> None:
    lim = AdaptiveLimiter(8, min_concurrency=1)
    lim.on_rate_limited()
    assert lim.cap == 4
    lim.on_rate_limited()
    lim.on_rate_limited()
    lim.on_rate_limited()
    assert lim.cap == 1  # floor
    for _ in range(1):
        lim.on_success()
    assert lim.cap == 2  # cap successes in a row -> +1
    for _ in range(2):
        lim.on_success()
    assert lim.cap == 3
    for _ in range(100):
        lim.on_success()
    assert lim.cap == 8  # ceiling
    with pytest.raises(ValueError):
        AdaptiveLimiter(0)


def test_limiter_enforces_cap_and_pause() -> None:
    clock = [0.0]
    slept: list[float] = []

    async def fake_sleep(s: float) -> None:
        slept.append(s)
        clock[0] += s

    lim = AdaptiveLimiter(2, clock=lambda: clock[0], sleep=fake_sleep)
    peak = 0

    async def work() -> None:
        nonlocal peak
        async with lim.slot():
            peak = max(peak, lim.in_use)
            await asyncio.sleep(0.001)

    async def main() -> None:
        await asyncio.gather(*(work() for _ in range(7)))
        lim.on_rate_limited(retry_after=1.5)
        assert lim.paused_for == pytest.approx(1.5)
        await work()

    asyncio.run(main())
    assert peak == 2 and lim.in_use == 0
    assert slept == [pytest.approx(1.5)]


def test_limiter_works_across_threads_and_loops() -> None:
    lim = AdaptiveLimiter(1)
    active = 0
    peak = 0
    lock = threading.Lock()

    async def work() -> None:
        nonlocal active, peak
        async with lim.slot():
            with lock:
                active += 1
                peak = max(peak, active)
            await asyncio.sleep(0.01)
            with lock:
                active -= 1

    async def three() -> None:
        await asyncio.wait_for(asyncio.gather(*(work() for _ in range(3))), timeout=5)

    def run() -> None:
        asyncio.run(three())

    threads = [threading.Thread(target=run) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert peak == 1 and lim.in_use == 0


def test_cancelled_waiter_gives_its_slot_back() -> None:
    lim = AdaptiveLimiter(1)

    async def main() -> None:
        await lim.acquire()
        waiter = asyncio.ensure_future(lim.acquire())
        await asyncio.sleep(0)
        waiter.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiter
        lim.release()
        assert lim.in_use == 0
        await asyncio.wait_for(lim.acquire(), timeout=1)
        lim.release()

    asyncio.run(main())


# -- pricing ---------------------------------------------------------------------------------------------------------


def test_price_lookup_and_overrides() -> None:
    price = lookup_price("gpt-5.4")
    assert price is not None and price.cost(1_000_000, 1_000_000) == pytest.approx(17.5)
    assert lookup_price("openai/gpt-4o-mini-2024-07-18") == lookup_price("gpt-4o-mini")
    assert lookup_price("gpt-4.1-0125") == lookup_price("gpt-4.1")
    assert lookup_price("llama3") is None
    assert resolve_price("llama3", input_override=None, output_override=None) is None
    half = resolve_price("gpt-5.4", input_override=1e-6, output_override=None)
    assert half is not None and half.input == 1e-6 and half.output == pytest.approx(15e-6)
    with pytest.raises(ValueError):
        resolve_price("gpt-5.4", input_override=-1.0, output_override=None)


def test_one_cut_per_congestion_event() -> None:
    lim = AdaptiveLimiter(16)
    started = lim.epoch  # three attempts in flight when the server starts refusing
    lim.on_rate_limited(started_epoch=started)
    lim.on_rate_limited(started_epoch=started)
    lim.on_rate_limited(started_epoch=started)
    assert lim.cap == 8 and lim.epoch == started + 1
    lim.on_rate_limited(started_epoch=lim.epoch)  # an attempt started after the cut
    assert lim.cap == 4


@pytest.mark.parametrize(
    ("tokens", "expected"),
    [((1000, 10), 0.0021), ((None, 10), None), ((1000, None), None), ((None, None), None)],
)
def test_a_reply_with_a_refused_token_count_has_unknown_cost(
    tokens: tuple[int | None, int | None], expected
) -> None:
    """A server's refused prompt_tokens (NaN, negative, absurd) was counted as 0: a known, understated cost
    (outside attack 5, L1). Half a count is unknown; a free side (Ollama's cached prompt) is still 0."""
    from deepeval.models.pricing import Price

    assert Price(2e-6, 10e-6).reply_cost(*tokens) == (pytest.approx(expected) if expected else None)
    assert Price(0.0, 0.0).reply_cost(None, None) == 0.0


def test_a_reply_cost_past_every_float_is_unknown() -> None:
    """An absurd price override (1e308 USD per token) times 1,000 tokens overflowed to inf: `$inf` in the run."""
    from deepeval.models.pricing import Price

    assert Price(1e308, 0.0).reply_cost(1000, 10) is None
    assert Price(1e300, 0.0).reply_cost(1000, 10) == pytest.approx(1e303)


@pytest.mark.parametrize(
    ("costs", "total"),
    [
        ([0.25, None, 0.5], 0.75),  # unknown costs are left out, as before
        ([None, None], None),
        ([], None),
        ([1e308, 1e308], None),  # finite rows, infinite sum: unknown
        ([1e308, 1e308, 1.0], None),  # and it stays unknown once overflowed
        ([1e308, float("inf"), float("nan"), -1.0, True, "0.1", 10**400], 1e308),  # not costs: left out
    ],
)
def test_a_cost_sum_that_is_not_finite_is_unknown(costs: list[object], total: float | None) -> None:
    from deepeval.models.usage import UsageTracker, sum_costs

    assert sum_costs(costs) == total
    tracker = UsageTracker()  # a measure's running sum (GEval's two 1e308 calls made its row $inf)
    for cost in costs:
        tracker.add(cost=cost)  # type: ignore[arg-type]
    assert tracker.cost == total
