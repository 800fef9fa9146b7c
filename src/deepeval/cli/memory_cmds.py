"""``deepeval memory ...``: manifest schema, conversation generation, artifact grading (the short-term and long-term
runs are in :mod:`deepeval.cli.memory_run_cmds`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import typer

from deepeval.cli._echo import echo
from deepeval.cli.app import app

if TYPE_CHECKING:
    from deepeval.memory.conditions import MemoryReport
    from deepeval.memory.manifest import FactManifest
    from deepeval.test_case import Turn

memory_app = typer.Typer(help="Memory evaluation by QA-probing (fact manifests, recall and precision).",
                         no_args_is_help=True)  # fmt: skip
app.add_typer(memory_app, name="memory")


def echo_recall(report: Any) -> None:
    """The recall line of a report, normalised recall first (0 for an empty memory, 1 for a perfect one; the
    README's controls), and what weighted recall's floor is, so an empty memory's 0.200 reads as the floor."""
    r = report.recall
    echo(f"recall ({r.n} facts): normalised {r.normalised or 0:.3f}, weighted {r.weighted or 0:.3f}, "
         f"strict {r.strict or 0:.3f}  judge: {report.judge}")  # fmt: skip
    echo("  normalised: 0 = nothing recalled (an empty memory), 1 = every fact; weighted = mean grade / 5, so an "
         "empty memory's weighted recall is 0.200")  # fmt: skip


def _fail(msg: str) -> NoReturn:
    echo(f"error: {msg}", err=True)
    raise typer.Exit(2)


#: the largest system prompt / text file a memory command reads
MAX_TEXT_BYTES = 10_000_000


def _read_text(path: Path, what: str) -> str:
    """``path`` as UTF-8 text, or exit 2 with one line naming the file (missing, unreadable, not UTF-8)."""
    from deepeval._files import read_user_text

    try:
        return read_user_text(path, MAX_TEXT_BYTES)
    except UnicodeDecodeError as err:
        _fail(
            f"{path}: the {what} is not UTF-8 text (byte 0x{err.object[err.start]:02x} at offset {err.start})"
        )
    except OSError as err:
        _fail(f"{path}: cannot read the {what} ({err.strerror or err})")


def _check_reports(json_out: Path | None, html_out: Path | None) -> None:
    """Exit 2 before grading when a report path cannot be written, or when --json and --html name one file (the
    second report would overwrite the first)."""
    if json_out is not None and html_out is not None and json_out.resolve() == html_out.resolve():
        _fail(f"--json and --html both name {json_out}; give each report its own file")
    _check_writable(json_out, "--json")
    _check_writable(html_out, "--html")


def _check_writable(path: Path | None, option: str) -> None:
    """Exit 2 before any grading when ``path`` cannot be written (:func:`deepeval._safe_path.check_writable_file`),
    so an unwritable report path loses no run. Creates missing parent folders (as the report writer would); leaves
    no file behind."""
    from deepeval._safe_path import check_writable_file

    if path is None:
        return
    try:
        check_writable_file(path, option)
    except OSError as err:
        _fail(str(err))


def _write_reports(report: MemoryReport, json_out: Path | None, html_out: Path | None) -> None:
    """Write the reports after the results were printed; a failure now is one error line and exit 1."""
    from deepeval.memory.report import write_report

    try:
        write_report(report, json_out, html_out)
    except OSError as err:
        echo(
            f"error: could not write the report ({type(err).__name__}: {err.strerror or err}); "
            "the results above are complete",
            err=True,
        )
        raise typer.Exit(1) from None


@memory_app.command("schema")
def schema_cmd() -> None:
    """Print the JSON schema of the fact manifest."""
    from deepeval.memory.manifest import manifest_json_schema

    echo(json.dumps(manifest_json_schema(), indent=2))


@memory_app.command("validate")
def validate_cmd(manifest: Path) -> None:
    """Validate a manifest file (exit code 2 and the problems on error)."""
    from deepeval.memory.manifest import ManifestError, load_manifest

    try:
        m = load_manifest(manifest)
    except ManifestError as err:
        _fail(str(err))
        return
    echo(f"ok: {len(m.facts)} facts ({_fact_counts(m)})")


def _fact_counts(m: FactManifest) -> str:
    """The one count of a manifest's facts that validate and generate both print: facts stated in the conversation
    (current and superseded versions) and never-stated ones."""
    current = len(m.stated()) - sum(f.kind == "superseded" for f in m.facts)
    return (
        f"{len(m.stated())} stated in the conversation ({current} current, {len(m.stated()) - current} superseded), "
        f"{len(m.never_stated())} never_stated"
    )


@memory_app.command("generate")
def generate_cmd(
    manifest: Path,
    out: Path = typer.Option(..., "--out", "-o", help="Where to write the conversation JSON."),
    turns: int = typer.Option(40, help="Number of messages (even)."),
    seed: int = typer.Option(0, help="Seed of the template generator."),
    llm: bool = typer.Option(False, "--llm", help="Rewrite fact turns with the configured LLM judge."),
    quiet: bool = typer.Option(
        False, "--quiet", "-q", help="No progress bar (off anyway when stderr is no terminal)."
    ),
) -> None:
    """Generate a conversation stating each fact once; checks that every fact appears."""
    from deepeval._concurrency import run_sync
    from deepeval.cli.memory_progress import MemoryProgress
    from deepeval.memory.generator import a_generate_conversation, check_coverage
    from deepeval.memory.manifest import ManifestError, load_manifest
    from deepeval.models.resolve import resolve_llm

    _check_writable(out, "--out")
    try:
        m = load_manifest(manifest)
        model = resolve_llm(None) if llm else None
        if llm and model is None:
            _fail("--llm needs a configured LLM (OPENAI_API_KEY or a local model)")
        with MemoryProgress(quiet or not llm) as progress:
            progress.start("rewriting fact turns with the LLM", 0)
            conv = run_sync(a_generate_conversation(m, turns, seed, model))
    except (ManifestError, ValueError) as err:
        _fail(str(err))
        return
    cov = check_coverage(m, conv.turns, conv.introduced)
    from deepeval._files import write_text_atomic

    try:
        write_text_atomic(out, json.dumps(conv.to_dict(), indent=2, ensure_ascii=False))
    except OSError as err:
        _fail(f"--out {out} cannot be written ({type(err).__name__}: {err.strerror or err})")
    found = len(m.stated()) - len(cov.missing)
    echo(
        f"wrote {len(conv.turns)} turns to {out}; {_fact_counts(m)}; stated facts found in their turn: "
        f"{found} of {len(m.stated())}; missing facts: {cov.missing or 'none'}"
        + (f"; never-stated facts the conversation states: {cov.leaked}" if cov.leaked else "")
    )
    if not cov.ok:
        raise typer.Exit(1)


def _load_conversation(path: Path) -> tuple[list[Turn], dict[str, int] | None]:
    """The turns (and ``introduced`` fact positions) of a conversation JSON: a list of turns or an object with a
    ``turns`` list (as ``generate`` writes). Any other shape exits 2 with one line naming the file and the field."""
    from deepeval.test_case import Turn

    try:
        data = json.loads(_read_text(path, "transcript"))
    except json.JSONDecodeError as err:
        _fail(f"{path}: the transcript is not valid JSON ({err})")
    introduced = None
    if isinstance(data, dict):
        if not isinstance(data.get("turns"), list):
            _fail(
                f"{path}: the transcript object needs a 'turns' list (got {type(data.get('turns')).__name__})"
            )
        introduced = data.get("introduced")
        if introduced is not None and not (
            isinstance(introduced, dict)
            and all(isinstance(v, int) and not isinstance(v, bool) for v in introduced.values())
        ):
            _fail(f"{path}: 'introduced' must map fact ids to turn indices (integers)")
        data = data["turns"]
    elif not isinstance(data, list):
        _fail(f"{path}: the transcript must be a list of turns or an object with a 'turns' list")
    turns: list[Turn] = []
    for i, t in enumerate(data):
        try:
            turns.append(Turn.model_validate(t))
        except (TypeError, ValueError) as err:
            _fail(f"{path}: turn #{i} is not a turn with 'role' and 'content' ({err})")
    return turns, introduced


@memory_app.command("grade")
def grade_cmd(
    manifest: Path,
    transcript: Path | None = typer.Option(
        None,
        help="Conversation JSON (from `generate`): probed when no other "
        "memory is given, and the source for precision.",
    ),
    summary: Path | None = typer.Option(
        None, help="A UTF-8 text/markdown summary to probe (one of --summary, --wiki, --empty)."
    ),
    wiki: Path | None = typer.Option(
        None, help="A directory of *.md wiki pages to probe (one of --summary, --wiki, --empty)."
    ),
    empty: bool = typer.Option(
        False, help="Probe an empty memory (control; one of --summary, --wiki, --empty)."
    ),
    json_out: Path | None = typer.Option(None, "--json", help="Write the JSON report here."),
    html_out: Path | None = typer.Option(None, "--html", help="Write the HTML report here."),
    offline: bool = typer.Option(False, help="Use the embedded offline judge even if an LLM is configured."),
    quiet: bool = typer.Option(
        False, "--quiet", "-q", help="No progress bar (off anyway when stderr is no terminal)."
    ),
) -> None:
    """Artifact-only condition: grade one existing memory against the manifest.

    The memory is --summary, --wiki or --empty (at most one: a run grades one memory; giving two is a usage
    error, exit 2), else the --transcript itself. --transcript may accompany any of them as the source for
    precision. Bad files and unwritable report paths exit 2 before anything is graded.
    """
    from deepeval._concurrency import run_sync
    from deepeval.cli.memory_progress import MemoryProgress
    from deepeval.memory.artifact import MemoryArtifact
    from deepeval.memory.conditions import evaluate_artifact
    from deepeval.memory.judges import EmbeddedMemoryJudge
    from deepeval.memory.manifest import ManifestError, load_manifest

    given = [name for name, on in (("--summary", summary), ("--wiki", wiki), ("--empty", empty)) if on]
    if len(given) > 1:
        _fail(f"{' and '.join(given)} are exclusive: a run grades one memory (run once per memory)")
    _check_reports(json_out, html_out)
    try:
        m = load_manifest(manifest)
    except ManifestError as err:
        _fail(str(err))
    turns, introduced = _load_conversation(transcript) if transcript else (None, None)
    tr = MemoryArtifact.from_turns(turns) if turns else None
    try:
        if empty:
            art = MemoryArtifact.empty()
        elif wiki:
            art = MemoryArtifact.from_wiki_dir(wiki)
        elif summary:
            art = MemoryArtifact.from_text(_read_text(summary, "summary"))
        elif tr is not None:
            art = tr
        else:
            _fail("give --transcript, --summary, --wiki or --empty")
        with MemoryProgress(quiet) as progress:
            report = run_sync(evaluate_artifact(m, art, transcript=tr, introduced=introduced, progress=progress,
                                                judge=EmbeddedMemoryJudge() if offline else None))  # fmt: skip
    except (ManifestError, ValueError, OSError) as err:
        _fail(str(err))
    echo_recall(report)
    a = report.abstention
    if a.n:
        abstained = sum(f.score == 5 for f in report.facts if f.kind == "never_stated")
        echo(f"abstention ({a.n} never-stated facts): {abstained} answered 'not in memory'")
    if report.precision is not None and report.precision.precision is not None:
        p = report.precision
        echo(
            f"precision ({p.n_claims} claims): {p.precision:.3f}, hallucination rate {p.hallucination_rate:.3f} "
            f"({p.n_hallucinations} scored 1), weakly supported (scored 2): {p.n_weakly_supported}"
        )
    _write_reports(report, json_out, html_out)
