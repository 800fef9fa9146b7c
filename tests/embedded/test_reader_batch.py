"""The reader asks one test case's questions together (``Reader.a_answer_many``): grouped so that prompts with a
shared beginning follow each other (llama.cpp's prompt cache then computes each shared beginning once), the
same prompt text as one question at a time, the answers back in the caller's order, one failed call costing only its
own question. The reader here is scripted; tests/models/test_gguf_prefill.py checks the cache on a real llama.cpp."""

from __future__ import annotations

import asyncio
import math

import pytest

from deepeval.errors import ErrorKind, JudgeError
from deepeval.models.embedded import cascade
from deepeval.models.embedded.judge import EmbeddedJudge
from deepeval.models.embedded.reader import Reader
from deepeval.models.embedded.reader_prompts import PROMPTS
from deepeval.models.llms.gguf_server import PrefillTally
from deepeval.models.logprobs import LogprobCompletion, TokenLogprob
from deepeval.models.system_one import kinds as K
from deepeval.models.system_one.schema import NoulQuestion

AR, CR = K.STATEMENT_RELEVANT, K.CONTEXT_STATEMENT_RELEVANT


class Recording:
    """P(yes) = the number in the sentence (``p=0.83``); records the prompts in the order sent; raises a
    JudgeError for a sentence holding ``FAIL``."""

    def __init__(self) -> None:
        self.prompts: list[str] = []

    async def a_generate_with_logprobs(
        self, prompt: str, top_logprobs: int = 20, max_tokens: int = 1
    ) -> tuple[LogprobCompletion, float | None]:
        self.prompts.append(prompt)
        sentence = prompt.rsplit("Sentence: ", 1)[1]
        if "FAIL" in sentence:
            raise JudgeError("scripted failure", model="scripted", kind=ErrorKind.server)
        p = float(sentence.split("p=", 1)[1].split()[0])
        top = {"Yes": math.log(p), "No": math.log(1 - p)}
        return LogprobCompletion("Yes", [TokenLogprob("Yes", top["Yes"], top)], 10, 1), 0.0


def _q(kind: str, question: str, statement: str) -> tuple[str, dict[str, str]]:
    return kind, {"input": question, "statement": statement}


# one test case's questions in the order a request gives them: two kinds and two materials, interleaved
ASKED = [
    _q(AR, "Which plan?", "B p=0.2"),
    _q(CR, "Which plan?", "A p=0.3"),
    _q(AR, "How much?", "A p=0.4"),
    _q(AR, "Which plan?", "A p=0.6"),
    _q(CR, "Which plan?", "B p=0.7"),
]


def test_questions_are_asked_grouped_by_their_shared_beginning_and_answered_in_the_callers_order() -> None:
    llm = Recording()
    reader = Reader(lambda: llm, "recording")
    steps: list[int] = []
    answers = asyncio.run(reader.a_answer_many(ASKED, on_answer=steps.append))
    # the answers follow the caller's order: each one is its own sentence's p
    assert [a.probability if a else None for a in answers] == pytest.approx([0.2, 0.3, 0.4, 0.6, 0.7])
    # the prompts sent are exactly the one-question prompts, grouped: the AR head's questions first (it appears
    # first), within them the "Which plan?" material (first seen) before "How much?", the caller's order kept
    # within a group; then the CR head's two
    assert sorted(llm.prompts) == sorted(PROMPTS[kind](fields).text() for kind, fields in ASKED)
    ar_head = PROMPTS[AR](ASKED[0][1]).head
    sent = [
        (
            "AR" if p.startswith(ar_head) else "CR",
            p.split("Question: ")[1].split("\n")[0],
            p.split("Sentence: ")[1][0],
        )
        for p in llm.prompts
    ]
    assert sent == [
        ("AR", "Which plan?", "B"),
        ("AR", "Which plan?", "A"),
        ("AR", "How much?", "A"),
        ("CR", "Which plan?", "A"),
        ("CR", "Which plan?", "B"),
    ]
    # each question after the first of its group shares everything up to its sentence with the one before it
    for before, after in ((0, 1), (3, 4)):
        a, b = llm.prompts[before], llm.prompts[after]
        assert a.rsplit("Sentence: ", 1)[0] == b.rsplit("Sentence: ", 1)[0]
    assert steps == [1, 2, 3, 4, 5]
    assert reader.stats.asked == 5 and reader.stats.answered == 5


def test_a_request_already_grouped_is_asked_in_its_own_order() -> None:
    llm = Recording()
    asked = [_q(AR, "Which plan?", f"S{i} p=0.{i + 1}") for i in (3, 0, 2, 1)]
    asyncio.run(Reader(lambda: llm, "recording").a_answer_many(asked))
    assert llm.prompts == [PROMPTS[kind](fields).text() for kind, fields in asked]


def test_a_failed_call_costs_only_its_own_question() -> None:
    llm = Recording()
    reader = Reader(lambda: llm, "recording")
    asked = [*ASKED[:2], _q(AR, "Which plan?", "FAIL p=0.9"), *ASKED[2:]]
    answers = asyncio.run(reader.a_answer_many(asked))
    assert [a.probability if a else None for a in answers] == pytest.approx([0.2, 0.3, None, 0.4, 0.6, 0.7])
    assert len(llm.prompts) == 6


def test_unknown_kinds_and_no_questions_never_load_the_model() -> None:
    loads: list[int] = []

    def load() -> Recording:
        loads.append(1)
        return Recording()

    reader = Reader(load, "recording")
    assert asyncio.run(reader.a_answer_many([])) == []
    assert asyncio.run(reader.a_answer_many([("no_such_kind", {})])) == [None]
    assert loads == []


def test_the_judge_sends_a_requests_unsure_questions_together(monkeypatch: pytest.MonkeyPatch) -> None:
    for kind in (AR,):
        monkeypatch.setitem(cascade.ENCODER_BANDS, kind, cascade.Band(0.0, 1.0))  # every answer unsure
        monkeypatch.setitem(
            cascade.READER_CALIBRATION, kind, cascade.Calibration(0.0, 1.0, cascade.Band(0.45, 0.55))
        )
    llm = Recording()
    reader = Reader(lambda: llm, "recording")
    calls: list[int] = []
    many = reader.a_answer_many

    async def counted(questions, on_answer=None):  # type: ignore[no-untyped-def]
        calls.append(len(questions))
        return await many(questions, on_answer)

    monkeypatch.setattr(reader, "a_answer_many", counted)
    questions = {
        "z": NoulQuestion(
            instructions="Is the sentence relevant?",
            kind=AR,
            data={"input": "Which plan?", "statement": "Zeta plan p=0.9"},
        ),
        "a": NoulQuestion(
            instructions="Is the sentence relevant?",
            kind=AR,
            data={"input": "Which plan?", "statement": "Alpha plan p=0.1"},
        ),
    }
    answers, _ = EmbeddedJudge(reader).decide({}, questions)
    assert calls == [2]  # one call for the request's two questions
    assert [p.rsplit("Sentence: ", 1)[1].split()[0] for p in llm.prompts] == [
        "Zeta",
        "Alpha",
    ]  # request order
    assert answers.tiers == {"z": "reader", "a": "reader"}
    assert answers.nouls["z"].probability == pytest.approx(0.9) and answers.nouls[
        "a"
    ].probability == pytest.approx(0.1)


def test_prefill_tally_adds_what_llama_cpp_reports_and_ignores_the_rest() -> None:
    tally = PrefillTally()
    tally.observe({"prompt_n": 180, "cache_n": 0, "prompt_ms": 900.0})
    tally.observe({"prompt_n": 40, "cache_n": 150, "prompt_ms": 210.5})
    tally.observe({"prompt_n": "12"})  # malformed: ignored
    tally.observe(None)
    assert tally.totals() == (2, 220, 150, pytest.approx(1110.5))
    assert tally.last == {"prompt_n": 40, "cache_n": 150, "prompt_ms": 210.5}
