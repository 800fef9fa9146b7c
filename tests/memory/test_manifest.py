from __future__ import annotations

from pathlib import Path

import pytest

from deepeval.memory.manifest import (
    FactManifest,
    ManifestError,
    load_manifest,
    manifest_json_schema,
    parse_manifest,
)


def _fact(i: str, **kw: object) -> dict:
    return {
        "id": i,
        "statement": f"statement {i}",
        "question": f"question {i}?",
        "expected": f"answer {i}",
        **kw,
    }


def test_example_manifest_kinds(manifest: FactManifest) -> None:
    kinds = {f.id: f.kind for f in manifest.facts}
    assert kinds["budget_v1"] == "superseded"
    assert kinds["budget_v2"] == "stated"
    assert kinds["series_b"] == "never_stated"
    assert len(manifest.stated()) == 11
    assert manifest.outdated_values(manifest.get("budget_v2")) == ["$40,000"]


@pytest.mark.parametrize(
    ("facts", "message"),
    [
        ([_fact("a"), _fact("a")], "duplicate fact id 'a'"),
        ([_fact("a", supersedes="zz")], "supersedes 'zz', which is not in the manifest"),
        ([_fact("a", supersedes="a")], "supersedes itself"),
        ([_fact("a", supersedes="b"), _fact("b", supersedes="a")], "cycle"),
        ([_fact("a"), _fact("b", supersedes="a"), _fact("c", supersedes="a")], "both supersede 'a'"),
        ([_fact("a", kind="never_stated"), _fact("b", supersedes="a")], "never_stated"),
        ([_fact("a", kind="stated"), _fact("b", supersedes="a")], "has kind 'stated' but 'b' supersedes it"),
        ([_fact("a", kind="superseded")], "no fact supersedes it"),
        ([_fact("a", introduced_at=5), _fact("b", supersedes="a", introduced_at=3)], "must come after"),
        ([_fact("bad id!")], "fact id"),
        ([_fact("a", statement="  ")], "must not be blank"),
        ([_fact("a", colour="red")], "Extra inputs"),
        ([], "no facts"),
    ],
)
def test_invalid_manifests_raise_clear_errors(facts: list, message: str) -> None:
    with pytest.raises(ManifestError) as err:
        parse_manifest({"facts": facts}, "m.yaml")
    assert message in str(err.value)
    assert str(err.value).startswith("m.yaml: ")


def test_error_names_the_fact(tmp_path: Path) -> None:
    p = tmp_path / "m.yaml"
    p.write_text("facts:\n  - id: x\n    statement: s\n    question: q\n")
    with pytest.raises(ManifestError, match=r"fact #0 \('x'\)\.expected: Field required"):
        load_manifest(p)


def test_bad_files(tmp_path: Path) -> None:
    with pytest.raises(ManifestError, match="cannot read"):
        load_manifest(tmp_path / "missing.yaml")
    bad = tmp_path / "m.json"
    bad.write_text("{not json")
    with pytest.raises(ManifestError, match="not valid JSON"):
        load_manifest(bad)
    with pytest.raises(ManifestError, match="must be a mapping"):
        parse_manifest("text")


def test_json_manifest_and_schema(tmp_path: Path) -> None:
    import json

    p = tmp_path / "m.json"
    p.write_text(json.dumps([_fact("a"), _fact("b", supersedes="a")]))
    m = load_manifest(p)
    assert [f.kind for f in m.facts] == ["superseded", "stated"]
    schema = manifest_json_schema()
    assert "facts" in schema["properties"]
    assert set(schema["$defs"]["Fact"]["required"]) == {"id", "statement", "question", "expected"}


def test_current_facts_follow_supersedes(manifest: FactManifest) -> None:
    intro = {"budget_v1": 4, "budget_v2": 10, "db_choice": 2}
    assert {f.id for f in manifest.current_facts(intro, 5)} == {"budget_v1", "db_choice"}
    assert {f.id for f in manifest.current_facts(intro, 10)} == {"budget_v2", "db_choice"}
    assert {f.id for f in manifest.current_facts(intro, 1)} == set()
