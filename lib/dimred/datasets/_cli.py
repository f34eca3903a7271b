"""Command line of the data layer (used by ``make data``)::

    python -m dimred.datasets fetch  [DATASET ...]   # fetch and verify into the cache
    python -m dimred.datasets verify [DATASET ...]   # check the cache, fetch nothing
    python -m dimred.datasets list

Without DATASET, ``fetch`` and ``verify`` cover the datasets not marked ``optional`` in
the registry (AwA2: a 301 MB download, not mirrored); name an optional one to include it.
"""

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from tqdm import tqdm

from ..compendium.paths import cache_dir
from .registry import (
    DataDownloadError,
    DataIntegrityError,
    Registry,
    fetch,
    load_registry,
    verify_cache,
)

__all__ = ["main"]


def _cli_fetch(registry: Registry, datasets: list[str] | None) -> int:
    """Fetch every file, reporting failures instead of stopping at the first."""
    failures = []
    for entry in tqdm(registry.files(datasets), desc="fetch", unit="file"):
        try:
            fetch(entry.dataset, entry.path, registry)
        except (DataIntegrityError, DataDownloadError) as exc:
            failures.append(str(exc))
    for message in failures:
        print(f"FAILED {message}", file=sys.stderr)
    print(f"{len(registry.files(datasets)) - len(failures)} files ok, {len(failures)} failed")
    return 1 if failures else 0


def _cli_verify(registry: Registry, datasets: list[str] | None) -> int:
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


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point: ``python -m dimred.datasets {fetch,verify,list}``."""
    parser = argparse.ArgumentParser(
        prog="python -m dimred.datasets",
        description="Fetch and verify the raw data of the compendium "
        "(env: DIMRED_DATA_CACHE, DIMRED_DATA_MIRROR).",
    )
    parser.add_argument("command", choices=("fetch", "verify", "list"))
    parser.add_argument(
        "datasets", nargs="*", metavar="DATASET", help="default: all but the optional ones"
    )
    parser.add_argument("--registry", type=Path, default=None, help="registry TOML file")
    args = parser.parse_args(argv)
    registry = load_registry(args.registry)
    datasets = args.datasets or None
    try:
        registry.files(datasets)
    except KeyError as exc:
        parser.error(str(exc.args[0]))
    if args.command == "list":
        for name in datasets or registry:
            dataset = registry[name]
            optional = f" [optional: {dataset.optional_reason}]" if dataset.optional else ""
            print(f"{name}: {dataset.title} ({len(dataset.files)} files){optional}")
        return 0
    datasets = datasets or registry.required_datasets()
    if args.command == "fetch":
        return _cli_fetch(registry, datasets)
    return _cli_verify(registry, datasets)
