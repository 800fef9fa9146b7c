"""Reading a dotenv file against its size: seconds to read files of 5,000 to 40,000 lines with python-dotenv's
``dotenv_values`` and with ours (:func:`deepeval.config.dotenv_read.read_dotenv`, which settings use), side by side in
one run, and each reader's growth ratio from the smallest to the largest file (linear: about 8; quadratic: about 64).

Run from the repo root with the venv active::

    python bench/dotenv_scale.py [--sizes 5000,10000,20000,40000] [--skip-python-dotenv-above 20000]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from dotenv import dotenv_values

from deepeval.config.dotenv_read import read_dotenv


def _write(folder: Path, n: int) -> Path:
    path = folder / f"{n}.env"
    lines = [
        f"KEY_{i}=value number {i}  # note\n" if i % 3 else f"export KEY_{i}='quoted ${{KEY_1}}'\n"
        for i in range(n)
    ]
    path.write_text("".join(lines), encoding="utf-8")
    return path


def _seconds(fn: object, path: Path) -> float:
    t0 = time.perf_counter()
    fn(path)  # type: ignore[operator]
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="5000,10000,20000,40000")
    ap.add_argument("--skip-python-dotenv-above", type=int, default=40_000)
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            path = _write(Path(tmp), n)
            if n == sizes[0]:
                assert read_dotenv(path) == dotenv_values(path)  # the same values
            ours = _seconds(read_dotenv, path)
            theirs = _seconds(dotenv_values, path) if n <= args.skip_python_dotenv_above else None
            rows.append((n, ours, theirs))
            shown = "-" if theirs is None else f"{theirs:8.3f}"
            print(f"{n:>7} lines  ours {ours:7.3f} s  python-dotenv {shown} s", flush=True)
    first, last = rows[0], rows[-1]
    print(
        f"growth {first[0]} -> {last[0]} lines ({last[0] / first[0]:.0f}x): ours {last[1] / first[1]:.1f}x",
        end="",
    )
    if first[2] and last[2]:
        print(f", python-dotenv {last[2] / first[2]:.1f}x")
    else:
        print()


if __name__ == "__main__":
    main()
