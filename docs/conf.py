"""Sphinx configuration of the compendium's book (``make book``).

The sources are staged by :func:`compendium.book.stage` from the committed
``figures/``; this folder holds the configuration and the static files. Nothing is
executed: the notebooks are shown as ``make figures`` ran them.
"""

from pathlib import Path

HERE = Path(__file__).parent

project = "dimred-compendium"
author = "the dimred-compendium authors"
copyright = "the dimred-compendium authors"

extensions = [
    "myst_nb",
    "numpydoc",
    "sphinx.ext.autodoc",
    "compendium.sphinx_ext",
]

# The staged sources are generated: every cross-reference must resolve (nitpicky), and
# `make book` treats every warning as an error.
nitpicky = True
#: Packages named in docstrings that this book does not document (no network, so no
#: intersphinx inventories), and the builtin types numpydoc types name.
EXTERNAL = (
    "builtins numpy scipy sklearn pandas matplotlib torch joblib pooch requests papermill "
    "nbformat jupytext jupyter_server tornado openTSNE shap xgboost skordinal PIL pathlib os "
    "collections typing dataclasses argparse tomllib json hashlib re concurrent subprocess "
    "zipfile urllib http functools resource"
).split()
BUILTINS = "int float str bool dict list tuple bytes object callable None Path".split()
nitpick_ignore_regex = [
    (r"py:.*", rf"({'|'.join(EXTERNAL)})(\..*)?"),
    (r"py:.*", rf"({'|'.join(BUILTINS)})"),
]

exclude_patterns = ["**.ipynb_checkpoints"]

# MyST-NB: show the notebooks as committed, never run them.
nb_execution_mode = "off"
nb_merge_streams = True
myst_heading_anchors = 3
suppress_warnings = ["myst.header"]

# API reference: a page per object (compendium.book.write_api), numpydoc docstrings.
autodoc_typehints = "none"
autodoc_member_order = "bysource"
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
# Fitted attributes (``coef_``) as attribute entries, so that docstrings can refer to them.
numpydoc_attributes_as_param_list = False

# Math as TeX source: MathJax would be loaded from the network (compendium.sphinx_ext).
html_math_renderer = "tex"

html_theme = "sphinx_book_theme"
html_title = "dimred-compendium"
html_favicon = str(HERE / "_static" / "favicon.svg")
# The theme's light/dark mode: "auto" follows the reader's system (unset, it logs an error).
html_context = {"default_mode": "auto"}
html_static_path = [str(HERE / "_static")]
html_css_files = ["reproduction.css"]
html_js_files = ["reproduction.js"]
html_theme_options = {
    "show_toc_level": 2,
    "navigation_with_keys": False,
    "use_download_button": False,
}
html_last_updated_fmt = None
html_copy_source = False
