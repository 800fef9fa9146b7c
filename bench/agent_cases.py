"""The parity set of the judge-free agent metrics: every documented edge of ToolCorrectness, ToolPermission,
AgentLoopDetection and AgentResponsiveness, as plain data both implementations read (no ``deepeval`` import here).

Each case: ``id``; ``metric`` (the class name); ``kwargs`` (constructor arguments; ``evaluation_params`` as
``ToolCallParams`` values, tools as dicts); ``case`` (``LLMTestCase`` fields, tools as dicts) or ``turns`` (a
``ConversationalTestCase``); ``trace`` (a nested span dict set as the test case's ``_trace_dict``, 4.3.1's shape:
``name``, ``type``, ``input``, ``output``, ``children``). ``bench/agents_parity.py`` runs them under 4.3.1 and ours;
``tests/metrics/data/agents_4_3_1.json`` keeps what 4.3.1 gave; ``tests/metrics/test_agents_judge_free.py`` checks
ours against it, and ``DIFFERENCES`` lists (with why) the cases where ours deliberately differs.
"""

from __future__ import annotations

from typing import Any


def _t(name: str, **fields: Any) -> dict[str, Any]:
    return {"name": name, **fields}


def _tc(called: list[dict[str, Any]], expected: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {
        "input": "What is the weather in Paris?",
        "actual_output": "Sunny.",
        "tools_called": called,
        "expected_tools": expected,
        **extra,
    }


A, B, C, D = _t("search"), _t("weather"), _t("calculator"), _t("email")
P1 = _t("weather", input_parameters={"city": "Paris", "units": "C"})
P2 = _t("weather", input_parameters={"city": "Paris", "units": "F"})
P3 = _t("weather", input_parameters={"city": "Paris", "units": "C", "days": 3})
NEST1 = _t("search", input_parameters={"q": {"text": "paris", "lang": "fr"}, "limit": 5})
NEST2 = _t("search", input_parameters={"q": {"text": "paris", "lang": "en"}, "limit": 5})
OUT1 = _t("weather", output="sunny")
OUT2 = _t("weather", output="rain")
MCP_B = _t("weather", type="MCP")

TC = "ToolCorrectnessMetric"
IP = "input_parameters"
OUT = "output"

TOOL_CORRECTNESS: list[dict[str, Any]] = [
    {"id": "tc_partial", "metric": TC, "kwargs": {}, "case": _tc([A, B], [B, C])},
    {"id": "tc_all_called_plus_extra", "metric": TC, "kwargs": {}, "case": _tc([A, B, C], [B, C])},
    {"id": "tc_no_tools_called", "metric": TC, "kwargs": {}, "case": _tc([], [A, B])},
    {"id": "tc_both_empty", "metric": TC, "kwargs": {}, "case": _tc([], [])},
    {"id": "tc_expected_empty_called_one", "metric": TC, "kwargs": {}, "case": _tc([A], [])},
    {"id": "tc_expected_one_of_three", "metric": TC, "kwargs": {}, "case": _tc([A], [A, B, C])},
    {"id": "tc_duplicate_called", "metric": TC, "kwargs": {}, "case": _tc([A, A], [A])},
    {"id": "tc_duplicate_expected_one_called", "metric": TC, "kwargs": {}, "case": _tc([A], [A, A])},
    {"id": "tc_duplicate_both", "metric": TC, "kwargs": {}, "case": _tc([A, A], [A, A])},
    {
        "id": "tc_duplicate_both_distinct_args",
        "metric": TC,
        "kwargs": {"evaluation_params": [IP]},
        "case": _tc([P1, P2], [P2, P1]),
    },
    {"id": "tc_order_ignored", "metric": TC, "kwargs": {}, "case": _tc([C, B, A], [A, B, C])},
    {
        "id": "tc_ordered_swap",
        "metric": TC,
        "kwargs": {"should_consider_ordering": True},
        "case": _tc([B, A], [A, B]),
    },
    {
        "id": "tc_ordered_lcs",
        "metric": TC,
        "kwargs": {"should_consider_ordering": True},
        "case": _tc([A, C, B], [A, B, C]),
    },
    {
        "id": "tc_ordered_with_extras",
        "metric": TC,
        "kwargs": {"should_consider_ordering": True},
        "case": _tc([D, A, D, B, C], [A, B, C]),
    },
    {
        "id": "tc_ordered_missing",
        "metric": TC,
        "kwargs": {"should_consider_ordering": True},
        "case": _tc([A, C], [A, B, C]),
    },
    {
        "id": "tc_ordered_both_empty",
        "metric": TC,
        "kwargs": {"should_consider_ordering": True},
        "case": _tc([], []),
    },
    {
        "id": "tc_ordered_expected_empty",
        "metric": TC,
        "kwargs": {"should_consider_ordering": True},
        "case": _tc([A], []),
    },
    {
        "id": "tc_ordered_partial_args",
        "metric": TC,
        "kwargs": {"should_consider_ordering": True, "evaluation_params": [IP]},
        "case": _tc([A, P2], [A, P1]),
    },
    {
        "id": "tc_ordered_output_mismatch",
        "metric": TC,
        "kwargs": {"should_consider_ordering": True, "evaluation_params": [OUT]},
        "case": _tc([A, OUT2], [A, OUT1]),
    },
    {
        "id": "tc_exact_equal",
        "metric": TC,
        "kwargs": {"should_exact_match": True},
        "case": _tc([A, B], [A, B]),
    },
    {
        "id": "tc_exact_order_differs",
        "metric": TC,
        "kwargs": {"should_exact_match": True},
        "case": _tc([B, A], [A, B]),
    },
    {
        "id": "tc_exact_length_differs",
        "metric": TC,
        "kwargs": {"should_exact_match": True},
        "case": _tc([A, B, C], [A, B]),
    },
    {"id": "tc_exact_both_empty", "metric": TC, "kwargs": {"should_exact_match": True}, "case": _tc([], [])},
    {
        "id": "tc_exact_args_ignored",
        "metric": TC,
        "kwargs": {"should_exact_match": True},
        "case": _tc([P2], [P1]),
    },
    {
        "id": "tc_exact_args_compared",
        "metric": TC,
        "kwargs": {"should_exact_match": True, "evaluation_params": [IP]},
        "case": _tc([P2], [P1]),
    },
    {
        "id": "tc_exact_output_compared",
        "metric": TC,
        "kwargs": {"should_exact_match": True, "evaluation_params": [OUT]},
        "case": _tc([OUT2], [OUT1]),
    },
    {
        "id": "tc_exact_wins_over_ordering",
        "metric": TC,
        "kwargs": {"should_exact_match": True, "should_consider_ordering": True},
        "case": _tc([A, C, B], [A, B, C]),
    },
    {"id": "tc_args_partial", "metric": TC, "kwargs": {"evaluation_params": [IP]}, "case": _tc([P2], [P1])},
    {"id": "tc_args_extra_key", "metric": TC, "kwargs": {"evaluation_params": [IP]}, "case": _tc([P3], [P1])},
    {
        "id": "tc_args_nested",
        "metric": TC,
        "kwargs": {"evaluation_params": [IP]},
        "case": _tc([NEST2], [NEST1]),
    },
    {"id": "tc_args_equal", "metric": TC, "kwargs": {"evaluation_params": [IP]}, "case": _tc([P1, A], [P1])},
    {"id": "tc_args_not_compared", "metric": TC, "kwargs": {}, "case": _tc([P2], [P1])},
    {
        "id": "tc_args_best_of_two",
        "metric": TC,
        "kwargs": {"evaluation_params": [IP]},
        "case": _tc([P2, P1], [P1]),
    },
    {
        "id": "tc_output_mismatch",
        "metric": TC,
        "kwargs": {"evaluation_params": [OUT]},
        "case": _tc([OUT2], [OUT1]),
    },
    {
        "id": "tc_output_equal",
        "metric": TC,
        "kwargs": {"evaluation_params": [OUT]},
        "case": _tc([OUT1], [OUT1]),
    },
    {
        "id": "tc_args_and_output",
        "metric": TC,
        "kwargs": {"evaluation_params": [IP, OUT]},
        "case": _tc(
            [_t("weather", input_parameters={"city": "Paris", "units": "F"}, output="sunny")],
            [_t("weather", input_parameters={"city": "Paris", "units": "C"}, output="sunny")],
        ),
    },
    {"id": "tc_type_mismatch", "metric": TC, "kwargs": {}, "case": _tc([A, MCP_B], [A, B])},
    {
        "id": "tc_type_mismatch_ordered",
        "metric": TC,
        "kwargs": {"should_consider_ordering": True},
        "case": _tc([A, MCP_B], [A, B]),
    },
    {
        "id": "tc_type_mismatch_exact",
        "metric": TC,
        "kwargs": {"should_exact_match": True},
        "case": _tc([A, MCP_B], [A, B]),
    },
    {"id": "tc_strict_partial", "metric": TC, "kwargs": {"strict_mode": True}, "case": _tc([A, B], [B, C])},
    {"id": "tc_strict_full", "metric": TC, "kwargs": {"strict_mode": True}, "case": _tc([B, C], [B, C])},
    {"id": "tc_threshold_high", "metric": TC, "kwargs": {"threshold": 0.9}, "case": _tc([A, B], [B, C])},
    {"id": "tc_threshold_none", "metric": TC, "kwargs": {"threshold": None}, "case": _tc([A, B], [B, C])},
    {
        "id": "tc_missing_tools_called",
        "metric": TC,
        "kwargs": {},
        "case": {"input": "q", "actual_output": "a", "expected_tools": [A]},
    },
    {
        "id": "tc_missing_expected_tools",
        "metric": TC,
        "kwargs": {},
        "case": {"input": "q", "actual_output": "a", "tools_called": [A]},
    },
    {
        "id": "tc_no_actual_output",
        "metric": TC,
        "kwargs": {},
        "case": {"input": "q", "tools_called": [A], "expected_tools": [A]},
    },
]

TP = "ToolPermissionMetric"
TOOL_PERMISSION: list[dict[str, Any]] = [
    {
        "id": "tp_all_allowed",
        "metric": TP,
        "kwargs": {"allowed_tools": ["search", "weather"]},
        "case": _tc([A, B], []),
    },
    {
        "id": "tp_one_not_allowed",
        "metric": TP,
        "kwargs": {"allowed_tools": ["search"]},
        "case": _tc([A, B], []),
    },
    {"id": "tp_denied", "metric": TP, "kwargs": {"denied_tools": ["email"]}, "case": _tc([A, D, D], [])},
    {
        "id": "tp_deny_wins",
        "metric": TP,
        "kwargs": {"allowed_tools": ["search", "email"], "denied_tools": ["email"]},
        "case": _tc([A, D], []),
    },
    {"id": "tp_no_tools_called", "metric": TP, "kwargs": {"allowed_tools": ["search"]}, "case": _tc([], [])},
    {"id": "tp_empty_allowlist", "metric": TP, "kwargs": {"allowed_tools": []}, "case": _tc([A], [])},
    {
        "id": "tp_threshold_default_fails",
        "metric": TP,
        "kwargs": {"denied_tools": ["weather"]},
        "case": _tc([A, A, A, B], []),
    },
    {
        "id": "tp_threshold_low",
        "metric": TP,
        "kwargs": {"denied_tools": ["weather"], "threshold": 0.5},
        "case": _tc([A, A, A, B], []),
    },
    {
        "id": "tp_strict",
        "metric": TP,
        "kwargs": {"denied_tools": ["weather"], "strict_mode": True},
        "case": _tc([A, A, A, B], []),
    },
    {
        "id": "tp_missing_tools_called",
        "metric": TP,
        "kwargs": {"allowed_tools": ["search"]},
        "case": {"input": "q", "actual_output": "a"},
    },
    {"id": "tp_no_policy", "metric": TP, "kwargs": {}, "case": _tc([A], [])},
]


def _span(kind: str, name: str, inp: Any, out: Any, *children: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "type": kind, "input": inp, "output": out, "children": list(children)}


_THOUGHT = (
    "the user wants the current forecast for paris including temperature humidity wind speed chance of "
    "rain tomorrow morning afternoon evening weekly outlook plus clothing advice umbrella recommendation"
)
_THOUGHT2 = (
    "considering flights between lisbon madrid barcelona comparing airlines prices baggage fees departure "
    "times layovers seat availability loyalty points refund policies travel insurance airport transfers"
)

LD = "AgentLoopDetectionMetric"
_LD_CASE = {"input": "Plan my trip", "actual_output": "Here is your plan."}
AGENT_LOOP_DETECTION: list[dict[str, Any]] = [
    {
        "id": "ld_clean",
        "metric": LD,
        "kwargs": {},
        "case": _LD_CASE,
        "trace": _span(
            "agent",
            "planner",
            {"q": "trip"},
            "plan",
            _span("llm", "think", {"p": "1"}, "short thought"),
            _span("tool", "search", {"query": "flights"}, "3 flights"),
            _span("tool", "search", {"query": "hotels"}, "2 hotels"),
        ),
    },
    {"id": "ld_no_trace", "metric": LD, "kwargs": {}, "case": _LD_CASE},
    {
        "id": "ld_repeat_3",
        "metric": LD,
        "kwargs": {},
        "case": _LD_CASE,
        "trace": _span(
            "agent", "a", "go", "done", *[_span("tool", "search", {"query": "x"}, "r") for _ in range(3)]
        ),
    },
    {
        "id": "ld_repeat_6",
        "metric": LD,
        "kwargs": {},
        "case": _LD_CASE,
        "trace": _span(
            "agent", "a", "go", "done", *[_span("tool", "search", {"query": "x"}, "r") for _ in range(6)]
        ),
    },
    {
        "id": "ld_repeat_different_args",
        "metric": LD,
        "kwargs": {},
        "case": _LD_CASE,
        "trace": _span(
            "agent", "a", "go", "done", *[_span("tool", "search", {"query": f"x{i}"}, "r") for i in range(6)]
        ),
    },
    {
        "id": "ld_repeat_json_string_input",
        "metric": LD,
        "kwargs": {},
        "case": _LD_CASE,
        "trace": _span(
            "agent",
            "a",
            "go",
            "done",
            _span("tool", "search", '{"query": "x"}', "r"),
            _span("tool", "search", {"query": "x"}, "r"),
            _span("tool", "search", '{"query": "x"}', "r"),
        ),
    },
    {
        "id": "ld_repeat_threshold_2",
        "metric": LD,
        "kwargs": {"repetition_threshold": 2},
        "case": _LD_CASE,
        "trace": _span(
            "agent", "a", "go", "done", *[_span("tool", "search", {"query": "x"}, "r") for _ in range(2)]
        ),
    },
    {
        "id": "ld_repeat_non_json_input",
        "metric": LD,
        "kwargs": {},
        "case": _LD_CASE,
        "trace": _span(
            "agent", "a", "go", "done", *[_span("tool", "fetch", "not {json", "r") for _ in range(3)]
        ),
    },
    {
        "id": "ld_stagnation_identical",
        "metric": LD,
        "kwargs": {},
        "case": _LD_CASE,
        "trace": _span(
            "agent",
            "a",
            "go",
            "done",
            _span("llm", "think", "1", _THOUGHT),
            _span("llm", "think", "2", _THOUGHT),
        ),
    },
    {
        "id": "ld_stagnation_near",
        "metric": LD,
        "kwargs": {},
        "case": _LD_CASE,
        "trace": _span(
            "agent",
            "a",
            "go",
            "done",
            _span("llm", "think", "1", _THOUGHT),
            _span(
                "llm",
                "think",
                "2",
                _THOUGHT.replace("umbrella recommendation", "sunscreen reminder packing list"),
            ),
        ),
    },
    {
        "id": "ld_stagnation_different",
        "metric": LD,
        "kwargs": {},
        "case": _LD_CASE,
        "trace": _span(
            "agent",
            "a",
            "go",
            "done",
            _span("llm", "think", "1", _THOUGHT),
            _span("llm", "think", "2", _THOUGHT2),
        ),
    },
    {
        "id": "ld_stagnation_short_skipped",
        "metric": LD,
        "kwargs": {},
        "case": _LD_CASE,
        "trace": _span(
            "agent",
            "a",
            "go",
            "done",
            _span("llm", "t", "1", "same words here"),
            _span("llm", "t", "2", "same words here"),
        ),
    },
    {
        "id": "ld_stagnation_non_string_output",
        "metric": LD,
        "kwargs": {},
        "case": _LD_CASE,
        "trace": _span(
            "agent",
            "a",
            "go",
            "done",
            _span("llm", "t", "1", {"x": _THOUGHT}),
            _span("llm", "t", "2", {"x": _THOUGHT}),
        ),
    },
    {
        "id": "ld_stagnation_threshold_low",
        "metric": LD,
        "kwargs": {"similarity_threshold": 0.1},
        "case": _LD_CASE,
        "trace": _span(
            "agent",
            "a",
            "go",
            "done",
            _span("llm", "think", "1", _THOUGHT),
            _span("llm", "think", "2", _THOUGHT + " " + _THOUGHT2),
        ),
    },
    {
        "id": "ld_cycle",
        "metric": LD,
        "kwargs": {},
        "case": _LD_CASE,
        "trace": _span(
            "agent",
            "planner",
            "trip",
            "done",
            _span("tool", "delegate", "x", "y", _span("agent", "planner", "trip", "done")),
        ),
    },
    {
        "id": "ld_same_name_other_input",
        "metric": LD,
        "kwargs": {},
        "case": _LD_CASE,
        "trace": _span("agent", "planner", "trip", "done", _span("agent", "planner", "sub-trip", "done")),
    },
    {
        "id": "ld_siblings_not_cycle",
        "metric": LD,
        "kwargs": {"check_tool_repetition": False},
        "case": _LD_CASE,
        "trace": _span(
            "agent", "a", "go", "done", _span("tool", "t", "x", "1"), _span("tool", "t", "x", "1")
        ),
    },
    {
        "id": "ld_all_signals",
        "metric": LD,
        "kwargs": {},
        "case": _LD_CASE,
        "trace": _span(
            "agent",
            "a",
            "go",
            "done",
            _span("llm", "think", "1", _THOUGHT),
            _span("llm", "think", "2", _THOUGHT),
            *[_span("tool", "search", {"query": "x"}, "r") for _ in range(6)],
            _span("agent", "a", "go", "done"),
        ),
    },
    {
        "id": "ld_only_cycles_checked",
        "metric": LD,
        "kwargs": {"check_tool_repetition": False, "check_reasoning_stagnation": False},
        "case": _LD_CASE,
        "trace": _span("agent", "a", "go", "done", _span("agent", "a", "go", "done")),
    },
    {
        "id": "ld_nothing_checked",
        "metric": LD,
        "kwargs": {
            "check_tool_repetition": False,
            "check_reasoning_stagnation": False,
            "check_call_graph_cycles": False,
        },
        "case": _LD_CASE,
        "trace": _span("agent", "a", "go", "done", _span("agent", "a", "go", "done")),
    },
    {
        "id": "ld_strict",
        "metric": LD,
        "kwargs": {"strict_mode": True},
        "case": _LD_CASE,
        "trace": _span(
            "agent", "a", "go", "done", *[_span("tool", "search", {"query": "x"}, "r") for _ in range(3)]
        ),
    },
    {"id": "ld_missing_output", "metric": LD, "kwargs": {}, "case": {"input": "q"}},
]

AR = "AgentResponsivenessMetric"


def _turn(role: str, content: str, audio: bool = True) -> dict[str, Any]:
    turn: dict[str, Any] = {"role": role, "content": content}
    if audio and role == "assistant":
        turn["audio_url"] = "https://example.com/clip.wav"
    return turn


_HELLO = [_turn("user", "Hi"), _turn("assistant", "Hello, how can I help?")]
AGENT_RESPONSIVENESS: list[dict[str, Any]] = [
    {
        "id": "ar_all_answered",
        "metric": AR,
        "kwargs": {},
        "turns": [*_HELLO, _turn("user", "Where is my order?"), _turn("assistant", "It ships today.")],
    },
    {
        "id": "ar_user_last",
        "metric": AR,
        "kwargs": {},
        "turns": [*_HELLO, _turn("user", "Where is my order?")],
    },
    {"id": "ar_goodbye_last", "metric": AR, "kwargs": {}, "turns": [*_HELLO, _turn("user", "Thanks, bye!")]},
    {"id": "ar_that_is_all", "metric": AR, "kwargs": {}, "turns": [*_HELLO, _turn("user", "That is all.")]},
    {
        "id": "ar_one_reprompt",
        "metric": AR,
        "kwargs": {},
        "turns": [_turn("user", "Hi"), _turn("user", "Hello?"), _turn("assistant", "Sorry, hello!")],
    },
    {
        "id": "ar_three_reprompts",
        "metric": AR,
        "kwargs": {},
        "turns": [
            _turn("user", "Hi"),
            _turn("user", "Hello?"),
            _turn("user", "Anyone?"),
            _turn("user", "Hey!"),
            _turn("assistant", "Sorry!"),
        ],
    },
    {
        "id": "ar_five_reprompts_floor",
        "metric": AR,
        "kwargs": {},
        "turns": [*[_turn("user", f"Hello {i}?") for i in range(6)], _turn("assistant", "Sorry!")],
    },
    {
        "id": "ar_audio_missing",
        "metric": AR,
        "kwargs": {},
        "turns": [_turn("user", "Hi"), _turn("assistant", "Hello", audio=False)],
    },
    {
        "id": "ar_agent_hangup",
        "metric": AR,
        "kwargs": {},
        "turns": _HELLO,
        "metadata": {"end_reason": "agent_hangup"},
    },
    {
        "id": "ar_normal_end",
        "metric": AR,
        "kwargs": {},
        "turns": _HELLO,
        "metadata": {"endReason": "CUSTOMER_ENDED"},
    },
    {
        "id": "ar_strict_reprompt",
        "metric": AR,
        "kwargs": {"strict_mode": True},
        "turns": [_turn("user", "Hi"), _turn("user", "Hello?"), _turn("assistant", "Sorry, hello!")],
    },
]

CASES = TOOL_CORRECTNESS + TOOL_PERMISSION + AGENT_LOOP_DETECTION + AGENT_RESPONSIVENESS

#: case id -> why ours gives another result than 4.3.1 (the test asserts ours' own value for these)
DIFFERENCES: dict[str, str] = {
    "tc_duplicate_both": "two identical expected calls met by two identical calls: 4.3.1 skips every called tool "
    "equal to one already matched and scores 0.5; ours uses each called tool once by position: 1.0",
    "tc_missing_tools_called": "our MissingTestCaseParamsError message is our own",
    "tc_missing_expected_tools": "our MissingTestCaseParamsError message is our own",
    "tp_missing_tools_called": "our MissingTestCaseParamsError message is our own",
    "ld_missing_output": "our MissingTestCaseParamsError message is our own",
    "ld_no_trace": "no trace: 4.3.1 scores 0.0 ('No trace data found'), a score nobody measured; ours raises "
    "MissingTestCaseParamsError saying how to provide the trace",
}


# -- judged metrics (scripted judge: bench/agent_judge.py) -----------------------------------------------------------
TCM = "TaskCompletionMetric"


def _judged_case(
    cid: str,
    metric: str,
    kwargs: dict[str, Any],
    fields: dict[str, Any],
    script: dict[str, Any],
    trace: dict[str, Any] | None = None,
) -> dict[str, Any]:
    fields = {**fields, "input": f"[case:{cid}] {fields['input']}"}
    case: dict[str, Any] = {"id": cid, "metric": metric, "kwargs": kwargs, "case": fields, "script": script}
    if trace is not None:
        trace = {**trace, "input": {"query": fields["input"]}}
        case["trace"] = trace
    return case


def _tc_script(verdict: float, hybrid_level: float, nouls: list[float], level: float) -> dict[str, Any]:
    return {
        "task": "do what the user asked",
        "outcome": "the agent did part of it",
        "verdict": verdict,
        "hybrid_level": hybrid_level,
        "nouls": nouls,
        "level": level,
    }


_FLIGHT = {
    "input": "Book me a flight from Paris to Rome next Friday",
    "actual_output": "I found 3 flights; the 9am Alitalia one is booked, confirmation AZ123.",
    "tools_called": [_t("search_flights"), _t("book")],
}
_TRACE = _span(
    "agent",
    "travel_agent",
    None,
    "Booked AZ123",
    _span("llm", "plan", {"prompt": "plan"}, "search then book"),
    _span("tool", "search_flights", {"from": "CDG", "to": "FCO"}, "3 flights"),
    _span("tool", "book", {"flight": "AZ123"}, "confirmed"),
)

TASK_COMPLETION: list[dict[str, Any]] = [
    _judged_case("tk01", TCM, {}, _FLIGHT, _tc_script(1.0, 3.0, [0.95, 0.9], 3.0)),
    _judged_case("tk02", TCM, {}, _FLIGHT, _tc_script(0.0, 0.0, [0.05, 0.1], 0.0)),
    _judged_case("tk03", TCM, {}, _FLIGHT, _tc_script(0.5, 1.5, [0.5, 0.5], 1.5)),
    _judged_case("tk04", TCM, {}, _FLIGHT, _tc_script(0.85, 2.4, [0.8, 0.3], 2.2)),
    _judged_case("tk05", TCM, {}, _FLIGHT, _tc_script(0.3, 0.7, [0.2, 0.6], 1.0), trace=_TRACE),
    _judged_case("tk06", TCM, {}, _FLIGHT, _tc_script(0.95, 2.9, [0.99, 0.97], 2.95), trace=_TRACE),
    _judged_case(
        "tk07", TCM, {"task": "Book the cheapest flight"}, _FLIGHT, _tc_script(0.4, 1.0, [0.3, 0.4], 1.2)
    ),
    _judged_case(
        "tk08",
        TCM,
        {"task": "Book the cheapest flight"},
        _FLIGHT,
        _tc_script(0.6, 2.0, [0.7, 0.6], 2.0),
        trace=_TRACE,
    ),
    _judged_case("tk09", TCM, {"strict_mode": True}, _FLIGHT, _tc_script(0.9, 2.5, [0.9, 0.8], 2.6)),
    _judged_case("tk10", TCM, {"strict_mode": True}, _FLIGHT, _tc_script(1.0, 3.0, [0.9, 0.8], 3.0)),
    _judged_case("tk11", TCM, {"threshold": 0.8}, _FLIGHT, _tc_script(0.75, 2.25, [0.75, 0.7], 2.3)),
    _judged_case("tk12", TCM, {"threshold": 0.2}, _FLIGHT, _tc_script(0.25, 0.75, [0.3, 0.2], 0.8)),
    _judged_case(
        "tk13",
        TCM,
        {},
        {"input": "What is 2+2?", "actual_output": "4"},
        _tc_script(1.0, 2.8, [0.9, 0.99], 2.9),
    ),
    _judged_case(
        "tk14",
        TCM,
        {},
        {"input": "Summarise my inbox", "actual_output": "I cannot access email.", "tools_called": []},
        _tc_script(0.1, 0.3, [0.1, 0.05], 0.2),
    ),
    _judged_case("tk15", TCM, {"include_reason": False}, _FLIGHT, _tc_script(0.65, 1.9, [0.6, 0.55], 1.95)),
    _judged_case(
        "tk16", TCM, {"threshold": 0.5}, _FLIGHT, _tc_script(0.5, 1.5, [0.45, 0.5], 1.5), trace=_TRACE
    ),
]

_AVAILABLE = [
    _t("search_flights", description="search flights"),
    _t("book", description="book a flight"),
    _t("weather", description="weather forecast"),
]
TOOL_SELECTION: list[dict[str, Any]] = [
    _judged_case(
        f"ts{i:02d}",
        TC,
        {"available_tools": _AVAILABLE, **kw},
        {**_FLIGHT, "expected_tools": expected},
        {"selection": sel, "hybrid_level": lvl},
    )
    for i, (kw, expected, sel, lvl) in enumerate(
        [
            ({}, [_t("search_flights"), _t("book")], 1.0, 4.0),
            ({}, [_t("search_flights"), _t("book")], 0.25, 1.0),
            ({}, [_t("search_flights"), _t("weather")], 0.75, 3.0),
            ({}, [_t("search_flights"), _t("weather")], 0.4, 1.2),
            ({"should_consider_ordering": True}, [_t("book"), _t("search_flights")], 0.9, 3.5),
            ({"strict_mode": True}, [_t("search_flights"), _t("book")], 0.75, 3.0),
            ({"strict_mode": True}, [_t("search_flights"), _t("book")], 1.0, 4.0),
            ({"should_exact_match": True}, [_t("search_flights"), _t("book")], 0.5, 2.0),
            ({}, [_t("weather")], 0.0, 0.0),
            ({"threshold": 0.7}, [_t("search_flights"), _t("book")], 0.6, 2.6),
            ({}, [_t("search_flights"), _t("book"), _t("weather")], 0.8, 3.3),
            ({}, [_t("search_flights"), _t("book")], 0.55, 2.1),
            ({"threshold": 0.3}, [_t("book")], 0.35, 1.4),
            ({}, [_t("search_flights")], 0.95, 3.9),
            ({"should_consider_ordering": True}, [_t("search_flights"), _t("book")], 0.15, 0.5),
        ]
    )
]

ACM = "ArgumentCorrectnessMetric"
_CALLS3 = [
    _t("search_flights", input_parameters={"from": "CDG", "to": "FCO"}),
    _t("book", input_parameters={"flight": "AZ123"}),
    _t("weather", input_parameters={"city": "Rome"}),
]


def _ac(
    cid: str,
    kwargs: dict[str, Any],
    calls: list[dict[str, Any]],
    verdicts: list[str],
    p_yes: list[float],
    nouls: list[float],
    level: float,
) -> dict[str, Any]:
    fields = {
        "input": "Book me a flight from Paris to Rome",
        "actual_output": "Booked.",
        "tools_called": calls,
    }
    return _judged_case(
        cid, ACM, kwargs, fields, {"verdicts": verdicts, "p_yes": p_yes, "nouls": nouls, "level": level}
    )


ARGUMENT_CORRECTNESS: list[dict[str, Any]] = [
    _ac("ac01", {}, _CALLS3, ["yes", "yes", "yes"], [0.9, 0.8, 0.7], [0.9, 0.95], 3.0),
    _ac("ac02", {}, _CALLS3, ["yes", "no", "yes"], [0.9, 0.2, 0.7], [0.3, 0.4], 2.0),
    _ac("ac03", {}, _CALLS3, ["no", "no", "no"], [0.1, 0.2, 0.49], [0.05, 0.1], 0.0),
    _ac("ac04", {}, _CALLS3, ["yes", "no", "no"], [0.5, 0.49, 0.3], [0.4, 0.3], 1.0),
    _ac("ac05", {}, _CALLS3[:1], ["yes"], [0.51], [0.8, 0.7], 2.7),
    _ac("ac06", {}, _CALLS3[:1], ["no"], [0.2], [0.2, 0.1], 0.3),
    _ac("ac07", {}, [], [], [], [0.5, 0.5], 1.5),
    _ac("ac08", {"strict_mode": True}, _CALLS3, ["yes", "yes", "no"], [0.9, 0.9, 0.1], [0.7, 0.6], 2.5),
    _ac("ac09", {"strict_mode": True}, _CALLS3, ["yes", "yes", "yes"], [0.9, 0.9, 0.9], [0.9, 0.8], 3.0),
    _ac("ac10", {"threshold": 0.9}, _CALLS3, ["yes", "yes", "no"], [0.95, 0.8, 0.3], [0.6, 0.5], 2.0),
    _ac("ac11", {"include_reason": False}, _CALLS3, ["no", "yes", "yes"], [0.3, 0.6, 0.6], [0.65, 0.35], 1.8),
    _ac("ac12", {}, [_t("search_flights")], ["no"], [0.3], [0.1, 0.2], 0.5),
    _ac(
        "ac13",
        {},
        _CALLS3 * 2,
        ["yes", "no", "yes", "yes", "no", "yes"],
        [0.8, 0.3, 0.9, 0.7, 0.2, 0.6],
        [0.55, 0.45],
        2.2,
    ),
    _ac("ac14", {"threshold": 0.3}, _CALLS3[:2], ["no", "yes"], [0.4, 0.8], [0.35, 0.5], 1.4),
    _ac("ac15", {}, _CALLS3[1:], ["yes", "yes"], [0.99, 0.97], [0.97, 0.99], 2.99),
    _ac(
        "ac16",
        {},
        [_t("weather", input_parameters={"city": "Paris", "date": "2026-01-01"})],
        ["yes"],
        [0.66],
        [0.6, 0.61],
        2.1,
    ),
]

PAM, PQM = "PlanAdherenceMetric", "PlanQualityMetric"
_PLAN = ["search flights from Paris to Rome", "pick the cheapest", "book it"]
_PLAN_TRACE = _span(
    "agent",
    "travel_agent",
    None,
    "Booked AZ123",
    _span("llm", "think", {"prompt": "plan"}, "Plan: 1) search flights 2) pick cheapest 3) book"),
    _span("tool", "search_flights", {"from": "CDG", "to": "FCO"}, "3 flights"),
    _span("tool", "book", {"flight": "AZ123"}, "confirmed"),
)
_YES, _NO, _NA = [0.9, 0.1, 0.0], [0.1, 0.9, 0.0], [0.05, 0.05, 0.9]


def _plan_case(
    cid: str,
    metric: str,
    kwargs: dict[str, Any],
    plan: list[str],
    score: float,
    hybrid_level: float,
    choices: list[list[float]],
    trace: bool = True,
) -> dict[str, Any]:
    script = {
        "task": "book the cheapest Paris-Rome flight",
        "plan": plan,
        "score": score,
        "hybrid_level": hybrid_level,
        "choices": choices,
    }
    return _judged_case(cid, metric, kwargs, _FLIGHT, script, trace=_PLAN_TRACE if trace else None)


def _five(p: list[float]) -> list[float]:
    return [*p, 0.0]


PLAN_CASES: list[dict[str, Any]] = [
    case
    for metric, prefix in ((PAM, "pa"), (PQM, "pq"))
    for case in [
        _plan_case(f"{prefix}01", metric, {}, _PLAN, 1.0, 4.0, [_YES, _YES, _five([0, 0, 0, 0.1, 0.9])]),
        _plan_case(f"{prefix}02", metric, {}, _PLAN, 0.0, 0.0, [_NO, _NO, _five([0.9, 0.1, 0, 0, 0])]),
        _plan_case(
            f"{prefix}03", metric, {}, _PLAN, 0.5, 2.0, [[0.5, 0.5, 0.0], _YES, _five([0, 0.2, 0.6, 0.2, 0])]
        ),
        _plan_case(f"{prefix}04", metric, {}, _PLAN, 0.75, 3.0, [_YES, _NO, _five([0, 0, 0.2, 0.6, 0.2])]),
        _plan_case(f"{prefix}05", metric, {}, [], 0.2, 1.0, [_NA, _NA, [0, 0, 0, 0, 0, 1.0]]),
        _plan_case(
            f"{prefix}06", metric, {}, _PLAN[:1], 0.25, 1.0, [_NA, _YES, _five([0.1, 0.6, 0.3, 0, 0])]
        ),
        _plan_case(
            f"{prefix}07",
            metric,
            {"strict_mode": True},
            _PLAN,
            0.9,
            3.6,
            [_YES, _YES, _five([0, 0, 0, 0.4, 0.6])],
        ),
        _plan_case(
            f"{prefix}08",
            metric,
            {"strict_mode": True},
            _PLAN,
            1.0,
            4.0,
            [_YES, _YES, _five([0, 0, 0, 0.1, 0.9])],
        ),
        _plan_case(
            f"{prefix}09",
            metric,
            {"threshold": 0.8},
            _PLAN,
            0.7,
            2.8,
            [_YES, [0.6, 0.4, 0.0], _five([0, 0, 0.3, 0.5, 0.2])],
        ),
        _plan_case(
            f"{prefix}10",
            metric,
            {"include_reason": False},
            _PLAN,
            0.6,
            2.4,
            [[0.7, 0.2, 0.1], _NO, _five([0, 0.1, 0.4, 0.4, 0.1])],
        ),
        _plan_case(
            f"{prefix}11",
            metric,
            {},
            _PLAN * 2,
            0.45,
            1.8,
            [[0.3, 0.3, 0.4], [0.45, 0.25, 0.3], _five([0.2, 0.2, 0.2, 0.2, 0.2])],
        ),
        _plan_case(
            f"{prefix}12",
            metric,
            {"threshold": 0.1},
            _PLAN,
            0.15,
            0.6,
            [_NO, _YES, _five([0.5, 0.4, 0.1, 0, 0])],
        ),
        _plan_case(
            f"{prefix}13", metric, {}, _PLAN, 0.95, 3.8, [[0.4, 0.1, 0.5], _YES, _five([0, 0, 0, 0.2, 0.8])]
        ),
        _plan_case(f"{prefix}14", metric, {}, _PLAN, 0.33, 1.3, [_NO, _NA, _five([0.3, 0.4, 0.3, 0, 0])]),
        _plan_case(f"{prefix}15", metric, {}, _PLAN, 0.8, 3.2, [_YES, _YES, [0, 0, 0, 0.3, 0.2, 0.5]]),
        _plan_case(
            f"{prefix}16",
            metric,
            {},
            _PLAN,
            0.55,
            2.2,
            [[0.55, 0.45, 0.0], [0.35, 0.65, 0.0], _five([0, 0.3, 0.3, 0.3, 0.1])],
        ),
    ]
]

SEM = "StepEfficiencyMetric"
_LOOPY = _span(
    "agent",
    "travel_agent",
    None,
    "Booked AZ123",
    *[_span("tool", "search_flights", {"from": "CDG", "to": "FCO"}, "3 flights") for _ in range(3)],
    _span("tool", "book", {"flight": "AZ123"}, "confirmed"),
)


def _se(
    cid: str,
    kwargs: dict[str, Any],
    score: float,
    hybrid_level: float,
    nouls: list[float],
    level: float,
    loopy: bool = False,
) -> dict[str, Any]:
    script = {
        "task": "book the Paris-Rome flight",
        "score": score,
        "hybrid_level": hybrid_level,
        "nouls": nouls,
        "level": level,
    }
    return _judged_case(cid, SEM, kwargs, _FLIGHT, script, trace=_LOOPY if loopy else _TRACE)


STEP_EFFICIENCY: list[dict[str, Any]] = [
    _se("se01", {}, 1.0, 4.0, [0.95, 0.9], 4.0),
    _se("se02", {}, 0.0, 0.0, [0.05, 0.1], 0.0, loopy=True),
    _se("se03", {}, 0.5, 2.0, [0.5, 0.5], 2.0, loopy=True),
    _se("se04", {}, 0.75, 3.0, [0.8, 0.6], 3.1),
    _se("se05", {}, 0.25, 1.0, [0.2, 0.3], 1.2, loopy=True),
    _se("se06", {"strict_mode": True}, 0.9, 3.6, [0.9, 0.9], 3.5),
    _se("se07", {"strict_mode": True}, 1.0, 4.0, [0.9, 0.9], 4.0),
    _se("se08", {"threshold": 0.8}, 0.7, 2.8, [0.7, 0.65], 2.9),
    _se("se09", {"threshold": 0.2}, 0.3, 1.1, [0.3, 0.2], 1.0, loopy=True),
    _se("se10", {"include_reason": False}, 0.6, 2.5, [0.6, 0.4], 2.4),
    _se("se11", {}, 0.45, 1.9, [0.45, 0.55], 1.8, loopy=True),
    _se("se12", {}, 0.85, 3.3, [0.85, 0.8], 3.4),
    _se("se13", {}, 0.15, 0.7, [0.1, 0.25], 0.5, loopy=True),
    _se("se14", {}, 0.95, 3.9, [0.97, 0.93], 3.85),
    _se("se15", {}, 0.35, 1.4, [0.35, 0.4], 1.5, loopy=True),
    _se("se16", {"threshold": 0.5}, 0.5, 2.0, [0.49, 0.51], 2.05),
]

GAM = "GoalAccuracyMetric"


def _ga(
    cid: str,
    kwargs: dict[str, Any],
    n_units: int,
    goal: list[float],
    plan: list[float],
    hybrid_goal: list[float],
    hybrid_plan: list[float],
    nouls: list[float],
    levels: list[float],
    trailing_user: bool = False,
    tools: bool = False,
) -> dict[str, Any]:
    turns: list[dict[str, Any]] = []
    asks = [
        "Find me a flight to Rome",
        "Now book the cheapest one",
        "Add a hotel near the Colosseum",
        "What is the weather there on Friday?",
    ]
    for u in range(n_units):
        turns.append({"role": "user", "content": f"[case:{cid}] [unit:{u}] {asks[u % len(asks)]}"})
        reply: dict[str, Any] = {"role": "assistant", "content": f"Done with step {u}."}
        if tools:
            reply["tools_called"] = [_t("search_flights", input_parameters={"to": "FCO"})]
        turns.append(reply)
    if trailing_user:
        turns.append({"role": "user", "content": f"[case:{cid}] [unit:{n_units}] thanks, one more thing"})
    script = {
        "goal": goal,
        "plan": plan,
        "hybrid_goal": hybrid_goal,
        "hybrid_plan": hybrid_plan,
        "nouls": nouls,
        "levels": levels,
    }
    return {"id": cid, "metric": GAM, "kwargs": kwargs, "turns": turns, "script": script}


GOAL_ACCURACY: list[dict[str, Any]] = [
    _ga("ga01", {}, 1, [1.0], [1.0], [4.0], [4.0], [0.95], [4.0, 4.0]),
    _ga("ga02", {}, 1, [0.0], [0.0], [0.0], [0.0], [0.05], [0.0, 0.0]),
    _ga("ga03", {}, 2, [1.0, 0.5], [0.75, 0.25], [4.0, 2.0], [3.0, 1.0], [0.6], [3.0, 2.0]),
    _ga("ga04", {}, 3, [0.9, 0.8, 0.7], [0.6, 0.5, 0.4], [3.6, 3.2, 2.8], [2.4, 2.0, 1.6], [0.7], [2.9, 2.0]),
    _ga("ga05", {}, 2, [0.5, 0.5], [0.5, 0.5], [2.0, 2.0], [2.0, 2.0], [0.5], [2.0, 2.0], tools=True),
    _ga("ga06", {}, 2, [1.0, 1.0], [0.2, 0.4], [4.0, 3.9], [0.8, 1.6], [0.8], [3.9, 1.2], trailing_user=True),
    _ga("ga07", {"strict_mode": True}, 1, [0.9], [1.0], [3.6], [4.0], [0.9], [3.6, 4.0]),
    _ga("ga08", {"strict_mode": True}, 1, [1.0], [1.0], [4.0], [4.0], [0.9], [4.0, 4.0]),
    _ga("ga09", {"threshold": 0.8}, 2, [0.8, 0.9], [0.6, 0.7], [3.2, 3.6], [2.4, 2.8], [0.75], [3.4, 2.6]),
    _ga("ga10", {"threshold": 0.2}, 1, [0.3], [0.1], [1.2], [0.4], [0.2], [1.0, 0.5]),
    _ga(
        "ga11",
        {"include_reason": False},
        2,
        [0.6, 0.4],
        [0.5, 0.3],
        [2.4, 1.6],
        [2.0, 1.2],
        [0.45],
        [2.0, 1.6],
    ),
    _ga(
        "ga12",
        {},
        4,
        [1.0, 0.75, 0.5, 0.25],
        [0.25, 0.5, 0.75, 1.0],
        [4.0, 3.0, 2.0, 1.0],
        [1.0, 2.0, 3.0, 4.0],
        [0.5],
        [2.5, 2.5],
    ),
    _ga("ga13", {}, 1, [0.95], [0.85], [3.8], [3.4], [0.92], [3.8, 3.3], tools=True),
    _ga("ga14", {}, 3, [0.1, 0.2, 0.3], [0.3, 0.2, 0.1], [0.4, 0.8, 1.2], [1.2, 0.8, 0.4], [0.1], [0.8, 0.8]),
    _ga(
        "ga15",
        {},
        2,
        [0.65, 0.85],
        [0.55, 0.45],
        [2.6, 3.4],
        [2.2, 1.8],
        [0.66],
        [3.0, 2.0],
        trailing_user=True,
    ),
    _ga("ga16", {}, 1, [0.5], [0.9], [2.0], [3.6], [0.4], [2.1, 3.5]),
]

TAM = "TopicAdherenceMetric"


def _ta(
    cid: str,
    kwargs: dict[str, Any],
    units: list[list[int]],
    verdicts: list[str],
    p_on: list[float],
    p_answered: list[float],
    nouls: list[float],
) -> dict[str, Any]:
    turns: list[dict[str, Any]] = []
    for u in range(len(units)):
        turns.append({"role": "user", "content": f"[case:{cid}] [unit:{u}] a few questions"})
        turns.append({"role": "assistant", "content": "some answers"})
    script = {"units": units, "verdicts": verdicts, "p_on": p_on, "p_answered": p_answered, "nouls": nouls}
    kwargs = {"relevant_topics": ["flights", "hotels"], **kwargs}
    return {"id": cid, "metric": TAM, "kwargs": kwargs, "turns": turns, "script": script}


TOPIC_ADHERENCE: list[dict[str, Any]] = [
    _ta("ta01", {}, [[0]], ["TP"], [0.9], [0.9], [0.9, 0.9, 0.9]),
    _ta("ta02", {}, [[0]], ["FN"], [0.9], [0.1], [0.2, 0.3, 0.8]),
    _ta("ta03", {}, [[0, 1]], ["TP", "TN"], [0.8, 0.2], [0.7, 0.3], [0.8, 0.7, 0.6]),
    _ta("ta04", {}, [[0], [1]], ["FP", "TN"], [0.1, 0.3], [0.8, 0.1], [0.5, 0.5, 0.1]),
    _ta("ta05", {}, [[0, 1, 2]], ["TP", "FP", "FN"], [0.6, 0.4, 0.55], [0.6, 0.6, 0.45], [0.4, 0.6, 0.3]),
    _ta("ta06", {}, [[]], [], [], [], [0.5, 0.5, 0.5]),
    _ta("ta07", {"strict_mode": True}, [[0, 1]], ["TP", "FP"], [0.9, 0.1], [0.9, 0.9], [0.9, 0.9, 0.2]),
    _ta("ta08", {"strict_mode": True}, [[0, 1]], ["TP", "TN"], [0.9, 0.1], [0.9, 0.1], [0.9, 0.95, 0.99]),
    _ta(
        "ta09",
        {"threshold": 0.8},
        [[0, 1, 2, 3]],
        ["TP", "TP", "TN", "FN"],
        [0.9, 0.8, 0.2, 0.7],
        [0.9, 0.7, 0.3, 0.2],
        [0.75, 0.7, 0.8],
    ),
    _ta("ta10", {"include_reason": False}, [[0]], ["TN"], [0.2], [0.2], [0.3, 0.4, 0.9]),
    _ta(
        "ta11", {}, [[0], [1], [2]], ["TP", "TP", "TP"], [0.5, 0.51, 0.99], [0.5, 0.6, 0.9], [0.95, 0.9, 0.5]
    ),
    _ta(
        "ta12", {"relevant_topics": ["flights"]}, [[0, 1]], ["TP", "FP"], [0.7, 0.49], [0.7, 0.51], [0.6, 0.3]
    ),
    _ta(
        "ta13",
        {"relevant_topics": ["flights", "hotels", "cars"]},
        [[0, 1]],
        ["FN", "TN"],
        [0.8, 0.3],
        [0.4, 0.2],
        [0.2, 0.5, 0.7, 0.9],
    ),
    _ta(
        "ta14",
        {"threshold": 0.3},
        [[0, 1, 2]],
        ["FP", "FP", "TP"],
        [0.2, 0.1, 0.8],
        [0.9, 0.8, 0.7],
        [0.6, 0.5, 0.1],
    ),
    _ta("ta15", {}, [[0, 1], [2]], ["TN", "TN", "FN"], [0.1, 0.2, 0.6], [0.1, 0.2, 0.3], [0.3, 0.2, 0.95]),
    _ta("ta16", {}, [[0]], ["TP"], [0.66], [0.34], [0.51, 0.49, 0.5]),
]

TUM = "ToolUseMetric"


def _tu(
    cid: str,
    kwargs: dict[str, Any],
    n_units: int,
    selection: list[float],
    arguments: list[float],
    hybrid_selection: list[float],
    hybrid_arguments: list[float],
    nouls: list[float],
    trailing_user: bool = False,
) -> dict[str, Any]:
    turns: list[dict[str, Any]] = []
    for u in range(n_units):
        turns.append({"role": "user", "content": f"[case:{cid}] [unit:{u}] find me a flight"})
        turns.append(
            {
                "role": "assistant",
                "content": f"Found {u}.",
                "tools_called": [_t("search_flights", input_parameters={"to": "FCO"})],
            }
        )
    if trailing_user:
        turns.append({"role": "user", "content": f"[case:{cid}] [unit:{n_units}] and a hotel?"})
    script = {
        "selection": selection,
        "arguments": arguments,
        "hybrid_selection": hybrid_selection,
        "hybrid_arguments": hybrid_arguments,
        "nouls": nouls,
    }
    return {
        "id": cid,
        "metric": TUM,
        "kwargs": {"available_tools": _AVAILABLE, **kwargs},
        "turns": turns,
        "script": script,
    }


TOOL_USE: list[dict[str, Any]] = [
    _tu("tu01", {}, 1, [1.0], [1.0], [4.0], [4.0], [0.9, 0.9]),
    _tu("tu02", {}, 1, [0.0], [0.5], [0.0], [2.0], [0.1, 0.6]),
    _tu("tu03", {}, 2, [1.0, 0.5], [0.75, 0.75], [4.0, 2.0], [3.0, 3.0], [0.7, 0.8]),
    _tu("tu04", {}, 3, [0.9, 0.8, 0.7], [0.6, 0.5, 0.4], [3.6, 3.2, 2.8], [2.4, 2.0, 1.6], [0.65, 0.45]),
    _tu("tu05", {}, 2, [0.25, 0.25], [1.0, 1.0], [1.0, 1.0], [4.0, 4.0], [0.2, 0.95]),
    _tu("tu06", {}, 2, [1.0, 1.0], [0.2, 0.4], [4.0, 3.9], [0.8, 1.6], [0.8, 0.3], trailing_user=True),
    _tu("tu07", {"strict_mode": True}, 1, [0.9], [1.0], [3.6], [4.0], [0.9, 0.95]),
    _tu("tu08", {"strict_mode": True}, 1, [1.0], [1.0], [4.0], [4.0], [0.9, 0.3]),
    _tu("tu09", {"threshold": 0.8}, 2, [0.8, 0.9], [0.85, 0.95], [3.2, 3.6], [3.4, 3.8], [0.75, 0.85]),
    _tu("tu10", {"threshold": 0.2}, 1, [0.3], [0.1], [1.2], [0.4], [0.2, 0.3]),
    _tu("tu11", {"include_reason": False}, 2, [0.6, 0.4], [0.5, 0.3], [2.4, 1.6], [2.0, 1.2], [0.45, 0.55]),
    _tu(
        "tu12",
        {},
        4,
        [1.0, 0.75, 0.5, 0.25],
        [0.25, 0.5, 0.75, 1.0],
        [4.0, 3.0, 2.0, 1.0],
        [1.0, 2.0, 3.0, 4.0],
        [0.5, 0.5],
    ),
    _tu("tu13", {}, 1, [0.95], [0.85], [3.8], [3.4], [0.92, 0.88]),
    _tu("tu14", {}, 3, [0.1, 0.2, 0.3], [0.3, 0.2, 0.1], [0.4, 0.8, 1.2], [1.2, 0.8, 0.4], [0.1, 0.15]),
    _tu("tu15", {}, 2, [0.65, 0.85], [0.55, 0.45], [2.6, 3.4], [2.2, 1.8], [0.66, 0.34], trailing_user=True),
    _tu("tu16", {}, 1, [0.5], [0.9], [2.0], [3.6], [0.4, 0.6]),
]

MUM = "MCPUseMetric"
_SERVERS = [
    {
        "server_name": "travel",
        "available_tools": [
            {"name": "search_flights", "description": "search flights", "inputSchema": {"type": "object"}},
            {"name": "book", "description": "book a flight", "inputSchema": {"type": "object"}},
        ],
    }
]


def _mu(
    cid: str,
    kwargs: dict[str, Any],
    primitives: float,
    arguments: float,
    hybrid_primitives: float,
    hybrid_arguments: float,
    nouls: list[float],
    level: float,
) -> dict[str, Any]:
    fields = {**_FLIGHT, "mcp_servers": _SERVERS}
    script = {
        "primitives": primitives,
        "arguments": arguments,
        "hybrid_primitives": hybrid_primitives,
        "hybrid_arguments": hybrid_arguments,
        "nouls": nouls,
        "level": level,
    }
    return _judged_case(cid, MUM, kwargs, fields, script)


MCP_USE: list[dict[str, Any]] = [
    _mu("mu01", {}, 1.0, 1.0, 3.0, 3.0, [0.9, 0.9], 3.0),
    _mu("mu02", {}, 0.0, 1.0, 0.0, 3.0, [0.1, 0.9], 0.5),
    _mu("mu03", {}, 0.67, 0.33, 2.0, 1.0, [0.6, 0.4], 1.5),
    _mu("mu04", {}, 0.5, 0.75, 1.5, 2.3, [0.5, 0.7], 2.0),
    _mu("mu05", {}, 0.9, 0.8, 2.7, 2.4, [0.85, 0.8], 2.6),
    _mu("mu06", {"strict_mode": True}, 0.9, 1.0, 2.8, 3.0, [0.9, 0.95], 2.9),
    _mu("mu07", {"strict_mode": True}, 1.0, 1.0, 3.0, 3.0, [0.9, 0.9], 3.0),
    _mu("mu08", {"threshold": 0.8}, 0.8, 0.85, 2.4, 2.6, [0.8, 0.85], 2.5),
    _mu("mu09", {"threshold": 0.2}, 0.3, 0.2, 0.9, 0.6, [0.3, 0.2], 0.7),
    _mu("mu10", {"include_reason": False}, 0.6, 0.4, 1.8, 1.2, [0.6, 0.45], 1.6),
    _mu("mu11", {}, 0.25, 0.25, 0.75, 0.75, [0.2, 0.3], 0.8),
    _mu("mu12", {}, 0.95, 0.15, 2.85, 0.45, [0.95, 0.1], 1.2),
    _mu("mu13", {}, 0.45, 0.55, 1.35, 1.65, [0.45, 0.55], 1.5),
    _mu("mu14", {}, 0.7, 0.7, 2.1, 2.1, [0.7, 0.7], 2.1),
    _mu("mu15", {}, 0.1, 0.9, 0.3, 2.7, [0.1, 0.9], 1.0),
    _mu("mu16", {"threshold": 0.5}, 0.5, 0.5, 1.5, 1.5, [0.5, 0.5], 1.5),
]

MTC = "MCPTaskCompletionMetric"


def _mt(
    cid: str,
    kwargs: dict[str, Any],
    task_scores: list[float],
    hybrid_levels: list[float],
    nouls: list[float],
    level: float,
    short_last: bool = False,
) -> dict[str, Any]:
    turns: list[dict[str, Any]] = []
    for u in range(len(task_scores)):
        turns.append({"role": "user", "content": f"[case:{cid}] [unit:{u}] find flights to Rome"})
        turns.append({"role": "assistant", "content": "Searching the travel server."})
        turns.append({"role": "assistant", "content": f"Here are the flights ({u})."})
    if short_last:  # a two-turn exchange: not counted (4.3.1 needs more than two turns)
        n = len(task_scores)
        turns += [
            {"role": "user", "content": f"[case:{cid}] [unit:{n}] thanks"},
            {"role": "assistant", "content": "You're welcome."},
        ]
    script = {"task_scores": task_scores, "hybrid_levels": hybrid_levels, "nouls": nouls, "level": level}
    return {
        "id": cid,
        "metric": MTC,
        "kwargs": kwargs,
        "turns": turns,
        "mcp_servers": _SERVERS,
        "script": script,
    }


MCP_TASK_COMPLETION: list[dict[str, Any]] = [
    _mt("mt01", {}, [1.0], [3.0], [0.9, 0.9], 3.0),
    _mt("mt02", {}, [0.0], [0.0], [0.1, 0.2], 0.0),
    _mt("mt03", {}, [1.0, 0.5], [3.0, 1.5], [0.7, 0.6], 2.0),
    _mt("mt04", {}, [0.9, 0.8, 0.7], [2.7, 2.4, 2.1], [0.8, 0.75], 2.4),
    _mt("mt05", {}, [0.33, 0.67], [1.0, 2.0], [0.4, 0.6], 1.5, short_last=True),
    _mt("mt06", {"strict_mode": True}, [0.9], [2.8], [0.9, 0.9], 2.9),
    _mt("mt07", {"strict_mode": True}, [1.0], [3.0], [0.9, 0.8], 3.0),
    _mt("mt08", {"threshold": 0.8}, [0.8, 0.85], [2.4, 2.6], [0.8, 0.85], 2.5),
    _mt("mt09", {"threshold": 0.2}, [0.3], [0.9], [0.3, 0.2], 0.7),
    _mt("mt10", {"include_reason": False}, [0.6, 0.4], [1.8, 1.2], [0.6, 0.45], 1.6),
    _mt("mt11", {}, [0.25, 0.25, 0.25, 0.25], [0.75, 0.75, 0.75, 0.75], [0.2, 0.3], 0.8),
    _mt("mt12", {}, [0.95], [2.85], [0.95, 0.1], 1.2),
    _mt("mt13", {}, [0.45, 0.55], [1.35, 1.65], [0.45, 0.55], 1.5),
    _mt("mt14", {}, [0.7], [2.1], [0.7, 0.7], 2.1, short_last=True),
    _mt("mt15", {}, [0.1, 0.9], [0.3, 2.7], [0.1, 0.9], 1.0),
    _mt("mt16", {"threshold": 0.5}, [0.5], [1.5], [0.5, 0.5], 1.5),
]

MMU = "MultiTurnMCPUseMetric"


def _mm(
    cid: str,
    kwargs: dict[str, Any],
    primitives: list[float],
    arguments: list[float],
    hp: list[float],
    ha: list[float],
    nouls: list[float],
    level: float,
    short_last: bool = False,
) -> dict[str, Any]:
    case = _mt(cid, kwargs, primitives, hp, nouls, level, short_last=short_last)
    case["metric"] = MMU
    case["script"] = {
        "primitives": primitives,
        "arguments": arguments,
        "hybrid_primitive_levels": hp,
        "hybrid_argument_levels": ha,
        "nouls": nouls,
        "level": level,
    }
    return case


MULTI_TURN_MCP_USE: list[dict[str, Any]] = [
    _mm("mm01", {}, [1.0], [1.0], [3.0], [3.0], [0.9, 0.9], 3.0),
    _mm("mm02", {}, [0.0], [1.0], [0.0], [3.0], [0.1, 0.9], 0.5),
    _mm("mm03", {}, [1.0, 0.5], [0.67, 0.67], [3.0, 1.5], [2.0, 2.0], [0.7, 0.6], 2.0),
    _mm("mm04", {}, [0.9, 0.8, 0.7], [0.6, 0.5, 0.4], [2.7, 2.4, 2.1], [1.8, 1.5, 1.2], [0.8, 0.75], 2.4),
    _mm("mm05", {}, [0.33, 0.67], [1.0, 1.0], [1.0, 2.0], [3.0, 3.0], [0.4, 0.6], 1.5, short_last=True),
    _mm("mm06", {"strict_mode": True}, [0.9], [1.0], [2.8], [3.0], [0.9, 0.9], 2.9),
    _mm("mm07", {"strict_mode": True}, [1.0], [1.0], [3.0], [3.0], [0.9, 0.8], 3.0),
    _mm("mm08", {"threshold": 0.8}, [0.8, 0.85], [0.9, 0.95], [2.4, 2.6], [2.7, 2.85], [0.8, 0.85], 2.5),
    _mm("mm09", {"threshold": 0.2}, [0.3], [0.2], [0.9], [0.6], [0.3, 0.2], 0.7),
    _mm("mm10", {"include_reason": False}, [0.6, 0.4], [0.5, 0.3], [1.8, 1.2], [1.5, 0.9], [0.6, 0.45], 1.6),
    _mm("mm11", {}, [0.25, 0.25, 0.25, 0.25], [0.5, 0.5, 0.5, 0.5], [0.75] * 4, [1.5] * 4, [0.2, 0.3], 0.8),
    _mm("mm12", {}, [0.95], [0.15], [2.85], [0.45], [0.95, 0.1], 1.2),
    _mm("mm13", {}, [0.45, 0.55], [0.65, 0.35], [1.35, 1.65], [1.95, 1.05], [0.45, 0.55], 1.5),
    _mm("mm14", {}, [0.7], [0.8], [2.1], [2.4], [0.7, 0.7], 2.1, short_last=True),
    _mm("mm15", {}, [0.1, 0.9], [0.9, 0.1], [0.3, 2.7], [2.7, 0.3], [0.1, 0.9], 1.0),
    _mm("mm16", {"threshold": 0.5}, [0.5], [0.5], [1.5], [1.5], [0.5, 0.5], 1.5),
]

JUDGED = (
    TASK_COMPLETION
    + TOOL_SELECTION
    + ARGUMENT_CORRECTNESS
    + PLAN_CASES
    + STEP_EFFICIENCY
    + GOAL_ACCURACY
    + TOPIC_ADHERENCE
    + TOOL_USE
    + MCP_USE
    + MCP_TASK_COMPLETION
    + MULTI_TURN_MCP_USE
)
