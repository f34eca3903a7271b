"""The library's requirements, the exact pins and environment.yml agree.

pyproject.toml gives the library's core dependencies as ranges and the extras by name;
requirements/constraints.txt pins every one of them (what `make env` installs);
environment.yml (Binder, conda-forge) lists the same pins.
"""

import ast
import re
import sys
import tomllib

from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import Version

from compendium import paths

CONSTRAINTS = paths.ROOT / "requirements" / "constraints.txt"

#: PyPI name -> conda-forge name where they differ.
CONDA_NAMES = {
    "xgboost-cpu": "py-xgboost-cpu",
    "torch": "pytorch-cpu",
    "openTSNE": "opentsne",
    "dask": "dask-core",  # conda-forge's "dask" would add bokeh and the dataframe stack
}

#: Import name -> distribution name where they differ.
DISTRIBUTIONS = {"sklearn": "scikit-learn", "PIL": "pillow", "xgboost": "xgboost-cpu"}


def project():
    return tomllib.loads((paths.ROOT / "pyproject.toml").read_text())["project"]


def requirements():
    """``{"core": [Requirement, ...], "<extra>": [...]}``."""
    table = project()
    groups = {"core": table["dependencies"], **table["optional-dependencies"]}
    return {group: [Requirement(spec) for spec in specs] for group, specs in groups.items()}


def constraint_pins():
    """``{name: version}`` of requirements/constraints.txt, names as written."""
    pins = {}
    for line in CONSTRAINTS.read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            match = re.fullmatch(r"([A-Za-z0-9][\w.-]*)==(\S+)", line)
            assert match, f"not an exact pin: {line!r}"
            assert match.group(1) not in pins, f"pinned twice: {match.group(1)}"
            pins[match.group(1)] = match.group(2)
    return pins


def environment_pins():
    """Conda pins (``name=version``) and the pip section's (``name==version``)."""
    pins = {}
    text = (paths.ROOT / "environment.yml").read_text()
    for line in text.split("dependencies:")[1].splitlines():
        match = re.fullmatch(r"\s+- ([\w.-]+)(?:==?(\S+))?", line)
        if match:
            pins[match.group(1)] = match.group(2)
    return pins


def test_environment_yml_lists_the_constraints_pins():
    conda = environment_pins()
    conda.pop("python")
    conda.pop("pip")
    pins = {CONDA_NAMES.get(name, name): version for name, version in constraint_pins().items()}
    assert conda == pins


def test_every_requirement_has_one_pin_that_it_admits():
    pins = {canonicalize_name(name): Version(v) for name, v in constraint_pins().items()}
    named = set()
    for group, reqs in requirements().items():
        for req in reqs:
            name = canonicalize_name(req.name)
            assert req.marker is None and not req.extras, f"{group}: {req}"
            assert name in pins, f"{group}: {req} has no pin in {CONSTRAINTS.name}"
            assert req.specifier.contains(pins[name], prereleases=True), (
                f"{group}: {req} does not admit the pin {pins[name]}"
            )
            named.add(name)
    assert set(pins) == named, f"pins of nothing pyproject.toml names: {set(pins) - named}"


def test_core_dependencies_are_ranges_and_extras_hold_the_rest():
    groups = requirements()
    for req in groups["core"]:
        assert str(req.specifier).startswith(">="), f"core: {req} is not a lower bound"
    core = {canonicalize_name(req.name) for req in groups["core"]}
    for name in ("torch", "jupyterlab", "dask", "distributed", "shap", "papermill"):
        assert name not in core
    assert {"compendium", "autoencoder", "book", "test"} <= set(groups)
    assert [req.name for req in groups["autoencoder"]] == ["torch"]


def third_party_imports(path, module_level):
    """Top-level names of the non-stdlib absolute imports of one file: those run at
    import (``module_level=True``: outside functions) or inside functions."""
    tree = ast.parse(path.read_text())
    lazy = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            lazy.update(id(inner) for inner in ast.walk(node) if inner is not node)
    names = set()
    for node in ast.walk(tree):
        if (id(node) in lazy) == module_level:
            continue
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.add(node.module.split(".")[0])
    return {n for n in names if n not in sys.stdlib_module_names and n != "dimred"}


def test_the_library_imports_only_what_it_declares():
    groups = requirements()
    core = {canonicalize_name(req.name) for req in groups["core"]}
    extras = {canonicalize_name(req.name) for reqs in groups.values() for req in reqs}
    autoencoder = {canonicalize_name(req.name) for req in groups["autoencoder"]}
    library = paths.ROOT / "lib" / "dimred"
    for path in library.rglob("*.py"):
        neural = path.relative_to(library).parts[0] == "neural"
        for module_level in (True, False):
            for name in third_party_imports(path, module_level):
                dist = canonicalize_name(DISTRIBUTIONS.get(name, name))
                # `import dimred` runs the module-level imports (dimred.neural's: torch,
                # installed with the autoencoder extra); a function's import an extra may
                # satisfy.
                allowed = (core | autoencoder) if neural else core if module_level else extras
                assert dist in allowed, f"{path.relative_to(paths.ROOT)} imports {name}"


def test_python_pin_satisfies_requires_python():
    table = project()
    python = environment_pins()["python"]
    assert re.fullmatch(r"3\.11\.\d+", python)
    assert SpecifierSet(table["requires-python"]).contains(python)
    assert "Programming Language :: Python :: 3.11" in table["classifiers"]


def test_make_env_installs_from_the_constraints_file():
    makefile = (paths.ROOT / "Makefile").read_text()
    assert "CONSTRAINTS := requirements/constraints.txt" in makefile
    assert re.search(r"^\.venv/\.installed: pyproject\.toml \$\(CONSTRAINTS\)$", makefile, re.M)
    assert "-c $(CONSTRAINTS) -e '.[compendium,autoencoder,book,test]'" in makefile


def test_environment_uses_conda_forge_only():
    text = (paths.ROOT / "environment.yml").read_text()
    channels = re.search(r"channels:\n((?:\s+- .+\n)+)", text).group(1).split()
    assert [c for c in channels if c != "-"] == ["conda-forge"]
