"""A conversational golden's turns keep ``user_id`` and the MCP call lists through ``save_as`` and back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from deepeval.dataset import ConversationalGolden, EvaluationDataset
from deepeval.test_case import ToolCall, Turn


@pytest.mark.parametrize("file_type", ["json", "jsonl", "csv"])
def test_turn_user_id_and_tools_survive_save_and_load(tmp_path: Path, file_type: str) -> None:
    golden = ConversationalGolden(
        scenario="refund",
        turns=[
            Turn(role="user", content="hi", user_id="u-1", tools_called=[ToolCall(name="lookup")]),
            Turn(role="assistant", content="hello"),
        ],
    )
    path = EvaluationDataset([golden]).save_as(file_type, directory=str(tmp_path), file_name="convo")
    if file_type != "csv":
        first = json.loads(
            Path(path).read_text().splitlines()[0] if file_type == "jsonl" else Path(path).read_text()
        )
        record = first if file_type == "jsonl" else first[0]
        turn = record["turns"][0]
        assert (turn["user_id"], turn["tools_called"][0]["name"], turn["mcp_tools_called"]) == (
            "u-1",
            "lookup",
            None,
        )
    back = EvaluationDataset()
    loaders = {
        "csv": back.add_goldens_from_csv_file,
        "json": back.add_goldens_from_json_file,
        "jsonl": back.add_goldens_from_jsonl_file,
    }
    loaders[file_type](path)
    (loaded,) = back.goldens
    assert [t.user_id for t in loaded.turns] == ["u-1", None]
    assert loaded.turns[0].tools_called[0].name == "lookup"
