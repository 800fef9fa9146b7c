"""The model under test: a chat model (short-term condition) or a wiki keeper (long-term condition), given as an
OpenAI-compatible endpoint + model name, or as a Python callable (sync or async)."""

from __future__ import annotations

import contextlib
import inspect
import json
from collections.abc import Awaitable, Callable, Iterator, Sequence
from typing import Any, Protocol, runtime_checkable

from deepeval.memory.prompts import WIKI_KEEPER_SYSTEM, wiki_exchange_prompt
from deepeval.memory.wiki import Wiki, tool_definitions
from deepeval.test_case import Turn

Messages = list[dict[str, Any]]


@runtime_checkable
class ChatModel(Protocol):
    name: str

    async def chat(self, messages: Messages) -> str: ...


_SUBJECT_MARK = "_deepeval_model_under_test"


@contextlib.contextmanager
def _as_subject() -> Iterator[None]:
    """Marks a JudgeError raised by the model under test's endpoint, so a failure is blamed on the right model
    (the grader's client raises the same error class)."""
    from deepeval.errors import JudgeError

    try:
        yield
    except JudgeError as err:
        setattr(err, _SUBJECT_MARK, True)
        raise


def raised_by_subject(err: BaseException) -> bool:
    """``err`` came from the model under test (an :class:`EndpointChatModel`), not from the grader."""
    return bool(getattr(err, _SUBJECT_MARK, False))


class CallableChatModel:
    """Wraps ``fn(messages) -> str`` (or an async function); ``messages`` are OpenAI-style role/content dicts."""

    def __init__(self, fn: Callable[[Messages], str | Awaitable[str]], name: str | None = None) -> None:
        self.fn = fn
        self.name: str = name or str(getattr(fn, "__name__", type(fn).__name__))

    async def chat(self, messages: Messages) -> str:
        out = self.fn(messages)
        if inspect.isawaitable(out):
            out = await out
        return str(out)


class EndpointChatModel:
    """A model behind an OpenAI-compatible ``/chat/completions`` endpoint (vLLM, Ollama, llama.cpp, OpenAI), sent
    through the judges' client (:class:`~deepeval.models.llms.chat_endpoint.ChatEndpoint`): the key is held as a
    secret and redacted with the base URL's credentials from every message, failures are retried by the shared
    policy (``max_retries`` after the first attempt, ``timeout`` seconds each) and raise
    :class:`~deepeval.errors.JudgeError`. Each event loop gets its own HTTP client, so one model serves several
    ``asyncio.run`` calls."""

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str | None = None,
        temperature: float = 0.0,
        timeout: float = 120.0,
        max_retries: int = 2,
    ) -> None:
        from deepeval.models.llms.chat_endpoint import ChatEndpoint

        self.name = model
        self.temperature = temperature
        self.timeout = timeout
        self.endpoint = ChatEndpoint(
            base_url,
            model,
            api_key=api_key,
            temperature=temperature,
            timeout=timeout,
            max_retries=max_retries,
        )

    @property
    def base_url(self) -> str:
        return str(self.endpoint.base_url)

    def __repr__(self) -> str:
        from deepeval.config.redaction import display_url

        return f"EndpointChatModel(base_url={display_url(self.base_url)!r}, model={self.name!r})"

    async def chat(self, messages: Messages) -> str:
        with _as_subject():
            message = await self.endpoint.a_chat(messages)
        return str(message.get("content") or "")

    async def chat_with_tools(self, messages: Messages, tools: list[dict[str, Any]]) -> dict[str, Any]:
        """The reply message (``content``, and ``tool_calls`` when the model called tools)."""
        with _as_subject():
            return await self.endpoint.a_chat(messages, tools=tools)


def as_chat_model(model: Any) -> ChatModel:
    """A :class:`ChatModel` from a ChatModel or a callable. Raises TypeError otherwise."""
    if isinstance(model, ChatModel):
        return model
    if callable(model):
        return CallableChatModel(model)
    raise TypeError(f"the model under test must be a ChatModel or a callable, not {type(model).__name__}")


@runtime_checkable
class WikiKeeper(Protocol):
    name: str

    async def update(self, new_turns: Sequence[Turn], wiki: Wiki) -> None: ...


class CallableWikiKeeper:
    """Wraps ``fn(new_turns, wiki) -> None`` (sync or async): the function edits ``wiki`` through its API."""

    def __init__(self, fn: Callable[[Sequence[Turn], Wiki], Any], name: str | None = None) -> None:
        self.fn = fn
        self.name: str = name or str(getattr(fn, "__name__", type(fn).__name__))

    async def update(self, new_turns: Sequence[Turn], wiki: Wiki) -> None:
        out = self.fn(new_turns, wiki)
        if inspect.isawaitable(out):
            await out


#: tool calls of one reply that are carried out (and sent back); a reply with more keeps its first ones: a model
#: that floods calls (hundreds of 20 KB writes a reply) once took the run past 2 GB
MAX_TOOL_CALLS_PER_REPLY = 32
#: characters of a tool call's arguments kept in the keeper's transcript (the report shows it)
TRANSCRIPT_ARGUMENT_CHARS = 2000


class EndpointWikiKeeper:
    """Lets an endpoint model edit the wiki with tool calls after each exchange (at most ``max_steps`` rounds).

    ``transcript`` logs every tool call (name, arguments up to :data:`TRANSCRIPT_ARGUMENT_CHARS`, the first 200
    characters of the result); ``n_requests`` and ``n_tool_calls`` count the requests sent and the tool calls
    received, ``n_dropped_calls`` those past :data:`MAX_TOOL_CALLS_PER_REPLY` in one reply, not carried out."""

    def __init__(self, model: EndpointChatModel, max_steps: int = 8) -> None:
        if max_steps < 1:
            raise ValueError(f"max_steps must be >= 1, got {max_steps}")
        self.model = model
        self.name = model.name
        self.max_steps = max_steps
        self.transcript: list[dict[str, Any]] = []
        self.n_requests = 0
        self.n_tool_calls = 0
        self.n_dropped_calls = 0

    async def update(self, new_turns: Sequence[Turn], wiki: Wiki) -> None:
        exchange = "\n".join(f"{t.role}: {t.content}" for t in new_turns)
        messages: Messages = [
            {"role": "system", "content": WIKI_KEEPER_SYSTEM},
            {
                "role": "user",
                "content": wiki_exchange_prompt(exchange),
            },
        ]
        tools = tool_definitions()
        for _ in range(self.max_steps):
            msg = await self.model.chat_with_tools(messages, tools)
            self.n_requests += 1
            calls = _tool_calls(msg)
            if not calls:
                break
            self.n_tool_calls += len(calls)
            self.n_dropped_calls += max(0, len(calls) - MAX_TOOL_CALLS_PER_REPLY)
            calls = calls[:MAX_TOOL_CALLS_PER_REPLY]
            messages.append(
                {
                    "role": "assistant",
                    "content": msg.get("content") or "",
                    "tool_calls": [
                        {
                            "id": call_id,
                            "type": "function",
                            "function": {"name": name, "arguments": arguments},
                        }
                        for call_id, name, arguments in calls
                    ],
                }
            )
            for call_id, name, arguments in calls:
                result = wiki.call_tool(name, arguments or "{}")
                messages.append({"role": "tool", "tool_call_id": call_id, "content": result})
                kept = (
                    _safe_json(arguments)
                    if len(arguments) <= TRANSCRIPT_ARGUMENT_CHARS
                    else arguments[:TRANSCRIPT_ARGUMENT_CHARS]
                    + f" [... {len(arguments):,} characters in all]"
                )
                self.transcript.append({"tool": name, "arguments": kept, "result": result[:200]})


def _tool_calls(message: dict[str, Any]) -> list[tuple[str, str, str]]:
    """``(id, function name, arguments as JSON text)`` of each tool call in a reply message; a malformed entry
    gets empty fields (the wiki then answers it with an error the model reads)."""
    out = []
    for call in message.get("tool_calls") or []:
        raw = call.get("function") if isinstance(call, dict) else None
        function: dict[str, Any] = raw if isinstance(raw, dict) else {}
        arguments = function.get("arguments")
        if not isinstance(arguments, str):
            arguments = json.dumps(arguments) if arguments is not None else "{}"
        call_id = call.get("id") if isinstance(call, dict) else None
        out.append((str(call_id or ""), str(function.get("name") or ""), arguments))
    return out


def _safe_json(s: str | None) -> Any:
    try:
        return json.loads(s or "{}")
    except json.JSONDecodeError:
        return s


def as_wiki_keeper(keeper: Any) -> WikiKeeper:
    if isinstance(keeper, WikiKeeper):
        return keeper
    if isinstance(keeper, EndpointChatModel):
        return EndpointWikiKeeper(keeper)
    if callable(keeper):
        return CallableWikiKeeper(keeper)
    raise TypeError(
        f"the wiki keeper must be a WikiKeeper, an EndpointChatModel or a callable, not {type(keeper).__name__}"
    )
