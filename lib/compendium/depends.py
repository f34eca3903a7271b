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

The Makefile runs this file as a script, standard library only, once on every ``make``
(``python lib/compendium/depends.py --stamps build/stamps``): :func:`write_stamps`
keeps in ``build/stamps/<paper>.lib`` the sha256 of each file a paper depends on, for every
paper, and rewrites a stamp only when one of its files changed. The papers share one
:class:`Library`, so each module is parsed and analysed once, not once per paper.
``--list`` prints every paper's files (``tests/paper_dependencies.txt`` holds that list).
"""

import ast
import hashlib
import json
import os
import sys
import tomllib
from pathlib import Path

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

# Top-level statements that bind names of their own module and do nothing else.
_HARMLESS = (ast.Import, ast.ImportFrom, ast.Pass, ast.Raise, ast.Assert)
# Decorators that only wrap what they decorate (any other may register it somewhere).
_WRAPPERS = frozenset(
    {"dataclass", "cache", "lru_cache", "cached_property", "contextmanager", "total_ordering"}
    | {"wraps", "property", "staticmethod", "classmethod"}
)


class Module:
    """One parsed module of the library: what it binds, imports and reads.

    A name is looked up as Python does, scope by scope (:class:`_Reads`): a function's
    parameter or local variable that shares its name with an import of the module is not
    a use of that import.

    Parameters
    ----------
    name : str
        Dotted name (``"__main__"`` for a script or a notebook).
    source : str
        Python source.
    path : Path, optional
        Its file (``None`` for a notebook's code).
    is_package : bool
        Whether it is a package's ``__init__.py``.
    """

    def __init__(self, name, source, path=None, is_package=False):
        self.name, self.path, self.is_package = name, path, is_package
        self.tree = ast.parse(source, filename=str(path or name))
        reads = _Reads(self.tree)
        #: (scope, name) -> [(module, attribute chain)] for every import; scope ``None``
        #: is the module's, otherwise the function, class or comprehension node.
        self.imports = {}
        #: Modules the import statements execute (with their parent packages).
        self.executes = set()
        #: Modules whose names a ``from X import *`` brings in.
        self.star = []
        for scope, node in reads.imports:
            self._add_import(node, scope)
        #: Module-scope names bound by an import: name -> [(module, attribute chain)].
        self.imported = {name: t for (scope, name), t in self.imports.items() if scope is None}
        #: Module-scope names bound otherwise (def, class, assignment, loop variable).
        self.defined = _bound_names(self.tree.body, imports=False)
        self.defined |= _declared(ast.walk(self.tree), ast.Global)
        #: (scope, name) -> the attribute chains it is read with (``()``: the bare name).
        self.uses = reads.uses

    @property
    def package(self):
        """The package relative imports start from."""
        return self.name if self.is_package else self.name.rpartition(".")[0]

    def _add_import(self, node, scope):
        """Record the bindings and executed modules of one import statement."""
        if isinstance(node, ast.Import):
            for alias in node.names:
                first, *rest = alias.name.split(".")
                target = (first, tuple(rest)) if alias.asname else (first, ())
                self.imports.setdefault((scope, alias.asname or first), []).append(target)
                self.executes |= _with_parents(alias.name)
            return
        module = self._absolute(node)
        self.executes |= _with_parents(module)
        for alias in node.names:
            if alias.name == "*":
                self.star.append(module)
                continue
            target = (module, (alias.name,))
            self.imports.setdefault((scope, alias.asname or alias.name), []).append(target)
            self.executes.add(f"{module}.{alias.name}")

    def _absolute(self, node):
        """The absolute name of the module of ``from ... import``."""
        if not node.level:
            return node.module
        base = self.package.rsplit(".", node.level - 1)[0] if node.level > 1 else self.package
        return f"{base}.{node.module}" if node.module else base


_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_SCOPES = (*_FUNCTIONS, ast.Lambda, ast.ClassDef, *_COMPREHENSIONS)


class _Reads(ast.NodeVisitor):
    """The import statements of a tree and the names it reads, each with its scope.

    Attributes
    ----------
    imports : list of (node or None, ast.Import or ast.ImportFrom)
        Each import with the scope it binds in (``None``: the module).
    uses : dict
        ``(scope, name) -> {attribute chain}``, the scope being the one ``name`` resolves
        to where it is read: ``a.b.c`` adds ``("b", "c")`` to ``a``.
    """

    def __init__(self, tree):
        self.parents = {
            child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)
        }
        self.stack, self.imports, self.uses = [], [], {}
        self.visit(tree)

    def visit_Import(self, node):
        self.imports.append((self.stack[-1][0] if self.stack else None, node))

    visit_ImportFrom = visit_Import

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Load):
            key = (self._scope_of(node.id), node.id)
            self.uses.setdefault(key, set()).add(self._chain(node))

    def visit_scope(self, node):
        """Visit what ``node`` evaluates outside its scope, then its scope."""
        outside, inside = _split_scope(node)
        for child in outside:
            self.visit(child)
        self.stack.append((node, _local_names(node)))
        for child in inside:
            self.visit(child)
        self.stack.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = visit_ClassDef = visit_scope
    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = visit_scope

    def _scope_of(self, name):
        """The innermost scope binding ``name`` (a class's only from its own body)."""
        for depth, (scope, names) in enumerate(reversed(self.stack)):
            if name in names and (depth == 0 or not isinstance(scope, ast.ClassDef)):
                return scope
        return None

    def _chain(self, node):
        """The attributes read after ``node``: ``("b", "c")`` for ``a`` in ``a.b.c``."""
        chain = []
        while isinstance(self.parents.get(node), ast.Attribute):
            node = self.parents[node]
            chain.append(node.attr)
        return tuple(chain)


def _split_scope(node):
    """What a scope node evaluates in the enclosing scope, and what in its own."""
    if isinstance(node, ast.ClassDef):
        return node.decorator_list + node.bases + node.keywords, node.body
    if isinstance(node, _COMPREHENSIONS):
        first, *rest = node.generators
        results = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
        return [first.iter], [first.target, *first.ifs, *rest, *results]
    args = node.args
    outside = args.defaults + [d for d in args.kw_defaults if d is not None]
    if isinstance(node, ast.Lambda):
        return outside, [node.body]
    every = args.posonlyargs + args.args + args.kwonlyargs + [args.vararg, args.kwarg]
    outside += [a.annotation for a in every if a is not None and a.annotation is not None]
    outside += [node.returns] if node.returns is not None else []
    return node.decorator_list + outside, node.body


def _local_names(scope):
    """Names bound in ``scope`` (parameters, assignments, imports, ``def``), not declared
    ``global`` or ``nonlocal``."""
    if isinstance(scope, _COMPREHENSIONS):
        return _bound_names([g.target for g in scope.generators])
    body = scope.body if isinstance(scope.body, list) else [scope.body]
    names = _bound_names(body)
    if not isinstance(scope, ast.ClassDef):
        args = scope.args
        every = args.posonlyargs + args.args + args.kwonlyargs + [args.vararg, args.kwarg]
        names |= {a.arg for a in every if a is not None}
    return names - _declared(_local_nodes(body), (ast.Global, ast.Nonlocal))


def _declared(nodes, kinds):
    """Names that the ``global`` or ``nonlocal`` statements (``kinds``) among ``nodes`` declare."""
    return {name for node in nodes if isinstance(node, kinds) for name in node.names}


def _local_nodes(nodes):
    """The nodes of ``nodes`` and below, not descending into a nested scope (yielded itself)."""
    todo = list(nodes)
    while todo:
        node = todo.pop()
        yield node
        if not isinstance(node, _SCOPES):
            todo.extend(ast.iter_child_nodes(node))


def _bound_names(nodes, imports=True):
    """Names that ``nodes`` bind in their own scope (by an import too, unless told not)."""
    names = set()
    for node in _local_nodes(nodes):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            names.add(node.id)
        elif isinstance(node, (*_FUNCTIONS, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
        elif imports and isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
    return names


def _with_parents(name):
    """``"a.b.c"`` -> ``{"a", "a.b", "a.b.c"}``: importing a module executes its packages."""
    parts = name.split(".")
    return {".".join(parts[:end]) for end in range(1, len(parts) + 1)}


def has_import_effects(module):
    """Whether executing ``module`` does more than bind its own names.

    Allowed at module scope: docstrings (constants), imports, ``def`` and ``class`` (bare
    or under decorators that only wrap, such as ``@dataclass``: any other may register
    what it decorates), assignments to plain names, ``pass``, ``raise``, ``assert``, and
    ``if``/``try`` whose branches hold only these; ``if __name__ == "__main__":`` is
    skipped (it runs only as a script).

    Parameters
    ----------
    module : Module

    Returns
    -------
    bool
    """
    return any(_has_effect(node) for node in module.tree.body)


def _has_effect(node):
    """Whether one module-scope statement does more than bind names of its module."""
    if isinstance(node, _HARMLESS):
        return False
    if isinstance(node, (*_FUNCTIONS, ast.ClassDef)):
        return not all(_decorator_name(d) in _WRAPPERS for d in node.decorator_list)
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
        return False  # a docstring
    if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        return any(
            isinstance(n, (ast.Attribute, ast.Subscript)) for t in targets for n in ast.walk(t)
        )
    if isinstance(node, ast.If):
        if _is_main_guard(node.test):
            return False
        return any(_has_effect(child) for child in node.body + node.orelse)
    if isinstance(node, ast.Try):
        body = node.body + node.orelse + node.finalbody
        body += [child for handler in node.handlers for child in handler.body]
        return any(_has_effect(child) for child in body)
    return True


def _decorator_name(decorator):
    """``"dataclass"`` for ``@dataclass``, ``@dataclass(frozen=True)`` or ``@x.dataclass``."""
    if isinstance(decorator, ast.Call):
        decorator = decorator.func
    return getattr(decorator, "attr", getattr(decorator, "id", ""))


def _is_main_guard(test):
    """``__name__ == "__main__"``."""
    return (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and test.left.id == "__name__"
        and any(isinstance(c, ast.Constant) and c.value == "__main__" for c in test.comparators)
    )


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
    pending = set(script.executes).union(*(_with_parents(name) for name in modules))
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
    """``depends.py --stamps FOLDER`` refreshes every paper's stamp (:func:`write_stamps`);
    ``depends.py --list`` prints ``<paper> <file>`` for every file of every paper."""
    argv = sys.argv[1:] if argv is None else argv
    if argv == ["--list"]:
        print("# <paper> <file of lib/ its run depends on>, as written by")
        print("# python lib/compendium/depends.py --list")
        library = Library(ROOT / "lib")
        for paper in papers():
            print("\n".join(f"{paper} {path}" for path in paper_dependencies(paper, ROOT, library)))
        return 0
    if len(argv) != 2 or argv[0] != "--stamps":
        raise SystemExit("usage: depends.py --stamps FOLDER | depends.py --list")
    write_stamps(argv[1])
    return 0


if __name__ == "__main__":
    sys.exit(main())
