"""The structured replies the synthesizer asks a judge for. Class names are deepeval 4.3.1's (a custom model or a
scripted judge is handed these classes and may key on their names); field names too."""

from __future__ import annotations

import functools
from typing import Annotated, Any, get_args, get_origin

from pydantic import BaseModel, Field, create_model

#: the most characters of one input or scenario in a list reply of a model that constrains its decoding to the schema
#: (ours, see :func:`bounded`)
MAX_ITEM_CHARS = 1000


class SyntheticData(BaseModel):
    input: str
    used_source_files: list[str] | None = None


class SyntheticDataList(BaseModel):
    data: list[SyntheticData]


class InputOnly(BaseModel):
    input: str


# What a list request asks for when its prompt names no source files (one-file contexts, scratch): the inputs alone.
# Ours: a model that constrains decoding to the schema (llama.cpp) otherwise fills the optional ``used_source_files``
# with whatever it saw (Qwen2.5-Coder-1.5B wrote our data markers there, once a whole passage), spending output tokens
# on nothing. Sent under 4.3.1's name, ``SyntheticDataList``. (Comments, not docstrings: a docstring would be sent in
# the JSON schema.)
class SyntheticDataListWithoutSources(BaseModel):
    data: list[InputOnly]


SyntheticDataListWithoutSources.__name__ = "SyntheticDataList"


class RewrittenInput(BaseModel):
    rewritten_input: str


class InputFeedback(BaseModel):
    score: float
    feedback: str


class PromptStyling(BaseModel):
    scenario: str
    task: str
    input_format: str


class ConversationalScenario(BaseModel):
    scenario: str
    used_source_files: list[str] | None = None


class ConversationalScenarioList(BaseModel):
    data: list[ConversationalScenario]


class ScenarioOnly(BaseModel):
    scenario: str


# SyntheticDataListWithoutSources for scenarios; sent as ``ConversationalScenarioList``.
class ConversationalScenarioListWithoutSources(BaseModel):
    data: list[ScenarioOnly]


ConversationalScenarioListWithoutSources.__name__ = "ConversationalScenarioList"


class RewrittenScenario(BaseModel):
    rewritten_scenario: str


class ScenarioFeedback(BaseModel):
    score: float
    feedback: str


class ConversationalPromptStyling(BaseModel):
    scenario_context: str
    conversational_task: str
    participant_roles: str


class ContextScore(BaseModel):
    """A chunk's quality, four criteria in [0, 1]; the chunk's score is their mean."""

    clarity: float
    depth: float
    structure: float
    relevance: float

    def mean(self) -> float:
        return (self.clarity + self.depth + self.structure + self.relevance) / 4


class Response(BaseModel):
    response: str


@functools.lru_cache(maxsize=64)
def bounded(schema: type[BaseModel]) -> type[BaseModel]:
    """``schema`` (a list reply, ``data: list[Item]``) with every text field of its items limited to
    :data:`MAX_ITEM_CHARS` (``maxLength``), under the same names; ``schema`` itself when it is not a list reply. A
    subclass, so what validates against it is a ``schema`` instance.

    Sent to a model that constrains decoding to the schema (llama.cpp's grammar), so that one runaway item cannot
    use up the reply's token cap: offline, Qwen2.5-Coder-1.5B asked for 2 short questions from scratch wrote one
    question after another inside the first string until the 512-token cap, twice, and the batch was lost. Ours.
    """
    info = schema.model_fields.get("data")
    if info is None or get_origin(info.annotation) is not list:
        return schema
    (item,) = get_args(info.annotation) or (None,)
    if not (isinstance(item, type) and issubclass(item, BaseModel)):
        return schema
    limited: Any = Annotated[str, Field(max_length=MAX_ITEM_CHARS)]
    texts = {
        name: (limited, ...)
        for name, f in item.model_fields.items()
        if f.annotation is str and f.is_required()
    }
    if not texts:
        return schema
    short_item: Any = create_model(item.__name__, __base__=item, **texts)  # type: ignore[call-overload]
    out: type[BaseModel] = create_model(schema.__name__, __base__=schema, data=(list[short_item], ...))  # type: ignore[call-overload]
    return out
