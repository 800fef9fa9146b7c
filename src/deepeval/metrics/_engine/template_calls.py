"""Calling a metric's ``evaluation_template`` methods by keyword, the way deepeval 4.3.1's metrics call them.

deepeval passes each template method the keyword arguments its signature names (``_get_prompt`` filters them), so a
custom template written for it may declare only the arguments it uses (``generate_verdict(llm_message,
accumulated_knowledge)``). :func:`call_template` does the same; :func:`takes` tells which prompt shape an
override has when ours and deepeval's differ (ContextualRelevancy's per-node ``generate_verdicts(input, context)``).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any


def _parameters(method: Callable[..., Any]) -> dict[str, inspect.Parameter] | None:
    try:
        return dict(inspect.signature(method).parameters)
    except (TypeError, ValueError):  # a builtin or C callable without a signature
        return None


def takes(method: Callable[..., Any], name: str) -> bool:
    """True when ``method`` has a parameter called ``name``."""
    params = _parameters(method)
    return params is not None and name in params


def call_template(method: Callable[..., str], **kwargs: Any) -> str:
    """``method(**kwargs)`` limited to the keywords it names (all of them when it takes ``**kwargs``)."""
    params = _parameters(method)
    if params is None or any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return method(**kwargs)
    return method(**{k: v for k, v in kwargs.items() if k in params})


def reason_keywords(
    score: float, judged: list[dict[str, Any]], prompt_args: tuple[Any, ...]
) -> dict[str, Any]:
    """deepeval's ``generate_reason`` keywords, from our verdict log: ``score`` (formatted ``"0.50"`` as deepeval
    passes it), ``input`` (when the metric has one), ``irrelevant_statements`` / ``relevant_statements`` (the
    verdict reasons, or the statements) and ``attritions`` (reasons of attrition verdicts)."""

    def said(j: dict[str, Any]) -> str:
        return str(j.get("reason") or j.get("statement") or "")

    out: dict[str, Any] = {
        "score": format(score, ".2f"),
        "irrelevant_statements": [said(j) for j in judged if j.get("verdict") == "no"],
        "relevant_statements": [said(j) for j in judged if j.get("verdict") in ("yes", "borderline")],
        "attritions": [said(j) for j in judged if j.get("attrition")],
        "judged": judged,
        "multimodal": False,
    }
    if prompt_args:
        out["input"] = prompt_args[0]
    return out
