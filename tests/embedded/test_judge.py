"""EmbeddedJudge: dispatch, errors, answer shapes, per-feature behaviour, whole-metric kinds."""

from __future__ import annotations

import asyncio
import math
import sys
import types

import pytest

from deepeval.errors import SystemOneError, UnsupportedQuestionError
from deepeval.metrics.answer_relevancy import names as AR
from deepeval.metrics.contextual_relevancy import names as CR
from deepeval.metrics.knowledge_retention import names as KR
from deepeval.models import DeepEvalBaseSystemOneModel
from deepeval.models.embedded import EmbeddedJudge, get_embedded_judge
from deepeval.models.system_one import kinds as K
from deepeval.models.system_one.schema import ChoiceQuestion, NoulQuestion, ScoreAnswer, ScoreQuestion


@pytest.fixture(scope="module")
def judge() -> EmbeddedJudge:
    return get_embedded_judge()


def noul(kind: str, **data: object) -> NoulQuestion:
    return NoulQuestion(instructions=f"test question of kind {kind}", kind=kind, data=dict(data))


def p_yes(judge: EmbeddedJudge, kind: str, state: object = None, **data: object) -> float:
    answers, cost = judge.decide(state, {"q": noul(kind, **data)})
    assert cost == 0.0
    return answers.nouls["q"].probability


def test_name_singleton_and_base_class(judge: EmbeddedJudge) -> None:
    assert judge.get_model_name() == "deepeval-local-1 (embedded, offline)"
    assert get_embedded_judge() is judge
    assert isinstance(judge, DeepEvalBaseSystemOneModel)
    answers, _ = judge.decide({}, {"q": noul(K.STATEMENT_RELEVANT, input="a", statement="b")})
    assert answers.model == "deepeval-local-1 (embedded, offline)"


@pytest.mark.parametrize("kind", [None, "made_up.kind"])
def test_unknown_or_missing_kind_raises(judge: EmbeddedJudge, kind: str | None) -> None:
    q = NoulQuestion(instructions="Is the sky blue?", kind=kind)
    with pytest.raises(UnsupportedQuestionError) as info:
        judge.decide("state", {"q": q})
    assert info.value.kind == "unsupported_question"
    assert info.value.question_kind == kind
    assert (kind or "no kind") in str(info.value)


def test_choice_question_is_unsupported(judge: EmbeddedJudge) -> None:
    q = ChoiceQuestion(instructions="pick", kind=K.STATEMENT_RELEVANT, options={"a": None, "b": None})
    with pytest.raises(UnsupportedQuestionError, match="ChoiceQuestion"):
        judge.decide({}, {"q": q})


def test_missing_field_is_a_clear_bad_request(judge: EmbeddedJudge) -> None:
    with pytest.raises(SystemOneError, match="'statement'") as info:
        judge.decide({"input": "x"}, {"q": noul(K.STATEMENT_RELEVANT)})
    assert info.value.kind == "bad_request"


def test_fields_merge_state_and_data(judge: EmbeddedJudge) -> None:
    state = {"input": "What is the capital of France?"}
    p_state = p_yes(judge, K.STATEMENT_RELEVANT, state, statement="Paris is the capital of France.")
    p_data = p_yes(
        judge, K.STATEMENT_RELEVANT, None, input=state["input"], statement="Paris is the capital of France."
    )
    assert p_state == pytest.approx(p_data)


def test_probabilities_and_confidence(judge: EmbeddedJudge) -> None:
    qs = {
        "a": noul(
            K.STATEMENT_RELEVANT, input="How tall is Mount Everest?", statement="Everest is 8,849 m tall."
        ),
        "b": noul(K.STATEMENT_RELEVANT, input="How tall is Mount Everest?", statement="I like pancakes."),
    }
    answers, _ = judge.decide({}, qs)
    for ans in answers.nouls.values():
        assert 0.0 <= ans.probability <= 1.0
        assert ans.confidence == pytest.approx(abs(2 * ans.probability - 1))
    assert answers.nouls["a"].probability > 0.5 > answers.nouls["b"].probability


def test_claim_supported_as_score_has_five_levels(judge: EmbeddedJudge) -> None:
    data = {"claim": "The user has a dog named Rex.", "source": "User: I have a dog, his name is Rex."}
    p = p_yes(judge, K.CLAIM_SUPPORTED, **data)
    q = ScoreQuestion(
        instructions="How well supported?", kind=K.CLAIM_SUPPORTED, data=data, levels=list("12345")
    )
    answers, _ = judge.decide({}, {"s": q})
    ans = answers.scores["s"]
    assert set(ans.probabilities) == {0, 1, 2, 3, 4}
    assert sum(ans.probabilities.values()) == pytest.approx(1.0)
    assert ans.score == pytest.approx(4 * p, abs=1e-6)


SOURCE = "User: I moved to Lisbon in 2019. I have two daughters, Ana and Marta. I do not drink coffee."


@pytest.mark.parametrize(
    ("good", "bad", "what"),
    [
        ("The user has two daughters.", "The user has five daughters.", "numbers"),
        ("The user moved to Lisbon in 2019.", "The user moved to Lisbon in 2012.", "dates"),
        ("The user does not drink coffee.", "The user drinks coffee.", "negation"),
        ("The user moved to Lisbon in 2019.", "The user moved to Madrid in 2019.", "entities"),
    ],
)
def test_support_feature_checks(judge: EmbeddedJudge, good: str, bad: str, what: str) -> None:
    p_good = p_yes(judge, K.CLAIM_SUPPORTED, claim=good, source=SOURCE)
    p_bad = p_yes(judge, K.CLAIM_SUPPORTED, claim=bad, source=SOURCE)
    assert p_good > p_bad + 0.1, what


def test_swapped_entities_lower_support(judge: EmbeddedJudge) -> None:
    src = "Liverpool beat Arsenal 3-1 on Saturday."
    p_good = p_yes(judge, K.CLAIM_SUPPORTED, claim="Liverpool beat Arsenal.", source=src)
    p_bad = p_yes(judge, K.CLAIM_SUPPORTED, claim="Arsenal beat Liverpool.", source=src)
    assert p_good > p_bad


FACTS = ["My name is Priya.", "My flight to Lisbon is on March 14th.", "I have 2 kids."]


def turn(judge: EmbeddedJudge, kind: str, msg: str, facts: list[str] = FACTS) -> float:
    return p_yes(judge, kind, facts=facts, assistant_message=msg)


def test_reask_versus_confirm(judge: EmbeddedJudge) -> None:
    reask = turn(judge, K.TURN_REASKS, "Sure! When is your flight?")
    confirm = turn(judge, K.TURN_REASKS, "Just to confirm, your flight is on March 14th, right?")
    clarify = turn(judge, K.TURN_REASKS, "Would you like hotel suggestions in Lisbon as well?")
    assert reask > 0.5 > confirm
    assert clarify < 0.5
    assert turn(judge, K.TURN_ATTRITION, "Sure! When is your flight?") > 0.5
    assert turn(judge, K.TURN_ATTRITION, "Just to confirm, your flight is on March 14th, right?") < 0.5


@pytest.mark.parametrize(
    "msg",
    [
        "Since your flight is on March 20th, you have plenty of time.",
        "With your 4 kids, a minivan is a good idea.",
        "Have a great trip to Madrid!",
    ],
)
def test_contradictions_are_forgetting(judge: EmbeddedJudge, msg: str) -> None:
    ok = turn(
        judge, K.TURN_FORGETS, "Your March 14th flight to Lisbon leaves early, so pack the night before."
    )
    bad = turn(judge, K.TURN_FORGETS, msg)
    assert bad > ok
    assert ok < 0.5
    if "Madrid" not in msg:  # another count of the same thing, another day of the date: explicit evidence
        assert bad > 0.5
    else:  # another name near a fact: weak evidence on blind-dev, borderline
        assert 0.35 < bad < 0.65


def test_negated_fact_is_forgetting(judge: EmbeddedJudge) -> None:
    facts = ["I am vegetarian and I do not eat meat."]
    assert turn(judge, K.TURN_FORGETS, "Try this steak recipe, you will love the meat.", facts) > turn(
        judge, K.TURN_FORGETS, "Here is a lentil curry with no meat at all.", facts
    )


LABELLED = [
    (
        K.STATEMENT_RELEVANT,
        {"input": "When did World War II end?", "statement": "World War II ended in 1945."},
        True,
    ),
    (
        K.STATEMENT_RELEVANT,
        {"input": "When did World War II end?", "statement": "Bananas are rich in potassium."},
        False,
    ),
    (
        K.CONTEXT_NODE_RELEVANT,
        {
            "input": "What is the boiling point of water?",
            "node": "Water boils at 100 degrees Celsius at sea level.",
        },
        True,
    ),
    (
        K.CONTEXT_NODE_RELEVANT,
        {"input": "What is the boiling point of water?", "node": "The Eiffel Tower was completed in 1889."},
        False,
    ),
    (K.CLAIM_SUPPORTED, {"claim": "The user lives in Lisbon.", "source": SOURCE}, True),
    (K.CLAIM_SUPPORTED, {"claim": "The user works as a pilot in Tokyo.", "source": SOURCE}, False),
    (K.TURN_REASKS, {"facts": FACTS, "assistant_message": "What's your name, by the way?"}, True),
    (
        K.TURN_FORGETS,
        {"facts": FACTS, "assistant_message": "Have a lovely time in Lisbon with your two kids!"},
        False,
    ),
]


@pytest.mark.parametrize(("kind", "data", "expected"), LABELLED)
def test_labelled_examples(judge: EmbeddedJudge, kind: str, data: dict[str, object], expected: bool) -> None:
    assert (p_yes(judge, kind, **data) >= 0.5) is expected


def test_whole_metric_answer_relevancy(judge: EmbeddedJudge) -> None:
    state = {
        "input": "How do I boil an egg?",
        "actualOutput": "Boil the egg in boiling water for nine minutes to get a hard-boiled egg. "
        "By the way, the stock market rose today.",
    }
    qs = {
        "all": noul(AR.ALL_RELEVANT),
        "addr": noul(AR.ADDRESSES_INPUT),
        "share": ScoreQuestion(
            instructions="share", kind=AR.RELEVANT_SHARE, levels=["none", "<half", "most", "all"]
        ),
    }
    answers, _ = judge.decide(state, qs)
    assert answers.nouls["all"].probability < 0.5 < answers.nouls["addr"].probability
    share = answers.scores["share"]
    assert isinstance(share, ScoreAnswer)
    assert 0.5 < share.score < 2.5  # one of two statements relevant: neither none nor all
    assert share.probabilities[3] < 0.5
    assert sum(share.probabilities.values()) == pytest.approx(1.0)


def test_whole_metric_contextual_relevancy_accepts_retrieved_context_dicts(judge: EmbeddedJudge) -> None:
    state = {
        "input": "What is the capital of Japan?",
        "retrieval_context": [
            {"context": "Tokyo is the capital of Japan.", "source": "wiki"},
            "Mount Fuji is a volcano.",
        ],
    }
    answers, _ = judge.decide(state, {"every": noul(CR.EVERY_NODE_RELEVANT), "all": noul(CR.ALL_RELEVANT)})
    assert answers.nouls["every"].probability < 0.5
    assert answers.nouls["all"].probability < 0.5


def test_whole_metric_knowledge_retention(judge: EmbeddedJudge) -> None:
    levels = ["most", "several", "one", "none"]
    qs = {
        "forget": noul(KR.NO_FORGETTING),
        "reask": noul(KR.NO_REASKING),
        "level": ScoreQuestion(instructions="level", kind=KR.RETENTION_LEVEL, levels=levels),
    }
    good = {
        "turns": [
            {"role": "user", "content": "Hi, I'm Priya and my flight to Lisbon is on March 14th."},
            {"role": "assistant", "content": "Great, Priya! Your March 14th flight to Lisbon is noted."},
        ]
    }
    bad = {
        "turns": [
            {"role": "user", "content": "Hi, I'm Priya and my flight to Lisbon is on March 14th."},
            {"role": "assistant", "content": "Nice to meet you. When is your flight?"},
            {"role": "user", "content": "I told you, March 14th."},
            {"role": "assistant", "content": "Right, so your flight is on March 21st to Madrid."},
        ]
    }
    a_good, _ = judge.decide(good, qs)
    a_bad, _ = judge.decide(bad, qs)
    assert a_good.nouls["forget"].probability > 0.5 > a_bad.nouls["forget"].probability
    assert a_good.nouls["reask"].probability > 0.5 > a_bad.nouls["reask"].probability
    assert a_good.scores["level"].top_level == 3
    assert a_bad.scores["level"].score < a_good.scores["level"].score


def test_knowledge_retention_with_nothing_to_check_keeps_every_fact(judge: EmbeddedJudge) -> None:
    state = {
        "turns": [
            {"role": "user", "content": "Hello!"},
            {"role": "assistant", "content": "Hi, how can I help?"},
        ]
    }
    qs = {
        "forget": noul(KR.NO_FORGETTING),
        "level": ScoreQuestion(instructions="level", kind=KR.RETENTION_LEVEL, levels=list("abcd")),
    }
    answers, _ = judge.decide(state, qs)
    assert answers.nouls["forget"].probability == 1.0
    assert answers.scores["level"].probabilities[3] == pytest.approx(1.0)
    assert answers.scores["level"].confidence == pytest.approx(1.0)


def test_answer_matches_expected_dispatches_to_grading(
    judge: EmbeddedJudge, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[tuple[str, str, str]] = []

    def grade_answer(question: str, expected: str, answer: str) -> ScoreAnswer:
        calls.append((question, expected, answer))
        return ScoreAnswer(score=3.0, probabilities={0: 0.0, 1: 0.0, 2: 0.0, 3: 1.0, 4: 0.0}, confidence=1.0)

    fake = types.ModuleType("deepeval.models.embedded.grading")
    fake.grade_answer = grade_answer  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "deepeval.models.embedded.grading", fake)
    data = {"question": "Where does Priya live?", "expected": "Lisbon", "answer": "In Lisbon."}
    q = ScoreQuestion(instructions="grade", kind=K.ANSWER_MATCHES_EXPECTED, data=data, levels=list("12345"))
    answers, _ = judge.decide({}, {"g": q, "n": noul(K.ANSWER_MATCHES_EXPECTED, **data)})
    assert calls == [("Where does Priya live?", "Lisbon", "In Lisbon.")] * 2
    assert answers.scores["g"].score == pytest.approx(3.0)
    assert answers.nouls["n"].probability == pytest.approx(0.75)


def test_async_decide_and_helpers(judge: EmbeddedJudge) -> None:
    qs = {"q": noul(K.STATEMENT_RELEVANT, input="What is 2+2?", statement="2+2 equals 4.")}
    nouls, cost = asyncio.run(judge.a_noul({}, qs))
    assert cost == 0.0
    assert nouls["q"].probability > 0.5


# -- context_statement_relevant: its own model, separate from the answer-statement model ------------------------
CTX_Q = "who sang the song take me home country roads"
CTX_SELECTED = (
    "The song was written by Bill Danoff, Taffy Nivert and John Denver and recorded by John Denver."
)
CTX_OTHER = "The song was released as a single on April 12, 1971."


def test_context_statement_relevant_is_a_decision_kind_with_its_own_model(judge: EmbeddedJudge) -> None:
    from deepeval.models.embedded import features as ft
    from deepeval.models.embedded import relevance_rules as rr
    from deepeval.models.embedded import scorers
    from deepeval.models.embedded.calibrated import get_model, recalibrated

    assert K.CONTEXT_STATEMENT_RELEVANT == "context_statement_relevant"
    assert K.CONTEXT_STATEMENT_RELEVANT in K.DECISION_KINDS
    ctx, ans = get_model("context_statement_relevant"), get_model("statement_relevant")
    assert ctx != ans  # a separately fitted model, not an alias
    # each kind: its own first-stage model, then its own blind recalibration with the named rules
    p = p_yes(judge, K.CONTEXT_STATEMENT_RELEVANT, {"input": CTX_Q}, statement=CTX_SELECTED)
    first, rules = scorers.context_statement_relevant_parts(CTX_Q, CTX_SELECTED)
    assert first == pytest.approx(ctx.probability(ft.context_statement_features(CTX_Q, CTX_SELECTED)))
    assert p == pytest.approx(
        rr.unsure_when_weak(recalibrated(K.CONTEXT_STATEMENT_RELEVANT, first, rules), rules)
    )
    # the answer-statement kind still goes to the answer model
    p_answer = p_yes(judge, K.STATEMENT_RELEVANT, {"input": CTX_Q}, statement=CTX_SELECTED)
    first_a, rules_a = scorers.statement_relevant_parts(CTX_Q, CTX_SELECTED)
    assert first_a == pytest.approx(ans.probability(ft.relevance_features(CTX_Q, CTX_SELECTED)))
    assert p_answer == pytest.approx(
        rr.unsure_when_weak(recalibrated(K.STATEMENT_RELEVANT, first_a, rules_a), rules_a)
    )
    assert p != pytest.approx(p_answer)


def test_context_statement_relevant_ranks_an_answering_sentence_above_an_on_topic_one(
    judge: EmbeddedJudge,
) -> None:
    p_sel = p_yes(judge, K.CONTEXT_STATEMENT_RELEVANT, None, input=CTX_Q, statement=CTX_SELECTED)
    p_other = p_yes(judge, K.CONTEXT_STATEMENT_RELEVANT, None, input=CTX_Q, statement=CTX_OTHER)
    p_off = p_yes(judge, K.CONTEXT_STATEMENT_RELEVANT, None, input=CTX_Q, statement="I like pancakes.")
    assert p_sel > p_other
    # no content word shared with the request: weak evidence, so "no" but unsure (never a confident no)
    from deepeval.models.embedded.relevance_rules import WEAK_FLOOR

    assert p_off == pytest.approx(WEAK_FLOOR) and abs(2 * p_off - 1) < 0.5
    with pytest.raises(SystemOneError, match="'statement'"):
        judge.decide({"input": CTX_Q}, {"q": noul(K.CONTEXT_STATEMENT_RELEVANT)})


def test_whole_metric_contextual_relevancy_uses_the_context_statement_model() -> None:
    from deepeval.metrics.contextual_relevancy import embedded
    from deepeval.models.embedded import scorers

    fields = {"input": CTX_Q, "retrieval_context": [f"{CTX_SELECTED} {CTX_OTHER}"]}
    out = embedded.compose(fields)
    assert len(out["statements"]) == 2
    node = fields["retrieval_context"][0]
    assert out["probabilities"] == [
        pytest.approx(scorers.context_statement_relevant(CTX_Q, s, node)) for s in out["statements"]
    ]
    assert out["probabilities"] != [
        pytest.approx(scorers.statement_relevant(CTX_Q, s)) for s in out["statements"]
    ]


def test_context_statement_is_ranked_within_its_node(judge: EmbeddedJudge) -> None:
    from deepeval.models.embedded import features as ft

    node = f"{CTX_OTHER} {CTX_SELECTED} The single reached number two on the Billboard Hot 100."
    f_sel = ft.context_statement_features(CTX_Q, CTX_SELECTED, node)
    f_other = ft.context_statement_features(CTX_Q, CTX_OTHER, node)
    assert f_sel["rank"] == 0.0  # the best sentence of its passage
    assert f_other["rank"] > 0.0 and f_other["nb_above"] > 0.0  # beaten, by its neighbour among others
    assert f_sel["log_sents"] == pytest.approx(math.log1p(5))  # 3 sentences, clipped to the training range
    alone = ft.context_statement_features(CTX_Q, CTX_SELECTED)  # no node: a passage of one sentence
    assert alone["rank"] == 0.0 and alone["nb_above"] == 0.0
    p_sel = p_yes(judge, K.CONTEXT_STATEMENT_RELEVANT, {"input": CTX_Q}, statement=CTX_SELECTED, node=node)
    p_other = p_yes(judge, K.CONTEXT_STATEMENT_RELEVANT, {"input": CTX_Q}, statement=CTX_OTHER, node=node)
    assert p_sel > 2 * p_other and p_other < 0.5
    # ranking is one-sided: the sentences it beats do not raise its first-stage P above the sentence read alone
    # (only its neighbours' words, idf_win, may); the recalibration then reads a lone sentence as a node of one
    # (``single``), which it judges apart
    from deepeval.models.embedded import scorers

    in_node, _ = scorers.context_statement_relevant_parts(CTX_Q, CTX_SELECTED, node)
    alone_first, alone_rules = scorers.context_statement_relevant_parts(CTX_Q, CTX_SELECTED)
    assert in_node == pytest.approx(alone_first, abs=0.05) and alone_rules["single"] == 1.0


def test_context_ranking_is_one_sided_and_ignores_repeats() -> None:
    from deepeval.models.embedded import scorers

    relevant = "The capital of France is Paris."
    others = [
        "The capital of Germany is Berlin.",
        "Tomatoes grow best in warm weather.",
        "Paris is the capital.",
    ]
    q = "What is the capital of France?"
    ps = [
        scorers.context_statement_relevant(q, relevant, relevant, "\n".join([relevant, *others[:k]]))
        for k in range(4)
    ]
    assert all(ps[i] >= ps[i + 1] for i in range(len(ps) - 1))  # one more node never raises a sentence
    once = scorers.context_statement_relevant(q, relevant, relevant, f"{relevant}\nParis is the capital.")
    many = " ".join([relevant] * 20)
    assert scorers.context_statement_relevant(
        q, relevant, many, f"{many}\nParis is the capital."
    ) == pytest.approx(once)


def test_one_request_encodes_each_distinct_text_once_in_one_call_per_prefix(judge: EmbeddedJudge) -> None:
    import numpy as np

    from deepeval.models.embedded import encoder

    calls: list[tuple[int, bool]] = []

    def backend(texts: list[str], is_query: bool) -> np.ndarray:
        calls.append((len(texts), is_query))
        rng = np.random.default_rng(len(texts))
        return rng.normal(size=(len(texts), encoder.DIM)).astype(np.float32)

    nodes = [f"{CTX_SELECTED} {CTX_OTHER}", "The band toured Europe in 1972. Tickets sold out."]
    questions = {
        f"n{n}s{i}": noul(K.CONTEXT_STATEMENT_RELEVANT, input=CTX_Q, statement=s, node=node)
        for n, node in enumerate(nodes)
        for i, s in enumerate(
            [CTX_SELECTED, CTX_OTHER] if n == 0 else ["The band toured Europe in 1972.", "Tickets sold out."]
        )
    }
    questions["node0"] = noul(K.CONTEXT_NODE_RELEVANT, input=CTX_Q, node=nodes[0])
    questions["claim"] = noul(K.CLAIM_SUPPORTED, claim="The band toured Europe.", source=nodes[1])
    encoder.set_backend(backend)
    try:
        answers, _ = judge.decide({}, questions)
    finally:
        encoder.set_backend(None)
    assert set(answers.nouls) == set(questions)
    # one query call (the input) and one passage call (4 sentences, the input, the claim, the background set)
    assert calls == [(1, True), (4 + 1 + 1 + 12, False)]
