"""`deepeval memory ...` on bad files and paths: one error line naming the file, exit 2, nothing graded or lost."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deepeval.cli.main import app

MANIFEST = {
    "facts": [
        {"id": "f1", "statement": "The user's dog is named Biscuit.", "question": "What is the name of the user's dog?",
         "expected": "Biscuit"},
    ]
}  # fmt: skip


@pytest.fixture
def manifest(tmp_path: Path) -> Path:
    path = tmp_path / "m.json"
    path.write_text(json.dumps(MANIFEST), encoding="utf-8")
    return path


def _invoke(args: list[str]) -> tuple[int, str]:
    result = CliRunner().invoke(app, args)
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, result.output


def test_non_utf8_manifest_names_the_file_and_the_byte(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_bytes(b"facts: caf\xe9\n")
    code, out = _invoke(["memory", "validate", str(path)])
    assert code == 2
    assert f"{path}: the manifest is not UTF-8 text (byte 0xe9 at offset 10)" in out


def test_non_utf8_summary_and_transcript_are_exit_2(manifest: Path, tmp_path: Path) -> None:
    summary = tmp_path / "s.md"
    summary.write_bytes(b"- Dog: Biscuit \xff\n")
    code, out = _invoke(["memory", "grade", str(manifest), "--summary", str(summary), "--offline"])
    assert code == 2 and f"{summary}: the summary is not UTF-8 text (byte 0xff at offset 15)" in out
    transcript = tmp_path / "t.json"
    transcript.write_bytes(b"[\xff]")
    code, out = _invoke(["memory", "grade", str(manifest), "--transcript", str(transcript)])
    assert code == 2 and f"{transcript}: the transcript is not UTF-8 text" in out


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ("not json", "the transcript is not valid JSON"),
        ('"a string"', "must be a list of turns or an object with a 'turns' list"),
        ('{"turns": 5}', "needs a 'turns' list (got int)"),
        ('[{"role": "user", "content": "hi"}, {"role": "robot", "content": "x"}]', "turn #1 is not a turn"),
        ('{"turns": [], "introduced": {"f1": "three"}}', "'introduced' must map fact ids to turn indices"),
    ],
)
def test_malformed_transcripts_name_the_problem(
    manifest: Path, tmp_path: Path, payload: str, message: str
) -> None:
    transcript = tmp_path / "t.json"
    transcript.write_text(payload, encoding="utf-8")
    code, out = _invoke(["memory", "grade", str(manifest), "--transcript", str(transcript)])
    assert code == 2 and message in out, out


def test_missing_summary_file_is_exit_2(manifest: Path, tmp_path: Path) -> None:
    code, out = _invoke(["memory", "grade", str(manifest), "--summary", str(tmp_path / "nope.md")])
    assert code == 2 and "nope.md: cannot read the summary" in out


def test_exclusive_memories(manifest: Path, tmp_path: Path) -> None:
    summary = tmp_path / "s.md"
    summary.write_text("- Dog: Biscuit\n", encoding="utf-8")
    code, out = _invoke(["memory", "grade", str(manifest), "--summary", str(summary), "--empty"])
    assert code == 2 and "--summary and --empty are exclusive" in out


def test_unwritable_report_paths_fail_before_grading(manifest: Path, tmp_path: Path) -> None:
    summary = tmp_path / "s.md"
    summary.write_text("- Dog: Biscuit\n", encoding="utf-8")
    blocker = tmp_path / "blocker"
    blocker.write_text("a file", encoding="utf-8")
    code, out = _invoke(
        ["memory", "grade", str(manifest), "--summary", str(summary), "--html", str(blocker / "r")]
    )
    assert code == 2 and "--html" in out and "recall" not in out  # nothing was graded
    code, out = _invoke(
        ["memory", "grade", str(manifest), "--summary", str(summary), "--json", str(tmp_path)]
    )
    assert code == 2 and "is a directory" in out
    code, out = _invoke(["memory", "generate", str(manifest), "-o", str(blocker / "c.json"), "--turns", "4"])
    assert code == 2 and "--out" in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["blocker", "m.json", "s.md"]  # no probe file left


def test_a_late_write_failure_keeps_the_printed_results(
    manifest: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import deepeval.memory.report as report_mod

    def disk_full(*_: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(report_mod, "write_report", disk_full)
    summary = tmp_path / "s.md"
    summary.write_text("- Dog: Biscuit\n", encoding="utf-8")
    out_path = tmp_path / "r.json"
    code, out = _invoke(
        ["memory", "grade", str(manifest), "--summary", str(summary), "--json", str(out_path), "--offline"]
    )
    assert code == 1
    assert "recall (1 facts): normalised 1.000, weighted 1.000" in out
    assert (
        "could not write the report (OSError: No space left on device); the results above are complete" in out
    )


def test_lone_surrogate_in_a_transcript_is_graded(manifest: Path, tmp_path: Path) -> None:
    transcript = tmp_path / "t.json"
    # the JSON escape \\udcff decodes to a lone surrogate, which UTF-8 cannot encode
    transcript.write_text(
        '[{"role": "user", "content": "My dog is called Biscuit \\udcff."}, {"role": "assistant", "content": "Nice."}]',
        encoding="utf-8",
    )
    out = tmp_path / "r.json"
    result = CliRunner().invoke(
        app,
        ["memory", "grade", str(manifest), "--transcript", str(transcript), "--offline", "--json", str(out)],
    )
    assert result.exit_code == 0, result.output
    assert "recall (1 facts): normalised 1.000, weighted 1.000" in result.output
    assert [f["score"] for f in json.loads(out.read_text(encoding="utf-8"))["facts"]] == [5]


def test_deep_or_duplicate_key_manifest_is_exit_2_with_the_reason(tmp_path: Path) -> None:
    deep = tmp_path / "deep.yaml"
    deep.write_text("facts: " + "[" * 50_000 + "]" * 50_000 + "\n", encoding="utf-8")
    code, out = _invoke(["memory", "validate", str(deep)])
    assert (
        code == 2 and f"{deep}: the manifest is nested too deeply to read" in out and "Traceback" not in out
    )
    dup = tmp_path / "dup.yaml"
    dup.write_text("facts:\n  - id: a\n    id: b\n", encoding="utf-8")
    code, out = _invoke(["memory", "validate", str(dup)])
    assert code == 2 and f"{dup}:3: key 'id' appears twice in one mapping (first at line 2)" in out


def test_introduced_at_beyond_the_conversation_is_exit_2_naming_the_fact(tmp_path: Path) -> None:
    late = {"facts": [{**MANIFEST["facts"][0], "introduced_at": 50}]}
    path = tmp_path / "late.json"
    path.write_text(json.dumps(late), encoding="utf-8")
    code, out = _invoke(["memory", "generate", str(path), "--out", str(tmp_path / "c.json"), "--turns", "10"])
    assert code == 2 and "fact 'f1': introduced_at 50 is beyond the conversation to generate" in out
    assert not (tmp_path / "c.json").exists()
    transcript = tmp_path / "t.json"
    transcript.write_text(
        json.dumps(
            [{"role": "user", "content": "My dog is Biscuit."}, {"role": "assistant", "content": "Nice."}]
        ),
        encoding="utf-8",
    )
    code, out = _invoke(["memory", "grade", str(path), "--transcript", str(transcript), "--offline"])
    assert code == 2 and "fact 'f1': introduced_at 50 is beyond the transcript (2 turns: turns 0-1)" in out


@pytest.mark.regression
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs")
def test_a_fifo_in_the_wiki_folder_and_dev_zero_as_a_file_are_refused(manifest: Path, tmp_path: Path) -> None:
    """A FIFO named *.md in --wiki hung `memory grade`; --system-prompt-file /dev/zero ran out of memory (issue 42
    item 12): both are refused as not regular files, at once."""
    wiki = tmp_path / "wiki"
    wiki.mkdir()
    (wiki / "Pets.md").write_text("- Dog: Biscuit\n", encoding="utf-8")
    os.mkfifo(wiki / "Trap.md")
    code, out = _invoke(["memory", "grade", str(manifest), "--wiki", str(wiki), "--offline"])
    assert code == 2 and "Trap.md: cannot read this wiki page (not a regular file" in out
    conv = tmp_path / "c.json"
    conv.write_text(
        json.dumps({"turns": [{"role": "user", "content": "My dog is Biscuit."}]}), encoding="utf-8"
    )
    for bad in ("/dev/zero", str(wiki / "Trap.md")):
        code, out = _invoke(["memory", "short-term", str(manifest), "--transcript", str(conv), "--base-url",
                             "http://127.0.0.1:9/v1", "--model", "m", "--system-prompt-file", bad])  # fmt: skip
        assert code == 2 and f"{bad}: cannot read the system prompt (not a regular file" in out, out


def test_a_huge_system_prompt_file_is_refused(manifest: Path, tmp_path: Path) -> None:
    big = tmp_path / "big.txt"
    with open(big, "wb") as f:
        f.truncate(10_000_001)  # sparse: no disk used
    conv = tmp_path / "c.json"
    conv.write_text(
        json.dumps({"turns": [{"role": "user", "content": "My dog is Biscuit."}]}), encoding="utf-8"
    )
    code, out = _invoke(["memory", "short-term", str(manifest), "--transcript", str(conv), "--base-url",
                         "http://127.0.0.1:9/v1", "--model", "m", "--system-prompt-file", str(big)])  # fmt: skip
    assert code == 2 and "cannot read the system prompt (larger than 10,000,000 bytes)" in out, out
