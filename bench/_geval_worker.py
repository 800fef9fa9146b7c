"""Runs one GEval parity job through whichever ``deepeval`` this interpreter imports (ours or 4.3.1).

Usage: ``python _geval_worker.py JOB.json RESULT.json``. Job: ``phase`` (``openai``: each case measured by its own
GEval on ``GPTModel`` pointed at the loopback server, which returns ``top_logprobs``; ``custom``: the same with a
custom ``DeepEvalBaseLLM`` that answers the scripted replies without log-probabilities; ``evaluate``: one GEval
over every case through ``evaluate()``; ``jev``: 22 JevEval / ConversationalJevEval cases on the loopback
``/v1/systemone`` server (``TYPESAFE_BASE_URL``); ``dag_llm`` / ``dag_hybrid``: 20 DAGMetrics of four graph shapes
in that eval mode (hybrid: judgement nodes on the loopback ``/v1/systemone``); ``arena``: 12 ArenaGEval rounds
(the winner); ``conv``: 20 conversations, each measured by its own ConversationalGEval on
``GPTModel``), ``base_url``, ``bench_dir`` (to import :mod:`geval_answers`).
Result: per case the score, reason, steps, error; wall time.
"""

from __future__ import annotations

import json
import sys
import time
import traceback
from typing import Any


def _metric(cfg: dict[str, Any], model: Any) -> Any:
    from deepeval.metrics import GEval
    from deepeval.metrics.g_eval import Rubric
    from deepeval.test_case import SingleTurnParams

    kwargs: dict[str, Any] = {
        "name": cfg["name"],
        "evaluation_params": [SingleTurnParams(p) for p in cfg["params"]],
        "model": model,
    }
    if "criteria" in cfg:
        kwargs["criteria"] = cfg["criteria"]
    if "evaluation_steps" in cfg:
        kwargs["evaluation_steps"] = cfg["evaluation_steps"]
    if "rubric" in cfg:
        kwargs["rubric"] = [Rubric(score_range=(a, b), expected_outcome=t) for a, b, t in cfg["rubric"]]
    if cfg.get("strict"):
        kwargs["strict_mode"] = True
    return GEval(**kwargs)


def _conv_metric(cfg: dict[str, Any], model: Any) -> Any:
    from deepeval.metrics import ConversationalGEval
    from deepeval.metrics.g_eval import Rubric
    from deepeval.test_case import MultiTurnParams

    kwargs: dict[str, Any] = {
        "name": cfg["name"],
        "evaluation_params": [MultiTurnParams(p) for p in cfg["params"]],
        "model": model,
    }
    for key in ("criteria", "evaluation_steps"):
        if key in cfg:
            kwargs[key] = cfg[key]
    if "rubric" in cfg:
        kwargs["rubric"] = [Rubric(score_range=(a, b), expected_outcome=t) for a, b, t in cfg["rubric"]]
    if cfg.get("strict"):
        kwargs["strict_mode"] = True
    return ConversationalGEval(**kwargs)


def _conv_case(c: dict[str, Any]) -> Any:
    from deepeval.test_case import ConversationalTestCase, Turn

    return ConversationalTestCase(turns=[Turn(**t) for t in c["turns"]], scenario=c["scenario"])


def _jev_metric(c: dict[str, Any]) -> Any:
    from deepeval.metrics import ConversationalJevEval, JevEval
    from deepeval.metrics.jev_eval import Choice, Noul, Score
    from deepeval.test_case import MultiTurnParams, SingleTurnParams

    kinds = {"noul": Noul, "score": Score, "choice": Choice}
    questions = [
        kinds[q["type"]](**{k: v for k, v in q.items() if k != "type"}) for q in c["config"]["questions"]
    ]
    cfg = c["config"]
    if c["conv"]:
        params = [MultiTurnParams(p) for p in cfg["params"]]
        return ConversationalJevEval(
            name=cfg["name"], evaluation_params=params, questions=questions, strict_mode=cfg["strict"]
        )
    params = [SingleTurnParams(p) for p in cfg["params"]]
    return JevEval(name=cfg["name"], evaluation_params=params, questions=questions, strict_mode=cfg["strict"])


def _dag_metric(c: dict[str, Any], model: Any, mode: str | None) -> Any:
    import geval_answers as ga  # type: ignore[import-not-found]

    from deepeval.metrics import DAGMetric, GEval
    from deepeval.metrics.dag import (
        BinaryJudgementNode,
        DeepAcyclicGraph,
        NonBinaryJudgementNode,
        TaskNode,
    )
    from deepeval.test_case import SingleTurnParams as P

    tone = "Is the tone of the output appropriate for a report?"
    sections = "Does the output have an introduction, a body and a conclusion?"
    missing = "How many of the expected sections are missing?"
    scores = dict(zip(ga.DAG_OPTIONS, (10, 6, 2), strict=True))
    shape = c["shape"]
    if shape == "task_binary_nonbinary":
        root = TaskNode(
            instructions="List the sections of the output.",
            output_label="Sections",
            evaluation_params=[P.ACTUAL_OUTPUT],
        )
        b = root.add_node(BinaryJudgementNode(criteria=sections))
        b.add_verdict(False, score=0)
        nb = NonBinaryJudgementNode(criteria=missing, evaluation_params=[P.EXPECTED_OUTPUT])
        for option in ga.DAG_OPTIONS:
            nb.add_verdict(option, score=scores[option])
        b.add_verdict(True, then=nb)
        roots = [root]
    elif shape == "binary_geval_child":
        root = BinaryJudgementNode(criteria=tone, evaluation_params=[P.INPUT, P.ACTUAL_OUTPUT])
        child = GEval(
            name="Correct", criteria=ga.CRITERIA[1], evaluation_params=[P.INPUT, P.ACTUAL_OUTPUT], model=model
        )
        root.add_verdict(True, then=child)
        root.add_verdict(False, score=1)
        roots = [root]
    elif shape == "nonbinary_root":
        root = NonBinaryJudgementNode(
            criteria=missing, evaluation_params=[P.ACTUAL_OUTPUT, P.EXPECTED_OUTPUT]
        )
        for option, score in zip(ga.DAG_OPTIONS, (10, 5, 0), strict=True):
            root.add_verdict(option, score=score)
        roots = [root]
    else:
        a = TaskNode(
            instructions="Write a first summary of the output.",
            output_label="Summary A",
            evaluation_params=[P.ACTUAL_OUTPUT],
        )
        b2 = TaskNode(
            instructions="Write a second summary of the output.",
            output_label="Summary B",
            evaluation_params=[P.ACTUAL_OUTPUT],
        )
        j = BinaryJudgementNode(criteria="Are the two summaries consistent with each other?")
        a.add_node(j)
        b2.add_node(j)
        j.add_verdict(True, score=8)
        j.add_verdict(False, score=3)
        roots = [a, b2]
    kwargs: dict[str, Any] = {"name": "Report", "dag": DeepAcyclicGraph(root_nodes=roots), "model": model}
    if mode:
        kwargs["eval_mode"] = mode
    return DAGMetric(**kwargs)


def _cdag_metric(c: dict[str, Any], model: Any, mode: str | None) -> Any:
    import geval_answers as ga  # type: ignore[import-not-found]

    from deepeval.metrics import ConversationalDAGMetric
    from deepeval.metrics.conversational_dag import (
        ConversationalBinaryJudgementNode,
        ConversationalNonBinaryJudgementNode,
        ConversationalTaskNode,
    )
    from deepeval.metrics.dag import DeepAcyclicGraph
    from deepeval.test_case import MultiTurnParams as M

    sections = "Does the output have an introduction, a body and a conclusion?"
    missing = "How many of the expected sections are missing?"
    if c["shape"] in ("task_binary_nonbinary", "two_tasks_one_judgement"):
        root = ConversationalTaskNode(
            instructions="List the sections of the output.",
            output_label="Sections",
            evaluation_params=[M.ROLE, M.CONTENT],
            turn_window=(0, 1),
        )
        b = root.add_node(ConversationalBinaryJudgementNode(criteria=sections))
        b.add_verdict(False, score=0)
        nb = ConversationalNonBinaryJudgementNode(criteria=missing, evaluation_params=[M.CONTENT])
        for option, score in zip(ga.DAG_OPTIONS, (10, 6, 2), strict=True):
            nb.add_verdict(option, score=score)
        b.add_verdict(True, then=nb)
    else:
        root = ConversationalNonBinaryJudgementNode(criteria=missing, evaluation_params=[M.CONTENT])
        for option, score in zip(ga.DAG_OPTIONS, (10, 5, 0), strict=True):
            root.add_verdict(option, score=score)
    kwargs: dict[str, Any] = {"name": "Chat", "dag": DeepAcyclicGraph(root_nodes=[root]), "model": model}
    if mode:
        kwargs["eval_mode"] = mode
    return ConversationalDAGMetric(**kwargs)


def _dag_conversation(c: dict[str, Any]) -> Any:
    from deepeval.test_case import ConversationalTestCase, Turn

    return ConversationalTestCase(
        turns=[
            Turn(role="user", content=c["input"]),
            Turn(role="assistant", content=c["actual_output"]),
            Turn(role="user", content="Thanks."),
        ]
    )


def _blind_metric(item: dict[str, Any], job: dict[str, Any]) -> Any:
    """A GEval from a blind criteria-score item, on the job's OpenAI-compatible judge (ours in hybrid / system_one
    also reads that judge's log-probabilities as its System One model)."""
    from deepeval.metrics import GEval
    from deepeval.metrics.g_eval import Rubric
    from deepeval.models import GPTModel
    from deepeval.test_case import SingleTurnParams

    llm = GPTModel(model=job["model"], base_url=job["base_url"], api_key=job.get("api_key", "sk-blind-bench"))
    kwargs: dict[str, Any] = {
        "name": item["name"],
        "evaluation_params": [SingleTurnParams(p) for p in item["evaluation_params"]],
        "model": llm,
    }
    for key in ("criteria", "evaluation_steps"):
        if item.get(key):
            kwargs[key] = item[key]
    if item.get("rubric"):
        kwargs["rubric"] = [
            Rubric(score_range=tuple(r["score_range"]), expected_outcome=r["expected_outcome"])
            for r in item["rubric"]
        ]
    if job["mode"] != "llm":
        from deepeval.models.system_one.logprob import LogprobSystemOneModel

        kwargs.update(eval_mode=job["mode"], system_one_model=LogprobSystemOneModel(llm))
    return GEval(**kwargs)


def _case(c: dict[str, Any]) -> Any:
    from deepeval.test_case import LLMTestCase

    return LLMTestCase(
        input=c["input"], actual_output=c["actual_output"], expected_output=c.get("expected_output")
    )


def _custom_model() -> Any:
    import geval_answers as ga  # type: ignore[import-not-found]

    from deepeval.models import DeepEvalBaseLLM

    class Scripted(DeepEvalBaseLLM):
        def __init__(self) -> None:
            self.name = "scripted-custom"

        def load_model(self) -> Any:
            return self

        def get_model_name(self) -> str:
            return "scripted-custom"

        def generate(self, prompt: str, schema: Any = None) -> Any:
            name = getattr(schema, "__name__", None)
            request = {"messages": [{"content": prompt}]}
            if name == "Steps":
                request["response_format"] = {"json_schema": {"name": "Steps"}}
            text = ga.answer_chat(request)["content"]
            return schema.model_validate_json(text) if schema is not None else text

        async def a_generate(self, prompt: str, schema: Any = None) -> Any:
            return self.generate(prompt, schema)

    return Scripted()


def main() -> None:
    job = json.loads(open(sys.argv[1]).read())
    sys.path.insert(0, job["bench_dir"])
    import geval_answers as ga

    out: dict[str, Any] = {"cases": {}}
    t0 = time.perf_counter()
    try:
        from deepeval.models import GPTModel

        def model() -> Any:
            if job["phase"] == "custom":
                return _custom_model()
            return GPTModel(model="gpt-4.1", base_url=job["base_url"], api_key="sk-loopback-000")

        if job["phase"] == "blind":
            from deepeval.test_case import LLMTestCase

            for item in job["items"]:
                row = {}
                try:
                    fields = {p: item.get(p) for p in item["evaluation_params"]}
                    fields.setdefault("input", item.get("input", ""))
                    row["score"] = _blind_metric(item, job).measure(LLMTestCase(**fields))
                except Exception as exc:
                    row["error"] = f"{type(exc).__name__}: {exc}"
                out["cases"][item["id"]] = row
        elif job["phase"] == "arena":
            from deepeval.metrics import ArenaGEval
            from deepeval.test_case import ArenaTestCase, Contestant, LLMTestCase
            from deepeval.test_case import SingleTurnParams as P

            for c in ga.arena_cases():
                row = {}
                try:
                    arena = ArenaTestCase(
                        contestants=[
                            Contestant(
                                name=x["name"],
                                test_case=LLMTestCase(input=c["input"], actual_output=x["actual_output"]),
                            )
                            for x in c["contestants"]
                        ]
                    )
                    metric = ArenaGEval(
                        name="Best",
                        criteria=c["criteria"],
                        evaluation_params=[P.INPUT, P.ACTUAL_OUTPUT],
                        model=model(),
                    )
                    row["winner"] = metric.measure(arena)
                    row["name"] = metric.__name__
                except Exception as exc:
                    row["error"] = f"{type(exc).__name__}: {exc}"
                out["cases"][c["id"]] = row
        elif job["phase"].startswith(("dag", "cdag")):
            conv = job["phase"].startswith("cdag")
            for c in ga.dag_cases():
                row = {}
                try:
                    metric = (_cdag_metric if conv else _dag_metric)(c, model(), job.get("mode"))
                    row["score"] = metric.measure(_dag_conversation(c) if conv else _case(c))
                    row["name"] = metric.__name__
                except Exception as exc:
                    row["error"] = f"{type(exc).__name__}: {exc}"
                out["cases"][c["id"]] = row
        elif job["phase"] == "jev":
            for c in ga.jev_cases():
                row = {}
                try:
                    metric = _jev_metric(c)
                    row["score"] = metric.measure(_conv_case(c) if c["conv"] else _case(c))
                    row["breakdown"] = metric.score_breakdown
                    row["confidence"] = metric.confidence
                    row["name"] = metric.__name__
                except Exception as exc:
                    row["error"] = f"{type(exc).__name__}: {exc}"
                out["cases"][c["id"]] = row
        elif job["phase"] in ("openai", "custom", "conv"):
            conv = job["phase"] == "conv"
            for c in ga.conv_cases() if conv else ga.cases():
                metric = (_conv_metric if conv else _metric)(c["config"], model())
                row: dict[str, Any] = {}
                try:
                    row["score"] = metric.measure(_conv_case(c) if conv else _case(c))
                    row["reason"] = metric.reason
                    row["steps"] = list(metric.evaluation_steps or [])
                    row["name"] = metric.__name__
                except Exception as exc:  # one row per case, error included
                    row["error"] = f"{type(exc).__name__}: {exc}"
                out["cases"][c["id"]] = row
        else:
            from deepeval import evaluate

            cfg = {"name": "Shared", "params": ["input", "actual_output"], "criteria": ga.CRITERIA[0]}
            metric = _metric(cfg, model())
            res = evaluate([_case(c) for c in ga.cases()], [metric])
            by_input = {c["input"]: c["id"] for c in ga.cases()}
            for tr in res.test_results:
                md = tr.metrics_data[0]
                out["cases"][by_input[tr.input]] = {"score": md.score, "error": md.error}
    except Exception:
        out["error"] = traceback.format_exc()[-3000:]
    out["wall_s"] = time.perf_counter() - t0
    with open(sys.argv[2], "w") as fh:
        json.dump(out, fh)


if __name__ == "__main__":
    main()
