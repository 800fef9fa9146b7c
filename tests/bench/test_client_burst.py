"""bench/client_burst.py: the client-cost benchmark runs end to end against the loopback judge."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench import client_burst


def test_burst_reports_wave_wall_and_cpu_per_call(capsys: pytest.CaptureFixture[str]) -> None:
    assert client_burst.main(["--n", "5", "--waves", "2", "--latency", "0.05"]) == 0
    line = capsys.readouterr().out.strip().splitlines()[-1]
    m = re.search(
        r"wave wall min ([0-9.]+) s, median ([0-9.]+) s; client CPU per call min ([0-9.]+) ms", line
    )
    assert m is not None, line
    wall_min, wall_median, cpu_ms = (float(x) for x in m.groups())
    assert 0.05 <= wall_min <= wall_median < 5.0  # no wave beats the judge's latency
    assert 0.0 < cpu_ms < 100.0
