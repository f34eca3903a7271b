"""One module of ``lib/`` parsed for :mod:`compendium.depends`: the names it binds, the
modules its imports execute, the names each scope reads, and whether executing it does
more than bind its own names. Nothing is imported: the analysis reads the source
(:mod:`ast`)."""

import ast

__all__ = ["Module", "has_import_effects", "with_parents"]

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
                self.executes |= with_parents(alias.name)
            return
        module = self._absolute(node)
        self.executes |= with_parents(module)
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


def with_parents(name):
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
