"""The GGUF judge's sizing rules, without a model: threads from the CPU count, per-call deadlines from prompt and
output size at a measured speed, and the idleness check a close relies on (read from llama.cpp's /metrics text)."""

from __future__ import annotations

import pytest

from deepeval.models.llms.gguf_server import (
    DEADLINE_MAX_S,
    DEADLINE_MIN_S,
    Speed,
    busy_requests,
    deadline,
    default_threads,
    estimate_tokens,
)

#: llama.cpp's /metrics reply, cut to the gauges we read and their neighbours (xllamacpp 2026.10, idle server)
METRICS_IDLE = """# HELP llamacpp:prompt_tokens_seconds Average prompt throughput in tokens/s
# TYPE llamacpp:prompt_tokens_seconds gauge
llamacpp:prompt_tokens_seconds 0
# HELP llamacpp:requests_processing Number of requests processing
# TYPE llamacpp:requests_processing gauge
llamacpp:requests_processing 0
# HELP llamacpp:requests_deferred Number of requests deferred
# TYPE llamacpp:requests_deferred gauge
llamacpp:requests_deferred 0
# HELP llamacpp:n_busy_slots_per_decode Average number of busy slots per llama_decode() call
# TYPE llamacpp:n_busy_slots_per_decode gauge
llamacpp:n_busy_slots_per_decode 0
"""


@pytest.mark.parametrize(("cpus", "threads"), [(1, 1), (2, 1), (3, 1), (4, 2), (8, 4), (16, 8), (64, 8)])
def test_threads_are_half_the_cpus_between_one_and_eight(cpus: int, threads: int) -> None:
    assert default_threads(cpus) == threads


def test_busy_requests_reads_processing_plus_deferred() -> None:
    assert busy_requests(METRICS_IDLE) == 0
    busy = METRICS_IDLE.replace("requests_processing 0", "requests_processing 1").replace(
        "requests_deferred 0", "requests_deferred 2"
    )
    assert busy_requests(busy) == 3
    assert busy_requests("<html>not metrics</html>") is None


def test_the_starting_speed_scales_with_the_file_size_with_a_floor() -> None:
    reference = Speed(Speed.REFERENCE_BYTES)
    assert (reference.prompt_ms, reference.generated_ms) == (Speed.PROMPT_MS, Speed.GENERATED_MS)
    half = Speed(Speed.REFERENCE_BYTES // 2)
    assert half.generated_ms == pytest.approx(Speed.GENERATED_MS / 2, rel=1e-6)
    tiny, floor = Speed(100_000_000), Speed(350_000_000)  # a 135M model costs no less than a 0.35 GB one
    assert (tiny.prompt_ms, tiny.generated_ms) == (floor.prompt_ms, floor.generated_ms)


def test_speed_moves_a_third_of_the_way_to_each_measurement_and_ignores_small_or_bad_ones() -> None:
    speed = Speed(Speed.REFERENCE_BYTES)
    speed.observe({"prompt_n": 200, "prompt_ms": 200 * 13.0, "predicted_n": 50, "predicted_ms": 50 * 38.0})
    assert speed.prompt_ms == pytest.approx(43.0 + (13.0 - 43.0) / 3)
    assert speed.generated_ms == pytest.approx(98.0 + (38.0 - 98.0) / 3)
    assert speed.samples == 2
    before = (speed.prompt_ms, speed.generated_ms)
    for timings in (
        {"prompt_n": 5, "prompt_ms": 1.0, "predicted_n": 3, "predicted_ms": 1.0},  # fixed costs dominate
        {"prompt_n": "200", "prompt_ms": None},
        {"predicted_n": 100, "predicted_ms": 0},
        None,
        "timings",
    ):
        speed.observe(timings)
    assert (speed.prompt_ms, speed.generated_ms) == before and speed.samples == 2


def test_deadline_grows_with_prompt_and_output_and_stays_within_bounds() -> None:
    speed = Speed(Speed.REFERENCE_BYTES)  # 43 ms per prompt token, 98 ms per generated token
    # 1,000 prompt tokens and 512 output tokens: 43 s + 50.2 s expected; 15 s + 3 x that
    assert deadline(speed, 1_000, 512) == pytest.approx(15 + 3 * (43.0 + 50.176))
    assert deadline(speed, 2_000, 512) > deadline(speed, 1_000, 512) > deadline(speed, 1_000, 64)
    assert deadline(speed, 1, 1) == DEADLINE_MIN_S
    assert deadline(speed, 10**6, 10**5) == DEADLINE_MAX_S


def test_token_estimate_overcounts_rather_than_under() -> None:
    assert estimate_tokens("") == 32
    assert estimate_tokens("x" * 300) == 132
