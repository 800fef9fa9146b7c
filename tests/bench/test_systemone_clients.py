"""Independent /v1/systemone clients (the official typesafe-sdk, deepeval 4.3.1's TypeSafeModel, avrik-sdk) decide
noul, choice and score questions against our loopback server without errors (issue 39). Each runs in its own
interpreter; a client whose interpreter is not on this machine is skipped (``bench/.venvs/deepeval-4.3.1``;
``DEEPEVAL_AVRIK_PYTHON`` for a scratch venv with avrik-sdk)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from bench.systemone_clients import Client, clients, run_client  # noqa: E402

CLIENTS = {c.name: c for c in clients()}


def _client(name: str) -> Client:
    client = CLIENTS[name]
    if client.python is None:
        pytest.skip(f"no interpreter with {name} on this machine")
    return client


@pytest.mark.parametrize("name", ["typesafe-sdk", "deepeval-4.3.1", "avrik-sdk"])
def test_client_decides_noul_choice_and_score(name: str) -> None:
    out = run_client(_client(name))
    # the loopback responder: noul 0.9; the last option at 0.8; score mass 0.05, 0.05, 0.9 -> expected level 1.85
    assert out["noul"] == 0.9 and out["choice"] == "angry" and out["score"] == pytest.approx(1.85)
    server = out["server"]
    assert server["posts"] == server["ok"] == 1 and server["responder_errors"] == 0
    body = server["bodies"][0]
    assert body["model"] == "jev-latest" and set(body["questions"]) == {"billing", "tone", "urgency"}
    if name != "deepeval-4.3.1":  # both read the score legend object and list the models (GET /v1/models)
        assert out["legend"] == {"0": "can wait", "1": "this week", "2": "today"}
        assert out["models"] == ["jev-latest", "jev-2026-10-01"] and server["gets"] == 1
    if (
        name == "deepeval-4.3.1"
    ):  # question text as objects and lists, sent as they are; noul criteria both keys
        questions = body["questions"]
        assert questions["billing"]["instructions"] == {"question": "Is `message` about billing?"}
        assert questions["billing"]["criteria"] == {"true": "billing", "false": None}
        assert questions["tone"]["criteria"]["angry"] == {"means": "upset"}
        assert questions["urgency"]["criteria"][2] == {"level": "today"}
