"""Measures blind-set items with one metric each through whichever ``deepeval`` this interpreter imports (ours or
4.3.1), on one OpenAI-compatible judge. Used by :mod:`bench.metric_blind`.

Usage: ``python _metric_blind_worker.py JOB.json RESULT.json``. Job: ``mode`` (``llm``, ``hybrid`` or
``system_one``; ours reads the same judge's log-probabilities as its System One model in the last two), ``base_url``,
``api_key``, ``model``, ``items`` (blind v3 items of the kinds ``opinions``, ``conversations`` and
``task_completion``). Result: per item the score or the error; wall time.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

#: blind item's metric -> deepeval class name
CLASSES = {
    "bias": "BiasMetric",
    "toxicity": "ToxicityMetric",
    "turn_relevancy": "TurnRelevancyMetric",
    "role_adherence": "RoleAdherenceMetric",
    "completeness": "ConversationCompletenessMetric",
    "task_completion": "TaskCompletionMetric",
}


def metric_of(item: dict[str, Any]) -> str:
    return str(item.get("metric") or item["kind"])


def _case(item: dict[str, Any]) -> Any:
    from deepeval.test_case import ConversationalTestCase, LLMTestCase, ToolCall, Turn

    if item["kind"] == "conversations":
        turns = [Turn(role=t["role"], content=t["content"]) for t in item["turns"]]
        extra = {"chatbot_role": item["chatbot_role"]} if item.get("chatbot_role") else {}
        return ConversationalTestCase(turns=turns, **extra)
    tools = [
        ToolCall(name=t["name"], input_parameters=t.get("input_parameters"), output=t.get("output"))
        for t in item.get("tools_called") or []
    ]
    extra = {"tools_called": tools} if tools else {}
    return LLMTestCase(input=item["input"], actual_output=item["actual_output"], **extra)


def _metric(item: dict[str, Any], job: dict[str, Any]) -> Any:
    import deepeval.metrics as metrics
    from deepeval.models import GPTModel

    llm = GPTModel(model=job["model"], base_url=job["base_url"], api_key=job["api_key"])
    kwargs: dict[str, Any] = {"model": llm}
    if job["mode"] != "llm":
        from deepeval.models.system_one.logprob import LogprobSystemOneModel

        kwargs.update(eval_mode=job["mode"], system_one_model=LogprobSystemOneModel(llm))
    return getattr(metrics, CLASSES[metric_of(item)])(**kwargs)


def main() -> None:
    job = json.loads(open(sys.argv[1]).read())
    out: dict[str, Any] = {"cases": {}}
    t0 = time.perf_counter()
    for item in job["items"]:
        row: dict[str, Any] = {}
        started = time.perf_counter()
        try:
            metric = _metric(item, job)
            metric.measure(_case(item))
            row["score"] = metric.score
            row["reason"] = str(getattr(metric, "reason", "") or "")[:300]
        except Exception as exc:  # one row per item, whatever happened
            row["error"] = f"{type(exc).__name__}: {str(exc)[:300]}"
        row["seconds"] = round(time.perf_counter() - started, 2)
        out["cases"][item["id"]] = row
    out["wall_s"] = round(time.perf_counter() - t0, 1)
    with open(sys.argv[2], "w") as fh:
        json.dump(out, fh)


if __name__ == "__main__":
    main()
