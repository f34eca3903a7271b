"""The examples of the library's docstrings (issue 46).

Estimators follow scikit-learn, with an Examples section in every public docstring:

- every doctest of every module of :mod:`dimred` runs, one case per docstring, with
  ``ELLIPSIS`` and ``NORMALIZE_WHITESPACE``; a failure shows doctest's report. The
  modules of :mod:`dimred.neural` need torch: without it their case is skipped
  (``pytest.importorskip``);
- every public estimator class (named in a module's ``__all__``) and every function
  named in ``dimred.__all__`` or in a subpackage's ``__all__`` has an ``Examples``
  section (numpydoc: the header, then a line of dashes, at the docstring's indentation)
  with at least one ``>>>`` example.

Examples that need downloaded data are marked ``# doctest: +SKIP``; all the others run
on a few dozen rows, and print shapes, rounded values, booleans or integers, so that
their output does not depend on the BLAS kernel or the CPU.
"""

import doctest
import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import numpy as np
import pytest
from sklearn.base import BaseEstimator

import dimred

#: The subpackage whose modules import torch.
NEURAL = "dimred.neural"
try:  # the doctests of dimred.neural import it anyway
    import torch  # noqa: F401

    HAS_TORCH = True
except ImportError:
    HAS_TORCH = False

OPTIONS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE

#: numpy's default print options: the expected outputs are written with them.
PRINT_OPTIONS = dict(
    precision=8,
    threshold=1000,
    edgeitems=3,
    linewidth=75,
    suppress=False,
    nanstr="nan",
    infstr="inf",
    sign="-",
    floatmode="maxprec",
    legacy=False,
)

#: An ``Examples`` section of a docstring cleaned by :func:`inspect.cleandoc`: the
#: header at the docstring's indentation, underlined by at least as many dashes (as
#: numpydoc reads it), up to the next section header or the end.
EXAMPLES = re.compile(r"^Examples\n-{8,}\n(?P<body>.*?)(?=^\S[^\n]*\n-{3,}\n|\Z)", re.M | re.S)


def module_names(path=dimred.__path__, prefix="dimred."):
    """Every module of the package, found on disk (nothing imported), but ``__main__``."""
    names = []
    for info in pkgutil.iter_modules(path, prefix):
        leaf = info.name.rsplit(".", 1)[-1]
        if leaf == "__main__":
            continue
        names.append(info.name)
        if info.ispkg:
            names += module_names([str(Path(info.module_finder.path) / leaf)], info.name + ".")
    return names


def in_neural(name):
    return name == NEURAL or name.startswith(NEURAL + ".")


MODULES = ["dimred", *module_names()]
SUBPACKAGES = [info.name for info in pkgutil.iter_modules(dimred.__path__, "dimred.") if info.ispkg]


def doctest_cases():
    """One case per docstring with examples; one skipped case for dimred.neural without torch."""
    finder = doctest.DocTestFinder(exclude_empty=True)
    cases = []
    for name in MODULES:
        if in_neural(name) and not HAS_TORCH:
            continue
        for test in finder.find(importlib.import_module(name)):
            if test.examples:
                cases.append(pytest.param(test, id=test.name))
    if not HAS_TORCH:
        cases.append(pytest.param(None, id=NEURAL))
    return sorted(cases, key=lambda case: case.id)


@pytest.mark.parametrize("test", doctest_cases())
def test_docstring_examples_run(test):
    if test is None:  # dimred.neural's doctests, without torch
        pytest.importorskip("torch")
    report = []
    runner = doctest.DocTestRunner(optionflags=OPTIONS)
    with np.printoptions(**PRINT_OPTIONS):
        result = runner.run(test, out=report.append)
    if result.failed:
        pytest.fail(
            f"{result.failed} of the {result.attempted} examples of {test.name} failed:\n"
            + "".join(report),
            pytrace=False,
        )


def has_examples(obj):
    """True when ``obj``'s own docstring has an Examples section with a ``>>>`` line."""
    match = EXAMPLES.search(inspect.cleandoc(obj.__doc__ or ""))
    return match is not None and re.search(r"^>>> ", match.group("body"), re.M) is not None


def public_objects():
    """Estimator classes in any module's ``__all__``; functions in the packages' ``__all__``."""
    found = {}
    packages = {"dimred", *SUBPACKAGES}
    for name in MODULES:
        if in_neural(name) and not HAS_TORCH:
            continue
        module = importlib.import_module(name)
        for attribute in getattr(module, "__all__", ()):
            obj = getattr(module, attribute)
            estimator = inspect.isclass(obj) and issubclass(obj, BaseEstimator)
            if estimator or (name in packages and inspect.isfunction(obj)):
                found[f"{obj.__module__}.{obj.__qualname__}"] = obj
    return found


#: The public estimators (issue 46): all of them must be among the objects checked.
ESTIMATORS = {
    "BestViewProjection",
    "LocalitySensitiveDiscriminantAnalysis",
    "KernelDiscriminantAnalysis",
    "ORML",
    "MultilinearORML",
    "RankProjection",
    "MultilinearRankProjection",
    "ProjectionRanker",
    "ConstantRank",
    "ClassicalMDS",
    "GramFactorAnalysis",
    "FisherTSNE",
    "MetricalImportance",
    "NeRVRelevance",
    "Autoencoder",
}


def test_public_objects_have_examples():
    objects = public_objects()
    expected = ESTIMATORS if HAS_TORCH else ESTIMATORS - {"Autoencoder"}
    assert expected <= {obj.__name__ for obj in objects.values()}  # not vacuous
    missing = sorted(name for name, obj in objects.items() if not has_examples(obj))
    assert not missing, (
        f"{len(missing)} public estimators and functions have no Examples section with "
        "a '>>>' example:\n  " + "\n  ".join(missing)
    )


def test_has_examples_tells_a_missing_section():
    def documented():
        """Do nothing.

        Examples
        --------
        >>> documented()
        """

    def prose_only():
        """Do nothing.

        Examples
        --------
        Call it.

        Notes
        -----
        >>> prose_only()
        """

    def underlined_short():
        """Do nothing.

        Examples
        ----
        >>> underlined_short()
        """

    def undocumented():
        pass

    assert has_examples(documented)
    assert not has_examples(prose_only)
    assert not has_examples(underlined_short)
    assert not has_examples(undocumented)
