"""Goldens files written by our Synthesizer read back by deepeval 4.3.1's ``EvaluationDataset`` loaders and by ours
(issue 40).

Takes goldens files a real run wrote (``bench/synth_offline.py``: ``save_as("json")`` per method and the ``deepeval
generate`` JSONL), loads each with our loader, writes the goldens again with ``Synthesizer.save_as`` as JSON, CSV and
JSONL, then reads every file with ``add_goldens_from_<type>_file`` in this venv and in deepeval 4.3.1's
(``bench/.venvs/deepeval-4.3.1``; its CSV loader needs pandas, which that venv lacks: ours is lent to it on
``sys.path``, as the test of the same check does). A file round-trips when ``input``, ``expected_output``, ``context``
and ``source_file`` of every golden come back equal to what was written; the files as the run wrote them are read by
both too (4.3.1 must read what ours reads). One more set, ``awkward``, holds the characters model text brings
(quotes, commas, semicolons, newlines, non-ASCII, a ``|`` inside a context chunk).

    python bench/synth_roundtrip.py /tmp/synth2/t1/*.json /tmp/synth2/t1/cli.jsonl --out /tmp/synth2/roundtrip
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.harness import deepeval_python, sealed_env  # noqa: E402

FIELDS = ("input", "expected_output", "context", "source_file")
LOADER = textwrap.dedent(
    """
    import json, sys
    sys.path.append(sys.argv[2])
    from deepeval.dataset import EvaluationDataset
    out = {}
    for path in json.load(open(sys.argv[1])):
        ds = EvaluationDataset()
        try:
            getattr(ds, "add_goldens_from_" + path.rsplit(".", 1)[1] + "_file")(path)
            out[path] = [[g.input, g.expected_output, g.context, g.source_file] for g in ds.goldens]
        except Exception as err:
            out[path] = f"{type(err).__name__}: {err}"
    print(json.dumps(out))
    """
)


def awkward_goldens() -> list[Any]:
    """Two goldens with what model text holds: quotes, commas, semicolons, a pipe (the CSV list delimiter of both
    implementations), newlines, non-ASCII, a backslash."""
    from deepeval.dataset import Golden

    text = 'Why did he say "yes", then\nleave; 東京?'
    return [
        Golden(
            input=text,
            expected_output="Because, he said; so.",
            context=["Café, naïve", "tab\there \\"],
            source_file="a.txt",
        ),
        Golden(input="plain", expected_output=text, context=["left | right", "second"], source_file="b.txt"),
    ]


def _rows(goldens: list[Any]) -> list[list[Any]]:
    return [[getattr(g, f) for f in FIELDS] for g in goldens]


def _same(got: Any, want: list[list[Any]]) -> bool:
    """Equal, except that a golden without a context may come back with ``[]``: 4.3.1's CSV loader reads an empty
    context cell as an empty list (ours as None); nothing is lost either way."""
    if not isinstance(got, list) or len(got) != len(want):
        return False
    return all(
        [*g[:2], g[2] or None, g[3]] == [*w[:2], w[2] or None, w[3]] for g, w in zip(got, want, strict=True)
    )


def load_ours(path: Path) -> list[Any]:
    from deepeval.dataset import EvaluationDataset

    ds = EvaluationDataset()
    getattr(ds, f"add_goldens_from_{path.suffix.lstrip('.')}_file")(str(path))
    return list(ds.goldens)


def pandas_overlay(folder: Path) -> Path:
    import pandas

    folder.mkdir(parents=True, exist_ok=True)
    site = Path(pandas.__file__).parents[1]
    for name in ("pandas", "numpy", "numpy.libs", "dateutil", "tzdata", "six.py"):
        if (site / name).exists() and not (folder / name).exists():
            (folder / name).symlink_to(site / name)
    return folder


def load_reference(paths: list[Path], work: Path) -> dict[str, Any]:
    (work / "loader.py").write_text(LOADER, encoding="utf-8")
    (work / "paths.json").write_text(json.dumps([str(p) for p in paths]), encoding="utf-8")
    overlay = pandas_overlay(work / "overlay")
    proc = subprocess.run(
        [
            str(deepeval_python(install=False)),
            str(work / "loader.py"),
            str(work / "paths.json"),
            str(overlay),
        ],
        cwd=work,
        env=sealed_env(work, {}),
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr[-2000:])
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    from deepeval.synthesizer import Synthesizer

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+", type=Path)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    written: dict[Path, list[list[Any]]] = {}
    sets: list[tuple[str, list[Any]]] = [("awkward", awkward_goldens())]
    for source in args.files:
        goldens = load_ours(source)
        written[source] = _rows(goldens)  # the file as the run wrote it: 4.3.1 must read what ours reads
        sets.append((f"{source.stem}_{source.suffix[1:]}", goldens))
    for stem, goldens in sets:
        s = Synthesizer(model=None)
        s.synthetic_goldens = goldens
        for file_type in ("json", "csv", "jsonl"):
            path = Path(s.save_as(file_type, str(args.out), file_name=stem, quiet=True))  # type: ignore[arg-type]
            written[path] = _rows(goldens)
    reference = load_reference(list(written), args.out)
    print("| file | goldens | ours reads it back | 4.3.1 reads it back |")
    print("|---|---|---|---|")
    failures = 0
    for path, want in written.items():
        ours_ok = _rows(load_ours(path)) == want
        theirs = reference[str(path)]
        theirs_ok = _same(theirs, json.loads(json.dumps(want)))
        failures += (not ours_ok) + (not theirs_ok)
        note = "" if theirs_ok or not isinstance(theirs, str) else f" ({theirs[:120]})"
        print(
            f"| {path.name} | {len(want)} | {'yes' if ours_ok else 'NO'} | {'yes' if theirs_ok else 'NO'}{note} |"
        )
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
