"""Values through the engine: in ``deepeval.metrics`` no code assigns a metric's result attributes except the one
apply step (:func:`deepeval.metrics.flow.apply`), read with ``ast`` (plain, augmented and annotated assignments to
``<anything>.<result attribute>``, and ``setattr`` with such a name).

Allowed beside it, each for a named reason: ``BaseMetric.reset_result`` (a new metric's cleared results) and
``BaseMetric.is_successful`` (deepeval's public method sets ``success``); the attribute path that the memory
metrics still use (``flow._measured`` clears a failed measure's score, ``flow._copy_usage`` copies usage); and
``evaluation_model`` at construction and when a judge argument changes (deepeval names the judge before any
measure)."""

from __future__ import annotations

import ast
from pathlib import Path

import deepeval.metrics

RESULT_ATTRIBUTES = frozenset(
    """score reason success error evaluation_cost input_tokens output_tokens verbose_logs confidence
    score_breakdown system_one_fallback_reason evaluation_model verdicts skipped""".split()
)
ROOT = Path(deepeval.metrics.__file__).resolve().parent
ALLOWED = {
    ("flow.py", "apply", "*"),
    ("base_metric.py", "BaseMetric.reset_result", "*"),
    ("base_metric.py", "BaseMetric.is_successful", "success"),
    ("flow.py", "_measured", "score"),
    ("flow.py", "_measured", "success"),
    ("flow.py", "_measured", "error"),
    ("flow.py", "_copy_usage", "evaluation_cost"),
    ("flow.py", "_copy_usage", "input_tokens"),
    ("flow.py", "_copy_usage", "output_tokens"),
    ("_engine/metric.py", "EngineMetric.__init__", "evaluation_model"),
    ("_engine/metric.py", "EngineMetric.eval_mode", "evaluation_model"),
    ("_engine/metric.py", "EngineMetric.model", "evaluation_model"),
    ("_engine/metric.py", "EngineMetric.system_one_model", "evaluation_model"),
    # deepeval names the judge at construction (JsonCorrectness' LLM only explains a failure)
    ("json_correctness/metric.py", "JsonCorrectnessMetric.__init__", "evaluation_model"),
    # not a metric: the per-measure context keeps the verdicts it will hand to the value
    ("_engine/context.py", "MeasureContext.log_verdicts", "verdicts"),
}


def _writes(path: Path) -> list[tuple[str, str, int]]:
    """``(function qualname, attribute, line)`` of every result-attribute write in ``path``."""
    found: list[tuple[str, str, int]] = []

    def visit(node: ast.AST, scope: list[str]) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                visit(child, [*scope, child.name])
                continue
            targets: list[ast.expr] = []
            if isinstance(child, ast.Assign):
                targets = [
                    t for tgt in child.targets for t in (tgt.elts if isinstance(tgt, ast.Tuple) else [tgt])
                ]
            elif isinstance(child, (ast.AugAssign, ast.AnnAssign)):
                targets = [child.target]
            for t in targets:
                if isinstance(t, ast.Attribute) and t.attr in RESULT_ATTRIBUTES:
                    found.append((".".join(scope), t.attr, child.lineno))
            if (
                isinstance(child, ast.Call)
                and isinstance(child.func, ast.Name)
                and child.func.id == "setattr"
                and len(child.args) >= 2
                and isinstance(child.args[1], ast.Constant)
                and child.args[1].value in RESULT_ATTRIBUTES
            ):
                found.append((".".join(scope), str(child.args[1].value), child.lineno))
            visit(child, scope)

    visit(ast.parse(path.read_text(encoding="utf-8")), [])
    return found


def test_only_the_apply_step_writes_result_attributes() -> None:
    stray = []
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        for func, attr, line in _writes(path):
            if (rel, func, "*") in ALLOWED or (rel, func, attr) in ALLOWED:
                continue
            stray.append(f"{rel}:{line} {func or '<module>'} sets .{attr}")
    assert not stray, "result attributes written outside flow.apply:\n" + "\n".join(stray)


def test_the_checker_sees_a_write() -> None:
    """The walk finds what it looks for (a check that cannot fail would prove nothing)."""
    writes = _writes(ROOT / "flow.py")
    assert ("apply", "score", next(line for f, a, line in writes if f == "apply" and a == "score")) in writes
    assert any(f == "BaseMetric.reset_result" for f, _, _ in _writes(ROOT / "base_metric.py"))
