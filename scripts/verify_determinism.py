"""Verify that full notebooks give the same tables under several OpenBLAS kernels, or
as committed (a verification script: not a test, not a CI step).

Each notebook is run once per kernel, with ``OPENBLAS_CORETYPE`` set for that run
only, into ``build/determinism/<kernel>/<paper>/``. Every CSV the runs write is
then compared with the first kernel's: text cells must be equal, numbers equal
after rounding to ``--decimals`` (the precision the tables and ``reproduction.csv``
report). The cost ledger (``cost.csv``, ``tasks.csv``: times, memory, the machine) is a measurement
of the run, not a result, and is left out. The verdict is written to
``figures/DETERMINISM.md``.

    python scripts/verify_determinism.py [--kernels SkylakeX Haswell Sandybridge]
                                         [--papers bvp orml] [--decimals 3] [--reuse]
                                         [--against-committed] [--reference REV]
                                         [--report PATH]

``--report PATH`` writes the verdict there instead (a paper verified on its own, without
replacing the verdict of the others).

``--reuse`` keeps the runs already in ``build/determinism`` (rerun a paper by
deleting its folders after changing its code). The kernel ``default`` leaves
``OPENBLAS_CORETYPE`` unset (the machine's own choice).

``--against-committed`` compares each run with the committed tables in
``figures/<paper>/`` instead of the first kernel's run: the same code on another
machine (its CPU, NumPy's SIMD paths, the BLAS kernel) against the run that made
them. Only the tables the notebook writes are compared (``make bench``'s are not the
notebook's), ``findings.csv`` on the findings both have, and the verdict goes to
``figures/DETERMINISM_COMMITTED.md`` with both runs' machines (from their ``cost.csv``).
Columns that are measurements of the run (wall times) differ by nature and are
listed like any other difference.

``--reference REV`` runs nothing: it compares the tables in the working tree's
``figures/<paper>/`` (a ``make figures`` on this machine made them) with those at the git
revision ``REV`` (made on the machine its ``cost.csv`` names), in the same way, and
writes the verdict to ``--report`` (default ``figures/DETERMINISM_MACHINES.md``).
"""

import argparse
import io
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from compendium.ledger import LEDGER_TABLES

ROOT = Path(__file__).resolve().parents[1]


def kernel_env(kernel):
    """The environment of a run with ``OPENBLAS_CORETYPE=kernel`` (unset for ``default``)."""
    env = {key: value for key, value in os.environ.items() if key != "OPENBLAS_CORETYPE"}
    return env if kernel == "default" else {**env, "OPENBLAS_CORETYPE": kernel}


def run(paper, kernel, out):
    """Run one paper's full notebook with ``OPENBLAS_CORETYPE=kernel``."""
    env = kernel_env(kernel)
    folder = out / kernel / paper
    subprocess.run(
        [sys.executable, "-m", "compendium.notebooks", paper, str(folder),
         "--executed", str(out / kernel / f"{paper}.ipynb")],
        check=True, env=env, cwd=ROOT,
    )  # fmt: skip


def kernel_in_use(kernel):
    """The OpenBLAS core type a process started with ``OPENBLAS_CORETYPE=kernel`` uses."""
    code = "import numpy, threadpoolctl; print(threadpoolctl.threadpool_info()[0]['architecture'])"
    env = kernel_env(kernel)
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
        else:  # text: a cell missing in both is the same cell
            differ = (a.astype(str) != b.astype(str)) & ~(a.isna() & b.isna())
            if differ.any():
                found.append(f"{column}: {differ.sum()} cells differ")
    return found


def aligned(reference, other):
    """The two tables to compare: ``findings.csv`` on the findings both have, in the
    reference's order (a notebook's run has none of ``make bench``'s), others as read."""
    if "finding" in reference.columns and "finding" in other.columns:
        common = reference["finding"].isin(other["finding"])
        reference = reference[common].reset_index(drop=True)
        other = other.set_index("finding").loc[reference["finding"]].reset_index()
    return reference, other


def compare(reference_folder, run_folder, decimals):
    """The run's tables (its CSVs but the ledger's, ``cost.csv`` and ``tasks.csv``) against
    the reference's, and the differences of those that differ: ``(n_tables, {name:
    [difference, ...]})``."""
    tables = sorted(csv for csv in run_folder.glob("*.csv") if csv.stem not in LEDGER_TABLES)
    found = {}
    for csv in tables:
        reference, other = aligned(pd.read_csv(reference_folder / csv.name), pd.read_csv(csv))
        differing = differences(reference, other, decimals)
        if differing:
            found[csv.name] = differing
    return len(tables), found


def machine_of(folder):
    """The machine a run's ledger names (``cost.csv``)."""
    return pd.read_csv(folder / "cost.csv")["machine"].iloc[0]


def extract_figures(revision, papers, into, root=ROOT):
    """The ``figures/<paper>/`` folders of the git revision ``revision``, written under
    ``into``; returns ``into / "figures"``."""
    archive = subprocess.run(
        ["git", "archive", revision, *(f"figures/{paper}" for paper in papers)],
        check=True, capture_output=True, cwd=root,
    ).stdout  # fmt: skip
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return Path(into) / "figures"


def against_revision(revision, papers, decimals, root=ROOT):
    """The report lines comparing the working tree's ``figures/<paper>/`` with those at
    ``revision``, and whether any table differs."""
    lines = [
        "# The committed tables against a full run on this machine",
        "",
        f"`python scripts/verify_determinism.py --reference {revision}` compared every table "
        f"in `figures/<paper>/` ({', '.join(papers)}; written by `make figures` here) with "
        f"the same table at `{revision}`, numbers rounded to {decimals} decimals "
        "(`findings.csv` on the findings both have).",
        "",
    ]
    rows, details = [], []
    with tempfile.TemporaryDirectory() as tmp:
        reference = extract_figures(revision, papers, tmp, root)
        for paper in papers:
            run_folder = root / "figures" / paper
            lines += [
                f"- {paper}, at {revision}: {machine_of(reference / paper)}",
                f"- {paper}, this run: {machine_of(run_folder)}",
            ]
            n_tables, found = compare(reference / paper, run_folder, decimals)
            details += [f"- {paper}/{name}: " + "; ".join(d) for name, d in found.items()]
            rows.append(f"| {paper} | {n_tables} | {', '.join(found) or 'none'} |")
    lines += ["", "| paper | tables | differing tables |", "| --- | --- | --- |", *rows]
    return with_details(lines, details), bool(details)


def with_details(lines, details):
    """The report's lines, then each difference (or that there is none)."""
    return [*lines, "", *(details or ["Every table is identical at that precision."]), ""]


def write_report(lines, path):
    """Write the report to ``path`` and print it."""
    path.write_text("\n".join(lines))
    print("\n".join(lines))


def header(args, used):
    """The report's title and the sentence saying what was compared."""
    papers, rounding = ", ".join(args.papers), f"numbers rounded to {args.decimals} decimals"
    if not args.against_committed:
        return [
            "# Same numbers under different OpenBLAS kernels",
            "",
            f"`python scripts/verify_determinism.py` ran the full notebooks {papers} once per "
            f"OpenBLAS kernel and compared every table with the {args.kernels[0]} run, "
            f"{rounding}.",
        ]
    lines = [
        "# The committed tables on another machine",
        "",
        f"`python scripts/verify_determinism.py --against-committed` ran the full notebooks "
        f"{papers} and compared every table they write with the committed one in "
        f"`figures/<paper>/`, {rounding} (`findings.csv` on the findings both have).",
        "",
    ]
    for paper in args.papers:
        lines.append(f"- {paper}, committed run: {machine_of(ROOT / 'figures' / paper)}")
        for kernel in args.kernels:
            lines.append(
                f"- {paper}, this run (kernel {kernel} → {used[kernel]}): "
                f"{machine_of(args.out / kernel / paper)}"
            )
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kernels", nargs="+", default=["SkylakeX", "Haswell", "Sandybridge"])
    parser.add_argument("--papers", nargs="+", default=["bvp", "orml"])
    parser.add_argument("--decimals", type=int, default=3)
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "determinism")
    parser.add_argument("--reuse", action="store_true", help="keep runs already made")
    parser.add_argument(
        "--against-committed", action="store_true", help="compare with figures/<paper>/"
    )
    parser.add_argument(
        "--reference", metavar="REV", help="run nothing: figures/ against git revision REV"
    )
    parser.add_argument(
        "--report", type=Path, help="where the verdict goes (default: figures/DETERMINISM*.md)"
    )
    args = parser.parse_args(argv)
    if args.reference:
        lines, differ = against_revision(args.reference, args.papers, args.decimals)
        write_report(lines, args.report or ROOT / "figures" / "DETERMINISM_MACHINES.md")
        return int(differ)
    used = {kernel: kernel_in_use(kernel) for kernel in args.kernels}
    for kernel in args.kernels:
        for paper in args.papers:
            if not (args.reuse and (args.out / kernel / paper / "reproduction.csv").exists()):
                run(paper, kernel, args.out)
    lines = header(args, used) + [
        "",
        "| kernel (requested → used) | paper | tables | differing tables |",
        "| --- | --- | --- | --- |",
    ]
    details = []
    for kernel in args.kernels:
        for paper in args.papers:
            reference = (
                ROOT / "figures" / paper
                if args.against_committed
                else args.out / args.kernels[0] / paper
            )
            n_tables, found = compare(reference, args.out / kernel / paper, args.decimals)
            details += [f"- {kernel}, {paper}/{name}: " + "; ".join(d) for name, d in found.items()]
            lines.append(
                f"| {kernel} → {used[kernel]} | {paper} | {n_tables} | "
                f"{', '.join(found) or 'none'} |"
            )
    name = "DETERMINISM_COMMITTED.md" if args.against_committed else "DETERMINISM.md"
    write_report(with_details(lines, details), args.report or ROOT / "figures" / name)
    return 1 if details else 0


if __name__ == "__main__":
    sys.exit(main())
