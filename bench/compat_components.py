"""Run the same component-level evaluation code (``evals_iterator`` + ``@observe(metrics=...)``) on this package and
on deepeval 4.3.1, and print each side's result rows.

    python bench/compat_components.py

Each side runs this file as a worker (``--worker OUT``) in the sealed environment of :mod:`bench.harness` (fresh
HOME and folder, telemetry off, every non-loopback connection refused): a deterministic metric, no judge, no key.
The scenarios are those of ``tests/evaluate/test_component_level.py``, whose expected values came from these rows.
Exit code 0 always; the rows are the output.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

SCENARIOS = ("sync", "default_async", "create_task", "careful_sync", "careful_async")


def _worker(out: Path) -> None:  # noqa: C901 (one scenario per branch, as user code writes them)
    from deepeval.dataset import EvaluationDataset, Golden
    from deepeval.errors import MissingTestCaseParamsError
    from deepeval.evaluate import AsyncConfig, DisplayConfig, ErrorConfig
    from deepeval.metrics import BaseMetric
    from deepeval.test_case import LLMTestCase
    from deepeval.tracing import observe, update_current_span, update_current_trace

    quiet = DisplayConfig(show_indicator=False, print_results=False)

    class WordCount(BaseMetric):
        def __init__(self, threshold: float = 0.5, need_context: bool = False) -> None:
            self.threshold, self.need_context = threshold, need_context

        def measure(self, tc: Any, *a: Any, **k: Any) -> float:
            if self.need_context and not tc.retrieval_context:
                raise MissingTestCaseParamsError("WordCount needs retrieval_context")
            n = len((tc.actual_output or "").split())
            self.score, self.reason = min(1.0, n / 10), f"{n} words in {tc.input!r}"
            self.success = self.score >= self.threshold
            return self.score

        async def a_measure(self, tc: Any, *a: Any, **k: Any) -> float:
            return self.measure(tc)

        def is_successful(self) -> bool:
            return bool(self.success)

        @property
        def __name__(self) -> str:  # type: ignore[override]
            return "WordCount"

    @observe(type="retriever", metrics=[WordCount(threshold=0.3, need_context=True)])
    def retrieve(q: str) -> list[str]:
        docs = [f"doc one about {q}", "doc two"]
        update_current_span(
            test_case=LLMTestCase(input=q, actual_output=" ".join(docs), retrieval_context=docs)
        )
        return docs

    @observe(type="llm", metrics=[WordCount(threshold=0.5)], name="generator")
    def generate(q: str, docs: list[str]) -> str:
        answer = "short answer" if "short" in q else "a long answer with many many words in it ok"
        update_current_span(test_case=LLMTestCase(input=q, actual_output=answer))
        return answer

    @observe()
    def rag_app(q: str) -> str:
        return generate(q, retrieve(q))

    @observe(type="llm", metrics=[WordCount(threshold=0.5)])
    async def a_generate(q: str) -> str:
        await asyncio.sleep(0.02 if "short" in q else 0.0)
        answer = "short answer" if "short" in q else "a long answer with many many words in it ok"
        update_current_span(test_case=LLMTestCase(input=q, actual_output=answer))
        return answer

    @observe()
    async def agent(q: str) -> str:
        answer = await a_generate(q)
        update_current_trace(input=q, output=answer + " (final)")
        return answer

    @observe(type="tool", metrics=[WordCount(threshold=0.1)])
    def tool(x: str, k: int = 2) -> str:
        return f"{x} result number {k}"

    @observe(metrics=[WordCount(need_context=True)], name="ctx_component")
    def needs_ctx(q: str) -> str:
        update_current_span(test_case=LLMTestCase(input=q, actual_output="a b c d e f"))
        return "x"

    @observe(type="agent", metrics=[WordCount()])
    def crashes(q: str) -> str:
        raise ValueError("bad tool input")

    @observe()
    def careful_app(q: str) -> str:
        tool(q)
        needs_ctx(q)
        try:
            crashes(q)
        except ValueError:
            pass
        return "done"

    def drive(iterator: Any, body: Any) -> Any:
        while True:
            try:
                golden = next(iterator)
            except StopIteration as stop:
                return stop.value
            body(golden)

    goldens = [Golden(input="short question"), Golden(input="long question please")]
    results: dict[str, Any] = {}
    for name in SCENARIOS:
        try:
            dataset = EvaluationDataset(goldens=list(goldens))
            if name == "sync":
                it = dataset.evals_iterator(async_config=AsyncConfig(run_async=False), display_config=quiet)
                res = drive(it, lambda g: rag_app(g.input))
            elif name == "default_async":
                res = drive(dataset.evals_iterator(display_config=quiet), lambda g: rag_app(g.input))
            elif name == "create_task":
                it = dataset.evals_iterator(metrics=[WordCount(threshold=0.2)], display_config=quiet)
                res = drive(it, lambda g, ds=dataset: ds.evaluate(asyncio.create_task(agent(g.input))))
            elif name.startswith("careful"):
                dataset = EvaluationDataset(goldens=[Golden(input="q1")])
                it = dataset.evals_iterator(
                    async_config=AsyncConfig(run_async=name.endswith("async")),
                    error_config=ErrorConfig(skip_on_missing_params=True, ignore_errors=True),
                    display_config=quiet,
                )
                res = drive(it, lambda g: careful_app(g.input))
            else:
                raise NotImplementedError(name)
            results[name] = [
                {
                    "name": t.name,
                    "index": t.index,
                    "success": t.success,
                    "input": t.input if isinstance(t.input, str) else repr(t.input),
                    "actual_output": t.actual_output,
                    "rows": [[m.name, m.score, m.success, m.reason, m.error] for m in t.metrics_data],
                }
                for t in res.test_results
            ]
        except Exception as err:  # the scenario's outcome is the output
            results[name] = {"raised": f"{type(err).__name__}: {err}"}
    out.write_text(json.dumps(results, indent=1, default=str))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worker", type=Path)
    args = parser.parse_args()
    if args.worker:
        _worker(args.worker)
        return
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from bench.harness import OUR_PYTHON, REPO, deepeval_python, sealed_env

    sides = {}
    for impl, python in (("ours", OUR_PYTHON), ("deepeval 4.3.1", deepeval_python(install=False))):
        with tempfile.TemporaryDirectory(prefix="compat-components-") as tmp:
            out = Path(tmp) / "out.json"
            extra = (
                {"PYTHONPATH": f"{REPO / 'src'}:{sealed_env(Path(tmp), {})['PYTHONPATH']}"}
                if impl == "ours"
                else {}
            )
            proc = subprocess.run(
                [str(python), __file__, "--worker", str(out)],
                cwd=tmp,
                env=sealed_env(Path(tmp), extra),
                capture_output=True,
                text=True,
                timeout=600,
            )
            sides[impl] = json.loads(out.read_text()) if out.is_file() else {"error": proc.stderr[-2000:]}
    for name in SCENARIOS:
        print(f"== {name}")
        for impl, data in sides.items():
            rows = data.get(name, data)
            print(f"  {impl}:")
            for row in rows if isinstance(rows, list) else [rows]:
                print(f"    {json.dumps(row, default=str)}")


if __name__ == "__main__":
    main()
