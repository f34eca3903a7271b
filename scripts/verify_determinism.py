"""Verify that the full ORML and BVP notebooks give the same tables under several
OpenBLAS kernels (a verification script: not a test, not a CI step).

Each notebook is run once per kernel, with ``OPENBLAS_CORETYPE`` set for that run
only, into ``build/determinism/<kernel>/<paper>/``. Every CSV the runs write is
then compared with the first kernel's: text cells must be equal, numbers equal
after rounding to ``--decimals`` (the precision the README and ``reproduction.csv``
report). The cost ledger (``cost.csv``: times, memory, the machine) is a measurement
of the run, not a result, and is left out. The verdict is written to
``figures/DETERMINISM.md``.

    python scripts/verify_determinism.py [--kernels SkylakeX Haswell Sandybridge]
                                         [--papers bvp orml] [--decimals 3] [--reuse]

``--reuse`` keeps the runs already in ``build/determinism`` (rerun a paper by
deleting its folders after changing its code).
"""

import argparse
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]


def run(paper, kernel, out):
    """Run one paper's full notebook with ``OPENBLAS_CORETYPE=kernel``."""
    env = {**os.environ, "OPENBLAS_CORETYPE": kernel}
    folder = out / kernel / paper
    subprocess.run(
        [sys.executable, "-m", "dimred.compendium.notebooks", paper, str(folder),
         "--executed", str(out / kernel / f"{paper}.ipynb")],
        check=True, env=env, cwd=ROOT,
    )  # fmt: skip


def kernel_in_use(kernel):
    """The OpenBLAS core type a process started with ``OPENBLAS_CORETYPE=kernel`` uses."""
    code = "import numpy, threadpoolctl; print(threadpoolctl.threadpool_info()[0]['architecture'])"
    env = {**os.environ, "OPENBLAS_CORETYPE": kernel}
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    return result.stdout.strip()


def differences(reference, other, decimals):
    """Cells of two tables that differ after rounding numbers to ``decimals``."""
    if reference.shape != other.shape or list(reference.columns) != list(other.columns):
        return [f"shape {reference.shape} vs {other.shape}"]
    found = []
    for column in reference.columns:
        a, b = reference[column], other[column]
        if pd.api.types.is_numeric_dtype(a) and pd.api.types.is_numeric_dtype(b):
            a, b = a.to_numpy(float), b.to_numpy(float)
            same = np.isclose(np.round(a, decimals), np.round(b, decimals), rtol=0, atol=0)
            same |= np.isnan(a) & np.isnan(b)
            if not same.all():
                gap = np.nanmax(np.abs(a - b))
                found.append(f"{column}: {(~same).sum()} cells, max |diff| {gap:.3g}")
        elif not a.astype(str).equals(b.astype(str)):
            found.append(f"{column}: {(a.astype(str) != b.astype(str)).sum()} cells differ")
    return found


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kernels", nargs="+", default=["SkylakeX", "Haswell", "Sandybridge"])
    parser.add_argument("--papers", nargs="+", default=["bvp", "orml"])
    parser.add_argument("--decimals", type=int, default=3)
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "determinism")
    parser.add_argument("--reuse", action="store_true", help="keep runs already made")
    args = parser.parse_args(argv)
    used = {kernel: kernel_in_use(kernel) for kernel in args.kernels}
    for kernel in args.kernels:
        for paper in args.papers:
            if not (args.reuse and (args.out / kernel / paper / "reproduction.csv").exists()):
                run(paper, kernel, args.out)
    reference = args.kernels[0]
    lines = [
        "# Same numbers under different OpenBLAS kernels",
        "",
        f"`python scripts/verify_determinism.py` ran the full notebooks {', '.join(args.papers)} "
        f"once per OpenBLAS kernel and compared every table with the {reference} run, numbers "
        f"rounded to {args.decimals} decimals.",
        "",
        "| kernel (requested → used) | paper | tables | differing tables |",
        "| --- | --- | --- | --- |",
    ]
    details, failed = [], False
    for kernel in args.kernels:
        for paper in args.papers:
            tables = sorted(
                csv for csv in (args.out / reference / paper).glob("*.csv") if csv.stem != "cost"
            )
            differing = []
            for csv in tables:
                found = differences(
                    pd.read_csv(csv), pd.read_csv(args.out / kernel / paper / csv.name),
                    args.decimals,
                )  # fmt: skip
                if found:
                    differing.append(csv.name)
                    details += [f"- {kernel}, {paper}/{csv.name}: " + "; ".join(found)]
            failed |= bool(differing)
            lines.append(
                f"| {kernel} → {used[kernel]} | {paper} | {len(tables)} | "
                f"{', '.join(differing) or 'none'} |"
            )
    lines += ["", *(details or ["Every table is identical at that precision."]), ""]
    (ROOT / "figures" / "DETERMINISM.md").write_text("\n".join(lines))
    print("\n".join(lines))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
