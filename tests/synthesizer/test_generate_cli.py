"""``deepeval generate`` against the scripted loopback judge (configured through the environment), and the files it
writes read back by our loader and by deepeval 4.3.1's (in its own interpreter, when installed)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from _support.reference import reference_python, run_user_script
from deepeval.cli.main import app
from deepeval.dataset import EvaluationDataset


@pytest.fixture
def env(judge, regression_env, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("OPENAI_BASE_URL", judge.server.base_url)
    return judge


def run(*args: str):
    return CliRunner().invoke(app, ["generate", *args])


def test_contexts_file_to_json(env, tmp_path):
    contexts = tmp_path / "contexts.json"
    contexts.write_text(json.dumps([["Paris is in France."], ["Water boils at 100 C."]]), encoding="utf-8")
    result = run(
        "--method", "contexts", "--variation", "single-turn", "--contexts-file", str(contexts),
        "--output-dir", str(tmp_path / "out"), "--file-name", "g", "--max-goldens-per-context", "1", "--model", "gpt-4.1",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    path = tmp_path / "out" / "g.json"
    assert f"Synthetic goldens saved at {path}!" in result.output
    dataset = EvaluationDataset()
    dataset.add_goldens_from_json_file(str(path))
    assert [g.context for g in dataset.goldens] == [["Paris is in France."], ["Water boils at 100 C."]]
    assert env.server.counters.requests > 0


AWKWARD_CONTEXTS = [
    ['He said "yes", then left; later | came back.', "Line one\nline two, with a comma"],
    ["Café, naïve, 東京 and an emoji 🙂", "tab\there; semicolons; and a trailing backslash \\"],
]
AWKWARD_INPUT = 'Why did he say "yes", | then\nleave; 東京?'


@pytest.mark.parametrize("file_type", ["json", "csv", "jsonl"])
def test_generated_files_with_awkward_text_load_back(env, tmp_path, file_type):
    """What a real model writes (quotes, commas, semicolons, pipes, newlines, non-ASCII) survives every file type
    ``deepeval generate`` writes, read back by our loader."""
    env.set(
        {
            "SyntheticDataList": lambda req: {"data": [{"input": AWKWARD_INPUT}]},
            "text": lambda req: AWKWARD_INPUT,  # evolutions and expected outputs
        }
    )
    contexts = tmp_path / "contexts.json"
    contexts.write_text(json.dumps(AWKWARD_CONTEXTS), encoding="utf-8")
    result = run(
        "--method", "contexts", "--variation", "single-turn", "--contexts-file", str(contexts), "--file-type",
        file_type, "--output-dir", str(tmp_path), "--file-name", "g", "--max-goldens-per-context", "1",
        "--model", "gpt-4.1",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    dataset = EvaluationDataset()
    getattr(dataset, f"add_goldens_from_{file_type}_file")(str(tmp_path / f"g.{file_type}"))
    assert [g.context for g in dataset.goldens] == AWKWARD_CONTEXTS
    assert [(g.input, g.expected_output) for g in dataset.goldens] == [(AWKWARD_INPUT, AWKWARD_INPUT)] * 2


def test_docs_multi_turn_to_jsonl(env, tmp_path):
    doc = tmp_path / "paris.md"
    doc.write_text("Paris is the capital of France.", encoding="utf-8")
    result = run(
        "--method", "docs", "--variation", "multi-turn", "--documents", str(doc), "--file-type", "jsonl",
        "--output-dir", str(tmp_path), "--file-name", "conv", "--max-goldens-per-context", "1",
        "--no-include-expected",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    dataset = EvaluationDataset()
    dataset.add_goldens_from_jsonl_file(str(tmp_path / "conv.jsonl"))
    (golden,) = dataset.goldens
    assert (
        golden.scenario
        and golden.expected_outcome is None
        and golden.context == ["Paris is the capital of France."]
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--method", "contexts", "--variation", "single-turn"], "`--contexts-file` is required"),
        (["--method", "scratch", "--variation", "single-turn", "--num-goldens", "2"], "requires: --scenario"),
        (["--method", "docs", "--variation", "single-turn"], "`--documents` is required"),
        (["--method", "goldens", "--variation", "single-turn", "--goldens-file", "nope.json"], "not found"),
        (
            [
                "--method",
                "docs",
                "--variation",
                "single-turn",
                "--documents",
                "a.txt",
                "--chunk-overlap",
                "5000",
            ],
            "chunk_overlap",
        ),
    ],
)
def test_bad_options_exit_2(env, args, message):
    result = run(*args)
    assert result.exit_code == 2 and message in " ".join(result.output.split())


def test_nothing_generated_exits_1_naming_the_documents(env, tmp_path):
    (tmp_path / "e.txt").write_text("", encoding="utf-8")
    result = run("--method", "docs", "--variation", "single-turn", "--documents", str(tmp_path / "e.txt"))
    assert result.exit_code == 1 and "holds no text" in result.output


def pd_module():
    return pytest.importorskip("pandas")


def test_files_round_trip_through_deepeval_431s_loader(judge, tmp_path):
    python = reference_python()
    if python is None:
        pytest.skip("deepeval 4.3.1 is not installed here")
    from deepeval.synthesizer import Synthesizer

    s = Synthesizer(model=judge.model)
    s.show_progress = False
    goldens = s.generate_goldens_from_contexts(
        [["Paris, France", "Seine, river"], ["Water boils at 100 C."]], source_files=["a.txt", "b.txt"]
    )
    paths = {t: s.save_as(t, str(tmp_path), file_name=f"g_{t}", quiet=True) for t in ("json", "csv", "jsonl")}
    # 4.3.1 reads CSV with pandas, which its scratch venv lacks: lend it ours (pandas and what it imports)
    overlay = tmp_path / "overlay"
    overlay.mkdir()
    site = Path(pd_module().__file__).parents[1]
    for name in ("pandas", "numpy", "numpy.libs", "dateutil", "tzdata", "six.py"):
        if (site / name).exists():
            (overlay / name).symlink_to(site / name)
    script = tmp_path / "load.py"
    script.write_text(
        textwrap.dedent(
            f"""
            import json, sys
            sys.path.append({str(overlay)!r})
            from deepeval.dataset import EvaluationDataset
            out = {{}}
            for kind, path in {paths!r}.items():
                ds = EvaluationDataset()
                getattr(ds, "add_goldens_from_" + kind + "_file")(path)
                out[kind] = [[g.input, g.expected_output, g.context, g.source_file] for g in ds.goldens]
            print(json.dumps(out))
            """
        ),
        encoding="utf-8",
    )
    loaded = run_user_script(Path(script), reference=True)
    want = [[g.input, g.expected_output, g.context, g.source_file] for g in goldens]
    assert loaded == {"json": want, "csv": want, "jsonl": want}


def test_ctrl_c_writes_the_finished_goldens_and_exits_130(env, tmp_path):
    env.interrupt_on("BLOCK")
    contexts = tmp_path / "contexts.json"
    contexts.write_text(json.dumps([["alpha"], ["BLOCK beta"]]), encoding="utf-8")
    result = run(
        "--method", "contexts", "--variation", "single-turn", "--contexts-file", str(contexts), "--sync-mode",
        "--output-dir", str(tmp_path), "--file-name", "partial", "--model", "gpt-4.1",
    )  # fmt: skip
    assert result.exit_code == 130, result.output
    assert "the finished goldens are saved at" in " ".join(result.output.split())
    dataset = EvaluationDataset()
    dataset.add_goldens_from_json_file(str(tmp_path / "partial.json"))
    assert [g.context for g in dataset.goldens] == [["alpha"], ["alpha"]]
