"""Measures blind-set items one at a time with whichever ``deepeval`` this interpreter imports (ours or 4.3.1),
judged by the model behind the counting proxy of :mod:`bench.llama_server`; used by :mod:`bench.real_model`.

Usage: ``python _real_worker.py JOB.json``. The job: ``impl`` (``ours`` / ``deepeval``), ``metric``
(``answer_relevancy``, ``contextual_relevancy``, ``knowledge_retention``, ``memory_grade``), ``mode`` (``llm`` /
``hybrid``), ``system_one`` (None: the implementation's default; ``logprob``: ours, the LLM's first-token P(yes)),
``include_reason``, ``proxy`` (``base_url``, ``api_key``) and ``items`` (blind-set lines). The LLM judge is the one
the environment configures (``USE_LOCAL_MODEL`` / ``LOCAL_MODEL_*``: deepeval's ``set-local-model`` settings, read by
both implementations). For every item it prints one JSON line (flushed): the score, the per-unit verdicts (AR/CR
statements as the judge extracted them, KR checked turns, a memory grade), the error if any, the proxy's counters of
the item's requests and its wall time. Only the standard library and ``deepeval`` are imported, so the file runs in
either virtual environment.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
import traceback
import urllib.request
from typing import Any

#: prefix of the lines the parent reads (anything else a library prints to stdout is ignored)
ROW = "@@row "


def _proxy(job: dict[str, Any], path: str, payload: dict[str, Any]) -> dict[str, Any]:
    base = job["proxy"]["base_url"].rsplit("/v1", 1)[0]
    req = urllib.request.Request(
        f"{base}{path}",
        data=json.dumps(payload).encode(),
        headers={"Authorization": f"Bearer {job['proxy']['api_key']}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(req, timeout=60) as resp:
        out: dict[str, Any] = json.load(resp)
        return out


def _case(metric: str, item: dict[str, Any]) -> Any:
    from deepeval.test_case import ConversationalTestCase, LLMTestCase, Turn

    if metric == "knowledge_retention":
        return ConversationalTestCase(
            turns=[Turn(role=t["role"], content=t["content"]) for t in item["turns"]]
        )
    if metric == "contextual_relevancy":
        return LLMTestCase(
            input=item["input"],
            actual_output="(not judged)",
            retrieval_context=list(item["retrieval_context"]),
        )
    return LLMTestCase(input=item["input"], actual_output=item["actual_output"])


def _system_one(job: dict[str, Any]) -> Any:
    if job.get("system_one") != "logprob":
        return None
    from deepeval.models import LocalModel
    from deepeval.models.system_one.logprob import LogprobSystemOneModel

    return LogprobSystemOneModel(LocalModel())


def _metric(job: dict[str, Any]) -> Any:
    import deepeval.metrics as m

    cls = {
        "answer_relevancy": m.AnswerRelevancyMetric,
        "contextual_relevancy": m.ContextualRelevancyMetric,
        "knowledge_retention": m.KnowledgeRetentionMetric,
    }[job["metric"]]
    kwargs: dict[str, Any] = {
        "threshold": 0.5,
        "eval_mode": job["mode"],
        "include_reason": job.get("include_reason", True),
        "async_mode": True,
    }
    s1 = _system_one(job)
    if s1 is not None:
        kwargs["system_one_model"] = s1
    return cls(**kwargs)


def _word(v: Any) -> str:
    """A verdict as a lower-case word (deepeval's may be an enum or a string)."""
    value = getattr(v, "value", v)
    return str(value).strip().lower()


def _units_deepeval(metric_name: str, metric: Any, item: dict[str, Any]) -> list[dict[str, Any]]:
    if metric_name == "answer_relevancy":
        statements = list(getattr(metric, "statements", None) or [])
        verdicts = list(getattr(metric, "verdicts", None) or [])
        return [
            {"statement": s, "verdict": _word(v.verdict), "reason": v.reason}
            for s, v in zip(statements, verdicts, strict=False)
        ]
    if metric_name == "contextual_relevancy":
        out = []
        for node, verdicts in enumerate(getattr(metric, "verdicts_list", None) or []):
            for v in verdicts.verdicts:
                out.append(
                    {"node": node, "statement": v.statement, "verdict": _word(v.verdict), "reason": v.reason}
                )
        return out
    # knowledge retention: one verdict per assistant turn that has earlier knowledge, in turn order
    knowledges = list(getattr(metric, "knowledges", None) or [])
    verdicts = list(getattr(metric, "verdicts", None) or [])
    checked = [
        i
        for i, t in enumerate(item["turns"])
        if t["role"] == "assistant" and any(k is not None and k.data for k in knowledges[:i])
    ]
    return [
        {"turn": i, "verdict": _word(v.verdict), "reason": v.reason}
        for i, v in zip(checked, verdicts, strict=False)
    ]


def _units_ours(metric_name: str, metric: Any) -> list[dict[str, Any]]:
    out = []
    for v in metric.verdicts or []:
        row = {k: v.get(k) for k in ("statement", "node", "turn", "verdict", "reason", "p_yes", "decided_by")}
        out.append({k: val for k, val in row.items() if val is not None})
    return out


async def _grade(item: dict[str, Any]) -> tuple[int, str | None]:
    from deepeval.memory.judges import resolve_memory_judge

    judge = resolve_memory_judge(None)
    graded = await judge.grade(item["question"], item["expected"], item["answer"], [])
    return int(graded.score), getattr(graded, "reason", None)


def _measure(job: dict[str, Any], item: dict[str, Any]) -> dict[str, Any]:
    if job["metric"] == "memory_grade":
        grade, reason = asyncio.run(_grade(item))
        return {"grade": grade, "reason": reason}
    metric = _metric(job)
    case = _case(job["metric"], item)
    asyncio.run(metric.a_measure(case, _show_indicator=False))
    units = (
        _units_deepeval(job["metric"], metric, item)
        if job["impl"] == "deepeval"
        else _units_ours(job["metric"], metric)
    )
    out: dict[str, Any] = {"score": metric.score, "units": units, "reason": metric.reason}
    breakdown = getattr(metric, "score_breakdown", None)
    if breakdown:
        out["breakdown"] = breakdown
    fallback = getattr(metric, "system_one_fallback_reason", None)
    if fallback:
        out["fallback"] = fallback
    return out


def main() -> int:
    job = json.loads(open(sys.argv[1], encoding="utf-8").read())
    import deepeval

    print(
        ROW + json.dumps({"hello": getattr(deepeval, "__version__", "?"), "file": deepeval.__file__}),
        flush=True,
    )
    for item in job["items"]:
        _proxy(job, "/bench/begin", {"run": job["run"], "item": item["id"]})
        t0 = time.perf_counter()
        row: dict[str, Any] = {"id": item["id"]}
        try:
            row.update(_measure(job, item))
        except Exception as exc:  # kept in the row: a failed item is a result
            row["error"] = f"{type(exc).__name__}: {exc}"[:1500]
            row["error_type"] = type(exc).__name__
            row["traceback"] = traceback.format_exc()[-1500:]
        row["wall_s"] = round(time.perf_counter() - t0, 2)
        row["counters"] = _proxy(job, "/bench/end", {})
        print(ROW + json.dumps(row, default=str), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
