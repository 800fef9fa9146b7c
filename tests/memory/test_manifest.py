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


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("deep.yaml", "facts:\n  - " + "[" * 50_000 + "]" * 50_000 + "\n"),
        ("deep2.yaml", "facts:\n" + "".join("  " * i + "- \n" for i in range(1, 2_000)) + "\n"),
        ("deep.json", '{"facts": ' + "[" * 50_000 + "]" * 50_000 + "}"),
    ],
)
def test_manifest_nested_too_deeply_is_a_clear_error(tmp_path: Path, name: str, text: str) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ManifestError, match=rf"{name}: the manifest is nested too deeply to read"):
        load_manifest(path)


FACT_YAML = 'id: {id}\n    statement: "S {id}"\n    question: "Q {id}?"\n    expected: "A {id}"'


@pytest.mark.parametrize(
    ("text", "where", "key"),
    [
        (
            "facts:\n  - id: a\n    statement: S\n    question: Q?\n    expected: first\n    expected: second\n",
            ":6:",
            "'expected'",
        ),
        ("name: one\nname: two\nfacts:\n  - " + FACT_YAML.format(id="a") + "\n", ":2:", "'name'"),
        (
            "facts:\n  - " + FACT_YAML.format(id="a") + "\nfacts:\n  - " + FACT_YAML.format(id="b") + "\n",
            ":6:",
            "'facts'",
        ),
    ],
)
def test_duplicate_yaml_key_is_an_error_naming_the_key_and_line(
    tmp_path: Path, text: str, where: str, key: str
) -> None:
    path = tmp_path / "dup.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ManifestError, match=rf"dup.yaml{where} key {key} appears twice") as info:
        load_manifest(path)
    assert "first at line" in str(info.value)


def test_yaml_merge_key_may_be_overridden(tmp_path: Path) -> None:
    path = tmp_path / "merge.yaml"
    path.write_text(
        'facts:\n  - &f {id: dog, statement: "S", question: "Q?", expected: "A"}\n  - <<: *f\n    id: cat\n',
        encoding="utf-8",
    )
    assert [(f.id, f.expected) for f in load_manifest(path).facts] == [("dog", "A"), ("cat", "A")]


def test_duplicate_json_key_is_an_error_naming_the_key(tmp_path: Path) -> None:
    path = tmp_path / "dup.json"
    path.write_text(
        '{"facts": [{"id": "a", "statement": "S", "question": "Q?", "expected": "x", "expected": "y"}]}'
    )
    with pytest.raises(ManifestError, match=r"dup.json: key 'expected' appears twice"):
        load_manifest(path)
