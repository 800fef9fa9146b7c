"""``deepeval generate``: synthetic goldens with the Synthesizer, deepeval 4.3.1's options.

``--method docs|contexts|scratch|goldens`` picks the source (``--documents`` paths, a ``--contexts-file`` JSON list of
lists of chunks, the styling options alone, or a ``--goldens-file``), ``--variation single-turn|multi-turn`` the kind
of golden; the goldens are written to ``--output-dir`` as ``--file-type`` json, csv or jsonl (the dataset layout, which
``EvaluationDataset.add_goldens_from_*_file`` reads here and in deepeval 4.3.1). Ours: a run stopped with Ctrl-C
still writes the goldens it finished (exit 130), and a run with skipped documents or inputs names them on stderr.
Exit codes: 0 written; 1 nothing could be generated (the reason on stderr); 2 bad options or input files.
"""

from __future__ import annotations

import json
from enum import Enum
from pathlib import Path
from typing import Any

import typer

from deepeval.cli._echo import echo
from deepeval.cli.app import app


class GenerationMethod(str, Enum):
    DOCS = "docs"
    CONTEXTS = "contexts"
    SCRATCH = "scratch"
    GOLDENS = "goldens"


class GoldenVariation(str, Enum):
    SINGLE_TURN = "single-turn"
    MULTI_TURN = "multi-turn"


class FileType(str, Enum):
    JSON = "json"
    CSV = "csv"
    JSONL = "jsonl"


def _required(value: Any, option: str, method: GenerationMethod) -> Any:
    if value is None or value == []:
        raise typer.BadParameter(
            f"`{option}` is required when --method is `{method.value}`.", param_hint=option
        )
    return value


def load_contexts_file(path: Path) -> list[list[str]]:
    """A JSON list of lists of strings.

    Raises:
        typer.BadParameter: missing, not JSON, or of another shape.
    """
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise typer.BadParameter(f"Contexts file not found: {path}", param_hint="--contexts-file") from None
    except (OSError, UnicodeDecodeError) as err:
        raise typer.BadParameter(
            f"Contexts file cannot be read: {err}", param_hint="--contexts-file"
        ) from None
    except json.JSONDecodeError as err:
        raise typer.BadParameter(
            f"Contexts file must be valid JSON: {err}", param_hint="--contexts-file"
        ) from None
    if not isinstance(raw, list) or not all(
        isinstance(c, list) and all(isinstance(chunk, str) for chunk in c) for c in raw
    ):
        raise typer.BadParameter(
            'Contexts file must be shaped like [["chunk 1", "chunk 2"], ...].', param_hint="--contexts-file"
        )
    return raw


def load_goldens_file(path: Path, variation: GoldenVariation) -> list[Any]:
    """The goldens of a .json, .csv or .jsonl dataset file, all of the kind ``variation`` needs.

    Raises:
        typer.BadParameter: missing, unreadable, of another type, empty, or of the other kind.
    """
    from deepeval.dataset import ConversationalGolden, EvaluationDataset
    from deepeval.errors import DatasetError

    if not path.exists():
        raise typer.BadParameter(f"Goldens file not found: {path}", param_hint="--goldens-file")
    loaders = {".json": "add_goldens_from_json_file", ".csv": "add_goldens_from_csv_file"}
    loaders[".jsonl"] = "add_goldens_from_jsonl_file"
    method = loaders.get(path.suffix.lower())
    if method is None:
        raise typer.BadParameter(
            "Goldens file must be a .json, .csv, or .jsonl file.", param_hint="--goldens-file"
        )
    dataset = EvaluationDataset()
    try:
        getattr(dataset, method)(str(path))
    except (DatasetError, OSError) as err:
        raise typer.BadParameter(str(err), param_hint="--goldens-file") from None
    goldens = list(dataset.goldens)
    if not goldens:
        raise typer.BadParameter("Goldens file does not contain any goldens.", param_hint="--goldens-file")
    multi = isinstance(goldens[0], ConversationalGolden)
    if variation is GoldenVariation.MULTI_TURN and not multi:
        raise typer.BadParameter(
            "`--variation multi-turn` requires conversational goldens.", param_hint="--variation"
        )
    if variation is GoldenVariation.SINGLE_TURN and multi:
        raise typer.BadParameter(
            "`--variation single-turn` requires single-turn goldens.", param_hint="--variation"
        )
    return goldens


def _check_scratch(variation: GoldenVariation, options: dict[str, str | None]) -> None:
    names = (
        ("--scenario", "--task", "--input-format")
        if variation is GoldenVariation.SINGLE_TURN
        else ("--scenario-context", "--conversational-task", "--participant-roles")
    )
    missing = [n for n in names if options.get(n) is None]
    if missing:
        raise typer.BadParameter("Scratch generation requires: " + ", ".join(missing), param_hint=missing[0])


def _run(synthesizer: Any, method: GenerationMethod, multi: bool, source: Any, opts: dict[str, Any]) -> None:
    include = opts["include_expected"]
    if method is GenerationMethod.DOCS:
        kind = "conversational_goldens" if multi else "goldens"
        expected = {"include_expected_outcome" if multi else "include_expected_output": include}
        getattr(synthesizer, f"generate_{kind}_from_docs")(
            document_paths=source,
            max_goldens_per_context=opts["max_goldens_per_context"],
            context_construction_config=opts["context_construction_config"],
            **expected,
        )
    elif method is GenerationMethod.CONTEXTS:
        if multi:
            synthesizer.generate_conversational_goldens_from_contexts(
                contexts=source,
                include_expected_outcome=include,
                max_goldens_per_context=opts["max_goldens_per_context"],
            )
        else:
            synthesizer.generate_goldens_from_contexts(
                contexts=source,
                include_expected_output=include,
                max_goldens_per_context=opts["max_goldens_per_context"],
            )
    elif method is GenerationMethod.SCRATCH:
        if multi:
            synthesizer.generate_conversational_goldens_from_scratch(num_goldens=source)
        else:
            synthesizer.generate_goldens_from_scratch(num_goldens=source)
    elif multi:
        synthesizer.generate_conversational_goldens_from_goldens(
            goldens=source,
            max_goldens_per_golden=opts["max_goldens_per_golden"],
            include_expected_outcome=include,
        )
    else:
        synthesizer.generate_goldens_from_goldens(
            goldens=source,
            max_goldens_per_golden=opts["max_goldens_per_golden"],
            include_expected_output=include,
        )


def _source(
    method: GenerationMethod,
    variation: GoldenVariation,
    documents: list[str] | None,
    contexts_file: Path | None,
    goldens_file: Path | None,
    num_goldens: int | None,
    styling: dict[str, str | None],
) -> Any:
    if method is GenerationMethod.DOCS:
        return _required(documents, "--documents", method)
    if method is GenerationMethod.CONTEXTS:
        return load_contexts_file(_required(contexts_file, "--contexts-file", method))
    if method is GenerationMethod.SCRATCH:
        _required(num_goldens, "--num-goldens", method)
        _check_scratch(variation, styling)
        return num_goldens
    return load_goldens_file(_required(goldens_file, "--goldens-file", method), variation)


def _save(synthesizer: Any, file_type: FileType, output_dir: str, file_name: str | None) -> str | None:
    if not (synthesizer.synthetic_goldens or synthesizer.synthetic_conversational_goldens):
        return None
    path = synthesizer.save_as(
        file_type=file_type.value, directory=output_dir, file_name=file_name, quiet=True
    )
    return str(path)


@app.command("generate")
def generate(
    method: GenerationMethod = typer.Option(
        ..., "--method", help="Golden generation method to use.", case_sensitive=False
    ),
    variation: GoldenVariation = typer.Option(
        ..., "--variation", help="Golden variation to generate.", case_sensitive=False
    ),
    output_dir: str = typer.Option(
        "./synthetic_data", "--output-dir", help="Directory for the generated goldens."
    ),
    file_type: FileType = typer.Option(
        FileType.JSON, "--file-type", help="File type to save generated goldens as.", case_sensitive=False
    ),
    file_name: str | None = typer.Option(None, "--file-name", help="Output file name without extension."),
    model: str | None = typer.Option(
        None, "--model", help="Model to generate with (default: the configured one)."
    ),
    async_mode: bool = typer.Option(True, "--async-mode/--sync-mode", help="Generate goldens concurrently."),
    max_concurrent: int = typer.Option(100, "--max-concurrent", help="Most requests in flight at once."),
    include_expected: bool = typer.Option(
        True, "--include-expected/--no-include-expected", help="Generate expected outputs / outcomes."
    ),
    cost_tracking: bool = typer.Option(
        False, "--cost-tracking", help="Print the generation cost when known."
    ),
    documents: list[str] | None = typer.Option(
        None, "--documents", help="Document path for --method docs (repeat for several)."
    ),
    contexts_file: Path | None = typer.Option(
        None, "--contexts-file", help='JSON file shaped like [["chunk 1", "chunk 2"], ...].'
    ),
    goldens_file: Path | None = typer.Option(
        None, "--goldens-file", help="Existing goldens file to augment (.json, .csv, or .jsonl)."
    ),
    num_goldens: int | None = typer.Option(
        None, "--num-goldens", help="Goldens to generate with --method scratch."
    ),
    max_goldens_per_context: int = typer.Option(
        2, "--max-goldens-per-context", help="Most goldens per context."
    ),
    max_goldens_per_golden: int = typer.Option(
        2, "--max-goldens-per-golden", help="Most goldens per golden."
    ),
    max_contexts_per_document: int = typer.Option(
        3, "--max-contexts-per-document", help="Most contexts per document."
    ),
    min_contexts_per_document: int = typer.Option(
        1, "--min-contexts-per-document", help="Fewest contexts per document."
    ),
    chunk_size: int = typer.Option(1024, "--chunk-size", help="Chunk size in tokens."),
    chunk_overlap: int = typer.Option(0, "--chunk-overlap", help="Token overlap between chunks."),
    context_quality_threshold: float = typer.Option(
        0.5, "--context-quality-threshold", help="Minimum context quality."
    ),
    context_similarity_threshold: float = typer.Option(
        0.0, "--context-similarity-threshold", help="Minimum similarity for grouping chunks into a context."
    ),
    max_retries: int = typer.Option(3, "--max-retries", help="Most chunks tried per context for quality."),
    scenario: str | None = typer.Option(None, "--scenario", help="Single-turn generation scenario."),
    task: str | None = typer.Option(None, "--task", help="Single-turn generation task."),
    input_format: str | None = typer.Option(None, "--input-format", help="Single-turn input format."),
    expected_output_format: str | None = typer.Option(
        None, "--expected-output-format", help="Single-turn expected output format."
    ),
    scenario_context: str | None = typer.Option(
        None, "--scenario-context", help="Multi-turn scenario context."
    ),
    conversational_task: str | None = typer.Option(
        None, "--conversational-task", help="Multi-turn conversational task."
    ),
    participant_roles: str | None = typer.Option(
        None, "--participant-roles", help="Multi-turn participant roles."
    ),
    scenario_format: str | None = typer.Option(None, "--scenario-format", help="Multi-turn scenario format."),
    expected_outcome_format: str | None = typer.Option(
        None, "--expected-outcome-format", help="Multi-turn expected outcome format."
    ),
) -> None:
    """Generate synthetic goldens with the golden synthesizer."""
    from deepeval.errors import DeepEvalError
    from deepeval.synthesizer import Synthesizer
    from deepeval.synthesizer.config import (
        ContextConstructionConfig,
        ConversationalStylingConfig,
        StylingConfig,
    )

    styling = {
        "--scenario": scenario,
        "--task": task,
        "--input-format": input_format,
        "--scenario-context": scenario_context,
        "--conversational-task": conversational_task,
        "--participant-roles": participant_roles,
    }
    source = _source(method, variation, documents, contexts_file, goldens_file, num_goldens, styling)
    single = [scenario, task, input_format, expected_output_format]
    multi_options = [
        scenario_context,
        conversational_task,
        participant_roles,
        scenario_format,
        expected_outcome_format,
    ]
    try:
        config = (
            ContextConstructionConfig(
                max_contexts_per_document=max_contexts_per_document,
                min_contexts_per_document=min_contexts_per_document,
                chunk_size=chunk_size,
                chunk_overlap=chunk_overlap,
                context_quality_threshold=context_quality_threshold,
                context_similarity_threshold=context_similarity_threshold,
                max_retries=max_retries,
            )
            if method is GenerationMethod.DOCS
            else None
        )
        synthesizer = Synthesizer(
            model=model,
            async_mode=async_mode,
            max_concurrent=max_concurrent,
            styling_config=StylingConfig(*single) if any(single) else None,
            conversational_styling_config=ConversationalStylingConfig(*multi_options)
            if any(multi_options)
            else None,
            cost_tracking=cost_tracking,
        )
    except ValueError as err:
        raise typer.BadParameter(str(err)) from None
    opts = {
        "include_expected": include_expected,
        "max_goldens_per_context": max_goldens_per_context,
        "max_goldens_per_golden": max_goldens_per_golden,
        "context_construction_config": config,
    }
    try:
        _run(synthesizer, method, variation is GoldenVariation.MULTI_TURN, source, opts)
    except KeyboardInterrupt:
        path = _save(synthesizer, file_type, output_dir, file_name)
        echo(
            f"Interrupted; {'the finished goldens are saved at ' + path if path else 'no golden was finished'}.",
            err=True,
        )
        raise typer.Exit(130) from None
    except (DeepEvalError, ValueError, TypeError) as err:
        echo(f"Error: {err}", err=True)
        raise typer.Exit(1) from None
    path = _save(synthesizer, file_type, output_dir, file_name)
    if path is None:
        echo("Error: no golden was generated.", err=True)
        raise typer.Exit(1)
    echo(f"Synthetic goldens saved at {path}!")
