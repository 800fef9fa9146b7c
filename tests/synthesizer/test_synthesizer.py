"""Synthesizer end to end against a scripted loopback OpenAI-compatible judge (no network): requests per step,
golden fields as deepeval 4.3.1 fills them, filtration, evolutions, styling, scratch, goldens, conversational forms,
skipped items, interrupted runs, files."""

from __future__ import annotations

import asyncio
import json
import random
import threading
from collections import Counter

import pytest

from deepeval.dataset import ConversationalGolden, EvaluationDataset, Golden
from deepeval.errors import ConfigurationError, StructuredOutputError
from deepeval.synthesizer import Evolution, PromptEvolution, Synthesizer
from deepeval.synthesizer.config import (
    ContextConstructionConfig,
    ConversationalStylingConfig,
    EvolutionConfig,
    FiltrationConfig,
    StylingConfig,
)
from deepeval.testing.synthesis import prompt_of

CONTEXTS = [
    ["Paris is the capital of France.", "It has about two million people."],
    ["Water boils at 100 C."],
]
ONE_KIND = EvolutionConfig(num_evolutions=1, evolutions={Evolution.REASONING: 1.0})


def synth(judge, **kwargs):
    kwargs.setdefault("evolution_config", ONE_KIND)
    s = Synthesizer(model=judge.model, **kwargs)
    s.show_progress = False
    return s


def test_config_defaults_are_deepeval_431s():
    assert FiltrationConfig().synthetic_input_quality_threshold == 0.5
    assert FiltrationConfig().max_quality_retries == 3
    assert EvolutionConfig().num_evolutions == 1
    assert EvolutionConfig().evolutions == {e: 1 / 7 for e in Evolution}
    c = ContextConstructionConfig()
    assert (c.max_contexts_per_document, c.min_contexts_per_document) == (3, 1)
    assert (c.max_context_length, c.min_context_length, c.chunk_size, c.chunk_overlap) == (3, 1, 1024, 0)
    assert (c.context_quality_threshold, c.context_similarity_threshold, c.max_retries) == (0.5, 0.0, 3)
    assert (c.allow_cross_file_contexts, c.target_files_per_context, c.max_files_per_context) == (
        False,
        None,
        3,
    )
    assert [e.value for e in Evolution] == [
        "Reasoning", "Multi-context", "Concretizing", "Constrained", "Comparative", "Hypothetical", "In-Breadth",
    ]  # fmt: skip
    assert "MULTICONTEXT" not in PromptEvolution.__members__


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: ContextConstructionConfig(chunk_size=10, chunk_overlap=10), "must not exceed 9"),
        (lambda: ContextConstructionConfig(max_contexts_per_document=0), "max_contexts_per_document"),
        (lambda: FiltrationConfig(synthetic_input_quality_threshold=2), "from 0 to 1"),
        (lambda: EvolutionConfig(evolutions={Evolution.REASONING: -1}), "REASONING"),
        (lambda: EvolutionConfig(evolutions={Evolution.REASONING: 0}), "above 0"),
    ],
)
def test_bad_configs_raise_value_errors_naming_the_field(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_from_contexts_fills_goldens_as_deepeval_does(judge):
    s = synth(judge)
    goldens = s.generate_goldens_from_contexts(CONTEXTS, source_files=["a.txt", ["b.txt"]])
    assert len(goldens) == 4 and s.synthetic_goldens == goldens
    # per context: 1 list request; per input: 1 score (passes at 0.9), 1 evolution, 1 expected output
    assert Counter(judge.schemas()) == {"SyntheticDataList": 2, "InputFeedback": 4, "text": 8}
    g = goldens[0]
    assert isinstance(g, Golden) and g.context == CONTEXTS[0] and g.source_file == "a.txt"
    assert (
        g.input.startswith("Synthetic text")
        and g.expected_output
        and g.expected_output.startswith("Synthetic")
    )
    assert g.additional_metadata == {
        "evolutions": ["Reasoning"],
        "synthetic_input_quality": 0.9,
        "context_source_files": ["a.txt"],
        "used_source_files": [],
        "context_quality": None,
    }
    assert [x.source_file for x in goldens] == ["a.txt", "a.txt", "b.txt", "b.txt"]
    assert s.usage.llm_calls == judge.server.counters.requests == 14
    assert s.usage.input_tokens == judge.server.counters.input_tokens > 0
    assert s.synthesis_cost is not None and s.synthesis_cost > 0
    # goldens plug into a dataset unchanged
    dataset = EvaluationDataset(goldens=goldens)
    assert [x.input for x in dataset.goldens] == [x.input for x in goldens]


def test_without_expected_output_and_more_goldens_per_context(judge):
    s = synth(judge)
    goldens = s.generate_goldens_from_contexts(
        CONTEXTS, include_expected_output=False, max_goldens_per_context=3
    )
    assert len(goldens) == 6 and all(g.expected_output is None for g in goldens)
    assert Counter(judge.schemas())["text"] == 6  # evolutions only


def test_async_form_and_sync_mode_give_the_same_goldens_under_one_seed(judge):
    s = synth(judge, evolution_config=EvolutionConfig(num_evolutions=2))
    random.seed(7)
    first = asyncio.run(s.a_generate_goldens_from_contexts(CONTEXTS))
    s2 = synth(judge, evolution_config=EvolutionConfig(num_evolutions=2), async_mode=False)
    random.seed(7)
    second = s2.generate_goldens_from_contexts(CONTEXTS)
    assert [g.model_dump() for g in first] == [g.model_dump() for g in second]
    random.seed(8)
    third = s.generate_goldens_from_contexts(CONTEXTS)
    kinds = (
        [g.additional_metadata["evolutions"] for g in first],
        [g.additional_metadata["evolutions"] for g in third],
    )
    assert all(len(k) == 2 for k in kinds[0]) and kinds[0] != kinds[1]


def test_filtration_rewrites_until_the_threshold_and_keeps_the_best_version(judge):
    def feedback(req):
        return {"score": 0.7 if "Rewritten" in prompt_of(req) else 0.2, "feedback": "be specific"}

    judge.set({"InputFeedback": feedback})
    s = synth(judge, evolution_config=EvolutionConfig(num_evolutions=0))
    goldens = s.generate_goldens_from_contexts([CONTEXTS[1]], include_expected_output=False)
    assert Counter(judge.schemas()) == {"SyntheticDataList": 1, "InputFeedback": 4, "RewrittenInput": 2}
    assert all(g.input.startswith("Rewritten question") for g in goldens)
    assert [g.additional_metadata["synthetic_input_quality"] for g in goldens] == [0.7, 0.7]


def test_filtration_never_passing_scores_max_quality_retries_times(judge):
    judge.set(quality=0.1)
    s = synth(
        judge,
        evolution_config=EvolutionConfig(num_evolutions=0),
        filtration_config=FiltrationConfig(max_quality_retries=3),
    )
    goldens = s.generate_goldens_from_contexts(
        [CONTEXTS[1]], include_expected_output=False, max_goldens_per_context=1
    )
    # 3 scorings, 2 rewrites in between (4.3.1 rewrites after the last scoring too, unscored)
    assert Counter(judge.schemas()) == {"SyntheticDataList": 1, "InputFeedback": 3, "RewrittenInput": 2}
    assert goldens[0].additional_metadata["synthetic_input_quality"] == 0.1
    assert goldens[0].input.startswith("Synthetic question")  # all tied: the first version is kept


def test_styling_rewrites_each_input_and_shapes_the_expected_output(judge):
    styling = StylingConfig(
        scenario="Travel agents",
        task="Answer questions",
        input_format="One line",
        expected_output_format="JSON",
    )
    s = synth(judge, styling_config=styling)
    goldens = s.generate_goldens_from_contexts([CONTEXTS[0]])
    assert all(g.input.startswith("Styled question") for g in goldens)
    assert Counter(judge.schemas())["SyntheticData"] == 2
    first_prompt = prompt_of(judge.server.counters.bodies[0])
    assert "Travel agents" in first_prompt and "One line" in first_prompt
    expected_prompts = [
        prompt_of(b) for b in judge.server.counters.bodies if "Answer the user input" in prompt_of(b)
    ]
    assert len(expected_prompts) == 2 and all("Follow this format: JSON" in p for p in expected_prompts)


def test_a_context_whose_judge_returns_junk_is_skipped_and_named(judge, capsys):
    def inputs(req):
        if "Water boils" in prompt_of(req):
            return "this is not JSON at all"
        return {"data": [{"input": "q1"}, {"input": "q2"}]}

    judge.set({"SyntheticDataList": inputs})
    s = synth(judge)
    goldens = s.generate_goldens_from_contexts(CONTEXTS)
    assert len(goldens) == 2 and all(g.context == CONTEXTS[0] for g in goldens)
    assert [x.source for x in s.skipped] == ["context #1"]
    assert "StructuredOutputError" in s.skipped[0].reason
    assert "skipped context #1" in capsys.readouterr().err
    # the ladder re-asked once for the junk context
    assert Counter(judge.schemas())["SyntheticDataList"] == 3


def test_data_markers_a_small_model_echoes_never_reach_the_goldens(judge):
    """Seen on Qwen2.5-Coder-1.5B offline: an evolution reply wrapped in the prompt's ``<<<BEGIN TEXT #...>>>``
    markers, and ``used_source_files`` filled with markers instead of file names."""
    begin, end = "<<<BEGIN TEXT #7aa654299d1f>>>", "<<<END TEXT #7aa654299d1f>>"
    judge.set(
        {
            "SyntheticDataList": lambda req: {
                "data": [
                    {
                        "input": f"{begin}\nWhat boils?\n{end}",
                        "used_source_files": [
                            "<< <BEGIN TEXTS #699e406c9736>>>",  # defused, as quoted content shows it
                            "docs/b.txt",
                            "elsewhere.txt",
                        ],
                    }
                ]
            },
            "text": lambda req: (
                f"<< <BEGIN TEXT #7aa654299d1f>>>\nAt what temperature does water boil?\n{end}"
            ),
        }
    )
    s = synth(judge)
    (g,) = s.generate_goldens_from_contexts(
        [CONTEXTS[1]], max_goldens_per_context=1, source_files=[["/x/b.txt", "/x/c.txt"]]
    )
    assert g.input == "At what temperature does water boil?"
    assert g.expected_output == "At what temperature does water boil?"
    # only the context's own files, by path or file name
    assert g.additional_metadata["used_source_files"] == ["/x/b.txt"]
    # the critic saw the draft without the markers
    critic = [prompt_of(b) for b in judge.server.counters.bodies if "InputFeedback" in json.dumps(b)]
    assert critic and all("7aa654299d1f" not in p for p in critic)


def _list_schemas(judge):
    out = []
    for body in judge.server.counters.bodies:
        rf = body.get("response_format") or {}
        if rf.get("type") == "json_schema" and rf["json_schema"]["name"].endswith("List"):
            out.append(rf["json_schema"])
    return out


def test_a_list_request_asks_for_used_source_files_only_where_its_prompt_names_files(judge):
    """A schema-constrained model (llama.cpp) fills an optional field it is offered; offer it only where it means
    something. The schema keeps 4.3.1's name either way."""
    s = synth(
        judge, styling_config=StylingConfig(scenario="Trivia", task="Answer", input_format="A question")
    )
    s.generate_goldens_from_contexts(
        CONTEXTS, max_goldens_per_context=1, source_files=["a.txt", ["b.txt", "c.txt"]]
    )
    s.generate_goldens_from_scratch(1)
    # the two contexts are generated concurrently: tell their requests apart by the files their prompt names
    lists = [
        (prompt_of(b), b["response_format"]["json_schema"])
        for b in judge.server.counters.bodies
        if (b.get("response_format") or {}).get("type") == "json_schema"
        and b["response_format"]["json_schema"]["name"].endswith("List")
    ]
    assert [schema["name"] for _, schema in lists] == ["SyntheticDataList"] * 3
    offered = sorted(
        ("c.txt" in prompt, "used_source_files" in json.dumps(schema)) for prompt, schema in lists
    )
    # only the request whose prompt names its two files offers the field; the one-file context and scratch do not
    assert offered == [(False, False), (False, False), (True, True)]
    c = synth(judge)
    c.generate_conversational_goldens_from_contexts([CONTEXTS[1]], max_goldens_per_context=1)
    conversational = _list_schemas(judge)[-1]
    assert conversational["name"] == "ConversationalScenarioList"
    assert "used_source_files" not in json.dumps(conversational)


def test_a_schema_constrained_model_gets_a_length_limit_on_each_listed_input(judge):
    """llama.cpp turns maxLength into its grammar: a runaway input (Qwen2.5-Coder-1.5B wrote question after question
    into one string until the token cap) must end, so the reply fits. Other models get 4.3.1's schema unchanged."""
    from deepeval.models import OpenAIModel
    from deepeval.synthesizer.schema import MAX_ITEM_CHARS

    class Constrained(OpenAIModel):
        constrains_item_counts = True

    styling = StylingConfig(scenario="Trivia", task="Answer", input_format="A question")
    plain = synth(judge, styling_config=styling)
    plain.generate_goldens_from_scratch(1)
    constrained = Synthesizer(
        model=Constrained(model="gpt-4.1", api_key="sk-test", base_url=judge.server.base_url),
        evolution_config=ONE_KIND,
        styling_config=styling,
    )
    constrained.show_progress = False
    goldens = constrained.generate_goldens_from_scratch(1)
    constrained.generate_conversational_goldens_from_contexts([CONTEXTS[1]], max_goldens_per_context=1)
    unlimited, limited, scenarios = _list_schemas(judge)
    assert "maxLength" not in json.dumps(unlimited)
    defs = limited["schema"]["$defs"]
    assert [d["properties"]["input"]["maxLength"] for d in defs.values()] == [MAX_ITEM_CHARS]
    assert limited["name"] == "SyntheticDataList" and len(goldens) == 1
    assert scenarios["name"] == "ConversationalScenarioList"
    assert [d["properties"]["scenario"]["maxLength"] for d in scenarios["schema"]["$defs"].values()] == [
        MAX_ITEM_CHARS
    ]


def test_a_run_where_everything_fails_raises_the_first_error(judge):
    judge.set({"SyntheticDataList": lambda req: "junk"})
    with pytest.raises(StructuredOutputError, match="SyntheticDataList"):
        synth(judge).generate_goldens_from_contexts(CONTEXTS)


def test_one_failing_input_costs_no_other_golden(judge):
    def text(req):
        if "Synthetic question 2" in prompt_of(req):
            raise RuntimeError("server fault")
        return "evolved"

    judge.set({"text": text})
    s = synth(judge, evolution_config=EvolutionConfig(num_evolutions=1), async_mode=True)
    goldens = s.generate_goldens_from_contexts([CONTEXTS[1]], include_expected_output=False)
    assert [g.input for g in goldens] == ["evolved"]
    assert [x.source for x in s.skipped] == ["context #0 input #1"]


def test_a_cancelled_run_keeps_the_goldens_it_finished(judge):
    release = threading.Event()

    def text(req):
        if "BLOCK" in prompt_of(req):
            release.wait(10)
        return "done"

    judge.set({"text": text})
    s = synth(judge, async_mode=False)

    async def scenario():
        task = asyncio.create_task(s.a_generate_goldens_from_contexts([["alpha"], ["BLOCK beta"]]))
        for _ in range(500):
            if len(s.synthetic_goldens) >= 2:
                break
            await asyncio.sleep(0.01)
        task.cancel()
        release.set()  # the blocked request may now answer: the run must still stop
        with pytest.raises(asyncio.CancelledError):
            await task

    try:
        asyncio.run(scenario())
    finally:
        release.set()
    assert len(s.synthetic_goldens) == 2 and all(g.context == ["alpha"] for g in s.synthetic_goldens)


def test_from_scratch_needs_the_styling_and_generates_in_batches(judge):
    with pytest.raises(TypeError, match="`scenario`, `task`, and `input_format`"):
        synth(judge).generate_goldens_from_scratch(3)
    styling = StylingConfig(scenario="Chefs", task="Recipe help", input_format="A question")
    s = synth(judge, styling_config=styling, evolution_config=EvolutionConfig())
    goldens = s.generate_goldens_from_scratch(12)
    assert len(goldens) == 12 and len({g.input for g in goldens}) == 12
    assert Counter(judge.schemas()) == {"SyntheticDataList": 2, "text": 12}
    kinds = {k for g in goldens for k in g.additional_metadata["evolutions"]}
    assert "Multi-context" not in kinds and all(
        g.expected_output is None and g.context is None for g in goldens
    )


def test_from_scratch_refuses_only_multicontext():
    s = Synthesizer.__new__(Synthesizer)
    assert s.transform_distribution({Evolution.MULTICONTEXT: 1.0, Evolution.REASONING: 2.0}) == {
        PromptEvolution.REASONING: 2.0
    }
    with pytest.raises(KeyError, match="MULTICONTEXT"):
        s.map_evolution_to_prompt_evolution(Evolution.MULTICONTEXT)


def test_from_goldens_reads_the_styling_then_uses_their_contexts(judge):
    s = synth(judge)
    seeds = [
        Golden(input="What is X?", context=["X is a letter."], source_file="x.md"),
        Golden(input="And Y?"),
    ]
    goldens = s.generate_goldens_from_goldens(seeds, max_goldens_per_golden=2)
    assert judge.schemas()[0] == "PromptStyling"
    assert (
        s.styling_config.scenario == "Students revising for an exam"
        and s.styling_config.expected_output_format is None
    )
    assert len(goldens) == 2 and all(
        g.context == ["X is a letter."] and g.source_file == "x.md" for g in goldens
    )
    assert Counter(judge.schemas())["SyntheticData"] == 2  # the extracted styling restyles each input


def test_from_goldens_without_contexts_generates_from_scratch(judge):
    s = synth(judge)
    goldens = s.generate_goldens_from_goldens(
        [Golden(input="a?"), Golden(input="b?")], max_goldens_per_golden=2
    )
    assert len(goldens) == 4 and all(g.context is None for g in goldens)
    with pytest.raises(ValueError, match="empty"):
        s.generate_goldens_from_goldens([])


def test_conversational_from_contexts_and_scratch(judge):
    s = synth(judge)
    goldens = s.generate_conversational_goldens_from_contexts(CONTEXTS, source_files=["a.txt", "b.txt"])
    assert len(goldens) == 4 and all(isinstance(g, ConversationalGolden) for g in goldens)
    assert s.synthetic_conversational_goldens == goldens and s.synthetic_goldens == []
    g = goldens[0]
    assert g.expected_outcome and g.context == CONTEXTS[0]
    assert g.additional_metadata["source_files"] == "a.txt"
    assert g.additional_metadata["synthetic_scenario_quality"] == 0.9
    assert Counter(judge.schemas()) == {"ConversationalScenarioList": 2, "ScenarioFeedback": 4, "text": 8}
    with pytest.raises(TypeError, match="participant_roles"):
        s.generate_conversational_goldens_from_scratch(2)
    styled = synth(
        judge,
        conversational_styling_config=ConversationalStylingConfig(
            scenario_context="Bank", conversational_task="Open an account", participant_roles="Client, clerk"
        ),
    )
    scratch = styled.generate_conversational_goldens_from_scratch(3)
    assert len(scratch) == 3 and all(x.scenario and x.expected_outcome is None for x in scratch)
    again = styled.generate_conversational_goldens_from_goldens(goldens[:1], max_goldens_per_golden=1)
    assert len(again) == 1 and again[0].scenario.startswith("Styled conversation")


@pytest.mark.parametrize("file_type", ["json", "csv", "jsonl"])
def test_save_as_writes_files_our_dataset_loads_back(judge, tmp_path, file_type):
    s = synth(judge)
    goldens = s.generate_goldens_from_contexts(CONTEXTS, source_files=["a.txt", "b.txt"])
    path = s.save_as(file_type, str(tmp_path), file_name="out", quiet=True)
    assert path == str(tmp_path / f"out.{file_type}")
    dataset = EvaluationDataset()
    getattr(dataset, f"add_goldens_from_{file_type}_file")(path)
    loaded = dataset.goldens
    assert [(g.input, g.expected_output, g.context, g.source_file) for g in loaded] == [
        (g.input, g.expected_output, g.context, g.source_file) for g in goldens
    ]


def test_save_as_errors_are_deepeval_431s(judge, tmp_path):
    s = synth(judge)
    with pytest.raises(ValueError, match="No synthetic goldens found"):
        s.save_as("json", str(tmp_path))
    s.generate_goldens_from_contexts([CONTEXTS[1]])
    with pytest.raises(ValueError, match="Invalid file type"):
        s.save_as("xml", str(tmp_path))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="should not contain periods"):
        s.save_as("json", str(tmp_path), file_name="a.json")


def test_to_pandas_has_deepeval_431s_columns(judge):
    s = synth(judge)
    s.generate_goldens_from_contexts([CONTEXTS[0]])
    frame = s.to_pandas()
    assert list(frame.columns) == [
        "input", "actual_output", "expected_output", "context", "retrieval_context", "n_chunks_per_context",
        "context_length", "evolutions", "context_quality", "synthetic_input_quality", "source_file",
    ]  # fmt: skip
    assert frame["n_chunks_per_context"].tolist() == [2, 2]
    assert frame["context_length"].tolist() == [sum(len(c) for c in CONTEXTS[0])] * 2


def test_no_judge_configured_is_a_clear_error(regression_env):
    s = Synthesizer()
    assert s.model is None
    with pytest.raises(ConfigurationError, match="needs an LLM"):
        s.generate_goldens_from_contexts(CONTEXTS)


@pytest.mark.parametrize("bad", [["not a list"], [[1, 2]], [["  "]], "text"])
def test_bad_contexts_are_refused_before_any_request(judge, bad):
    with pytest.raises((TypeError, ValueError)):
        synth(judge).generate_goldens_from_contexts(bad)
    assert judge.server.counters.requests == 0


def test_dataset_generate_methods_run_the_synthesizer(judge):
    dataset = EvaluationDataset()
    dataset.generate_goldens_from_contexts(CONTEXTS, max_goldens_per_context=1, synthesizer=synth(judge))
    assert len(dataset.goldens) == 2
    with pytest.raises(TypeError, match="Synthesizer"):
        dataset.generate_goldens_from_scratch(2, synthesizer=object())


def test_cost_tracking_prints_the_cost(judge, capsys):
    s = synth(judge, cost_tracking=True)
    s.generate_goldens_from_contexts([CONTEXTS[1]], max_goldens_per_context=1)
    out = capsys.readouterr().out
    assert out.startswith("💰 API cost: ") and float(out.split()[-1]) == pytest.approx(
        s.synthesis_cost, abs=1e-6
    )
    assert json.dumps(s.synthesis_cost)


def test_private_keywords_of_431_pass_and_a_misspelt_option_is_refused(judge):
    s = synth(judge)
    assert (
        len(s.generate_goldens_from_contexts([CONTEXTS[1]], max_goldens_per_context=1, _send_data=False)) == 1
    )
    with pytest.raises(TypeError, match="max_golden_per_context"):
        s.generate_goldens_from_contexts([CONTEXTS[1]], max_golden_per_context=1)
    with pytest.raises(TypeError, match="unexpected keyword"):
        asyncio.run(s.a_generate_goldens_from_docs(["a.txt"], chunk_size=5))


def test_from_goldens_counts_the_styling_request_in_the_usage(judge):
    s = synth(judge)
    s.generate_goldens_from_goldens([Golden(input="q?", context=["c"])], max_goldens_per_golden=1)
    assert s.usage.llm_calls == judge.server.counters.requests == len(judge.schemas())
    assert "PromptStyling" in judge.schemas()


def test_scenario_format_shapes_the_scenarios(judge):
    s = synth(
        judge, conversational_styling_config=ConversationalStylingConfig(scenario_format="Two sentences")
    )
    s.generate_conversational_goldens_from_contexts([CONTEXTS[1]], max_goldens_per_context=1)
    prompts = [prompt_of(b) for b in judge.server.counters.bodies]
    assert "form of the description: Two sentences" in prompts[0]
    assert Counter(judge.schemas())["ConversationalScenario"] == 1  # the styling rewrite


def test_an_openai_compatible_local_model_generates(judge):
    from deepeval.models import LocalModel

    local = LocalModel(model="qwen2.5-1.5b", base_url=judge.server.base_url, api_key="none", max_retries=0)
    s = Synthesizer(model=local, evolution_config=ONE_KIND)
    s.show_progress = False
    goldens = s.generate_goldens_from_contexts([CONTEXTS[1]], max_goldens_per_context=1)
    assert len(goldens) == 1 and goldens[0].expected_output
    assert {b["model"] for b in judge.server.counters.bodies} == {"qwen2.5-1.5b"}
    assert s.usage.llm_calls == judge.server.counters.requests


class ScriptedUserModel:
    """A user's own model in 4.3.1's custom-model style: generate(prompt, schema) returns a schema instance or
    text; no server."""

    def __init__(self):
        self.prompts: list[str] = []

    def _reply(self, prompt, schema):
        self.prompts.append(prompt)
        if schema is None:
            return "plain text reply"
        name = schema.__name__
        if name == "SyntheticDataList":
            return schema(data=[{"input": "What boils at 100 C?"}])
        if name == "InputFeedback":
            return schema(score=1.0, feedback="fine")
        raise AssertionError(name)


def test_a_custom_deepevalbasellm_runs_unchanged():
    from deepeval.models import DeepEvalBaseLLM

    class Mine(DeepEvalBaseLLM):
        def __init__(self):
            self.script = ScriptedUserModel()
            super().__init__("mine")

        def load_model(self):
            return None

        def generate(self, prompt, schema=None):
            return self.script._reply(prompt, schema)

        async def a_generate(self, prompt, schema=None):
            return self.generate(prompt, schema)

        def get_model_name(self):
            return "mine"

    model = Mine()
    s = Synthesizer(model=model, evolution_config=ONE_KIND)
    s.show_progress = False
    (golden,) = s.generate_goldens_from_contexts([CONTEXTS[1]], max_goldens_per_context=1)
    assert golden.input == "plain text reply" and golden.expected_output == "plain text reply"
    assert golden.additional_metadata["synthetic_input_quality"] == 1.0
    assert len(model.script.prompts) == 4 and s.synthesis_cost is None


def test_the_progress_bar_shows_counts(judge, capsys):
    s = Synthesizer(model=judge.model, evolution_config=ONE_KIND)
    s.generate_goldens_from_contexts(CONTEXTS)
    err = capsys.readouterr().err
    assert "Generating goldens" in err and "4/4" in err


def test_progress_in_a_log_file_is_plain_lines_with_counts(judge, capsys, monkeypatch):
    """stderr that is not a terminal (a background run's log) gets a line per step, not one bar at the end."""
    from deepeval.synthesizer import progress

    monkeypatch.setattr(progress, "LOG_INTERVAL", 0.0)
    s = Synthesizer(model=judge.model, evolution_config=ONE_KIND, async_mode=False)
    s.generate_goldens_from_contexts(CONTEXTS)
    lines = [ln for ln in capsys.readouterr().err.splitlines() if ln.startswith("Generating goldens")]
    assert [ln.split()[2] for ln in lines] == ["0/4", "1/4", "2/4", "3/4", "4/4"]
    assert lines[0].endswith("ETA ?") and lines[-1].endswith("ETA 0:00:00")


def test_ctrl_c_keeps_the_finished_goldens(judge):
    judge.interrupt_on("BLOCK")
    s = synth(judge, async_mode=False)
    with pytest.raises(KeyboardInterrupt):
        s.generate_goldens_from_contexts([["alpha"], ["BLOCK beta"]])
    assert len(s.synthetic_goldens) == 2 and all(g.context == ["alpha"] for g in s.synthetic_goldens)


def test_conversational_goldens_save_and_tabulate(judge, tmp_path):
    s = synth(judge)
    goldens = s.generate_conversational_goldens_from_contexts([CONTEXTS[1]], source_files=["w.txt"])
    path = s.save_as("jsonl", str(tmp_path), file_name="conv", quiet=True)
    dataset = EvaluationDataset()
    dataset.add_goldens_from_jsonl_file(path)
    assert [(g.scenario, g.expected_outcome, g.context) for g in dataset.goldens] == [
        (g.scenario, g.expected_outcome, g.context) for g in goldens
    ]
    frame = s.to_pandas()
    assert list(frame.columns) == [
        "scenario", "expected_outcome", "context", "n_chunks_per_context", "context_length", "evolutions",
        "synthetic_scenario_quality", "source_files",
    ]  # fmt: skip
    assert frame["source_files"].tolist() == ["w.txt", "w.txt"]


PUBLIC_FORMS = [
    ("goldens_from_contexts", ["contexts", "include_expected_output", "max_goldens_per_context", "source_files",
                               "context_chunk_source_files", "target_files_per_context", "_context_scores", "_private"]),
    ("conversational_goldens_from_contexts", ["contexts", "include_expected_outcome", "max_goldens_per_context",
                                              "source_files", "context_chunk_source_files",
                                              "target_files_per_context", "_context_scores", "_private"]),
    ("goldens_from_docs", ["document_paths", "include_expected_output", "max_goldens_per_context",
                           "context_construction_config", "_private"]),
    ("conversational_goldens_from_docs", ["document_paths", "include_expected_outcome", "max_goldens_per_context",
                                          "context_construction_config", "_private"]),
    ("goldens_from_scratch", ["num_goldens", "_private"]),
    ("conversational_goldens_from_scratch", ["num_goldens", "_private"]),
    ("goldens_from_goldens", ["goldens", "max_goldens_per_golden", "include_expected_output"]),
    ("conversational_goldens_from_goldens", ["goldens", "max_goldens_per_golden", "include_expected_outcome"]),
]  # fmt: skip


@pytest.mark.parametrize(("name", "params"), PUBLIC_FORMS)
def test_sync_and_async_forms_take_the_same_parameters(name, params):
    import inspect

    sync, async_ = getattr(Synthesizer, f"generate_{name}"), getattr(Synthesizer, f"a_generate_{name}")
    for form in (sync, async_):
        assert list(inspect.signature(form).parameters)[1:] == params
    assert inspect.signature(sync) == inspect.signature(async_)
    assert sync.__name__ == f"generate_{name}" and not inspect.iscoroutinefunction(sync)
    assert inspect.iscoroutinefunction(async_)


def test_a_sync_form_runs_the_async_form_a_subclass_overrides(judge):
    seen = []

    class Mine(Synthesizer):
        async def a_generate_goldens_from_contexts(self, contexts, *args, **kwargs):
            seen.append((contexts, args, kwargs))
            return await super().a_generate_goldens_from_contexts(contexts, *args, **kwargs)

    s = Mine(model=judge.model, evolution_config=ONE_KIND)
    s.show_progress = False
    goldens = s.generate_goldens_from_contexts([CONTEXTS[1]], max_goldens_per_context=1)
    assert len(goldens) == 1 and len(seen) == 1 and seen[0][0] == [CONTEXTS[1]]
    # a misspelt keyword is refused under the name the caller used
    with pytest.raises(TypeError, match=r"^generate_goldens_from_scratch\(\) got an unexpected keyword"):
        s.generate_goldens_from_scratch(num_golden=2)
