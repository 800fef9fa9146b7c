"""Recent runs, kept for ``deepeval view``: JSON exports in ``.deepeval/runs/`` under the current folder (as
deepeval keeps ``.deepeval/.latest_test_run.json``), the newest :data:`KEEP_RUNS`; and how ``deepeval view RUN``
finds a run's files.

A run is kept when its results are printed or exported (``evaluate()``, ``deepeval evaluate``, ``deepeval test
run``, ``deepeval quickstart``); keeping it is best effort: a folder that cannot be written (a stray
``.deepeval`` file, a read-only folder) leaves the run as it is and says nothing, the run itself never fails for
it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from deepeval import _json
from deepeval._files import user_path
from deepeval.evaluate.results import EvaluationResult

LATEST_DIR = ".deepeval"
RUNS_DIR = Path(LATEST_DIR) / "runs"
LATEST_HTML = "latest_run.html"
#: runs kept in ``.deepeval/runs/`` (older ones are removed when a new one is kept)
KEEP_RUNS = 20


def kept_runs() -> list[Path]:
    """The kept runs, oldest first."""
    try:
        files = [p for p in RUNS_DIR.glob("*.json") if p.is_file()]
    except OSError:
        return []
    return sorted(files, key=lambda p: (p.stat().st_mtime_ns, p.name))


def keep_latest(result: EvaluationResult) -> Path | None:
    """Keep ``result`` in ``.deepeval/runs/`` as the latest run (``result.extras["latest_path"]`` set); remove
    runs beyond :data:`KEEP_RUNS`; return the path, or None when it could not be written (nothing raised)."""
    from deepeval.evaluate.report import run_file_stem, save_json

    if not result.run_id:
        import uuid

        result.run_id = uuid.uuid4().hex
    try:
        saved = save_json(result, RUNS_DIR / f"{run_file_stem(result)}.json")
        for old in kept_runs()[:-KEEP_RUNS]:
            old.unlink(missing_ok=True)
    except Exception:  # best effort: never lose a measured run to this copy
        return None
    result.extras["latest_path"] = str(saved.resolve())
    return saved


class RunNotFound(ValueError):
    """``deepeval view RUN`` found no run (the message says where it looked)."""


def _export_dirs() -> list[Path]:
    """Folders that hold run exports: ``DEEPEVAL_RESULTS_FOLDER`` and the folder of the latest run's export."""
    from deepeval.config import get_settings

    dirs: list[Path] = []
    folder = get_settings().get("DEEPEVAL_RESULTS_FOLDER")
    if folder:
        dirs.append(user_path(folder))
    runs = kept_runs()
    if runs:
        exported = _extras(runs[-1]).get("json_path")
        if isinstance(exported, str):
            dirs.append(Path(exported).parent)
    dirs.append(RUNS_DIR)
    return [d for d in dict.fromkeys(dirs) if d.is_dir()]


def _extras(path: Path) -> dict[str, Any]:
    try:
        data = _json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    extras = data.get("extras") if isinstance(data, dict) else None
    return extras if isinstance(extras, dict) else {}


def _newest(paths: list[Path]) -> Path | None:
    files = [p for p in paths if p.is_file()]
    return max(files, key=lambda p: p.stat().st_mtime) if files else None


def find_run(run: str | None) -> tuple[Path | None, Path | None]:
    """``(json export, html report)`` of ``run`` (either may be None, not both): the latest run when ``run`` is
    None; else a ``.json`` or ``.html`` file of a run (the other one beside it, same name), a folder (its newest
    export), or a run id prefix / identifier found in a file name in ``DEEPEVAL_RESULTS_FOLDER`` or the latest
    run's export folder.

    Raises:
        RunNotFound: nothing matches (the message says what was searched).
    """
    if run is None:
        runs = kept_runs()
        if not runs:
            raise RunNotFound(
                f"no run kept in {RUNS_DIR} yet (a run is kept there when evaluate() prints or exports its "
                "results, and by deepeval evaluate / test run / quickstart); or give a run export: deepeval view "
                "RUN.json"
            )
        return _pair(runs[-1])
    path = user_path(run)
    if path.is_dir():
        found = _newest(list(path.glob("*.json")))
        if found is None:
            raise RunNotFound(f"{path}: no run export (*.json) in this folder")
        return _pair(found)
    if path.is_file():
        return _pair(path)
    matches = [p for d in _export_dirs() for p in d.glob("*.json") if run in p.name]
    found = _newest(matches)
    if found is None:
        where = ", ".join(str(d) for d in _export_dirs()) or "no export folder known"
        raise RunNotFound(
            f"{run}: no such file, and no run export whose name holds it (searched: {where}; set "
            "DEEPEVAL_RESULTS_FOLDER or give the file)"
        )
    return _pair(found)


def _pair(path: Path) -> tuple[Path | None, Path | None]:
    """A run's JSON and HTML from either one (same stem, same folder)."""
    if path.suffix.lower() == ".html":
        other = path.with_suffix(".json")
        return (other if other.is_file() else None), path
    other = path.with_suffix(".html")
    if not other.is_file():
        html = _extras(path).get("html_path")
        other = Path(html) if isinstance(html, str) else other
    return path, (other if other.is_file() else None)


def load_run(path: Path) -> EvaluationResult:
    """The run in a JSON export.

    Raises:
        RunNotFound: the file cannot be read or is not a run export.
    """
    try:
        data = _json.loads(path.read_text("utf-8"))
        return EvaluationResult.from_dict(data)
    except (OSError, ValueError) as err:
        raise RunNotFound(f"{path}: not a readable run export ({err})") from None


def html_for(json_path: Path) -> Path:
    """An HTML report of the run in ``json_path``, rendered next to the latest run (``.deepeval/latest_run.html``)
    for a run exported as JSON only."""
    from deepeval.evaluate.report import save_html

    return save_html(load_run(json_path), Path(LATEST_DIR) / LATEST_HTML)


def open_in_browser(path: Path) -> bool:
    """Open ``path`` in the default browser; False when there is none (a server, a container, SSH)."""
    import webbrowser

    try:
        return bool(webbrowser.open(path.resolve().as_uri()))
    except (webbrowser.Error, OSError):
        return False


__all__ = [
    "LATEST_DIR",
    "RunNotFound",
    "find_run",
    "html_for",
    "keep_latest",
    "kept_runs",
    "load_run",
    "open_in_browser",
]
