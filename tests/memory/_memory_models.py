"""Scripted models under test for the loopback OpenAI server (deepeval.testing.servers.OpenAIChatServer).

:func:`chatbot` answers the three kinds of request a memory run sends, in the real wire format:

* a wiki-keeper request (``tools`` present): one ``wiki_append_to_page`` tool call recording each user line of the
  new exchange on page ``Notes``, then a plain "done" once the tool results are back;
* a probe (last user message starts with the probe instruction): the expected answer of the asked fact when its
  statement appears in a user message of the context (the latest stated version for a corrected fact), else
  "Not in memory.";
* any other request (a live reply): ``"Reply <n>: noted."``, n counting the live replies from 1.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable
from typing import Any

from deepeval.memory.manifest import FactManifest
from deepeval.memory.prompts import PROBE_INSTRUCTION

PROBE_PREFIX = PROBE_INSTRUCTION.split("{", 1)[0]


def block(prompt: str, label: str) -> str:
    """The content a prompt delimits under ``label`` (``<<<BEGIN LABEL #hash>>>`` ... ``<<<END LABEL #hash>>>``)."""
    m = re.search(rf"<<<BEGIN {label} #(\w+)>>>\n(.*?)\n<<<END {label} #\1>>>", prompt, re.S)
    assert m is not None, f"no {label} block in the prompt"
    return m.group(2)


def _user_text(messages: list[dict[str, Any]]) -> str:
    return "\n".join(str(m.get("content") or "") for m in messages if m.get("role") == "user")


def probe_answer(manifest: FactManifest, messages: list[dict[str, Any]]) -> str:
    question = block(str(messages[-1]["content"]), "QUESTION")
    context = _user_text(messages[1:-1]).lower()
    found = [
        (context.rfind(f.statement.lower().rstrip(".")), f.expected)
        for f in manifest.facts
        if f.question == question and f.kind != "never_stated" and f.statement.lower().rstrip(".") in context
    ]
    return max(found)[1] if found else "Not in memory."


def keeper_reply(body: dict[str, Any]) -> dict[str, Any] | str:
    messages = body["messages"]
    if messages[-1]["role"] == "tool":
        return "done"
    exchange = str(messages[-1]["content"])
    notes = [line[len("user: ") :] for line in exchange.splitlines() if line.startswith("user: ")]
    if not notes:
        return "nothing to record"
    args = {"name": "Notes", "content": "\n".join(f"- {n}" for n in notes)}
    return {"tool_calls": [{"name": "wiki_append_to_page", "arguments": args}]}


def chatbot(manifest: FactManifest) -> Callable[[dict[str, Any]], Any]:
    replies = itertools.count(1)

    def respond(body: dict[str, Any]) -> Any:
        messages = body["messages"]
        if body.get("tools"):
            return keeper_reply(body)
        if str(messages[-1]["content"]).startswith(PROBE_PREFIX):
            return probe_answer(manifest, messages)
        return f"Reply {next(replies)}: noted."

    return respond


def tool_names(body: dict[str, Any]) -> list[str]:
    return [t["function"]["name"] for t in body.get("tools") or []]


def dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False)
