"""Which files of ``lib/`` a paper's run depends on: a static import analysis.

``make`` reruns a paper when a file its run depends on changed, not when any file of
``lib/`` did. The run is the runner, ``python -m compendium.notebooks`` (:data:`RUNNER`),
executing the code cells of ``notebooks/<paper>.ipynb``; :func:`paper_dependencies` finds,
from the source alone (:mod:`ast`, nothing imported), the files of ``lib/`` whose change can
alter what the run computes.

The rule
--------
Importing a name executes more code than the name needs: ``from dimred.manifold import
FisherTSNE`` executes ``dimred/__init__.py``, which imports every subpackage, and
``manifold/__init__.py``, which imports every module of ``manifold``. Executing a module
only binds its names (functions, classes, constants) unless its top level does something
else, and a change to a name the run never looks up cannot change what the run computes
(a change that breaks the import breaks the run, and the tests, without changing any table).
So a paper depends on

1. the files that **bind a name the run looks up**, or are searched for it: following
   ``from X import a``, ``X.a`` and ``import X.a as b`` through each package ``__init__``
   the lookup goes through (its file counts: it decides what ``a`` is, even where it leaves
   ``a`` to the submodule of that name) to the module defining ``a``. A module path
   (``from X.Y import a``, ``import X.Y``) searches no ``__init__``: it names a file;
2. the whole of every module **whose definitions it uses** (a module is the unit: a change
   anywhere in it counts), and through each such module, every name its code uses that it
   imports, at its top level or inside a function (lazy imports count). Names are looked
   up scope by scope, as Python does: an import never read (or hidden by a parameter of
   the same name) leads nowhere; a module object used other than as ``module.name``
   (passed along, ``getattr``), or a ``from X import *``, counts all of ``X``'s names;
3. every module the run **executes whose top level has an effect** beyond binding its own
   names (:func:`has_import_effects`: a call statement such as ``matplotlib.use(...)``,
   an assignment to another object's attribute or item, a registering decorator, a loop,
   a ``with``), with what it uses, as in 2. The executed modules are the closure of every
   import statement of the runner, the notebook and each module executed, with every
   parent package.

So ``import dimred`` and ``from dimred import X`` do not make a paper depend on the
whole package: ``dimred/__init__.py`` only binds names (it is in every paper's list as the
file searched for ``datasets`` in ``from ... import datasets``). Not seen: imports by name
(``importlib.import_module``), names read through ``globals()`` or ``eval``, calls inside a
top-level assignment that change global state (``_ = np.seterr(...)``), and class bodies
that do more than define the class; no module a paper runs has any today.

The Makefile runs this module, standard library only, once on every ``make``
(``python -m compendium.depends --stamps build/stamps``): :func:`write_stamps`
keeps in ``build/stamps/<paper>.lib`` the sha256 of each file a paper depends on, for every
paper, and rewrites a stamp only when one of its files changed. The papers share one
:class:`Library`, so each module is parsed and analysed once, not once per paper.
``--list`` prints every paper's files (``tests/paper_dependencies.txt`` holds that list).
"""

import hashlib
import json
import os
import sys
import tomllib
from pathlib import Path

from compendium.parsed_modules import Module, has_import_effects, with_parents

__all__ = [
    "RUNNER",
    "Library",
    "Module",
    "files_run_by",
    "has_import_effects",
    "main",
    "notebook_code",
    "paper_dependencies",
    "papers",
    "write_stamp",
    "write_stamps",
]

#: Repository root (``lib/compendium/depends.py`` -> ``../..``).
ROOT = Path(__file__).resolve().parents[2]

#: The module the Makefile runs (``python -m``) to execute a paper's notebook.
RUNNER = "compendium.notebooks"


class Library:
    """The packages under a ``lib/`` folder, parsed on demand.

    Parameters
    ----------
    folder : str or Path
        The folder holding the top-level packages (``lib/``).
    """

    def __init__(self, folder):
        self.folder = Path(folder)
        self._modules = {}

    def find(self, name):
        """The :class:`Module` called ``name``, or ``None`` when it is not in the library.

        Parameters
        ----------
        name : str
            Dotted module name.

        Returns
        -------
        Module or None
        """
        if name not in self._modules:
            self._modules[name] = self._load(name)
        return self._modules[name]

    def _load(self, name):
        base = self.folder.joinpath(*name.split("."))
        for path, is_package in ((base / "__init__.py", True), (base.with_suffix(".py"), False)):
            if path.is_file():
                return Module(name, path.read_text(encoding="utf-8"), path, is_package)
        return None


class _Walk:
    """The files a run depends on, found from its entry points (the rule of the module)."""

    def __init__(self, library):
        self.library = library
        self.files, self.used, self.resolved = set(), set(), set()

    def use(self, module):
        """``module``'s code can run: it counts, with every imported name its code uses."""
        if module.name in self.used:
            return
        self.used.add(module.name)
        if module.path:
            self.files.add(module.path)
        for key, targets in module.imports.items():
            for chain in module.uses.get(key, ()):
                for target, prefix in targets:
                    self.resolve(target, prefix + chain)
        for star in module.star:
            self.resolve(star, ())

    def use_all(self, module):
        """``module`` used as a whole: its code and every name it imports at its top."""
        self.use(module)
        for targets in module.imported.values():
            for target, prefix in targets:
                self.resolve(target, prefix)

    def resolve(self, name, chain):
        """Look ``chain`` (attribute names) up in module ``name``, as Python would."""
        if (name, chain) in self.resolved:
            return
        self.resolved.add((name, chain))
        module = self.library.find(name)
        if module is None:
            return  # outside the library
        self.files.add(module.path)
        if not chain:
            return self.use_all(module)
        first, rest = chain[0], chain[1:]
        if first in module.defined:
            self.use(module)
        for target, prefix in module.imported.get(first, ()):
            if (target, prefix) == (name, (first,)):  # `from . import first` in the package
                target, prefix = f"{name}.{first}", ()
            self.resolve(target, prefix + rest)
        if first in module.defined or first in module.imported:
            return
        if module.is_package and self.library.find(f"{name}.{first}"):
            return self.resolve(f"{name}.{first}", rest)
        self.use_all(module)  # bound by a star import or at run time: all of it counts


def files_run_by(library, code="", modules=()):
    """The files of ``library`` whose change can alter a run (the rule of the module).

    Parameters
    ----------
    library : Library
    code : str
        Source run as a script (a notebook's code cells: :func:`notebook_code`).
    modules : iterable of str
        Modules run as scripts (``python -m``).

    Returns
    -------
    list of Path
        Sorted.
    """
    walk = _Walk(library)
    script = Module("__main__", code)
    walk.use(script)
    for name in modules:
        walk.resolve(name, ())
    for module in _executed(library, script, modules):
        if has_import_effects(module):
            walk.use(module)
    return sorted(walk.files)


def _executed(library, script, modules):
    """Every module of ``library`` that executing ``script`` and ``modules`` can import."""
    pending = set(script.executes).union(*(with_parents(name) for name in modules))
    done = {}
    while pending:
        name = pending.pop()
        if name in done:
            continue
        done[name] = library.find(name)
        if done[name] is not None:
            pending |= done[name].executes
    return [module for module in done.values() if module is not None]


def notebook_code(notebook):
    """The code cells of ``notebook`` as one script (IPython magics and shell lines left out).

    Parameters
    ----------
    notebook : str or Path
        An ``.ipynb`` file.

    Returns
    -------
    str
    """
    cells = json.loads(Path(notebook).read_text(encoding="utf-8"))["cells"]
    lines = []
    for cell in cells:
        source = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
        if cell["cell_type"] != "code" or source.startswith("%%"):
            continue
        lines += [line for line in source.splitlines() if not line.lstrip().startswith(("%", "!"))]
    return "\n".join(lines) + "\n"


def papers(root=ROOT):
    """The compendium's papers: the tables of ``data/papers.toml``, in file order."""
    return tuple(tomllib.loads((root / "data" / "papers.toml").read_text())["papers"])


def paper_dependencies(paper, root=ROOT, library=None):
    """The files of ``lib/`` a paper's run depends on: its notebook's code run by :data:`RUNNER`.

    Parameters
    ----------
    paper : str
        A paper of ``PAPERS`` (``notebooks/<paper>.ipynb``).
    root : Path
        The repository root.
    library : Library, optional
        ``root``'s ``lib/``, parsed modules kept (shared by several papers); default a
        fresh one.

    Returns
    -------
    list of str
        Paths relative to ``root``, sorted.
    """
    root = Path(root)
    code = notebook_code(root / "notebooks" / f"{paper}.ipynb")
    files = files_run_by(library or Library(root / "lib"), code, [RUNNER])
    return [path.relative_to(root).as_posix() for path in files]


def write_stamp(paper, stamp, root=ROOT, library=None):
    """Write the sha256 of each file ``paper`` depends on to ``stamp``, unless it holds them.

    One ``<sha256>  <path>`` line per file (``sha256sum -c`` reads it). A stamp written for
    the first time is dated to the newest of its files: a paper already built reruns when
    one of them is newer than its run, as when the Makefile compared the files themselves.

    Parameters
    ----------
    paper : str
    stamp : str or Path
    root : Path
        The repository root.
    library : Library, optional
        As :func:`paper_dependencies`.

    Returns
    -------
    bool
        Whether the stamp was written.
    """
    root, stamp = Path(root), Path(stamp)
    files = paper_dependencies(paper, root, library)
    text = "".join(f"{hashlib.sha256((root / f).read_bytes()).hexdigest()}  {f}\n" for f in files)
    existed = stamp.is_file()
    if existed and stamp.read_text() == text:
        return False
    stamp.parent.mkdir(parents=True, exist_ok=True)
    stamp.write_text(text)
    if not existed:
        newest = max(os.stat(root / f).st_mtime for f in files)
        os.utime(stamp, (newest, newest))
    return True


def write_stamps(folder, root=ROOT):
    """:func:`write_stamp` of every paper to ``folder/<paper>.lib``, with one :class:`Library`.

    Parameters
    ----------
    folder : str or Path
    root : Path
        The repository root.

    Returns
    -------
    list of str
        The papers whose stamp was written.
    """
    root = Path(root)
    library = Library(root / "lib")
    stamps = {paper: Path(folder) / f"{paper}.lib" for paper in papers(root)}
    return [paper for paper, stamp in stamps.items() if write_stamp(paper, stamp, root, library)]


def main(argv=None):
    """``python -m compendium.depends --stamps FOLDER`` refreshes every paper's stamp
    (:func:`write_stamps`); ``--list`` prints ``<paper> <file>`` for every file of every
    paper."""
    argv = sys.argv[1:] if argv is None else argv
    if argv == ["--list"]:
        print("# <paper> <file of lib/ its run depends on>, as written by")
        print("# python -m compendium.depends --list")
        library = Library(ROOT / "lib")
        for paper in papers():
            print("\n".join(f"{paper} {path}" for path in paper_dependencies(paper, ROOT, library)))
        return 0
    if len(argv) != 2 or argv[0] != "--stamps":
        raise SystemExit("usage: python -m compendium.depends --stamps FOLDER | --list")
    write_stamps(argv[1])
    return 0


if __name__ == "__main__":
    sys.exit(main())
