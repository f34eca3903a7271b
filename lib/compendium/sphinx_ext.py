"""The book's Sphinx extension (listed in ``docs/conf.py``; the book: :mod:`compendium.book`).

A reference resolves when it names an object of :mod:`dimred` that can be imported
(under a re-exported name too: it links where the object is documented, or to its
nearest documented class or module), and fails otherwise; the trailing underscores of
fitted attributes in numpydoc shapes such as ``(n_samples, n_components_)`` are escaped;
math is shown as its TeX source (MathJax would come from the network).
"""

import dataclasses
import functools
import importlib
import inspect
import re

__all__ = ["ESTIMATOR_API", "setup"]


def setup(app):
    """Sphinx extension: resolve references by Python object, leave out the members other
    packages add to :mod:`dimred`'s classes, escape what reStructuredText would misread, and
    show math as its TeX source (``html_math_renderer = "tex"``: MathJax would be loaded
    from the network)."""
    app.connect("missing-reference", _resolve_by_object)
    app.connect("autodoc-skip-member", _skip_foreign_member)
    app.connect("autodoc-process-docstring", _escape_docstring, priority=400)
    app.add_html_math_renderer("tex", (_inline_tex, None), (_block_tex, None))
    return {"parallel_read_safe": True, "parallel_write_safe": True}


def _inline_tex(translator, node):
    """Inline math as its TeX source, in ``<code class="math">``."""
    from docutils import nodes

    translator.body.append(translator.starttag(node, "code", "", CLASS="math"))
    translator.body.append(translator.encode(node.astext()) + "</code>")
    raise nodes.SkipNode


def _block_tex(translator, node):
    """Displayed math as its TeX source, in ``<pre class="math">``."""
    from docutils import nodes

    translator.body.append(translator.starttag(node, "pre", "", CLASS="math"))
    translator.body.append(translator.encode(node.astext()) + "</pre>\n")
    raise nodes.SkipNode


#: A literal span of a docstring line: left as written.
_LITERAL = re.compile(r"(``.+?``)")
#: A shape in a numpydoc type: ``shape (n_samples, n_components_)``.
_SHAPE = re.compile(r"shape \(([^)]*)\)")
#: An identifier's trailing underscore, which reStructuredText reads as a link.
_TRAILING_UNDERSCORE = re.compile(r"(?<=\w)_(?=[\s,)]|$)")
#: ``|word|`` in prose (a set's size), which reStructuredText reads as a substitution.
_BARS = re.compile(r"(?<![|`\\])\|(\w+)\|(?![|`_])")


def _escape_docstring(app, what, name, obj, options, lines):
    """Escape, outside literals and before numpydoc reads the docstring, the trailing
    underscores of the names in shapes and the bars around a word."""
    for index, line in enumerate(lines):
        parts = _LITERAL.split(line)
        parts[::2] = [_escape_prose(part) for part in parts[::2]]
        lines[index] = "".join(parts)


def _escape_prose(text):
    """``text`` (no literal in it) with shapes and ``|word|`` escaped."""
    text = _SHAPE.sub(
        lambda match: "shape (" + _TRAILING_UNDERSCORE.sub(r"\\_", match.group(1)) + ")", text
    )
    return _BARS.sub(r"\\|\1\\|", text)


#: The methods of the estimator API a class of :mod:`dimred` may inherit from
#: scikit-learn's mixins, shown on its page (``:inherited-members:``).
ESTIMATOR_API = frozenset(
    {"fit_transform", "fit_predict", "transform", "inverse_transform", "predict",
     "predict_proba", "decision_function", "score", "get_feature_names_out"}
)  # fmt: skip


def _skip_foreign_member(app, what, name, obj, skip, options):
    """Skip a class member defined outside :mod:`dimred` (scikit-learn's parameter and
    metadata-routing plumbing) unless it is one of :data:`ESTIMATOR_API`, which a reader
    calls; otherwise leave autodoc's decision."""
    module = getattr(obj, "__module__", None) or ""
    if what == "class" and callable(obj) and not module.startswith("dimred"):
        return name not in ESTIMATOR_API
    return None


#: What :func:`_locate` returns for a name that cannot be imported.
_MISSING = object()


def _resolve_by_object(app, env, node, contnode):
    """A reference to a name under which an object of :mod:`dimred` can be imported: to
    where that object is documented, else to its nearest documented parent (class or
    module). A name that cannot be imported stays unresolved, and fails the build."""
    from sphinx.util.nodes import make_refnode

    if node.get("refdomain") != "py":
        return None
    target = node["reftarget"].lstrip(".~")
    context = [node.get("py:module"), node.get("py:class")]
    candidates = [target] + [
        ".".join(part for part in (*context[: i + 1], target) if part) for i in range(2)
    ]
    path = next((name for name in candidates if _locate(name) is not _MISSING), None)
    if path is None:
        return None
    domain = env.get_domain("py")
    entries = {**domain.objects, **domain.modules}
    found = _locate(path)
    last = path.rsplit(".", 1)[-1]
    same = [name for name in entries if name.rsplit(".", 1)[-1] == last]
    name = next((name for name in same if _locate(name) is found), None)
    while name is None and "." in path:
        path = path.rsplit(".", 1)[0]
        name = path if path in entries else None
    if name is None:
        return None
    entry = entries[name]
    return make_refnode(app.builder, node["refdoc"], entry.docname, entry.node_id, contnode, name)


@functools.cache
def _locate(path):
    """The object importable as ``path`` under :mod:`dimred`, or :data:`_MISSING`."""
    parts = path.split(".")
    if parts[0] != "dimred":
        return _MISSING
    for end in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:end]))
        except ImportError:
            continue
        for attribute in parts[end:]:
            obj = _attribute(obj, attribute)
            if obj is _MISSING:
                break
        return obj
    return _MISSING


def _attribute(obj, name):
    """``obj.name``; for a dataclass, also a field without a class attribute (a default
    factory's); else :data:`_MISSING`."""
    if hasattr(obj, name):
        return getattr(obj, name)
    fields = {field.name: field for field in dataclasses.fields(obj)} if _dataclass(obj) else {}
    return fields.get(name, _MISSING)


def _dataclass(obj):
    """Whether ``obj`` is a dataclass (the class, not an instance)."""
    return inspect.isclass(obj) and dataclasses.is_dataclass(obj)


# ------------------------------------------------------------------------- command line
