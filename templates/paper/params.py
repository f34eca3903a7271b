"""Settings and data of the paper PAPER_TITLE (full reference: ``data/papers.toml``,
PAPER_NAME): :func:`params` decides every setting of a run, :func:`load_data` reads the
data. The steps live in one module per table or figure group (:mod:`.table1`).
"""

from dataclasses import dataclass, field

from sklearn.datasets import make_classification

from compendium.run_settings import validates_run_settings
from dimred.utils.parallel import available_cores, resolve_n_jobs

__all__ = ["DATA", "PAPER", "Params", "load_data", "params"]

#: Folder of the paper under ``data/published``, ``figures`` and ``notebooks``.
PAPER = "PAPER_NAME"


@dataclass(frozen=True)
class Params:
    """Every setting of one run, decided in :func:`params`.

    Attributes
    ----------
    quick : bool
        The quick parameter set (tests, ``make figures QUICK=1``): well under a minute.
    seed : int
        Seeds every random choice; repetition ``r`` uses ``seed + r``.
    n_jobs : int
        Local workers of the sweeps (default: every available core).
    n_samples : int
        Size of the example data (replace by the paper's own settings).
    """

    quick: bool = False
    seed: int = 0
    n_jobs: int = field(default_factory=available_cores)
    n_samples: int = 1000


@validates_run_settings()
def params(quick=False, *, seed=0, n_jobs=None):
    """The full (paper) or quick parameter set."""
    n_jobs = resolve_n_jobs(n_jobs)
    if quick:
        return Params(True, seed, n_jobs, n_samples=200)
    return Params(False, seed, n_jobs)


#: Which data the tables come from (``compendium.reporting.DATA_KINDS``).
DATA = "synthetic (make_classification)"


def load_data(p):
    """The paper's data (here: a seeded synthetic example; use :mod:`dimred.datasets`)."""
    X, y = make_classification(p.n_samples, n_features=10, n_informative=3, random_state=p.seed)
    return {"example": (X, y)}
