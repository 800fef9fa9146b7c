"""Which public names of deepeval 4.3.1's user-facing modules import on ours, side by side in one run.

For each module below, the names 4.3.1 exposes (``__all__`` where defined, else ``dir()`` less ``_``-names and
submodules) are read in 4.3.1's scratch virtualenv (:func:`bench.harness.deepeval_python`), then each is looked up
on ours (``from MODULE import NAME``) in this interpreter. Prints a table per module and the names still missing.

Usage::

    python bench/public_names.py [--json out.json] [--missing]
"""

from __future__ import annotations

import argparse
import importlib
import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.harness import OUR_SRC, deepeval_python

MODULES = (
    "deepeval",
    "deepeval.metrics",
    "deepeval.models",
    "deepeval.test_case",
    "deepeval.dataset",
    "deepeval.evaluate",
    "deepeval.tracing",
    "deepeval.synthesizer",
    "deepeval.synthesizer.config",
    "deepeval.errors",
    "deepeval.metrics.dag",
    "deepeval.models.system_one",
)

_LISTER = """
import importlib, json, sys, types
out = {}
for name in sys.argv[1:]:
    try:
        mod = importlib.import_module(name)
    except Exception as err:
        out[name] = {"error": f"{type(err).__name__}: {err}"}
        continue
    names = getattr(mod, "__all__", None)
    if names is None:
        names = [n for n in dir(mod) if not n.startswith("_") and not isinstance(getattr(mod, n, None), types.ModuleType)]
    out[name] = {"names": sorted(set(map(str, names)))}
print(json.dumps(out))
"""


def reference_names() -> dict[str, dict[str, list[str] | str]]:
    py = deepeval_python()
    proc = subprocess.run(
        [str(py), "-c", _LISTER, *MODULES],
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "DEEPEVAL_TELEMETRY_OPT_OUT": "1", "HOME": "/tmp"},
        timeout=600,
    )
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr[-2000:])
    return json.loads(proc.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def ours_has(module: str, name: str) -> bool:
    try:
        mod = importlib.import_module(module)
        getattr(mod, name)
    except Exception:
        return False
    return True


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", help="write the per-module result here")
    ap.add_argument("--missing", action="store_true", help="list every missing name")
    args = ap.parse_args()
    sys.path.insert(0, str(OUR_SRC))
    ref = reference_names()
    rows, total, found, report = [], 0, 0, {}
    for module in MODULES:
        entry = ref[module]
        if "error" in entry:
            rows.append((module, "-", "-", f"4.3.1: {entry['error']}"))
            continue
        names = list(entry["names"])
        have = [n for n in names if ours_has(module, n)]
        missing = sorted(set(names) - set(have))
        total, found = total + len(names), found + len(have)
        report[module] = {"names": len(names), "found": len(have), "missing": missing}
        rows.append(
            (
                module,
                str(len(names)),
                str(len(have)),
                ", ".join(missing[:8]) + (" ..." if len(missing) > 8 else ""),
            )
        )
    print("| module | 4.3.1 names | on ours | missing (first 8) |\n|---|---|---|---|")
    for r in rows:
        print("| " + " | ".join(r) + " |")
    print(
        f"\nall modules: {found} of {total} public names of deepeval 4.3.1 import on ours ({100 * found / max(total, 1):.1f}%)"
    )
    if args.missing:
        for module, r in report.items():
            if r["missing"]:
                print(f"{module}: {', '.join(r['missing'])}")
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
