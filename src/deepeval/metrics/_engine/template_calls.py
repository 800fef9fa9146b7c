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


def parameters(method: Callable[..., Any]) -> dict[str, inspect.Parameter] | None:
    """``method``'s parameters by name (None for a callable without a signature)."""
    return _parameters(method)


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


def is_verdict_method(name: str) -> bool:
    """A template method whose prompt asks the LLM for a decision (System One decides instead outside ``llm``
    mode): deepeval's naming, ``generate_verdicts`` / ``generate_verdict`` / ``generate_node_verdicts``, and any
    metric's ``generate_<what>_verdict(s)``."""
    return name.startswith("generate_") and name.endswith(("_verdict", "_verdicts"))


def is_reason_method(name: str) -> bool:
    """A template method that writes the reason (``generate_reason``)."""
    return name == "generate_reason"


def overridden_methods(template: Any, default: Any) -> list[str]:
    """Public methods of ``template`` that differ from ``default``'s (all of them for a template that does not
    subclass ``default``, such as one written for deepeval 4.3.1); ``[]`` for the default itself."""
    if template is default:
        return []
    names = sorted(n for n in dir(template) if not n.startswith("_") and callable(getattr(template, n, None)))
    return [n for n in names if getattr(template, n) is not getattr(default, n, None)]


def unused_methods_note(
    methods: list[str], *, mode: str, has_llm: bool, llm_extracts: bool
) -> tuple[list[str], str] | None:
    """Which overridden template ``methods`` a measure in ``mode`` does not call, and why; None when it calls all.

    * ``system_one``: none is called (System One answers the metric's ``question_set``);
    * ``hybrid`` without an LLM judge: none (extraction and reasons are deterministic, System One decides);
    * ``hybrid`` with an LLM: extraction (unless an ``extractor=`` replaces it) and reason methods are called;
      verdict methods only when System One fails and the LLM decides instead;
    * ``llm``: all are called (extraction methods unless an ``extractor=`` replaces them).
    """
    if not methods:
        return None
    if mode == "system_one":
        return (
            methods,
            "System One answers the metric's question_set instead (pass question_set= to change it)",
        )
    if mode == "hybrid" and not has_llm:
        return methods, (
            "without an LLM judge, extraction and reasons are deterministic and System One decides "
            "(configure an LLM with model= or eval_mode='llm' to use them)"
        )
    extraction = [m for m in methods if not is_verdict_method(m) and not is_reason_method(m)]
    unused = [] if llm_extracts else extraction
    why = [] if llm_extracts else ["the extractor= given replaces the extraction prompts"]
    if mode == "hybrid":
        verdicts = [m for m in methods if is_verdict_method(m)]
        unused += verdicts
        if verdicts:
            why.append(
                "System One decides; the verdict prompts are used only when it fails and the LLM decides"
            )
    return (unused, "; ".join(why)) if unused else None
