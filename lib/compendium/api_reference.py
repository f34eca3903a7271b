"""The book's API reference: a page per public module of :mod:`dimred` and per object.

:func:`write_api` writes ``api.rst`` (each public module, :func:`public_modules`, with
its docstring and the objects it defines, :func:`defined_names`, each with the first
paragraph of its docstring) and ``api/<name>.rst``, one page per object (autodoc,
numpydoc; a class's page shows the estimator methods it inherits, as
:mod:`compendium.sphinx_ext` filters them).
"""

import importlib
import inspect
import pkgutil

__all__ = ["defined_names", "public_modules", "write_api"]


def write_api(staging):
    """Write the API reference: ``api.rst`` (per public module, its docstring and its
    objects, each with the first paragraph of its docstring) and ``api/<name>.rst``, one
    page per object (autodoc, numpydoc).

    Parameters
    ----------
    staging : Path
        The staged sources.
    """
    lines = [
        "API reference",
        "=============",
        "",
        "Every public module of :mod:`dimred` and the objects it defines, from their",
        "docstrings. The names of ``dimred.__all__`` are importable from :mod:`dimred` itself:",
        "",
    ]
    lines += [f"- :py:obj:`dimred.{name}`" for name in importlib.import_module("dimred").__all__]
    (staging / "api").mkdir()
    for module in public_modules():
        names = defined_names(module)
        lines += ["", module.__name__, "-" * len(module.__name__), ""]
        lines += [f".. automodule:: {module.__name__}", "   :no-members:", ""]
        lines += [_api_item(module, name) for name in names]
        for name in names:
            page = staging / "api" / f"{module.__name__}.{name}.rst"
            page.write_text(_object_page(module, name))
    (staging / "api.rst").write_text("\n".join(lines) + "\n")


def _api_item(module, name):
    """One object of the API page: a link and the first paragraph of its docstring."""
    obj = getattr(module, name)
    role = "py:class" if inspect.isclass(obj) else "py:func" if _is_code(obj) else "py:data"
    summary = (inspect.getdoc(obj) or "").split("\n\n")[0] if _is_code(obj) else ""
    link = f"- :{role}:`~{module.__name__}.{name}`"
    return f"{link}: {' '.join(summary.split())}" if summary else link


def _object_page(module, name):
    """The page of one object: its full name and its autodoc directive. It is reached from
    the API page's links, not from the sidebar (``:orphan:``), whose every page would list
    the hundreds of objects otherwise."""
    obj = getattr(module, name)
    title = f"{module.__name__}.{name}"
    if inspect.isclass(obj):
        directive = [f".. autoclass:: {name}", "   :members:", "   :inherited-members:"]
    elif _is_code(obj):
        directive = [f".. autofunction:: {name}"]
    else:
        directive = [f".. autodata:: {name}", "   :no-value:"]
    head = [":orphan:", "", title, "=" * len(title), ""]
    head += [f".. currentmodule:: {module.__name__}", ""]
    return "\n".join(head + directive) + "\n"


def public_modules():
    """Every public module of the library :mod:`dimred`, in import-name order (the papers'
    protocols are not in it: each is its chapter)."""
    import dimred

    found = [dimred]
    for info in pkgutil.walk_packages(dimred.__path__, "dimred."):
        parts = info.name.split(".")
        if any(part.startswith("_") for part in parts):
            continue
        found.append(importlib.import_module(info.name))
    return sorted(found, key=lambda module: module.__name__)


def defined_names(module):
    """The public names ``module`` defines itself: of its ``__all__`` (or, without one, of
    its public classes and functions) the classes and functions whose ``__module__`` is
    ``module``, and the data, in a module that is not a package (a package re-exports)."""
    listed = getattr(module, "__all__", None)
    if listed is None:
        listed = [name for name, obj in vars(module).items() if _is_code(obj)]
    names = []
    for name in listed:
        obj = getattr(module, name)
        if name.startswith("_"):
            continue
        if _is_code(obj) and obj.__module__ == module.__name__:
            names.append(name)
        elif not _is_code(obj) and not inspect.ismodule(obj) and not hasattr(module, "__path__"):
            names.append(name)
    return names


def _is_code(obj):
    """Whether ``obj`` is a class or a function (it has a module of its own); a function
    compiled by numba counts as the Python function it compiles (``py_func``)."""
    compiled_from = getattr(obj, "py_func", None)
    return inspect.isclass(obj) or inspect.isfunction(obj) or inspect.isfunction(compiled_from)
