"""A scripted judge for the Synthesizer: a responder for :class:`~deepeval.testing.servers.OpenAIChatServer` that
answers each structured request by its schema name (the ``response_format.json_schema.name`` our clients and
deepeval 4.3.1's ``GPTModel`` send: the pydantic class name) and each free-text request (evolutions, expected
outputs) with a short text derived from the prompt. Deterministic: the same prompt gets the same reply.

The number of items a list request asks for is read from the prompt ("exactly N items" in ours, "generate N data
points" in 4.3.1's); ``overrides`` maps a schema name (or ``"text"``) to a function ``(request) -> reply`` for tests
that need junk, low scores or failures.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Mapping
from typing import Any

_COUNT = re.compile(r"(?:exactly|generate) (\d+) (?:items|data points)")
Reply = Callable[[dict[str, Any]], Any]


def prompt_of(request: Mapping[str, Any]) -> str:
    """The text of the request's last message."""
    messages = request.get("messages") or [{}]
    content = messages[-1].get("content", "")
    return content if isinstance(content, str) else json.dumps(content)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:8]


def _items(prompt: str, field: str) -> dict[str, Any]:
    match = _COUNT.search(prompt)
    n = int(match.group(1)) if match else 2
    tag = _digest(prompt)
    noun = "question" if field == "input" else "conversation"
    return {"data": [{field: f"Synthetic {noun} {k + 1} ({tag})?"} for k in range(n)]}


def _defaults(quality: float, context_quality: float) -> dict[str, Reply]:
    def items(field: str) -> Reply:
        return lambda req: _items(prompt_of(req), field)

    feedback: Reply = lambda req: {"score": quality, "feedback": "Name the subject explicitly."}  # noqa: E731
    return {
        "SyntheticDataList": items("input"),
        "ConversationalScenarioList": items("scenario"),
        "InputFeedback": feedback,
        "ScenarioFeedback": feedback,
        "RewrittenInput": lambda req: {"rewritten_input": f"Rewritten question ({_digest(prompt_of(req))})?"},
        "RewrittenScenario": lambda req: {
            "rewritten_scenario": f"Rewritten conversation ({_digest(prompt_of(req))})"
        },
        "SyntheticData": lambda req: {"input": f"Styled question ({_digest(prompt_of(req))})?"},
        "ConversationalScenario": lambda req: {
            "scenario": f"Styled conversation ({_digest(prompt_of(req))})"
        },
        "ContextScore": lambda req: {
            "clarity": context_quality,
            "depth": context_quality,
            "structure": context_quality,
            "relevance": context_quality,
        },
        "PromptStyling": lambda req: {
            "scenario": "Students revising for an exam",
            "task": "Answer study questions",
            "input_format": "A short question",
        },
        "ConversationalPromptStyling": lambda req: {
            "scenario_context": "A help desk",
            "conversational_task": "Solve a customer's problem",
            "participant_roles": "A customer and a support agent",
        },
        "Response": lambda req: {"response": f"Synthetic text ({_digest(prompt_of(req))})."},
        "text": lambda req: f"Synthetic text ({_digest(prompt_of(req))}).",
    }


def synthesizer_responder(
    overrides: Mapping[str, Reply] | None = None, *, quality: float = 0.9, context_quality: float = 0.8
) -> Callable[[dict[str, Any]], Any]:
    """The responder of the module docstring. ``quality`` is every input's / scenario's critic score,
    ``context_quality`` every chunk criterion.

    Raises (inside the server, so the client sees a 500): KeyError for a schema it does not know.
    """
    table = {**_defaults(quality, context_quality), **(overrides or {})}

    def respond(request: dict[str, Any]) -> Any:
        rf = request.get("response_format")
        name = "text"
        if isinstance(rf, dict) and rf.get("type") == "json_schema":
            name = str(rf["json_schema"]["name"])
        reply = table[name](request)
        return reply if isinstance(reply, str) else {"content": json.dumps(reply)}

    return respond
