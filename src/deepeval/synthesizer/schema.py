"""The structured replies the synthesizer asks a judge for. Class names are deepeval 4.3.1's (a custom model or a
scripted judge is handed these classes and may key on their names); field names too."""

from __future__ import annotations

from pydantic import BaseModel


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
