"""The synthesizer's prompt text (ours). Every piece of user material (document chunks, inputs, scenarios, critic
feedback) is quoted between markers (:mod:`deepeval.metrics.delimit`) and stays data. Structured replies are the
classes of :mod:`deepeval.synthesizer.schema`; the JSON shape each prompt asks for is spelled out in it, so a model
without constrained decoding still knows what to send."""

from __future__ import annotations

from collections.abc import Sequence

from deepeval.metrics.delimit import DATA_NOTICE, quote, quote_list

VERSION = "synth-1"


def _context_block(context: Sequence[str]) -> str:
    return quote_list("TEXTS", list(context))


def _opt(label: str, value: str | None) -> str:
    return f"- {label}: {value}\n" if value else ""


def _sources(source_files: Sequence[str] | None, target: int | None) -> str:
    if not source_files or len(source_files) < 2:
        return ""
    want = f" Each one should draw on {target} of them." if target else ""
    names = ", ".join(source_files)
    return (
        f"The passages come from several files ({names}); each passage starts with [SOURCE: <file>].{want} List "
        'the files an item relies on in "used_source_files".\n'
    )


def generate_inputs(
    context: Sequence[str],
    n: int,
    *,
    scenario: str | None,
    task: str | None,
    input_format: str | None,
    source_files: Sequence[str] | None = None,
    target_files: int | None = None,
) -> str:
    style = (
        _opt("who writes them", scenario) + _opt("what the assistant does", task) + _opt("form", input_format)
    )
    return (
        f"{DATA_NOTICE}\n\nWrite {n} different inputs a user could send to an assistant whose knowledge is the "
        "passages below. Each input must be answerable from the passages alone, stand on its own (no 'the text', "
        "'the passage', 'above'), and ask about something the passages actually say.\n"
        + (f"Inputs:\n{style}" if style else "")
        + _sources(source_files, target_files)
        + f"\nPassages:\n{_context_block(context)}\n\n"
        f'Reply with JSON only: {{"data": [{{"input": "<input 1>"}}, ...]}} holding exactly {n} items.'
    )


def generate_scenarios(
    context: Sequence[str],
    n: int,
    *,
    scenario_context: str | None,
    conversational_task: str | None,
    participant_roles: str | None,
    scenario_format: str | None = None,
    source_files: Sequence[str] | None = None,
    target_files: int | None = None,
) -> str:
    style = (
        _opt("setting", scenario_context)
        + _opt("what the conversation is for", conversational_task)
        + _opt("who takes part", participant_roles)
        + _opt("form of the description", scenario_format)
    )
    return (
        f"{DATA_NOTICE}\n\nDescribe {n} different conversations a user could have with an assistant whose "
        "knowledge is the passages below. Each description says, in one to three sentences, who the user is, what "
        "they want and how the conversation should go; what they want must be answerable from the passages.\n"
        + (f"Conversations:\n{style}" if style else "")
        + _sources(source_files, target_files)
        + f"\nPassages:\n{_context_block(context)}\n\n"
        f'Reply with JSON only: {{"data": [{{"scenario": "<description 1>"}}, ...]}} holding exactly {n} items.'
    )


def rate_input(text: str) -> str:
    return (
        f"{DATA_NOTICE}\n\nRate the user input below as a test question for an assistant, from 0 to 1. 1: it "
        "stands on its own (needs no unseen document, table or earlier message) and says plainly what it wants. 0: "
        "it is vague or leans on material the reader cannot see. In between: partly so. Give one or two sentences "
        "of feedback saying what would make it better.\n\n"
        f"{quote('TEXT', text)}\n\n"
        'Reply with JSON only: {"score": <number from 0 to 1>, "feedback": "<feedback>"}'
    )


def rate_scenario(text: str) -> str:
    return (
        f"{DATA_NOTICE}\n\nRate the conversation description below as a test scenario for an assistant, from 0 "
        "to 1. 1: it names who the user is and what they want, could really be played out as a conversation, and "
        "needs nothing unseen. 0: it is vague, not a conversation, or leans on material the reader cannot see. Give "
        "one or two sentences of feedback saying what would make it better.\n\n"
        f"{quote('TEXT', text)}\n\n"
        'Reply with JSON only: {"score": <number from 0 to 1>, "feedback": "<feedback>"}'
    )


def rewrite_input(context: Sequence[str], text: str, feedback: str) -> str:
    return (
        f"{DATA_NOTICE}\n\nImprove the user input below following the reviewer's note. Keep it answerable from the "
        "passages and about the same thing; make it stand on its own.\n\n"
        f"Passages:\n{_context_block(context)}\n\nInput:\n{quote('TEXT', text)}\n\nNote:\n{quote('NOTE', feedback)}\n\n"
        'Reply with JSON only: {"rewritten_input": "<the improved input>"}'
    )


def rewrite_scenario(context: Sequence[str], text: str, feedback: str) -> str:
    return (
        f"{DATA_NOTICE}\n\nImprove the conversation description below following the reviewer's note. Keep it "
        "answerable from the passages and about the same thing.\n\n"
        f"Passages:\n{_context_block(context)}\n\nDescription:\n{quote('TEXT', text)}\n\n"
        f"Note:\n{quote('NOTE', feedback)}\n\n"
        'Reply with JSON only: {"rewritten_scenario": "<the improved description>"}'
    )


def rate_context(chunk: str) -> str:
    return (
        f"{DATA_NOTICE}\n\nRate the passage below as source material for test questions. Give four numbers from 0 "
        "to 1: clarity (easy to understand), depth (holds real facts or explanation, not filler), structure (reads "
        "in a sensible order) and relevance (stays on one subject).\n\n"
        f"{quote('DOCUMENT', chunk)}\n\n"
        'Reply with JSON only: {"clarity": <0-1>, "depth": <0-1>, "structure": <0-1>, "relevance": <0-1>}'
    )


#: what each evolution asks for (keyed by the Evolution / PromptEvolution value)
EVOLUTION_GOALS = {
    "Reasoning": "so that answering it takes several steps of reasoning that connect facts, not a single lookup",
    "Multi-context": "so that answering it needs facts from more than one of the passages",
    "Concretizing": "so that it names specific things (people, places, numbers, terms) instead of general ones",
    "Constrained": "by adding a condition or limit the answer has to respect",
    "Comparative": "into a comparison between two or more things",
    "Hypothetical": "into a 'what if' question about a situation that follows from the facts",
    "In-Breadth": "into a new one on a neighbouring topic of the same domain",
}


def evolve(kind: str, text: str, context: Sequence[str] | None, *, conversational: bool) -> str:
    what = "conversation description" if conversational else "user input"
    goal = EVOLUTION_GOALS[kind]
    grounding = (
        f" It must stay answerable from the passages.\n\nPassages:\n{_context_block(context)}"
        if context
        else " It must stay realistic and self-contained."
    )
    return (
        f"{DATA_NOTICE}\n\nRewrite the {what} below {goal}. Keep it about as long as it is now and of the same "
        f"kind.{grounding}\n\n{what.capitalize()}:\n{quote('TEXT', text)}\n\n"
        f"Reply with the rewritten {what} only, nothing else."
    )


def style_input(text: str, *, scenario: str | None, task: str | None, input_format: str | None) -> str:
    style = (
        _opt("who writes it", scenario) + _opt("what the assistant does", task) + _opt("form", input_format)
    )
    return (
        f"{DATA_NOTICE}\n\nRewrite the user input below so that it fits this description, keeping what it asks:\n"
        f"{style}\nInput:\n{quote('TEXT', text)}\n\n"
        'Reply with JSON only: {"input": "<the rewritten input>"}'
    )


def style_scenario(
    text: str,
    *,
    scenario_context: str | None,
    conversational_task: str | None,
    participant_roles: str | None,
    scenario_format: str | None = None,
) -> str:
    style = (
        _opt("setting", scenario_context)
        + _opt("what the conversation is for", conversational_task)
        + _opt("who takes part", participant_roles)
        + _opt("form of the description", scenario_format)
    )
    return (
        f"{DATA_NOTICE}\n\nRewrite the conversation description below so that it fits this description, keeping "
        f"what the user wants:\n{style}\nDescription:\n{quote('TEXT', text)}\n\n"
        'Reply with JSON only: {"scenario": "<the rewritten description>"}'
    )


def expected_output(text: str, context: str, output_format: str | None) -> str:
    form = f" Follow this format: {output_format}." if output_format else ""
    return (
        f"{DATA_NOTICE}\n\nAnswer the user input below using only the passages. Be brief and direct.{form}\n\n"
        f"Passages:\n{quote('DOCUMENT', context)}\n\nInput:\n{quote('TEXT', text)}\n\nReply with the answer only."
    )


def expected_outcome(text: str, context: str, outcome_format: str | None) -> str:
    form = f" Follow this format: {outcome_format}." if outcome_format else ""
    return (
        f"{DATA_NOTICE}\n\nSay in one to three sentences how the conversation described below should end when the "
        f"assistant does its job well, using only the passages.{form}\n\n"
        f"Passages:\n{quote('DOCUMENT', context)}\n\nConversation:\n{quote('TEXT', text)}\n\n"
        "Reply with the outcome only."
    )


def scratch_inputs(n: int, *, scenario: str, task: str, input_format: str) -> str:
    return (
        f"Write {n} different, realistic inputs a user could send to an assistant.\n"
        f"- who writes them: {scenario}\n- what the assistant does: {task}\n- form: {input_format}\n\n"
        f'Reply with JSON only: {{"data": [{{"input": "<input 1>"}}, ...]}} holding exactly {n} items.'
    )


def scratch_scenarios(
    n: int, *, scenario_context: str, conversational_task: str, participant_roles: str
) -> str:
    return (
        f"Describe {n} different, realistic conversations between a user and an assistant, each in one to three "
        "sentences saying who the user is, what they want and how it should go.\n"
        f"- setting: {scenario_context}\n- what the conversation is for: {conversational_task}\n"
        f"- who takes part: {participant_roles}\n\n"
        f'Reply with JSON only: {{"data": [{{"scenario": "<description 1>"}}, ...]}} holding exactly {n} items.'
    )


def input_style(examples: Sequence[str]) -> str:
    return (
        f"{DATA_NOTICE}\n\nThe user inputs below were sent to one assistant. From them alone, say who sends such "
        "inputs and why (scenario), what the assistant is expected to do with them (task), and how the inputs are "
        "written: length, tone, structure (input_format).\n\n"
        f"{quote_list('TEXTS', list(examples))}\n\n"
        'Reply with JSON only: {"scenario": "...", "task": "...", "input_format": "..."}'
    )


def scenario_style(examples: Sequence[str]) -> str:
    return (
        f"{DATA_NOTICE}\n\nThe conversation descriptions below were written for one assistant. From them alone, "
        "say what setting they share (scenario_context), what the conversations are for (conversational_task) and "
        "who takes part (participant_roles).\n\n"
        f"{quote_list('TEXTS', list(examples))}\n\n"
        'Reply with JSON only: {"scenario_context": "...", "conversational_task": "...", "participant_roles": "..."}'
    )
