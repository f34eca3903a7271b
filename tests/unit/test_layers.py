"""The three layers of ``lib/`` import only downward.

``dimred`` (the methods library) knows no paper and no build: it imports nothing of
``papers`` or ``compendium``. ``compendium`` (the schema every paper writes and the build
tooling) knows the papers only through the list in ``data/papers.toml``: it imports
nothing of ``papers``. ``papers`` imports the library and the compendium's schema, never
its tooling (running and publishing notebooks, the book, the stamps, JupyterLab, the run
history). Every import statement counts, at a module's top level or inside a function.
"""

import ast
from pathlib import Path

import pytest

from compendium import paths

LIB = paths.ROOT / "lib"

#: What each layer may not import: top-level packages, or ``compendium`` modules.
FORBIDDEN = {
    "dimred": ("papers", "compendium"),
    "compendium": ("papers",),
    "papers": tuple(
        f"compendium.{name}"
        for name in (
            "attribution",
            "book",
            "cells",
            "depends",
            "lab",
            "new_paper",
            "notebooks",
            "papers",
            "run_history",
        )
    ),
}


def imported_modules(path: Path, package: str):
    """For each import statement of ``path``, the absolute names it may import.

    ``from a.b import c`` may import ``a.b`` or ``a.b.c``; relative imports are resolved,
    and one reaching above ``package`` is named ``<above its package>``.
    """
    tree = ast.parse(path.read_text(), filename=str(path))
    parts = path.relative_to(LIB).with_suffix("").parts
    here = parts[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - node.level + 1]
                if len(base) < 1 or base[0] != package:
                    yield ["<above its package>"]
                    continue
                module = ".".join(base + ((node.module,) if node.module else ()))
            else:
                module = node.module
            yield [module] + [f"{module}.{alias.name}" for alias in node.names]


def offences(package: str):
    for path in sorted((LIB / package).rglob("*.py")):
        for names in imported_modules(path, package):
            bad = [name for name in names if _banned(name, package)]
            if bad:
                yield f"{path.relative_to(paths.ROOT)} imports {bad[0]}"


def _banned(name, package):
    return name == "<above its package>" or any(
        name == banned or name.startswith(banned + ".") for banned in FORBIDDEN[package]
    )


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_each_layer_imports_only_downward(package):
    assert list(offences(package)) == []


def test_the_check_sees_upward_imports(tmp_path, monkeypatch):
    """An upward import, absolute, relative or inside a function, is an offence."""
    root = tmp_path / "lib"
    (root / "dimred" / "sub").mkdir(parents=True)
    (root / "dimred" / "sub" / "a.py").write_text(
        "from ...papers import x\n\ndef f():\n    import compendium.paths\n"
    )
    (root / "papers").mkdir()
    (root / "papers" / "b.py").write_text("from compendium.notebooks import run\n")
    (root / "papers" / "c.py").write_text("from compendium import reporting\n")
    monkeypatch.setattr(__import__(__name__), "LIB", root)
    monkeypatch.setattr(paths, "ROOT", tmp_path)
    assert list(offences("dimred")) == [
        "lib/dimred/sub/a.py imports <above its package>",
        "lib/dimred/sub/a.py imports compendium.paths",
    ]
    assert list(offences("papers")) == ["lib/papers/b.py imports compendium.notebooks"]


def test_one_list_of_papers():
    """The Makefile, the tooling and the ``papers`` package read ``data/papers.toml``."""
    import papers
    from compendium import depends

    keys = paths.paper_keys()
    assert papers.PAPERS == keys == depends.papers()
    packages = {path.parent.name for path in (LIB / "papers").glob("*/__init__.py")}
    assert set(keys) == packages
