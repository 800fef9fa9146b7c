"""The GGUF judge's sizing rules, without a model: threads from the CPU count, per-call deadlines from prompt and
output size at a measured speed, and the idleness check a close relies on (read from llama.cpp's /metrics text)."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

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


def _busy_server(tmp_path: Path) -> Any:
    """A LlamaServer whose llama.cpp is 'busy' for ever (no model: a sentinel object, /metrics faked)."""
    from deepeval.models.llms import gguf_server

    model = tmp_path / "m.gguf"
    model.write_bytes(b"GGUF" + b"\0" * 64)
    server = gguf_server.LlamaServer(gguf_server.ServerConfig(path=str(model), n_ctx=256, n_threads=1))
    server._server = object()
    server._busy_requests = lambda timeout: 1  # type: ignore[method-assign]
    return server


def test_a_quiet_stop_of_a_busy_server_leaves_it_to_the_exit_at_once(tmp_path: Path) -> None:
    server = _busy_server(tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # quiet: no 'still busy' warning
        assert server.stop(0.0, quiet=True) is False
    assert server._server is None and not server.folder.exists()


@pytest.mark.parametrize("how", ["exit", "signal", "neither"])
def test_release_does_not_wait_for_a_busy_server_at_exit_or_after_a_signal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    # Ctrl-C during a GGUF run took up to 21 s: the exit waited for llama.cpp to finish the cancelled generation
    from deepeval import _concurrency
    from deepeval.models.llms import gguf_server

    server = _busy_server(tmp_path)
    calls: list[tuple[float, bool]] = []
    monkeypatch.setattr(server, "stop", lambda wait, quiet=False: calls.append((wait, quiet)) or False)
    monkeypatch.setattr(gguf_server, "_AT_EXIT", how == "exit")
    monkeypatch.setattr(_concurrency, "_stop_reason", "SIGINT" if how == "signal" else None)
    server.users = 1
    gguf_server.release(server, wait=30.0)
    assert calls == ([(30.0, False)] if how == "neither" else [(0.0, True)])


def test_at_exit_every_open_server_is_stopped_without_waiting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from deepeval.models.llms import gguf_server

    server = _busy_server(tmp_path)
    monkeypatch.setitem(gguf_server._SERVERS, server.config, server)
    monkeypatch.setattr(gguf_server, "_AT_EXIT", False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        gguf_server._stop_at_exit()
    assert server._stopped and server._server is None and not server.folder.exists()


def _gguf(*, tensors: list[tuple[str, int]], alignment: int | None = None, version: int = 3) -> bytes:
    """A GGUF header (spec v3 layout): a string and a string-array metadata entry, the alignment when given, and
    1-D f32 tensor infos ``(name, offset)``; no tensor data."""
    import struct

    def string(text: str) -> bytes:
        raw = text.encode()
        return struct.pack("<Q", len(raw)) + raw

    kvs = [string("general.name") + struct.pack("<I", 8) + string("toy")]
    kvs.append(string("tokenizer.tokens") + struct.pack("<IIQ", 9, 8, 2) + string("a") + string("bc"))
    if alignment is not None:
        kvs.append(string("general.alignment") + struct.pack("<II", 4, alignment))
    infos = [string(name) + struct.pack("<IQIQ", 1, 8, 0, offset) for name, offset in tensors]
    return b"GGUF" + struct.pack("<IQQ", version, len(tensors), len(kvs)) + b"".join(kvs) + b"".join(infos)


def test_required_size_is_the_aligned_data_start_plus_the_last_tensor_offset() -> None:
    import io

    from deepeval.models.llms.gguf_header import required_size

    header = _gguf(tensors=[("a", 0), ("b", 4096)])
    assert required_size(io.BytesIO(header)) == -(-len(header) // 32) * 32 + 4096 + 1
    aligned = _gguf(tensors=[("a", 0), ("b", 100)], alignment=256)
    assert required_size(io.BytesIO(aligned)) == 256 + 100 + 1
    assert required_size(io.BytesIO(_gguf(tensors=[("a", 0)], version=1))) is None  # a version we do not read


def test_a_truncated_or_cut_gguf_file_is_refused_before_it_is_loaded(tmp_path: Path) -> None:
    from deepeval.errors import ConfigurationError
    from deepeval.models.llms.gguf_model import check_gguf_file

    header = _gguf(tensors=[("a", 0), ("b", 4096)])
    needed = -(-len(header) // 32) * 32 + 4096 + 1
    whole, cut, inside = tmp_path / "whole.gguf", tmp_path / "cut.gguf", tmp_path / "inside.gguf"
    whole.write_bytes(header.ljust(needed, b"\0"))
    cut.write_bytes(header.ljust(needed - 1, b"\0"))
    inside.write_bytes(header[: len(header) // 2])
    check_gguf_file(whole)
    with pytest.raises(
        ConfigurationError, match=f"is truncated: {needed - 1:,} bytes, its header needs at least"
    ):
        check_gguf_file(cut)
    with pytest.raises(ConfigurationError, match="the file ends inside its header"):
        check_gguf_file(inside)
