"""``deepeval memory ...``: manifest schema, conversation generation, artifact grading, short-term runs, LoCoMo."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from deepeval.cli.main import app

memory_app = typer.Typer(help="Memory evaluation by QA-probing (fact manifests, recall and precision).",
                         no_args_is_help=True)  # fmt: skip
app.add_typer(memory_app, name="memory")


def _fail(msg: str) -> None:
    typer.echo(f"error: {msg}", err=True)
    raise typer.Exit(2)


@memory_app.command("schema")
def schema_cmd() -> None:
    """Print the JSON schema of the fact manifest."""
    from deepeval.memory.manifest import manifest_json_schema

    typer.echo(json.dumps(manifest_json_schema(), indent=2))


@memory_app.command("validate")
def validate_cmd(manifest: Path) -> None:
    """Validate a manifest file (exit code 2 and the problems on error)."""
    from deepeval.memory.manifest import ManifestError, load_manifest

    try:
        m = load_manifest(manifest)
    except ManifestError as err:
        _fail(str(err))
        return
    kinds = {k: sum(f.kind == k for f in m.facts) for k in ("stated", "superseded", "never_stated")}
    typer.echo(f"ok: {len(m.facts)} facts ({', '.join(f'{v} {k}' for k, v in kinds.items())})")


@memory_app.command("generate")
def generate_cmd(
    manifest: Path,
    out: Path = typer.Option(..., "--out", "-o", help="Where to write the conversation JSON."),
    turns: int = typer.Option(40, help="Number of messages (even)."),
    seed: int = typer.Option(0, help="Seed of the template generator."),
    llm: bool = typer.Option(False, "--llm", help="Rewrite fact turns with the configured LLM judge."),
) -> None:
    """Generate a conversation stating each fact once; checks that every fact appears."""
    from deepeval._concurrency import run_sync
    from deepeval.memory.generator import a_generate_conversation, check_coverage
    from deepeval.memory.manifest import ManifestError, load_manifest
    from deepeval.models.resolve import resolve_llm

    try:
        m = load_manifest(manifest)
        model = resolve_llm(None) if llm else None
        if llm and model is None:
            _fail("--llm needs a configured LLM (OPENAI_API_KEY or a local model)")
        conv = run_sync(a_generate_conversation(m, turns, seed, model))
    except (ManifestError, ValueError) as err:
        _fail(str(err))
        return
    cov = check_coverage(m, conv.turns, conv.introduced)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(conv.to_dict(), indent=2, ensure_ascii=False), encoding="utf-8")
    typer.echo(f"wrote {len(conv.turns)} turns to {out}; missing facts: {cov.missing or 'none'}")
    if not cov.ok:
        raise typer.Exit(1)


def _load_conversation(path: Path) -> tuple[list[object], dict[str, int] | None]:
    data = json.loads(path.read_text(encoding="utf-8"))
    if isinstance(data, list):
        return data, None
    return data["turns"], data.get("introduced")


@memory_app.command("grade")
def grade_cmd(
    manifest: Path,
    transcript: Path | None = typer.Option(
        None,
        help="Conversation JSON (from `generate`): probed when no other "
        "memory is given, and the source for precision.",
    ),
    summary: Path | None = typer.Option(None, help="A text/markdown summary to probe."),
    wiki: Path | None = typer.Option(None, help="A directory of *.md wiki pages to probe."),
    empty: bool = typer.Option(False, help="Probe an empty memory (control)."),
    json_out: Path | None = typer.Option(None, "--json", help="Write the JSON report here."),
    html_out: Path | None = typer.Option(None, "--html", help="Write the HTML report here."),
    offline: bool = typer.Option(False, help="Use the embedded offline judge even if an LLM is configured."),
) -> None:
    """Artifact-only condition: grade an existing memory against the manifest."""
    from deepeval._concurrency import run_sync
    from deepeval.memory.artifact import MemoryArtifact
    from deepeval.memory.conditions import evaluate_artifact
    from deepeval.memory.judges import EmbeddedMemoryJudge
    from deepeval.memory.manifest import ManifestError, load_manifest
    from deepeval.memory.report import write_report

    try:
        m = load_manifest(manifest)
        turns, introduced = _load_conversation(transcript) if transcript else (None, None)
        tr = MemoryArtifact.from_turns(turns) if turns else None  # type: ignore[arg-type]
        if empty:
            art = MemoryArtifact.empty()
        elif wiki:
            art = MemoryArtifact.from_wiki_dir(wiki)
        elif summary:
            art = MemoryArtifact.from_text(summary.read_text(encoding="utf-8"))
        elif tr is not None:
            art = tr
        else:
            _fail("give --transcript, --summary, --wiki or --empty")
            return
        report = run_sync(evaluate_artifact(m, art, transcript=tr, introduced=introduced,
                                            judge=EmbeddedMemoryJudge() if offline else None))  # fmt: skip
    except (ManifestError, ValueError, OSError) as err:
        _fail(str(err))
        return
    write_report(report, json_out, html_out)
    r = report.recall
    typer.echo(f"recall ({r.n} facts): weighted {r.weighted or 0:.3f}, strict {r.strict or 0:.3f}, "
               f"normalised {r.normalised or 0:.3f}  judge: {report.judge}")  # fmt: skip
    if report.precision is not None and report.precision.precision is not None:
        p = report.precision
        typer.echo(
            f"precision ({p.n_claims} claims): {p.precision:.3f}, hallucination rate {p.hallucination_rate:.3f}"
        )


@memory_app.command("short-term")
def short_term_cmd(
    manifest: Path,
    transcript: Path = typer.Option(..., help="Conversation JSON (from `generate`)."),
    base_url: str = typer.Option(..., help="OpenAI-compatible base URL of the model under test."),
    model: str = typer.Option(..., help="Model name at that endpoint."),
    api_key_env: str = typer.Option(
        "OPENAI_API_KEY", help="Environment variable holding the endpoint's key."
    ),
    checkpoints: int = typer.Option(4, help="Number of probe points."),
    json_out: Path | None = typer.Option(None, "--json"),
    html_out: Path | None = typer.Option(None, "--html"),
    offline: bool = typer.Option(False, help="Grade with the embedded offline judge."),
) -> None:
    """Short-term condition against an endpoint model: recall-vs-turn curve."""
    import os

    from deepeval._concurrency import run_sync
    from deepeval.memory.conditions import run_short_term
    from deepeval.memory.judges import EmbeddedMemoryJudge
    from deepeval.memory.manifest import load_manifest
    from deepeval.memory.report import write_report
    from deepeval.memory.subjects import EndpointChatModel
    from deepeval.test_case import Turn

    m = load_manifest(manifest)
    turns, introduced = _load_conversation(transcript)
    tt = [Turn.model_validate(t) for t in turns]
    intro = introduced or {f.id: f.introduced_at or 0 for f in m.stated()}
    subject = EndpointChatModel(base_url, model, api_key=os.environ.get(api_key_env))
    report = run_sync(run_short_term(m, tt, intro, subject, checkpoints=checkpoints,
                                     judge=EmbeddedMemoryJudge() if offline else None))  # fmt: skip
    write_report(report, json_out, html_out)
    for c in report.curve:
        typer.echo(f"turn {c.turn}: {c.recall.n} facts, normalised recall {c.recall.normalised or 0:.3f}")
