"""`pip install .` alone: the library with its core dependencies, and nothing else.

A fresh venv gets the library (non-editable, no extras) at the pins of
requirements/constraints.txt; there ``import dimred`` loads none of the extras' packages
(torch, Jupyter, dask, shap, papermill), the dataset registry is the installed copy of
data/registry.toml (a symlink in the checkout) and every public estimator of
``dimred.__all__`` fits on small data. The library is built from a copy of the files
``pip install .`` reads (pyproject.toml, README.md, LICENSE, lib/, data/registry.toml), so that
the build leaves the checkout's build/ and lib/*.egg-info alone. Takes about a minute
with the packages in pip's cache or a local index (make env's machines), more when pip
downloads them.
"""

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CONSTRAINTS = ROOT / "requirements" / "constraints.txt"

#: Packages of the extras that ``import dimred`` must not import (and the core install
#: does not contain).
EXTRAS_ONLY = (
    "torch",
    "jupyter",
    "jupyterlab",
    "jupyter_client",
    "ipykernel",
    "dask",
    "distributed",
    "shap",
    "papermill",
    "matplotlib",
    "xgboost",
    "openTSNE",
    "skordinal",
)

SCRIPT = textwrap.dedent(
    """
    import importlib.util
    import sys
    import warnings
    from pathlib import Path

    import numpy as np

    import dimred
    from dimred.datasets import load_registry, locations

    extras = {extras!r}
    loaded = sorted(name for name in extras if name in sys.modules)
    assert not loaded, f"import dimred imported {{loaded}}"
    installed = sorted(name for name in extras if importlib.util.find_spec(name) is not None)
    assert not installed, f"the core install holds {{installed}}"
    for name in ("papers", "compendium"):
        assert importlib.util.find_spec(name) is None, f"{{name}} was installed"

    # The registry: a real file in site-packages, not the checkout's.
    assert locations.checkout_root() is None
    registry_file = Path(locations.REGISTRY_PATH)
    assert registry_file.is_file() and not registry_file.is_symlink(), registry_file
    assert "site-packages" in registry_file.parts, registry_file
    registry = load_registry()
    assert registry.datasets, "empty registry"

    rng = np.random.default_rng(0)
    y = np.repeat([1, 2, 3], 20)
    X = rng.normal(size=(60, 4)) + y[:, None] * [1.0, 0.5, 0.0, 0.0]
    Xm = np.array([[0.0, 1, 5], [0.1, 0, 3], [1.0, 1, 4], [1.1, 0, 2]])
    ym = np.array([0, 0, 1, 1])
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    from dimred.datasets.synthetic import relevance_set1

    Xr, _ = relevance_set1(random_state=0)
    Xr = Xr[:150]

    fits = {{
        "BestViewProjection": lambda: dimred.BestViewProjection(n_components=2).fit(X, y),
        "KernelDiscriminantAnalysis": lambda: dimred.KernelDiscriminantAnalysis().fit(X, y),
        "LocalitySensitiveDiscriminantAnalysis":
            lambda: dimred.LocalitySensitiveDiscriminantAnalysis().fit(X, y),
        "ORML": lambda: dimred.ORML().fit(X, y),
        "MultilinearORML": lambda: dimred.MultilinearORML().fit(X, y),
        "RankProjection": lambda: dimred.RankProjection().fit(X, y),
        "MultilinearRankProjection": lambda: dimred.MultilinearRankProjection().fit(X, y),
        "ProjectionRanker": lambda: dimred.ProjectionRanker(
            LinearDiscriminantAnalysis(n_components=1)
        ).fit(X, y),
        "ConstantRank": lambda: dimred.ConstantRank().fit(X, y),
        "MetricalImportance": lambda: dimred.MetricalImportance(
            categorical_features=[1], n_discard=1
        ).fit(Xm, ym),
        "GramFactorAnalysis": lambda: dimred.GramFactorAnalysis(n_components=2).fit(X),
        "ClassicalMDS": lambda: dimred.ClassicalMDS(n_components=2).fit(X),
        "FisherTSNE": lambda: dimred.FisherTSNE(perplexity=10, random_state=0).fit(X, y),
        "NeRVRelevance": lambda: dimred.NeRVRelevance(n_neighbors=25).fit(Xr, Xr[:, :2]),
    }}
    estimators = sorted(
        name for name in dimred.__all__
        if isinstance(getattr(dimred, name), type)
        and hasattr(getattr(dimred, name), "fit")
    )
    assert sorted(fits) == estimators, (sorted(fits), estimators)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in estimators:
            model = fits[name]()
            assert isinstance(model, getattr(dimred, name)), name
            print("fitted", name)
    assert dimred.MetricalImportance(
        categorical_features=[1], n_discard=1
    ).fit(Xm, ym).transform(Xm).shape == (4, 2)
    loaded = sorted(name for name in extras if name in sys.modules)
    assert not loaded, f"fitting imported {{loaded}}"
    print("core install ok:", dimred.__file__)
    """
).format(extras=EXTRAS_ONLY)


def copy_sources(dest):
    """The files `pip install .` reads, the registry symlink kept as a symlink."""
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, dest / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "*.pyc")
    shutil.copytree(ROOT / "lib", dest / "lib", symlinks=True, ignore=ignore)
    (dest / "data").mkdir()
    shutil.copy2(ROOT / "data" / "registry.toml", dest / "data" / "registry.toml")
    assert (dest / "lib" / "dimred" / "datasets" / "registry.toml").is_symlink()


@pytest.mark.slow
def test_core_install_imports_dimred_and_fits_every_public_estimator(tmp_path):
    source, venv, work = tmp_path / "source", tmp_path / "venv", tmp_path / "work"
    source.mkdir()
    work.mkdir()
    copy_sources(source)
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"PYTHONPATH", "VIRTUAL_ENV", "CONDA_PREFIX", "DIMRED_ROOT"}
        and not key.startswith("PYTHON")
    }
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, env=env)
    python = str(venv / "bin" / "python")
    pip = [python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    install = subprocess.run(
        [*pip, "-c", str(CONSTRAINTS), str(source)],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
    )
    assert install.returncode == 0, install.stdout + install.stderr
    run = subprocess.run(
        [python, "-c", SCRIPT], cwd=work, env=env, capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "core install ok" in run.stdout
