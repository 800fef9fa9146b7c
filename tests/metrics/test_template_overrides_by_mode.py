"""A deepeval 4.3.1-style ``evaluation_template`` is used wherever the LLM still writes a prompt's answer (extraction
and reasons in hybrid mode too), and a method the mode cannot use is named in a warning, never ignored silently."""

from __future__ import annotations

import warnings

import pytest

from deepeval.metrics import AnswerRelevancyMetric, KnowledgeRetentionMetric
from deepeval.metrics._engine.template_calls import is_verdict_method, overridden_methods, unused_methods_note
from deepeval.metrics.knowledge_retention.prompts import KnowledgeRetentionTemplate
from deepeval.test_case import ConversationalTestCase, LLMTestCase, Turn
from deepeval.testing.scripted import ScriptedLLM, ScriptedSystemOne

from .helpers import router

OUT = "We offer a 30-day full refund. Our shoes are red."
STATEMENTS = ["We offer a 30-day full refund.", "Our shoes are red."]


def _case(tag: str) -> LLMTestCase:
    # a new input per test: the process-wide warning registry must not hide one test's warning from another
    return LLMTestCase(input=f"What if these shoes don't fit? ({tag})", actual_output=OUT)


def _template() -> type:
    class Deepeval431Style:  # keywords as deepeval 4.3.1 passes them, not a subclass of ours
        @staticmethod
        def generate_statements(actual_output: str, multimodal: bool = False) -> str:
            return f"SPLIT {actual_output}"

        @staticmethod
        def generate_verdicts(input: str, statements: list[str], multimodal: bool = False) -> str:
            return f"JUDGE {len(statements)}"

        @staticmethod
        def generate_reason(
            irrelevant_statements: list[str], input: str, score: str, multimodal: bool = False
        ) -> str:
            return f"EXPLAIN {score} {len(irrelevant_statements)}"

    return Deepeval431Style


def _llm() -> ScriptedLLM:
    return ScriptedLLM(router(statements=STATEMENTS, verdicts=["yes", "no"], reason="r"))  # type: ignore[arg-type]


def _s1(p: float = 0.9) -> ScriptedSystemOne:
    return ScriptedSystemOne(lambda state, qs: dict.fromkeys(qs, p))  # type: ignore[arg-type]


def test_hybrid_with_an_llm_calls_the_extraction_and_reason_overrides() -> None:
    llm = _llm()
    metric = AnswerRelevancyMetric(
        model=llm, system_one_model=_s1(0.1), eval_mode="hybrid", evaluation_template=_template()
    )
    with pytest.warns(
        UserWarning, match=r"generate_verdicts not used in eval mode 'hybrid'.*only when it fails"
    ):
        assert metric.measure(_case("hybrid-llm")) == 0.0
    assert llm.prompts == [f"SPLIT {OUT}", "EXPLAIN 0.00 2"]  # System One decided: no JUDGE prompt


def test_hybrid_fallback_uses_the_verdict_override_when_system_one_fails() -> None:
    llm = _llm()

    def broken(state: object, qs: object) -> dict[str, float]:
        raise RuntimeError("System One down")

    metric = AnswerRelevancyMetric(
        model=llm,
        system_one_model=ScriptedSystemOne(broken),
        eval_mode="hybrid",
        evaluation_template=_template(),
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        assert metric.measure(_case("fallback")) == 0.5
    assert llm.prompts == [f"SPLIT {OUT}", "JUDGE 2", "EXPLAIN 0.50 1"]


def test_llm_mode_uses_every_override_and_warns_nothing() -> None:
    llm = _llm()
    metric = AnswerRelevancyMetric(model=llm, eval_mode="llm", evaluation_template=_template())
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        metric.measure(_case("llm"))
    assert llm.prompts == [f"SPLIT {OUT}", "JUDGE 2", "EXPLAIN 0.50 1"]


@pytest.mark.parametrize(
    ("mode", "why"),
    [("hybrid", "without an LLM judge"), ("system_one", "question_set")],
)
def test_modes_without_llm_prompts_name_every_override(mode: str, why: str) -> None:
    metric = AnswerRelevancyMetric(system_one_model=_s1(), eval_mode=mode, evaluation_template=_template())
    with pytest.warns(UserWarning) as seen:
        metric.measure(_case(mode))
    (w,) = [w for w in seen if "evaluation_template" in str(w.message)]
    text = str(w.message)
    assert "generate_reason, generate_statements, generate_verdicts not used" in text and why in text


def test_the_warning_comes_once_per_metric_set_up() -> None:
    template = _template()
    with pytest.warns(UserWarning):
        AnswerRelevancyMetric(
            system_one_model=_s1(), eval_mode="system_one", evaluation_template=template
        ).measure(_case("once-1"))
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        AnswerRelevancyMetric(
            system_one_model=_s1(), eval_mode="system_one", evaluation_template=template
        ).measure(_case("once-2"))


def test_a_subclass_counts_only_what_it_overrides() -> None:
    class OnlyReason(KnowledgeRetentionTemplate):
        @staticmethod
        def generate_reason(attritions: list[str], score: str) -> str:
            return "why"

    assert overridden_methods(OnlyReason, KnowledgeRetentionTemplate) == ["generate_reason"]
    assert overridden_methods(KnowledgeRetentionTemplate, KnowledgeRetentionTemplate) == []
    # hybrid with an LLM writes the reason: nothing to warn about
    assert unused_methods_note(["generate_reason"], mode="hybrid", has_llm=True, llm_extracts=True) is None
    assert unused_methods_note(["extract_data"], mode="llm", has_llm=True, llm_extracts=False) == (
        ["extract_data"],
        "the extractor= given replaces the extraction prompts",
    )
    convo = ConversationalTestCase(
        turns=[Turn(role="user", content="I am allergic to nuts."), Turn(role="assistant", content="Noted.")]
    )
    # on the embedded judge nothing writes a reason with the template: only the one override is named
    with pytest.warns(UserWarning, match=r"method\(s\) generate_reason not used in eval mode 'hybrid'"):
        KnowledgeRetentionMetric(eval_mode="hybrid", evaluation_template=OnlyReason).measure(convo)


def test_a_new_metrics_verdict_method_is_known_by_its_name_not_a_list() -> None:
    """A metric declared later (``generate_claim_verdicts``) needs no edit of the engine: in hybrid mode its verdict
    override is named as used only when System One fails, its extraction override as called."""
    note = unused_methods_note(
        ["generate_claim_verdicts", "generate_claims", "generate_reason"],
        mode="hybrid",
        has_llm=True,
        llm_extracts=True,
    )
    assert note == (
        ["generate_claim_verdicts"],
        "System One decides; the verdict prompts are used only when it fails and the LLM decides",
    )
    for name in (
        "generate_verdicts",
        "generate_verdict",
        "generate_node_verdicts",
        "generate_claim_verdicts",
    ):
        assert is_verdict_method(name)
    assert not any(is_verdict_method(n) for n in ("generate_reason", "generate_statements", "verdicts"))
