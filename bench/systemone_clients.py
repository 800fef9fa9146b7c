"""Independent ``/v1/systemone`` clients against our loopback server (issue 39): does a client written for the live
API, or for another server of the same wire format, decide noul, choice and score questions against
``deepeval.testing.SystemOneServer`` without errors?

Clients, each run in its own interpreter (a subprocess) against a server in this process:

  typesafe-sdk   the official client (``typesafe_sdk``, in ``bench/.venvs/deepeval-4.3.1``)
  deepeval-4.3.1 deepeval 4.3.1's own ``TypeSafeModel`` (same venv), with question text as objects (its hybrid sends
                 an object as ``instructions``)
  avrik-sdk      avrik-sdk 1.0.0 (``pip install avrik-sdk`` into a scratch venv outside the repo; name its
                 interpreter with ``--avrik-python`` or ``DEEPEVAL_AVRIK_PYTHON``). It requires avrik-server's own
                 ``audit`` object in every reply (the live API sends none), so its server adds one.

Each prints one JSON line; a client whose interpreter is missing is reported as skipped.

Usage: python bench/systemone_clients.py [--avrik-python /path/to/python]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.harness import VENV_DIR
from deepeval.testing.servers import SystemOneReply, SystemOneServer, wire_choice, wire_noul, wire_score

KEY = "k-loopback-not-secret"

#: the official SDK: typed questions, answers validated strictly (legend and usage required), GET /v1/models
TYPESAFE_SDK = r"""
import json, sys
from typesafe_sdk import Choice, Noul, Score, TypeSafeClient
with TypeSafeClient(api_key=sys.argv[2], base_url=sys.argv[1], model="jev-latest") as client:
    r = client.system_one(
        state={"message": "I was charged twice. Please help."},
        questions={
            "billing": Noul(instructions="Is this message about billing?", criteria={"true": "billing or payments"}),
            "tone": Choice(instructions="What is the tone?", criteria={"calm": None, "angry": "upset or hostile"}),
            "urgency": Score(instructions="How urgent is it?", criteria=["can wait", "this week", "today"]),
        },
    )
    models = [m.name for m in client.models.list().models]
print(json.dumps({
    "noul": r.nouls["billing"].noul, "choice": r.choices["tone"].choice, "score": r.scores["urgency"].score,
    "legend": {str(k): v for k, v in r.scores["urgency"].legend.items()}, "models": models, "model": r.model,
}))
"""

#: deepeval 4.3.1's TypeSafeModel (which drives the official SDK), question text as objects and lists
DEEPEVAL_431 = r"""
import json, sys
from deepeval.models.system_one.schema import ChoiceQuestion, NoulQuestion, ScoreQuestion
from deepeval.models.system_one.typesafe_model import TypeSafeModel
model = TypeSafeModel(api_key=sys.argv[2], base_url=sys.argv[1])
answers, cost = model.decide(
    {"message": "I was charged twice. Please help."},
    {
        "billing": NoulQuestion(instructions={"question": "Is `message` about billing?"}, true="billing"),
        "tone": ChoiceQuestion(instructions=["What is the tone?"], options={"calm": None, "angry": {"means": "upset"}}),
        "urgency": ScoreQuestion(instructions="How urgent is it?", levels=["can wait", "this week", {"level": "today"}]),
    },
)
print(json.dumps({
    "noul": answers.nouls["billing"].probability, "choice": answers.choices["tone"].choice,
    "score": answers.scores["urgency"].score, "cost": getattr(cost, "cost", cost) if cost is not None else None,
}, default=str))
"""

#: avrik-sdk: question builders, Decision requires avrik-server's audit block, GET /v1/models
AVRIK_SDK = r"""
import json, sys
from avrik_sdk import Client, choice, noul, score
with Client(sys.argv[1], api_key=sys.argv[2]) as client:
    d = client.decide(
        {"message": "I was charged twice. Please help."},
        {
            "billing": noul("Is this message about billing?"),
            "tone": choice("What is the tone?", {"calm": "a neutral message", "angry": "upset or hostile"}),
            "urgency": score("How urgent is it?", ["can wait", "this week", "today"]),
        },
        model="jev-latest",
    )
    models = [m.name for m in client.models()]
print(json.dumps({
    "noul": d["billing"].noul, "choice": d["tone"].choice, "score": d["urgency"].score,
    "legend": d["urgency"].legend, "models": models, "model": d.model,
}))
"""

#: avrik-server's audit block (its client's Decision requires one; field names from avrik-sdk's Audit model)
AVRIK_AUDIT = {
    "model_hash": "loopback",
    "adapter_hash": None,
    "calibration_version": "loopback",
    "prompt_template_sha256": [],
    "allowed_token_set_hash": [],
    "input_tokens": [],
    "backend": "loopback",
    "precision": "none",
}


def responder(
    state: Any, questions: dict[str, dict[str, Any]], *, extra: dict[str, Any] | None = None
) -> Any:
    """Fixed answers by question type: noul 0.9, the last choice option at 0.8, score mass on the top level."""
    answers: dict[str, Any] = {}
    for qid, q in questions.items():
        if q["type"] == "noul":
            answers[qid] = wire_noul(0.9)
        elif q["type"] == "choice":
            options = list(q["criteria"])
            rest = 0.2 / (len(options) - 1)
            answers[qid] = wire_choice({o: (0.8 if o == options[-1] else rest) for o in options})
        else:
            levels = q["criteria"]
            probs = [0.1 / (len(levels) - 1)] * (len(levels) - 1) + [0.9]
            answers[qid] = wire_score(
                probs, legend=[lv if isinstance(lv, str) else json.dumps(lv) for lv in levels]
            )
    return SystemOneReply(answers, extra=extra)


@dataclass(frozen=True)
class Client:
    name: str
    python: Path | None
    code: str
    extra: dict[str, Any] | None = None


def clients(avrik_python: str | None = None) -> list[Client]:
    """The three clients; ``python`` None where the interpreter is not found."""
    venv_py = VENV_DIR / "bin" / "python"
    deepeval_py = venv_py if venv_py.is_file() else None
    avrik = avrik_python or os.environ.get("DEEPEVAL_AVRIK_PYTHON")
    avrik_py = Path(avrik) if avrik and Path(avrik).is_file() else None
    return [
        Client("typesafe-sdk", deepeval_py, TYPESAFE_SDK),
        Client("deepeval-4.3.1", deepeval_py, DEEPEVAL_431),
        Client("avrik-sdk", avrik_py, AVRIK_SDK, extra={"audit": AVRIK_AUDIT}),
    ]


def run_client(client: Client, timeout: float = 120.0) -> dict[str, Any]:
    """Run ``client`` against a fresh loopback server; its JSON line, plus the server's view of the exchange.

    Raises:
        RuntimeError: the client exited with an error (its stderr is included).
    """
    assert client.python is not None

    def respond(state: Any, qs: dict[str, dict[str, Any]]) -> Any:
        return responder(state, qs, extra=client.extra)

    with SystemOneServer(respond, api_key=KEY) as srv:
        proc = subprocess.run(
            [str(client.python), "-c", client.code, srv.base_url, KEY],
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd="/",  # never this checkout's deepeval on the path of another interpreter
            env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
        )
        if proc.returncode != 0:
            raise RuntimeError(f"{client.name} failed:\n{proc.stderr[-3000:]}")
        out: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
        out["server"] = {
            "posts": srv.counters.requests,
            "ok": srv.counters.replied_ok,
            "gets": srv.counters.get_requests,
            "responder_errors": len(srv.responder_errors),
            "bodies": srv.counters.bodies,
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--avrik-python", default=None, help="interpreter with avrik-sdk installed")
    args = parser.parse_args()
    for client in clients(args.avrik_python):
        if client.python is None:
            print(json.dumps({"client": client.name, "skipped": "interpreter not found"}))
            continue
        result = run_client(client)
        result["server"].pop("bodies")
        print(json.dumps({"client": client.name, **result}))


if __name__ == "__main__":
    main()
