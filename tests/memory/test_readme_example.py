"""The Python code of examples/memory/README.md runs as written, offline: the model under test is a loopback
OpenAI-compatible server (tool calls in the wire format), grading is on the embedded judge, and the evaluate()
example measures both rows on the ConversationalTestCase instead of skipping them."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from _memory_models import chatbot
from _memory_paths import EXAMPLE, REPO

from deepeval.config.settings import KNOWN_KEYS
from deepeval.memory.manifest import load_manifest
from deepeval.testing.servers import OpenAIChatServer

README = REPO / "examples" / "memory" / "README.md"
DOC_URL = "http://127.0.0.1:8000/v1"


def _python_blocks(text: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


@pytest.fixture
def offline_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for key in list(os.environ):
        if key in KNOWN_KEYS or key.startswith(("DEEPEVAL_", "OPENAI_", "TYPESAFE_", "LOCAL_MODEL_")):
            monkeypatch.delenv(key)
    monkeypatch.chdir(tmp_path)


@pytest.mark.usefixtures("offline_env")
def test_readme_python_example_runs_and_measures_both_rows(capsys: pytest.CaptureFixture[str]) -> None:
    blocks = _python_blocks(README.read_text(encoding="utf-8"))
    assert len(blocks) == 2 and DOC_URL in blocks[0] and "evaluate(" in blocks[1]
    code = "\n".join(blocks).replace("examples/memory/manifest.yaml", str(EXAMPLE))
    with OpenAIChatServer(chatbot(load_manifest(EXAMPLE))) as srv:
        ns: dict[str, object] = {"__name__": "readme_example"}
        exec(compile(code.replace(DOC_URL, srv.base_url), str(README), "exec"), ns)
        sent = srv.counters.requests
    short, wiki, result = ns["short"], ns["wiki"], ns["result"]
    assert [c.turn for c in short.curve] == [9, 19, 29, 39]  # type: ignore[attr-defined]
    assert [c.recall.normalised for c in short.curve] == [1.0, 1.0, 1.0, 1.0]  # type: ignore[attr-defined]
    assert wiki.warnings == [] and list(wiki.wiki_pages) == ["Notes"]  # type: ignore[attr-defined]
    assert wiki.precision.hallucination_rate == 0.0  # type: ignore[attr-defined]
    rows = result.test_results[0].metrics_data  # type: ignore[attr-defined]
    assert [r.name for r in rows] == ["MemoryRecall", "MemoryPrecision"]
    assert all(not r.skipped and r.error is None for r in rows), [(r.name, r.reason, r.error) for r in rows]
    recall, precision = rows
    assert recall.score == 1.0 and recall.success is True  # the wiki holds every fact
    assert precision.score == 1.0 and precision.success is True  # and nothing the conversation did not say
    # 20 keeper updates (a tool call and a closing reply each) + 4 checkpoints of 3, 5, 7 and 10 live facts plus the
    # never-stated probe
    assert sent == 40 + (4 + 6 + 8 + 11)
    printed = capsys.readouterr().out
    assert (
        "1.0 0.0 []" in printed and "('MemoryRecall', 1.0, True), ('MemoryPrecision', 1.0, True)" in printed
    )
