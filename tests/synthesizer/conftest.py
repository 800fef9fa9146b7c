"""Shared fixtures of the Synthesizer tests: a loopback OpenAI-compatible judge answering by schema
(:mod:`deepeval.testing.synthesis`) and a client on it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from deepeval.models import OpenAIModel
from deepeval.models.http.retry import RetryPolicy
from deepeval.testing import OpenAIChatServer
from deepeval.testing.synthesis import synthesizer_responder


class Judge:
    """A running scripted judge: ``server`` (counters), ``model`` (our OpenAI client on it), ``set(...)`` to swap
    the responder's overrides / scores."""

    def __init__(self, server: OpenAIChatServer) -> None:
        self.server = server
        policy = RetryPolicy(max_retries=0, timeout=10.0, base_delay=0.001, max_delay=0.002)
        self.model = OpenAIModel(
            model="gpt-4.1", api_key="sk-test", base_url=server.base_url, retry_policy=policy
        )

    def set(self, overrides: dict[str, Any] | None = None, **scores: float) -> None:
        self.server.responder = synthesizer_responder(overrides, **scores)

    def interrupt_on(self, word: str) -> None:
        """Free-text replies "done"; the first request whose prompt holds ``word`` first sends this process a SIGINT
        (a Ctrl-C, delivered to the main thread while the server thread answers)."""
        import os
        import signal

        from deepeval.testing.synthesis import prompt_of

        sent: list[int] = []

        def text(req: dict[str, Any]) -> str:
            if word in prompt_of(req) and not sent:
                sent.append(1)
                os.kill(os.getpid(), signal.SIGINT)
            return "done"

        self.set({"text": text})

    def schemas(self) -> list[str]:
        """The schema name of every request, in order (``text`` for free-text requests)."""
        out = []
        for body in self.server.counters.bodies:
            rf = body.get("response_format") or {}
            out.append(rf["json_schema"]["name"] if rf.get("type") == "json_schema" else "text")
        return out


@pytest.fixture
def judge() -> Iterator[Judge]:
    with OpenAIChatServer(synthesizer_responder()) as server:
        yield Judge(server)
