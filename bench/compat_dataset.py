"""Run the same dataset operations on this package and on deepeval 4.3.1 and print where they differ.

    python bench/compat_dataset.py [--ref /work/ref/de431/bin/python] [--ref-path DIR]

deepeval reads CSV with pandas; if its interpreter lacks pandas, install it somewhere apart
(``/work/ref/de431/bin/python -m pip install --target DIR pandas``) and pass ``--ref-path DIR``.

Each side runs this file as a worker (``--worker OUT_DIR``) in its own interpreter and writes a JSON summary: the
bytes ``save_as`` writes (json, csv, jsonl; single- and multi-turn), the goldens each side loads back from every
file (its own and the other side's), and the exception type each bad file raises. Nothing here needs a network or
a key. Exit code 0 always; the differences are the output.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path
from typing import Any

FIELDS = (
    "input",
    "actual_output",
    "expected_output",
    "context",
    "retrieval_context",
    "tools_called",
    "expected_tools",
    "token_cost",
    "input_token_count",
    "output_token_count",
    "comments",
    "name",
    "source_file",
    "additional_metadata",
    "custom_column_key_values",
    "expected_labels",
    "scenario",
    "expected_outcome",
    "user_description",
    "turns",
)


def _plain(value: Any) -> Any:
    if type(value).__name__ == "RetrievedContextData":  # deepeval's dumps to one "source: context" string
        return {"context": value.context, "source": value.source}
    if hasattr(value, "model_dump"):
        d = value.model_dump(mode="json", exclude_none=True, by_alias=False)
        d.pop("type", None)  # deepeval's ToolCall.type (FUNCTION) has no counterpart here
        return {k: _plain(v) for k, v in d.items() if v not in (None, [], {})}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _golden(g: Any) -> dict[str, Any]:
    return {f: _plain(getattr(g, f)) for f in FIELDS if getattr(g, f, None) is not None}


def _worker(out: Path, other: Path | None) -> None:
    warnings.simplefilter("ignore")
    from deepeval.dataset import ConversationalGolden, EvaluationDataset, Golden
    from deepeval.test_case import LLMTestCase, RetrievedContextData, ToolCall, Turn

    single = [
        Golden(
            input="Wie spät ist es?\nSag es mir.",
            expected_output="Es ist 3 Uhr — ☕",
            context=["first | with pipe", "second"],
            retrieval_context=[RetrievedContextData(context="chunk", source="doc.pdf"), "plain chunk"],
            tools_called=[ToolCall(name="clock", input_parameters={"tz": "CET"})],
            additional_metadata={"k": 1},
            custom_column_key_values={"team": "a"},
            token_cost=0.25,
            input_token_count=12,
            name="n1",
            comments="c",
            source_file="f.txt",
        ),
        Golden(input="second", actual_output="", context=[], tools_called=[]),
        Golden(input='third, "quoted"', expected_output="x;y|z"),
    ]
    multi = [
        ConversationalGolden(
            scenario="Return a broken kettle",
            expected_outcome="refund",
            user_description="an impatient customer",
            turns=[Turn(role="user", content="hi"), Turn(role="assistant", content="hello | there")],
            context=["policy"],
        )
    ]
    result: dict[str, Any] = {"files": {}, "loads": {}, "errors": {}}
    files = out / "files"
    for kind, goldens in (("single", single), ("multi", multi)):
        for ft in ("json", "csv", "jsonl"):
            ds = EvaluationDataset(goldens=list(goldens))
            path = ds.save_as(file_type=ft, directory=str(files), file_name=kind)
            result["files"][f"{kind}.{ft}"] = Path(path).read_text(encoding="utf-8")
    ds = EvaluationDataset()
    ds.add_test_case(LLMTestCase(input="tc", actual_output="out", context=["k"]))
    ds.add_golden(Golden(input="g"))
    path = ds.save_as(file_type="json", directory=str(files), file_name="with_tc", include_test_cases=True)
    result["files"]["with_tc.json"] = Path(path).read_text(encoding="utf-8")

    for origin, folder in (("self", files), ("other", other / "files" if other else None)):
        if folder is None or not folder.exists():
            continue
        for f in sorted(folder.iterdir()):
            ds = EvaluationDataset()
            loader = getattr(ds, f"add_goldens_from_{f.suffix[1:]}_file")
            try:
                loader(str(f))
                result["loads"][f"{origin}:{f.name}"] = [_golden(g) for g in ds.goldens]
            except Exception as err:
                result["loads"][f"{origin}:{f.name}"] = f"{type(err).__name__}: {err}"[:300]

    bad = out / "bad"
    bad.mkdir(exist_ok=True)
    cases = {
        "empty.csv": b"",
        "empty.json": b"",
        "empty.jsonl": b"",
        "latin1.csv": "input\ncaf\xe9\n".encode("latin-1"),
        "latin1.json": '[{"input": "caf\xe9"}]'.encode("latin-1"),
        "no_input_column.csv": b"question,answer\nq,a\n",
        "object.json": b'{"input": "x"}',
        "string_item.json": b'["x"]',
        "int_input.json": b'[{"input": "ok"}, {"input": 5}]',
        "bad_line.jsonl": b'{"input": "ok"}\n{"input": \n',
        "bad_tokens.csv": b"input,input_token_count\nq,many\n",
        "mixed.json": b'[{"input": "a"}, {"scenario": "s"}]',
    }
    for name, data in cases.items():
        p = bad / name
        p.write_bytes(data)
        ds = EvaluationDataset()
        loader = getattr(ds, f"add_goldens_from_{p.suffix[1:]}_file")
        try:
            loader(str(p))
            result["errors"][name] = f"loaded {len(ds.goldens)}"
        except Exception as err:
            is_value = isinstance(err, ValueError)
            result["errors"][name] = (
                f"{type(err).__name__} (ValueError: {is_value}) after {len(ds.goldens)} added"
            )
    os.environ.pop("CONFIDENT_API_KEY", None)
    try:
        EvaluationDataset().pull(alias="x")
        result["errors"]["pull"] = "no error"
    except Exception as err:
        result["errors"]["pull"] = type(err).__name__
    result["len"] = _try(lambda: len(EvaluationDataset(goldens=single)))
    result["iter"] = _try(lambda: len(list(EvaluationDataset(goldens=single))))
    (out / "result.json").write_text(json.dumps(result, indent=1, ensure_ascii=False), encoding="utf-8")


def _try(fn: Any) -> Any:
    try:
        return fn()
    except Exception as err:
        return type(err).__name__


def _run(python: str, out: Path, other: Path | None, path: str | None = None) -> dict[str, Any]:
    env = {**os.environ, "DEEPEVAL_TELEMETRY_OPT_OUT": "1", "DEEPEVAL_DISABLE_DOTENV": "1", "NO_COLOR": "1"}
    if path:
        env["PYTHONPATH"] = path
    args = [python, __file__, "--worker", str(out)] + (["--other", str(other)] if other else [])
    proc = subprocess.run(args, env=env, capture_output=True, text=True, timeout=300, cwd=out)
    if proc.returncode != 0:
        raise SystemExit(f"{python} worker failed:\n{proc.stderr[-3000:]}")
    return json.loads((out / "result.json").read_text(encoding="utf-8"))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--ref", default="/work/ref/de431/bin/python")
    ap.add_argument("--ref-path", help="extra import folder for the reference interpreter (e.g. pandas)")
    ap.add_argument("--worker")
    ap.add_argument("--other")
    a = ap.parse_args()
    if a.worker:
        _worker(Path(a.worker), Path(a.other) if a.other else None)
        return
    if not Path(a.ref).exists():
        raise SystemExit(f"deepeval 4.3.1 interpreter not found at {a.ref}")
    with tempfile.TemporaryDirectory() as tmp:
        ours_dir, ref_dir = Path(tmp, "ours"), Path(tmp, "ref")
        ours_dir.mkdir()
        ref_dir.mkdir()
        _run(a.ref, ref_dir, None, a.ref_path)
        _run(sys.executable, ours_dir, ref_dir)  # ours also loads deepeval's files
        ref = _run(a.ref, ref_dir, ours_dir, a.ref_path)  # and deepeval loads ours
        ours = json.loads((ours_dir / "result.json").read_text(encoding="utf-8"))
    same = differ = 0
    for section in ("files", "loads", "errors"):
        keys = sorted(set(ours[section]) | set(ref[section]))
        for k in keys:
            o, r = ours[section].get(k, "<absent>"), ref[section].get(k, "<absent>")
            if o == r:
                same += 1
                continue
            differ += 1
            print(f"--- {section}/{k}\n  deepeval 4.3.1: {json.dumps(r, ensure_ascii=False)[:900]}")
            print(f"  ours:           {json.dumps(o, ensure_ascii=False)[:900]}")
    # the same file read by both loaders (a deepeval CSV load fails where pandas is not installed)
    agree = disagree = 0
    for writer, ours_key, ref_key in (("deepeval", "other", "self"), ("ours", "self", "other")):
        for name in sorted(k.split(":", 1)[1] for k in ours["loads"] if k.startswith(ours_key + ":")):
            o, r = ours["loads"][f"{ours_key}:{name}"], ref["loads"].get(f"{ref_key}:{name}")
            if o == r:
                agree += 1
            else:
                disagree += 1
                print(f"--- same file ({name} written by {writer}) loads differently")
    print(f"same-file loads: {agree} agree, {disagree} differ")
    for k in ("len", "iter"):
        print(f"{k}: deepeval {ref[k]}, ours {ours[k]}")
    print(f"\n{same} observations identical, {differ} differ")


if __name__ == "__main__":
    main()
