"""--backend ray on the CLIs (deepeval evaluate FILE, deepeval test run) and in assert_test."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from deepeval.cli.main import app

pytestmark = pytest.mark.ray


def test_evaluate_file_on_ray_matches_local(ray_cluster: Any, tmp_path: Path) -> None:
    from ray_fakes import CrcMetric

    data = tmp_path / "cases.jsonl"
    inputs = [f"question {i}" for i in range(25)]
    data.write_text("\n".join(json.dumps({"input": q, "actual_output": "a"}) for q in inputs) + "\n")
    runner = CliRunner()
    outs = {}
    for backend in ("local", "ray"):
        folder = tmp_path / backend
        res = runner.invoke(
            app,
            [
                "evaluate",
                str(data),
                "-m",
                "ray_fakes:CrcMetric",
                "--backend",
                backend,
                "--block-size",
                "4",
                "--ray-workers",
                "2",
                "--no-progress",
                "--results-folder",
                str(folder),
            ],
        )
        assert res.exit_code in (0, 1), res.output
        report = json.loads(next(folder.glob("*-*.json")).read_text())
        outs[backend] = [(t["input"], t["metrics_data"][0]["score"]) for t in report["test_results"]]
    expected = [(q, CrcMetric().measure(type("TC", (), {"input": q})())) for q in inputs]
    assert outs["ray"] == outs["local"] == expected
    assert report["extras"]["ray"]["blocks"] == 7  # 25 cases in blocks of 4


def test_evaluate_file_bad_backend_exits_2(tmp_path: Path) -> None:
    data = tmp_path / "cases.jsonl"
    data.write_text(json.dumps({"input": "q", "actual_output": "a"}) + "\n")
    res = CliRunner().invoke(app, ["evaluate", str(data), "-m", "ray_fakes:CrcMetric", "--backend", "spark"])
    assert res.exit_code == 2 and 'backend must be "local" or "ray"' in res.output


def test_test_run_rejects_unknown_backend(tmp_path: Path) -> None:
    (tmp_path / "test_x.py").write_text("def test_x():\n    pass\n")
    res = CliRunner().invoke(app, ["test", "run", str(tmp_path / "test_x.py"), "--backend", "spark"])
    assert res.exit_code == 4 and "--backend must be local or ray" in res.output


def test_assert_test_uses_the_backend_from_the_environment(
    ray_cluster: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ray_fakes import CrcMetric, crc

    from deepeval import assert_test
    from deepeval.test_case import LLMTestCase

    monkeypatch.setenv("DEEPEVAL_BACKEND", "ray")  # what `deepeval test run --backend ray` sets
    passing = next(f"p{i}" for i in range(100) if crc(f"p{i}") % 100 >= 50)
    failing = next(f"f{i}" for i in range(100) if crc(f"f{i}") % 100 < 50)
    assert_test(LLMTestCase(input=passing, actual_output="a"), [CrcMetric()])
    with pytest.raises(AssertionError, match=r"(?s)Metrics failed on test case .*Crc \(score: 0\.\d+"):
        assert_test(LLMTestCase(input=failing, actual_output="a"), [CrcMetric()])
    monkeypatch.setenv("DEEPEVAL_BACKEND", "spark")
    with pytest.raises(Exception, match="backend must be"):
        assert_test(LLMTestCase(input=passing, actual_output="a"), [CrcMetric()])
