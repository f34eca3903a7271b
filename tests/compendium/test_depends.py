"""``make`` reruns a paper only when a file its run depends on changed.

:mod:`compendium.depends` finds those files by a static import analysis: checked on
small package trees written here (re-exports, module objects, lazy imports, shadowing,
import-time effects), on the five papers against the pinned list
``tests/paper_dependencies.txt``, and with the real Makefile in a scratch copy of the tree,
where a stand-in interpreter records each notebook run instead of doing it.
"""

import hashlib
import importlib
import json
import os
import shutil
import textwrap
import time

import pytest
from scratch_make import make_runs, scratch_copy

from compendium import depends, paths
from papers import PAPERS

PINNED = paths.ROOT / "tests" / "paper_dependencies.txt"

#: A small package: a re-exporting ``__init__``, a subpackage, a lazy import, a module
#: with an import-time effect and one without.
PACKAGE = {
    "pkg/__init__.py": '''
        """Re-exports: importing pkg executes every module below."""
        from . import quiet
        from .alpha import Alpha
        from .beta import beta
        from .noisy import LEVEL
    ''',
    "pkg/alpha.py": """
        from .util.maths import double, half

        class Alpha:
            def run(self):
                return double(1)
    """,
    "pkg/beta.py": """
        from .util import maths

        def beta():
            from .lazy import late
            return late(maths.half(2))
    """,
    "pkg/lazy.py": """
        from .util.maths import double

        def late(x):
            return x
    """,
    "pkg/util/__init__.py": """
        from .maths import double
    """,
    "pkg/util/maths.py": """
        def double(x):
            return 2 * x

        def half(x):
            return x / 2
    """,
    "pkg/noisy.py": """
        import numpy as np

        LEVEL = 1
        np.seterr(all="raise")
    """,
    "pkg/quiet.py": """
        import numpy as np

        QUIET = np.float64(0)

        if __name__ == "__main__":
            print(QUIET)
    """,
}


def package_tree(root, files):
    """Write ``files`` ({path under lib/: source}) and return the :class:`depends.Library`."""
    for name, source in files.items():
        path = root / "lib" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(source))
    return depends.Library(root / "lib")


def run_files(root, code, files=PACKAGE):
    """The files (under lib/) that running ``code`` depends on."""
    library = package_tree(root, files)
    found = depends.files_run_by(library, textwrap.dedent(code))
    return {path.relative_to(library.folder).as_posix() for path in found}


# ------------------------------------------------------------------- the rule, on small trees
def test_a_name_brings_its_module_and_the_init_that_reexports_it(tmp_path):
    found = run_files(tmp_path, "from pkg import Alpha\nAlpha().run()")
    # pkg/__init__.py binds Alpha; alpha.py defines it and imports double and half from
    # util.maths (a module path: util/__init__.py is not consulted). Executed but unused:
    # beta, lazy, quiet, util/__init__; noisy counts for its effect (np.seterr).
    assert found == {"pkg/__init__.py", "pkg/alpha.py", "pkg/util/maths.py", "pkg/noisy.py"}


def test_lazy_imports_and_module_attributes_count(tmp_path):
    found = run_files(tmp_path, "from pkg.beta import beta\nbeta()")
    # maths.half through the module object (util/__init__.py is consulted for `maths`),
    # late through the function-level import; lazy.py's import of double is never read.
    # Not pkg/__init__.py: pkg.beta is a module path, no name of pkg is looked up.
    assert found == {
        "pkg/beta.py",
        "pkg/lazy.py",
        "pkg/util/__init__.py",
        "pkg/util/maths.py",
        "pkg/noisy.py",
    }


def test_an_attribute_chain_goes_through_each_package(tmp_path):
    found = run_files(tmp_path, "import pkg.util.maths as m\nm.half(1)")
    assert found == {"pkg/__init__.py", "pkg/util/__init__.py", "pkg/util/maths.py", "pkg/noisy.py"}


def test_a_module_object_used_whole_brings_all_it_exports(tmp_path):
    assert run_files(tmp_path, "import pkg\nprint(pkg)") == set(PACKAGE)


def test_star_imports_bring_every_name(tmp_path):
    found = run_files(tmp_path, "from pkg.util import *\ndouble(1)")
    assert found == {"pkg/util/__init__.py", "pkg/util/maths.py", "pkg/noisy.py"}


def test_an_import_the_code_never_reads_leads_nowhere(tmp_path):
    files = {
        **PACKAGE,
        "pkg/shadow.py": """
            from .util import maths
            from .beta import beta

            def apply(maths):
                return [beta for beta in maths]
        """,
    }
    found = run_files(tmp_path, "from pkg.shadow import apply\napply([])", files)
    # `maths` is apply's parameter and `beta` the comprehension's variable: neither
    # reads the import of the same name.
    assert found == {"pkg/shadow.py", "pkg/noisy.py"}


def test_relative_imports_resolve_from_the_package(tmp_path):
    files = {
        **PACKAGE,
        "pkg/util/deep.py": """
            from ..lazy import late
            from . import maths

            def go():
                return late(maths.double(1))
        """,
    }
    found = run_files(tmp_path, "from pkg.util.deep import go\ngo()", files)
    assert found == {
        "pkg/util/deep.py",
        "pkg/lazy.py",
        "pkg/util/__init__.py",
        "pkg/util/maths.py",
        "pkg/noisy.py",
    }


def test_an_init_importing_its_own_submodule(tmp_path):
    found = run_files(tmp_path, "import pkg\npkg.quiet.QUIET")
    assert found == {"pkg/__init__.py", "pkg/quiet.py", "pkg/noisy.py"}


def test_import_cycles_end(tmp_path):
    files = {
        "ring/__init__.py": "",
        "ring/a.py": "from .b import g\n\ndef f():\n    return g()\n",
        "ring/b.py": "from .a import f\n\ndef g():\n    return f()\n",
    }
    found = run_files(tmp_path, "from ring.a import f\nf()", files)
    assert found == {"ring/a.py", "ring/b.py"}


@pytest.mark.parametrize(
    ("source", "effect"),
    [
        ('"""Doc."""\nimport os\nX = os.sep\ndef f():\n    pass\nclass C:\n    pass\n', False),
        ("try:\n    import fast\nexcept ImportError:\n    fast = None\n", False),
        ("def main():\n    pass\n\nif __name__ == '__main__':\n    main()\n", False),
        ("import numpy as np\nnp.seterr(all='raise')\n", True),
        ("import matplotlib\nmatplotlib.rcParams['font.size'] = 8\n", True),
        ("import os\nos.environ.setdefault('OMP_NUM_THREADS', '1')\n", True),
        ("import sys\nif sys.platform == 'linux':\n    sys.setrecursionlimit(10**5)\n", True),
        ("for name in ('a', 'b'):\n    pass\n", True),
        ("import dataclasses\n@dataclasses.dataclass(frozen=True)\nclass P:\n    x = 1\n", False),
        ("import registry\n@registry.register('method')\ndef method():\n    pass\n", True),
    ],
)
def test_import_effects(source, effect):
    assert depends.has_import_effects(depends.Module("m", source)) is effect


def test_notebook_code_leaves_magics_and_prose_out(tmp_path):
    notebook = tmp_path / "paper.ipynb"
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": "import not_code\n"},
        {"cell_type": "code", "metadata": {}, "source": ["%matplotlib inline\n", "import a\n"]},
        {"cell_type": "code", "metadata": {}, "source": "%%time\nimport b\n"},
        {"cell_type": "code", "metadata": {}, "source": "!ls\nfrom c import d"},
    ]
    notebook.write_text(json.dumps({"cells": cells}))
    assert depends.notebook_code(notebook) == "import a\nfrom c import d\n"


# ------------------------------------------------------------------------------ the papers
def pinned():
    """``{paper: [file, ...]}`` of ``tests/paper_dependencies.txt``."""
    lists = {}
    for line in PINNED.read_text().splitlines():
        if line and not line.startswith("#"):
            paper, path = line.split()
            lists.setdefault(paper, []).append(path)
    return lists


def test_papers_are_read_from_the_one_list():
    assert depends.papers() == PAPERS == paths.paper_keys()


@pytest.mark.parametrize("paper", PAPERS)
def test_each_paper_depends_on_its_pinned_files(paper):
    found = depends.paper_dependencies(paper)
    expected = pinned().get(paper, [])
    added = sorted(set(found) - set(expected))
    removed = sorted(set(expected) - set(found))
    assert found == expected, (
        f"the lib/ files {paper} depends on changed: now also {added}, no longer {removed}. "
        "If a module was added, moved or its imports changed on purpose, review and update "
        "the list: python -m compendium.depends --list > tests/paper_dependencies.txt"
    )


def test_no_paper_depends_on_another_papers_protocol_or_the_tooling():
    lists = {paper: set(files) for paper, files in pinned().items()}
    lib = {p.relative_to(paths.ROOT).as_posix() for p in (paths.ROOT / "lib").rglob("*.py")}
    for paper, files in lists.items():
        assert files <= lib
        assert "lib/compendium/notebooks.py" in files  # the runner
        # lib/papers/<paper>/... of its own and of the papers it builds on; the modules
        # directly in lib/papers/ (the package's list, stable_maps) are shared
        protocols = {f.split("/")[2] for f in files if f.count("/") > 2 and "/papers/" in f}
        assert protocols == {paper, *builds_on(paper)}  # the benchmark: all
    never_run = {"book", "cells", "depends", "lab", "new_paper", "papers", "parsed_modules"}
    never_run |= {"scaling", "run_history", "pages"}
    assert not set.union(*lists.values()) & {f"lib/compendium/{m}.py" for m in never_run}


def test_stamp_is_rewritten_only_when_a_file_changes(tmp_path):
    root = scratch_copy(tmp_path)
    stamp = root / "stamps" / "bvp.lib"
    assert depends.write_stamp("bvp", stamp, root)
    files = depends.paper_dependencies("bvp", root)
    newest = max((root / f).stat().st_mtime for f in files)
    assert stamp.stat().st_mtime == newest, "a first stamp is as old as the newest file"
    assert [line.split()[1] for line in stamp.read_text().splitlines()] == files
    assert not depends.write_stamp("bvp", stamp, root)
    os.utime(root / files[-1])  # touched, unchanged
    assert not depends.write_stamp("bvp", stamp, root)
    with open(root / files[-1], "a") as module:
        module.write("\n# edited\n")
    assert depends.write_stamp("bvp", stamp, root)


def test_every_stamp_from_one_library_is_each_papers_own(tmp_path):
    """make's one run for all papers writes each paper's pinned files with their sha256
    (as one run per paper, :func:`test_each_paper_depends_on_its_pinned_files`), and
    rewrites only the stamps of the papers that use an edited file."""
    root = scratch_copy(tmp_path)
    assert depends.write_stamps(root / "stamps", root) == list(PAPERS)
    for paper, files in pinned().items():
        lines = (root / "stamps" / f"{paper}.lib").read_text().splitlines()
        assert [line.split("  ")[1] for line in lines] == files, paper
        digests = [hashlib.sha256((root / f).read_bytes()).hexdigest() for f in files]
        assert [line.split("  ")[0] for line in lines] == digests, paper
    assert depends.write_stamps(root / "stamps", root) == []
    name = only_in("orml")
    with open(root / name, "a") as module:
        module.write("\n# edited\n")
    users = [p for p, files in pinned().items() if name in files]
    assert depends.write_stamps(root / "stamps", root) == users


# -------------------------------------------------------------------------------- the Makefile
def builds_on(paper):
    """The papers whose protocols ``paper`` reuses (the cross-paper benchmark: all five)."""
    return tuple(getattr(importlib.import_module(f"papers.{paper}"), "BUILDS_ON", ()))


def builders_of(paper):
    """``paper`` and the entries that build on it: what an edit of its own files reruns."""
    return sorted([paper, *(p for p in PAPERS if paper in builds_on(p))])


def only_in(paper):
    """A file of lib/ that only ``paper`` (and the entries built on it) depends on."""
    lists = {p: set(files) for p, files in pinned().items()}
    others = set.union(*(files for p, files in lists.items() if p not in builders_of(paper)))
    return sorted(lists[paper] - others)[0]


@pytest.mark.skipif(shutil.which("make") is None, reason="needs GNU make")
@pytest.mark.make
def test_make_reruns_only_the_papers_that_use_an_edited_module(tmp_path):
    root = scratch_copy(tmp_path)

    def make():
        return make_runs(root, "QUICK=1", *PAPERS)

    def edit(name):
        with open(root / name, "a") as module:
            module.write("\n# edited\n")

    assert make() == sorted(PAPERS)  # first build
    assert make() == []
    os.utime(root / "lib/compendium/reporting.py")
    assert make() == [], "a touched but unchanged module reruns nothing"
    edit("lib/compendium/book.py")
    assert make() == [], "no run executes the book"
    for paper in PAPERS:
        name = only_in(paper)
        users = sorted(p for p, files in pinned().items() if name in files)
        assert paper in users and set(users) <= set(builders_of(paper))
        edit(name)
        assert make() == users, name
    edit("lib/compendium/reporting.py")
    assert make() == sorted(PAPERS), "every paper reports through reporting.py"
    edit("pyproject.toml")
    assert make() == sorted(PAPERS)


@pytest.mark.parametrize("argv", [["bvp", "stamp"], ["--stamps"], ["--stamps", "a", "b"]])
def test_the_script_refuses_other_arguments(argv):
    with pytest.raises(SystemExit, match="usage: python -m compendium.depends --stamps FOLDER"):
        depends.main(argv)


def test_every_stamp_is_refreshed_in_under_two_seconds_per_paper(tmp_path):
    start = time.perf_counter()
    assert depends.write_stamps(tmp_path) == list(PAPERS)
    assert (time.perf_counter() - start) / len(PAPERS) < 2.0, "make runs it on every make"
