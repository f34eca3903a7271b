"""Command line of the data layer (used by ``make data``)::

    python -m dimred.datasets fetch  [DATASET ...]     # fetch and verify into the cache
    python -m dimred.datasets verify [DATASET ...]     # check the cache, fetch nothing
    python -m dimred.datasets list   [DATASET ...]     # cached?, size, papers, licence
    python -m dimred.datasets add DATASET PATH [PATH ...]  # copy in files you have

Without DATASET, ``fetch`` and ``verify`` cover the datasets not marked ``optional`` in
the registry (AwA2: a 301 MB download, not mirrored); name an optional one to include it.
Like make, the command uses ``../shared/data`` as the mirror when ``DIMRED_DATA_MIRROR``
is unset (:func:`~dimred.datasets.locations.adopt_shared_mirror`). ``fetch`` first probes
every source of every file at once (:func:`~dimred.datasets.probe_sources`), so that
without network it fails within seconds, with one message saying what is missing and
how to get it (:func:`~dimred.datasets.sources.explain_missing`).
"""

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from tqdm import tqdm

from .adding import add_copies
from .fetching import fetch, verify_cache
from .locations import adopt_shared_mirror, cache_dir, mirror_dir
from .probing import probe_sources
from .registry import (
    DataError,
    Dataset,
    Registry,
    load_registry,
)
from .sources import explain_missing

__all__ = ["main", "show_warning"]


def _cli_fetch(registry: Registry, datasets: list[str]) -> int:
    """Fetch every file that has a source, reporting failures instead of stopping."""
    probes = probe_sources(datasets, registry)
    missing = [probe for probe in probes.values() if not probe.ok]
    entries = [entry for entry in registry.files(datasets) if probes[entry.name].ok]
    failures = []
    for entry in tqdm(entries, desc="fetch", unit="file", disable=not entries):
        try:
            fetch(entry.dataset, entry.path, registry)
        except DataError as exc:
            failures.append(str(exc))
    for message in failures:
        print(f"FAILED {message}", file=sys.stderr)
    print(f"{len(entries) - len(failures)} files ok, {len(failures) + len(missing)} failed")
    if missing:
        headline = f"{len(missing)} of the {len(probes)} files can be obtained from no source."
        print(explain_missing(missing, headline), file=sys.stderr)
    return 1 if failures or missing else 0


def _cli_verify(registry: Registry, datasets: list[str]) -> int:
    """Report the state of the cache."""
    status = verify_cache(datasets, registry)
    for name, state in status.items():
        if state in ("ok", "missing"):
            print(f"{state:>8}  {name}")
        else:
            flag = "UNVERIFIED" if state.startswith("unverified") else "CORRUPT"
            print(f"{flag}  {name}: {state}")
    bad = sum(state != "ok" for state in status.values())
    print(f"{len(status) - bad} files ok, {bad} missing or corrupt (cache: {cache_dir()})")
    return 1 if bad else 0


def _size(n_bytes: int) -> str:
    """``n_bytes`` in kB, MB or GB (powers of 1000), one decimal."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n_bytes >= scale:
            return f"{n_bytes / scale:.1f} {unit}"
    return f"{n_bytes} B"


def _list_row(dataset: Dataset) -> tuple[str, ...]:
    """``dataset``'s row of ``list``: what is cached is seen from the files' presence."""
    cached = [cache_dir() / dataset.name / entry.path for entry in dataset.files]
    present = [path for path in cached if path.is_file()]
    if len(present) == len(cached):
        state, size = "yes", _size(sum(path.stat().st_size for path in present))
    else:
        state = f"partial ({len(present)}/{len(cached)})" if present else "no"
        size = "?" if dataset.size is None else f"~{_size(dataset.size)}"
    name = f"{dataset.name} (optional)" if dataset.optional else dataset.name
    papers = ", ".join(dataset.papers) or "-"
    return name, str(len(dataset.files)), size, state, papers, " ".join(dataset.license.split())


def _cli_list(registry: Registry, datasets: list[str]) -> int:
    """Print one row per dataset, then where the cache and the mirror are."""
    rows = [("dataset", "files", "size", "cached", "papers", "licence")]
    rows += [_list_row(registry[name]) for name in datasets]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    for row in rows:  # the licence, last, is not padded
        cells = [
            cell.rjust(w) if i == 1 else cell.ljust(w)
            for i, (cell, w) in enumerate(zip(row[:-1], widths, strict=True))
        ]
        print("  ".join([*cells, row[-1]]))
    for name in datasets:
        if registry[name].optional:
            reason = " ".join(registry[name].optional_reason.split())
            print(f"optional: {name}: left out of `make data` and `fetch` unless named ({reason})")
    mirror = mirror_dir()
    print(
        f"cache: {cache_dir()}; mirror: {mirror if mirror else 'none (DIMRED_DATA_MIRROR unset)'}"
    )
    return 0


def _cli_add(registry: Registry, dataset: str, paths: list[Path]) -> int:
    """Copy the files of ``dataset`` found in ``paths`` into the cache, verified."""
    results = add_copies(dataset, paths, registry)
    for result in results:
        print(f"{result.status:>9}  {result.name}: {result.detail}")
    ok = sum(result.ok for result in results)
    print(f"{ok} of {len(results)} files of {dataset} are in the cache ({cache_dir() / dataset})")
    return 0 if ok == len(results) else 1


def _parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--registry", type=Path, default=None, help="registry TOML file")
    parser = argparse.ArgumentParser(
        prog="python -m dimred.datasets",
        description="Fetch and verify the raw data of the compendium "
        "(env: DIMRED_DATA_CACHE, DIMRED_DATA_MIRROR).",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    for name, text in (
        ("fetch", "fetch and verify into the cache (default: all but the optional datasets)"),
        ("verify", "check the cache, fetch nothing (default: all but the optional datasets)"),
        ("list", "cached or not, size, papers and licence of each dataset"),
    ):
        sub = commands.add_parser(name, help=text, description=text, parents=[common])
        sub.add_argument("datasets", nargs="*", metavar="DATASET")
    add = commands.add_parser(
        "add",
        parents=[common],
        help="copy files you have (a zip, a folder, files) into the cache, verified",
        description="Copy the files of DATASET found in each PATH (a zip archive such as "
        "AwA2-features.zip, a folder, or the files themselves) into the cache, verified like "
        "a download. Your files are only read.",
    )
    add.add_argument("dataset", metavar="DATASET")
    add.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point: ``python -m dimred.datasets {fetch,verify,list,add}``.

    Examples
    --------
    Not run by the doctests: the rows depend on what the cache holds.

    >>> from dimred.datasets import main  # doctest: +SKIP
    >>> main(["verify", "statlog-heart"])  # doctest: +SKIP
          ok  statlog-heart/heart.dat
          ok  statlog-heart/heart.doc
    2 files ok, 0 missing or corrupt (cache: ...)
    0
    """
    parser = _parser()
    args = parser.parse_args(argv)
    adopt_shared_mirror()
    registry = load_registry(args.registry)
    names = [args.dataset] if args.command == "add" else args.datasets
    try:
        registry.files(names)
    except KeyError as exc:
        parser.error(str(exc.args[0]))
    if args.command == "add":
        missing = [path for path in args.paths if not path.exists()]
        if missing:
            parser.error(f"no such file or folder: {', '.join(map(str, missing))}")
        return _cli_add(registry, args.dataset, args.paths)
    if args.command == "list":
        return _cli_list(registry, names or list(registry))
    datasets = names or registry.required_datasets()
    return (_cli_fetch if args.command == "fetch" else _cli_verify)(registry, datasets)


def show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    """Print ``warning: <message>``: :func:`warnings.showwarning` of the command line.

    Written with :func:`tqdm.tqdm.write`, above the progress bar of ``fetch``.
    """
    tqdm.write(f"warning: {message}", file=sys.stderr if file is None else file)
