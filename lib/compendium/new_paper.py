"""Start a new paper from ``templates/paper/`` (see ``CONTRIBUTING.md``).

``python -m compendium.new_paper NAME "Title"`` writes

* ``lib/papers/NAME/`` (``__init__.py``, ``params.py``, ``table1.py``, ``plots.py``),
* ``notebooks/NAME.py`` and its paired ``notebooks/NAME.ipynb``,
* ``data/published/NAME/`` (``claims.csv`` and an example transcribed table),

each a working example to replace, and lists the steps left to do by hand.
"""

import argparse
import re
import shutil
from pathlib import Path

from . import paths

__all__ = ["create", "main"]

#: Steps the script leaves to the author.
NEXT_STEPS = """\
Next steps (CONTRIBUTING.md, "Adding a paper"):
  1. read the paper in full and add its full reference (DOI or canonical URL) to
     data/papers.toml as a [papers.{name}] table: the one list of papers, which the
     Makefile (`make {name}`), the tooling and the tests read; transcribe every
     published number into data/published/{name}/ (first column a unique key) and every
     claim into claims.csv;
  2. register the datasets in data/registry.toml (templates/paper/registry-entry.toml),
     naming the paper in each dataset's `papers`
     and write their loaders in lib/dimred/datasets/;
  3. put the methods in lib/dimred/<family>/ as estimators, export them from dimred;
  4. replace the example step of lib/papers/{name}/table1.py, one module per table or
     figure group;
  5. pin the lib/ files its run depends on:
     python -m compendium.depends --list > tests/paper_dependencies.txt;
  6. `make sync`, `make test`, `make {name}`; add its rows to the book's guide (docs/reading.md)
     and a findings section to docs/findings.md, with the block
     (<!-- findings:{name}:begin --> / <!-- findings:{name}:end -->) that `make figures` fills."""


def create(name, title, root=None):
    """Copy the template for paper ``name``; return the files written.

    Raises
    ------
    ValueError
        If ``name`` is not a lower-case Python identifier.
    FileExistsError
        If any of the target files exists.
    """
    if not re.fullmatch(r"[a-z][a-z0-9_]*", name):
        raise ValueError(f"paper name {name!r} must be a lower-case Python identifier.")
    root = Path(root or paths.ROOT)
    template = paths.ROOT / "templates" / "paper"
    package = root / "lib" / "papers" / name
    modules = ("__init__.py", "params.py", "table1.py", "plots.py")
    targets = {template / f: package / f for f in modules}
    targets[template / "notebook.py"] = root / "notebooks" / f"{name}.py"
    for csv in sorted((template / "published").glob("*.csv")):
        targets[csv] = root / "data" / "published" / name / csv.name
    existing = [str(target) for target in targets.values() if target.exists()]
    if existing or (root / "notebooks" / f"{name}.ipynb").exists():
        raise FileExistsError(f"paper {name!r} exists already: {existing}")
    for origin, target in targets.items():
        target.parent.mkdir(parents=True, exist_ok=True)
        text = origin.read_text().replace("PAPER_NAME", name).replace("PAPER_TITLE", title)
        target.write_text(text)
    notebook = root / "notebooks" / f"{name}.ipynb"
    _pair(root / "notebooks" / f"{name}.py", notebook)
    return [*targets.values(), notebook]


def _pair(script, notebook):
    """Write the ``.ipynb`` twin of a jupytext percent script."""
    import jupytext

    jupytext.write(jupytext.read(script), notebook)
    shutil.copymode(script, notebook)


def main(argv=None):
    """``python -m compendium.new_paper NAME TITLE``."""
    parser = argparse.ArgumentParser(prog="python -m compendium.new_paper")
    parser.add_argument("name", help="folder name of the paper, e.g. relevance_learning")
    parser.add_argument("title", help="short title, e.g. 'Relevance learning for DR'")
    args = parser.parse_args(argv)
    for path in create(args.name, args.title):
        print(f"wrote {path}")
    print(NEXT_STEPS.format(name=args.name))


if __name__ == "__main__":
    main()
