"""pyproject.toml and environment.yml describe the same pinned environment."""

import re
import tomllib

from dimred.compendium import paths

#: PyPI name -> conda-forge name where they differ.
CONDA_NAMES = {
    "xgboost-cpu": "py-xgboost-cpu",
    "torch": "pytorch-cpu",
    "openTSNE": "opentsne",
    "dask": "dask-core",  # conda-forge's "dask" would add bokeh and the dataframe stack
}


def pyproject_pins():
    project = tomllib.loads((paths.ROOT / "pyproject.toml").read_text())["project"]
    specs = project["dependencies"] + project["optional-dependencies"]["test"]
    pins = {}
    for spec in specs:
        name, version = spec.split("==")
        pins[CONDA_NAMES.get(name, name)] = version
    return pins, project["requires-python"]


def environment_pins():
    """Conda pins (``name=version``) and the pip section's (``name==version``)."""
    pins = {}
    text = (paths.ROOT / "environment.yml").read_text()
    for line in text.split("dependencies:")[1].splitlines():
        match = re.fullmatch(r"\s+- ([\w.-]+)(?:==?(\S+))?", line)
        if match:
            pins[match.group(1)] = match.group(2)
    return pins


def test_every_pin_is_exact_and_identical():
    pins, _ = pyproject_pins()
    conda = environment_pins()
    conda.pop("python")
    conda.pop("pip")
    assert conda == pins


def test_python_pin_satisfies_requires_python():
    _, requires = pyproject_pins()
    python = environment_pins()["python"]
    assert re.fullmatch(r"3\.11\.\d+", python)
    assert requires == ">=3.11,<3.12"


def test_environment_uses_conda_forge_only():
    text = (paths.ROOT / "environment.yml").read_text()
    channels = re.search(r"channels:\n((?:\s+- .+\n)+)", text).group(1).split()
    assert [c for c in channels if c != "-"] == ["conda-forge"]
