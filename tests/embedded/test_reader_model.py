"""The local reader with the real model (Qwen2.5-Coder-1.5B-Instruct, Q4_K_M): runs only where it is assembled in
the models folder (``DEEPEVAL_MODELS_DIR``); elsewhere these tests are skipped. One model is loaded for the module
(1 llama.cpp thread) and every test asks it a handful of one-token questions."""

from __future__ import annotations

import asyncio

import pytest

from deepeval.models.catalog import DEFAULT_READER, catalog_model, installed_path
from deepeval.models.embedded.reader import Reader, gguf_reader
from deepeval.models.system_one import kinds as K

pytestmark = pytest.mark.real_model

MODEL = installed_path(catalog_model(DEFAULT_READER))
if MODEL is None:
    pytest.skip("the reader model is not assembled in DEEPEVAL_MODELS_DIR", allow_module_level=True)
pytest.importorskip("xllamacpp")


@pytest.fixture(scope="module")
def reader() -> Reader:
    assert MODEL is not None
    return gguf_reader(MODEL, threads=1)


def ask(reader: Reader, kind: str, **fields: object) -> float:
    got = asyncio.run(reader.a_answer(kind, fields))
    assert got is not None, "the reader gave no yes/no token"
    return got.probability


def test_reader_reads_the_refund_policy_as_relevant_to_shoes_that_do_not_fit(reader: Reader) -> None:
    refund = ask(
        reader,
        K.STATEMENT_RELEVANT,
        input="What if these shoes don't fit?",
        statement="We offer a 30-day full refund at no extra cost.",
    )
    weather = ask(
        reader,
        K.STATEMENT_RELEVANT,
        input="What if these shoes don't fit?",
        statement="It is sunny in Lisbon today.",
    )
    assert refund > weather


def test_reader_tells_a_stated_fact_from_a_fact_never_stated(reader: Reader) -> None:
    text = "User: My flight leaves Tuesday at 9 am from Oslo.\nAssistant: Noted, Tuesday 9 am from Oslo."
    stated = ask(reader, K.FACT_STATED, text=text, question="Which city does the flight leave from?")
    never = ask(reader, K.FACT_STATED, text=text, question="What is the user's seat number?")
    assert stated > 0.5 > never


def test_reader_answers_every_kind_it_has_a_prompt_for(reader: Reader) -> None:
    for kind, fields in {
        K.CONTEXT_STATEMENT_RELEVANT: {
            "input": "What does Zenvo cost?",
            "statement": "Zenvo costs $45 a month.",
        },
        K.CLAIM_SUPPORTED: {"claim": "Zenvo costs $45.", "source": "Zenvo costs $45 a month."},
        K.TURN_ATTRITION: {"facts": ["My budget is $25."], "assistant_message": "Take the $40 plan."},
    }.items():
        p = ask(reader, kind, **fields)
        assert 0.0 <= p <= 1.0, kind
    assert reader.stats.answered >= 3 and reader.stats.seconds > 0
