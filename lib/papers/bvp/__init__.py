"""Best-View Projection paper (Zine-El-Abidine, Dutagaci, Rousseau, "Dimensionality
reduction for ordinal classification"): the protocol, split by table and figure group,
the findings (:mod:`.findings`) and figures (:mod:`.plots`).

* :mod:`.data`: the datasets of Table I and of Figs. 2-3, the run's :class:`Params`;
* :mod:`.table1`: Table I counted from the data;
* :mod:`.solvers`: Fig. 1's view sphere, Algorithm 1 against the spectral solver;
* :mod:`.methods`: the seven methods, their metrics and verdicts, Figs. 2-9;
* :mod:`.tsne`: the t-SNE perplexity sweeps of Figs. 2-3;
* :mod:`.claims`: the paper's claims decided on the verdicts;
* :mod:`.draws`: the claims over draws of the synthetic data and of the 5-NN folds;
* :mod:`.sensitivity`: the Fig. 3 claims over the swiss-roll generator settings.

The notebook ``notebooks/bvp.ipynb`` calls, in order: :func:`params`,
:func:`load_synthetic_data`, :func:`load_real_data`, :func:`table1_artefacts`,
:func:`solver_artefacts`, :func:`view_sphere_artefacts`, :func:`tsne_sweeps`,
:func:`sweep_artefacts`, :func:`evaluate_synthetic`, :func:`evaluate_real`,
:func:`method_figures`, :func:`metrics_artefacts`, :func:`claim_artefacts`,
:func:`synthetic_claims_over_seeds`, :func:`fold_draws` and
:func:`sensitivity_artefacts`. ``make bench`` (``benchmarks/bench_bvp.py``) adds the
speed of the spectral solver to ``findings.csv``.
"""

from .claims import claim_artefacts
from .data import PAPER, Params, load_real_data, load_synthetic_data, params
from .draws import fold_draws, synthetic_claims_over_seeds
from .methods import evaluate_real, evaluate_synthetic, method_figures, metrics_artefacts
from .sensitivity import sensitivity_artefacts
from .solvers import solver_artefacts, view_sphere_artefacts
from .table1 import table1_artefacts
from .tsne import sweep_artefacts, tsne_sweeps

__all__ = [
    "PAPER",
    "Params",
    "claim_artefacts",
    "evaluate_real",
    "evaluate_synthetic",
    "fold_draws",
    "load_real_data",
    "load_synthetic_data",
    "method_figures",
    "metrics_artefacts",
    "params",
    "sensitivity_artefacts",
    "solver_artefacts",
    "sweep_artefacts",
    "synthetic_claims_over_seeds",
    "table1_artefacts",
    "tsne_sweeps",
    "view_sphere_artefacts",
]
