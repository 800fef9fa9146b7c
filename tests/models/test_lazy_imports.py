"""Imports a path does not use stay unloaded: on the embedded (offline) path, building our metrics, measuring a test
case and running ``evaluate()`` never import the HTTP stack (the openai SDK, aiohttp, httpx, tenacity). The openai
SDK alone used to cost ~0.45 s of the first ``AnswerRelevancyMetric()`` (it came in to name the TypeSafe judge)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"
HTTP_STACK = ("openai", "aiohttp", "httpx", "tenacity")

_PRELUDE = """
import json, sys
from deepeval.test_case import ConversationalTestCase, LLMTestCase, Turn
RAG = LLMTestCase(input="What is the capital of France?", actual_output="Paris is the capital of France.",
                  retrieval_context=["Paris is the capital and largest city of France."])
CONV = ConversationalTestCase(turns=[Turn(role="user", content="My name is Ann."),
                                     Turn(role="assistant", content="Hello Ann, how can I help?")])
def report(**extra):
    print(json.dumps({"loaded": [m for m in HTTP_STACK if m in sys.modules], **extra}))
""".replace("HTTP_STACK", repr(HTTP_STACK))


def _run(tmp_path: Path, code: str) -> dict[str, object]:
    """Run ``code`` in a fresh interpreter with no judge configured (no keys, no dotenv files, no eval mode)."""
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(tmp_path),
        "ENV_DIR_PATH": str(tmp_path),
        "DEEPEVAL_DISABLE_DOTENV": "1",
        "DEEPEVAL_TELEMETRY_OPT_OUT": "1",
        "DEEPEVAL_CACHE_FOLDER": str(tmp_path / ".deepeval"),
        "PYTHONPATH": str(SRC),
    }
    out = subprocess.run(
        [sys.executable, "-c", _PRELUDE + code],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    result: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def test_building_metrics_on_the_embedded_path_loads_no_http_stack(tmp_path: Path) -> None:
    code = """
import deepeval.metrics
from deepeval.metrics import AnswerRelevancyMetric, ContextualRelevancyMetric, KnowledgeRetentionMetric
metrics = [AnswerRelevancyMetric(), ContextualRelevancyMetric(), KnowledgeRetentionMetric()]
report(models=[m.evaluation_model for m in metrics], modes=[m.eval_mode.value for m in metrics])
"""
    result = _run(tmp_path, code)
    assert result["loaded"] == []
    assert result["modes"] == ["hybrid"] * 3  # the offline default: hybrid on the embedded judge
    assert all("deepeval-local-1" in str(name) for name in result["models"])  # type: ignore[union-attr]


def test_measuring_and_evaluating_on_the_embedded_path_loads_no_http_stack(tmp_path: Path) -> None:
    code = """
from deepeval import evaluate
from deepeval.evaluate import DisplayConfig
from deepeval.metrics import AnswerRelevancyMetric, ContextualRelevancyMetric, KnowledgeRetentionMetric
score = AnswerRelevancyMetric().measure(RAG)
res = evaluate([RAG, CONV], [ContextualRelevancyMetric(), KnowledgeRetentionMetric()],
               display_config=DisplayConfig(print_results=False, show_indicator=False))
rows = [(md.name, md.error) for tr in res.test_results for md in tr.metrics_data]
report(score=score, rows=rows)
"""
    result = _run(tmp_path, code)
    assert result["loaded"] == []
    assert 0.0 <= float(result["score"]) <= 1.0  # type: ignore[arg-type]
    names = sorted(str(name) for name, _error in result["rows"])  # type: ignore[union-attr]
    # 2 test cases x 2 metrics: the inapplicable pairs are skipped rows, none errored
    assert names == ["Contextual Relevancy"] * 2 + ["Knowledge Retention"] * 2
    assert all(err is None for _name, err in result["rows"])  # type: ignore[union-attr]


@pytest.mark.parametrize("module", ["deepeval.models.system_one.names", "deepeval.models.resolve"])
def test_judge_name_modules_are_light(tmp_path: Path, module: str) -> None:
    result = _run(tmp_path, f"import {module}\nreport()")
    assert result["loaded"] == []
