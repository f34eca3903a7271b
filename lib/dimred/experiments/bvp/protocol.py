"""Protocol of the Best-View Projection paper (Zine-El-Abidine, Dutagaci,
Rousseau): data, methods, and the paper's visual claims as measured ones.

Table I lists, per dataset, the number of instances ``I``, the dimensionality
``Q``, the number of classes ``K`` and the class distribution; all are read
from the ORCA holdout-0 files (train ∪ test) here.

The paper judges every 2-D projection by eye on three criteria. Here each is a
verdict on a metric of :mod:`dimred.metrics.embedding`, with thresholds fixed before the
first run (:data:`SEPARATION_TOLERANCE`, :data:`ORDER_THRESHOLD`,
:data:`INFORMATIVE_RATIO`), and one added after an independent review
(:data:`SEPARATION_MARGIN`):

1. *separates*: cross-validated 5-NN accuracy in 2-D at least the accuracy in
   the input space minus 0.10 (what the input space separates, the view keeps),
   **and** at least the majority-class rate plus 0.05 (a view that classifies no
   better than always guessing the largest class separates nothing, even where
   the input space does no better: contact-lenses and bondrate, whose 5-NN
   accuracy in the input space is about the majority rate);
2. *ordered*: Spearman correlation of class rank and projected centre at least
   0.9, and adjacent centres nearer than non-adjacent ones in at least 90 % of
   the comparisons;
3. *informative*: the within-class share of the variance in 2-D at least half
   its share in the input space (classes not collapsed onto their centres).

Each claim of the paper (``data/published/bvp/claims.csv``) names a method, a
dataset and a predicate on these verdicts (:data:`PREDICATES`).

Every random choice is seeded: ``evaluate(..., seed)`` seeds t-SNE, MDS and the
5-NN folds, and the synthetic data have their own generator seed. What depends
on a draw is measured over :attr:`Params.draw_seeds` (ten in the full run): the
t-SNE perplexity sweep and the synthetic claims over draws of the synthetic data
(:func:`tsne_sweeps`, :func:`synthetic_claims_over_seeds`) and the real-data
claims over draws of the 5-NN folds (:func:`fold_draws`). Every table and row
names its data (:func:`data_label`); what the compendium states about its own
measurements is returned as findings (:mod:`.findings`).
"""

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.linalg import subspace_angles
from sklearn.preprocessing import StandardScaler
from tqdm import tqdm

from ... import datasets
from ...compendium.published import source
from ...compendium.reporting import MIN_DRAWS, Artefacts, reproduction_row
from ...datasets.synthetic import ordinal_gaussians, ordinal_swiss_rolls
from ...metrics import embedding as quality
from ...utils.labels import class_centres
from ...utils.parallel import run_tasks
from . import findings, plots
from .findings import REAL_ALL, SYNTHETIC_ALL

__all__ = [
    "METHODS",
    "PAPER",
    "PREDICATES",
    "REAL_DATASETS",
    "REAL_FIGURES",
    "SYNTHETIC_DATASETS",
    "Params",
    "best_perplexity",
    "best_perplexities",
    "claim_artefacts",
    "claim_rows",
    "data_label",
    "describe",
    "embed",
    "embedding_metrics",
    "evaluate",
    "evaluate_real",
    "evaluate_synthetic",
    "flatness",
    "fold_draws",
    "holds",
    "judge",
    "load_real",
    "load_real_data",
    "load_synthetic",
    "load_synthetic_data",
    "method_figures",
    "metrics_artefacts",
    "params",
    "perplexity_rows",
    "sensitivity_artefacts",
    "solver_agreement",
    "solver_artefacts",
    "swiss_roll_configs",
    "swiss_roll_sensitivity",
    "sweep_artefacts",
    "synthetic_claims_over_seeds",
    "table1",
    "table1_artefacts",
    "table1_rows",
    "tsne_sweep",
    "tsne_sweeps",
    "view_sphere_artefacts",
]

#: Folder of the paper under ``data/published`` and ``figures``.
PAPER = "bvp"

#: The real datasets of Table I, in its row order.
REAL_DATASETS = ("contact-lenses", "pasture", "squash-stored", "newthyroid", "car", "bondrate")


#: The paper's figure of each real dataset (Fig. 5's caption is missing from
#: the text; pasture is the one dataset of Table I left for it).
REAL_FIGURES = {
    "contact-lenses": "fig4",
    "pasture": "fig5",
    "squash-stored": "fig6",
    "newthyroid": "fig7",
    "bondrate": "fig8",
    "car": "fig9",
}

#: The synthetic datasets and their figures.
SYNTHETIC_FIGURES = {"gaussians": "fig2", "swiss_rolls": "fig3"}
SYNTHETIC_DATASETS = tuple(SYNTHETIC_FIGURES)

#: Verdict thresholds (see the module docstring), fixed before the first run.
SEPARATION_TOLERANCE = 0.10
#: "Separates" must also beat the majority-class rate by this much (added after review).
SEPARATION_MARGIN = 0.05
ORDER_THRESHOLD = 0.9
INFORMATIVE_RATIO = 0.5
#: "Performs very similarly": same verdicts and 5-NN accuracies within this.
SIMILARITY_TOLERANCE = 0.05

#: Which data each synthetic dataset is (:func:`data_label`).
SYNTHETIC_DATA = {
    "gaussians": "synthetic (ordinal Gaussians, 5 classes in 3-D)",
    "swiss_rolls": "synthetic (ordinal partial swiss rolls, 4 classes in 3-D)",
}


def data_label(name):
    """Which data a dataset of the paper is: synthetic, or real (an ORCA dataset)."""
    return SYNTHETIC_DATA.get(name, f"real (ORCA {name})")


def _with_data(table, level="dataset"):
    """``table`` with a last column ``data`` naming the data of each row (:func:`data_label`)."""
    names = table.index.get_level_values(level) if level in table.index.names else table[level]
    return table.assign(data=[data_label(name) for name in names])


@dataclass(frozen=True)
class Params:
    """Every setting of one run, decided in :func:`params`.

    Attributes
    ----------
    quick : bool
        The quick parameter set: a fifth of the synthetic points, a small
        t-SNE sweep, two draws, two swiss-roll generator settings and one seed.
    seed : int
        Seeds the synthetic data, t-SNE, MDS and the 5-NN folds of the run
        the figures show; draw ``k`` uses ``seed + k``.
    n_jobs : int or None
        joblib workers.
    perplexities : tuple of float
        t-SNE perplexities swept (the paper's 40 and 30 included).
    n_draws : int
        Draws every random finding is measured over: draws of the synthetic
        data (with t-SNE, MDS and the 5-NN folds) for the perplexity sweep and
        the synthetic claims, draws of the 5-NN folds on the real data.
    sensitivity_seeds : tuple of int
        Seeds of each swiss-roll generator setting.
    sensitivity_stride : int
        Every ``stride``-th setting of :func:`swiss_roll_configs` is run.
    """

    quick: bool = False
    seed: int = 0
    n_jobs: int | None = 2
    perplexities: tuple = (5, 10, 20, 30, 40, 50)
    n_draws: int = MIN_DRAWS
    sensitivity_seeds: tuple = (0, 1, 2)
    sensitivity_stride: int = 1

    @property
    def draw_seeds(self):
        """The seeds of the draws (the first is :attr:`seed`, the run the figures show)."""
        return tuple(self.seed + k for k in range(self.n_draws))


def params(quick=False, *, seed=0, n_jobs=2):
    """The full (paper) or quick parameter set."""
    if quick:
        return Params(
            True,
            seed,
            n_jobs,
            perplexities=(30, 40),
            n_draws=2,
            sensitivity_seeds=(0,),
            sensitivity_stride=21,
        )
    return Params(False, seed, n_jobs)


def table1(real):
    """Table I computed from the loaded data.

    Parameters
    ----------
    real : dict of str to (X, y)
        :func:`load_real_data`.

    Returns
    -------
    DataFrame
        Index: dataset; columns ``I``, ``Q``, ``K``, ``class_distribution``
        (counts of labels 1..K, space-separated).
    """
    rows = {}
    for name, (X, y) in real.items():
        counts = np.bincount(y)[1:]
        rows[name] = {
            "I": X.shape[0],
            "Q": X.shape[1],
            "K": int(np.unique(y).size),
            "class_distribution": " ".join(map(str, counts)),
        }
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = "dataset"
    return table


def table1_rows(published, reproduced):
    """``reproduction.csv`` rows: every cell of Table I, which must match exactly."""
    rows = []
    for name in published.index:
        for column in published.columns:
            expected, got = published.loc[name, column], reproduced.loc[name, column]
            expected = expected if isinstance(expected, str) else int(expected)
            got = got if isinstance(got, str) else int(got)
            rows.append(
                reproduction_row(
                    "table1",
                    f"{name}: {column}",
                    expected,
                    got,
                    "match" if expected == got else "deviates",
                    note="counted from the ORCA holdout-0 files (train ∪ test)",
                    source=source("table1_datasets", name),
                    data=data_label(name),
                )
            )
    return rows


def load_real(name, standardize=True):
    """A real dataset of Table I: features (train ∪ test) and labels 1..K.

    The paper does not say how the features were scaled. They are
    standardised by default: unscaled, one feature dominates every projection
    but LDA's (bondrate's features differ in spread by a factor 10^7, pasture's
    by 10^3) and Algorithm 1 does not converge within MaxIter on them (see
    :func:`solver_agreement`).
    """
    bunch = datasets.load_orca(name)
    X = np.asarray(bunch.data, dtype=float)
    return (StandardScaler().fit_transform(X) if standardize else X), np.asarray(bunch.target)


def load_real_data(standardize=True):
    """Every real dataset of Table I: ``{name: (X, y)}`` (see :func:`load_real`)."""
    return {name: load_real(name, standardize) for name in REAL_DATASETS}


def load_synthetic_data(p):
    """Both synthetic datasets at the size of ``p``: ``{name: (X, y)}``."""
    return {name: load_synthetic(name, p.quick, p.seed) for name in SYNTHETIC_DATASETS}


def load_synthetic(name, quick=False, seed=0):
    """The data of Fig. 2 (``"gaussians"``) or Fig. 3 (``"swiss_rolls"``).

    The paper's sizes (100 and 200 points per class); a fifth of them when
    ``quick``.
    """
    if name == "gaussians":
        return ordinal_gaussians(20 if quick else 100, random_state=seed)
    if name == "swiss_rolls":
        return ordinal_swiss_rolls(40 if quick else 200, random_state=seed)
    raise ValueError(f"unknown synthetic dataset {name!r}; expected one of {SYNTHETIC_DATASETS}.")


# ----------------------------------------------------------------------------- methods
#: The seven methods of Figs. 2 and 3, in the paper's panel order (c)-(i).
METHODS = ("BVP", "PCA", "MDS", "t-SNE", "LDA", "KDA", "LSDA")


def make_method(name, seed=0, perplexity=30.0):
    """Estimator reducing to 2-D for one of :data:`METHODS`.

    BVP: spectral solver (identical subspace to Algorithm 1, see
    :mod:`dimred.projection.bvp`); MDS: metric SMACOF from the classical solution; t-SNE:
    PCA initialisation; KDA: Gaussian kernel, regularisation 0.1 (the paper's);
    LSDA: k = 5, alpha = 0.1 (Cai's defaults).
    """
    from sklearn.decomposition import PCA
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    from sklearn.manifold import MDS, TSNE

    from ...projection import (
        BestViewProjection,
        KernelDiscriminantAnalysis,
        LocalitySensitiveDiscriminantAnalysis,
    )

    factories = {
        "BVP": lambda: BestViewProjection(2),
        "PCA": lambda: PCA(2, random_state=seed),
        "MDS": lambda: MDS(2, init="classical_mds", n_init=1, random_state=seed),
        "t-SNE": lambda: TSNE(2, perplexity=perplexity, init="pca", random_state=seed),
        "LDA": lambda: LinearDiscriminantAnalysis(n_components=2),
        "KDA": lambda: KernelDiscriminantAnalysis(2, alpha=0.1),
        "LSDA": lambda: LocalitySensitiveDiscriminantAnalysis(2, n_neighbors=5, alpha=0.1),
    }
    return factories[name]()


def embed(name, X, y, seed=0, perplexity=30.0):
    """2-D embedding of ``X`` by one method, with axes reflected so that the
    first class lies left of (and below) the last one (stable figures)."""
    Z = np.asarray(make_method(name, seed, perplexity).fit_transform(X, y), dtype=float)
    _, centres = class_centres(Z, y)
    return Z * np.where(centres[-1] - centres[0] < 0, -1.0, 1.0)


def embedding_metrics(X, y, Z, n_neighbors=5, seed=0):
    """The paper's three visual criteria as numbers (see :mod:`dimred.metrics.embedding`).

    ``seed`` draws the folds of the cross-validated 5-NN accuracy.
    """
    return {
        "knn_accuracy": quality.knn_accuracy(Z, y, random_state=seed),
        "order_correlation": quality.order_correlation(Z, y),
        "adjacent_nearer": quality.adjacent_centres_nearer(Z, y),
        "within_class_share": quality.within_class_share(Z, y),
        **quality.neighbourhood_scores(X, Z, n_neighbors),
    }


def judge(table, X, y, seed=0):
    """Add the verdicts ``separates``, ``ordered``, ``informative`` to a metrics table.

    The references are the input space's 5-NN accuracy (folds drawn by
    ``seed``, as the table's) and within-class share, also added as
    ``knn_input`` and ``share_input``; the share of the largest class is
    ``majority_rate``.
    """
    table = table.copy()
    table["knn_input"] = quality.knn_accuracy(X, y, random_state=seed)
    table["share_input"] = quality.within_class_share(X, y)
    table["majority_rate"] = np.bincount(np.unique(y, return_inverse=True)[1]).max() / len(y)
    keeps = table["knn_accuracy"] >= table["knn_input"] - SEPARATION_TOLERANCE
    beats_chance = table["knn_accuracy"] >= table["majority_rate"] + SEPARATION_MARGIN
    table["separates"] = keeps & beats_chance
    # rho takes discrete values (0.9 is one adjacent swap among 5 classes): compare
    # with a rounding tolerance so that "at least 0.9" includes 0.8999999999999999
    threshold = ORDER_THRESHOLD - 1e-9
    adjacent = table["adjacent_nearer"].fillna(1.0)
    table["ordered"] = (table["order_correlation"] >= threshold) & (adjacent >= threshold)
    table["informative"] = table["within_class_share"] >= INFORMATIVE_RATIO * table["share_input"]
    return table


def evaluate(X, y, methods=METHODS, seed=0, perplexity=30.0, n_jobs=None, precomputed=None):
    """Embed ``X`` by every method, measure and judge each embedding.

    Parameters
    ----------
    seed : int
        Seeds t-SNE, MDS and the folds of the 5-NN accuracy.
    precomputed : dict of str to ndarray, optional
        Embeddings already made (e.g. t-SNE's from :func:`tsne_sweep`); those
        methods are not run again.

    Returns
    -------
    embeddings : dict of str to ndarray of shape (n_samples, 2)
    table : DataFrame
        Indexed by method: the metrics of :func:`embedding_metrics` and the
        verdicts of :func:`judge`.
    """
    precomputed = precomputed or {}
    todo = [m for m in methods if m not in precomputed]
    tasks = [(m, X, y, seed, perplexity) for m in todo]
    results = run_tasks(embed, tasks, "embeddings", n_jobs, progress=False)
    computed = {**precomputed, **dict(zip(todo, results, strict=True))}
    embeddings = {m: computed[m] for m in methods}
    table = pd.DataFrame(
        {m: embedding_metrics(X, y, Z, seed=seed) for m, Z in embeddings.items()}
    ).T
    table.index.name = "method"
    return embeddings, judge(table.astype(float), X, y, seed)


def _tsne_case(name, quick, seed, perplexity):
    """One t-SNE embedding of the sweep (on the data of draw ``seed``) and its metrics."""
    X, y = load_synthetic(name, quick, seed)
    Z = embed("t-SNE", X, y, seed, perplexity)
    return Z, {"seed": seed, "perplexity": perplexity, **embedding_metrics(X, y, Z, seed=seed)}


def tsne_sweep(name, perplexities, seeds=(0,), quick=False, n_jobs=None):
    """t-SNE for several perplexities on several draws of a synthetic dataset.

    Draw ``seed`` generates the data (:func:`load_synthetic`), seeds t-SNE and
    draws the 5-NN folds, as :func:`evaluate` does with that seed. (With its PCA
    initialisation, t-SNE itself hardly depends on its seed: the spread over the
    draws is mostly that of the data.)

    Returns
    -------
    embeddings : dict of (int, float) to ndarray
        Keyed by (seed, perplexity).
    table : DataFrame
        One row per seed and perplexity: the metrics, judged against the input
        space of the same draw (:func:`judge`).
    """
    n_samples = len(load_synthetic(name, quick)[1])
    cases = [(s, p) for s in seeds for p in perplexities if p < n_samples - 1]
    tasks = [(name, quick, s, p) for s, p in cases]
    results = run_tasks(_tsne_case, tasks, f"t-SNE sweep, {name}", n_jobs)
    embeddings = {case: Z for case, (Z, _) in zip(cases, results, strict=True)}
    table = pd.DataFrame([metrics for _, metrics in results])
    judged = [
        judge(draw, *load_synthetic(name, quick, seed), seed)
        for seed, draw in table.groupby("seed")
    ]
    return embeddings, pd.concat(judged, ignore_index=True)


def best_perplexity(table):
    """Perplexity with the best order preservation, then class separation (one seed's sweep)."""
    ranked = table.sort_values(["order_correlation", "knn_accuracy"], ascending=False)
    return float(ranked.iloc[0]["perplexity"])


def best_perplexities(table):
    """:func:`best_perplexity` of every seed of a sweep: a Series indexed by seed."""
    return pd.Series(
        {seed: best_perplexity(group) for seed, group in table.groupby("seed")}, name="best"
    ).rename_axis("seed")


# ----------------------------------------------------------------------------- claims
#: Predicates on one method's row of a judged table, named in ``claims.csv``.
PREDICATES = {
    "fails": lambda r: not (r.separates and r.ordered),
    "succeeds": lambda r: r.separates and r.ordered,
    "succeeds_informative": lambda r: r.separates and r.ordered and r.informative,
    "clusters_without_order": lambda r: r.separates and not r.ordered,
    "compressed_without_order": lambda r: r.separates and not (r.ordered or r.informative),
    "partly_ordered": lambda r: r.separates and r.order_correlation >= 0.5,
    "separated": lambda r: bool(r.separates),
    "not_separated": lambda r: not r.separates,
    "not_informative": lambda r: not r.informative,
    "informative_ordered": lambda r: r.informative and r.ordered,
}


def _similar_to_lda_lsda(table):
    """BVP has the verdicts of LDA and LSDA and 5-NN accuracy within 0.05 of each."""
    verdicts = ["separates", "ordered", "informative"]
    return all(
        (table.loc["BVP", verdicts] == table.loc[other, verdicts]).all()
        and abs(table.loc["BVP", "knn_accuracy"] - table.loc[other, "knn_accuracy"])
        <= SIMILARITY_TOLERANCE
        for other in ("LDA", "LSDA")
    )


def describe(row):
    """The measurements and verdicts of one method, in one line."""
    flags = [
        name if row[name] else f"not {name}" for name in ("separates", "ordered", "informative")
    ]
    return (
        f"5-NN {row.knn_accuracy:.2f} (input {row.knn_input:.2f}, "
        f"majority {row.majority_rate:.2f}), "
        f"order rho {row.order_correlation:.2f}, adjacent nearer {row.adjacent_nearer:.2f}, "
        f"within-class share {row.within_class_share:.2f} (input {row.share_input:.2f}): "
        + ", ".join(flags)
    )


def holds(claim, tables):
    """Whether one claim (a row of ``claims.csv``) holds on the judged ``tables``."""
    table = tables[claim.dataset]
    if claim.decided_by == "similar_to_LDA_LSDA":
        return bool(_similar_to_lda_lsda(table))
    return bool(PREDICATES[claim.decided_by](table.loc[claim.method]))


def claim_rows(claims, tables):
    """``reproduction.csv`` rows, one per claim and dataset.

    Parameters
    ----------
    claims : DataFrame
        The transcribed ``claims.csv``.
    tables : dict of str to DataFrame
        Judged metrics per dataset (:func:`evaluate`).
    """
    rows = []
    for claim_id, claim in claims.iterrows():
        if claim.dataset not in tables:
            continue
        verdict = holds(claim, tables)
        rows.append(
            reproduction_row(
                claim.artifact,
                f"{claim_id.split('/')[0]}: {claim.method} on {claim.dataset}",
                f'{claim.decided_by} (paper: "{claim.quote}")',
                describe(tables[claim.dataset].loc[claim.method]),
                "match" if verdict else "deviates",
                note=f"predicate {claim.decided_by!r} on the thresholds of dimred.experiments.bvp",
                source=source("claims", claim_id),
                data=data_label(claim.dataset),
            )
        )
    return rows


def perplexity_rows(published, best):
    """Rows for the best t-SNE perplexities (40 for Fig. 2, 30 for Fig. 3).

    ``best`` maps dataset to our best perplexity on each draw
    (:func:`best_perplexities`). The paper's perplexity matches when it is the
    most frequent best (ties included); otherwise the most frequent best (the
    smallest, on a tie) is reported.
    """
    rows = []
    for name in published.index:
        if name not in best:
            continue
        counts = best[name].value_counts().sort_index()
        paper = float(published.loc[name, "perplexity"])
        top = counts.get(paper, 0) == counts.max()
        tally = ", ".join(f"{perplexity:g}: {count}" for perplexity, count in counts.items())
        rows.append(
            reproduction_row(
                "fig2" if name == "gaussians" else "fig3",
                f"best t-SNE perplexity on {name}",
                int(paper),
                paper if top else float(counts.idxmax()),
                "match" if top else "deviates",
                note="best = highest order correlation, then 5-NN accuracy; the most frequent "
                f"best over {len(best[name])} draws of the data and t-SNE (perplexity: draws "
                f"{tally})",
                source=source("tsne_perplexity", name),
                data=data_label(name),
            )
        )
    return rows


# ----------------------------------------------------------------------------- solvers
def solver_agreement(X, y, n_components=2, seeds=(0, 1, 2)):
    """Algorithm 1 against the spectral solver on one dataset.

    Returns
    -------
    dict
        The ratio of the largest to the smallest (non-zero) feature standard
        deviation, the number of random starts of Algorithm 1 (``seeds``), the
        largest principal angle (degrees) between the two subspaces over them,
        the objectives (Eq. (1)) reached, and Algorithm 1's mean iterations.
    """
    from ...projection import BestViewProjection

    spectral = BestViewProjection(n_components).fit(X, y)
    runs = [
        BestViewProjection(n_components, solver="riemannian", random_state=s).fit(X, y)
        for s in seeds
    ]
    angles = [
        np.degrees(subspace_angles(spectral.components_.T, r.components_.T)).max() for r in runs
    ]
    spread = np.std(X, axis=0)
    spread = spread[spread > 0]
    return {
        "feature_sd_ratio": float(spread.max() / spread.min()),
        "algorithm1_starts": len(runs),
        "max_angle_deg": float(max(angles)),
        "objective_spectral": spectral.objective_,
        "objective_riemannian": float(min(r.objective_ for r in runs)),
        "iterations_riemannian": float(np.mean([r.n_iter_ for r in runs])),
    }


# ----------------------------------------------------------------------------- sensitivity
#: Fast methods and the claims of Fig. 3 they decide, for :func:`swiss_roll_sensitivity`.
SENSITIVITY_CLAIMS = {
    "swiss_pca_fails": ("PCA", "fails"),
    "swiss_lda_fails": ("LDA", "not_separated"),
    "swiss_bvp_good": ("BVP", "succeeds_informative"),
    "swiss_lsda_good": ("LSDA", "succeeds_informative"),
}


def swiss_roll_configs():
    """The generator settings examined to choose the Fig. 3 defaults.

    Turns ``(1, 2)`` or ``(1.5, 3)`` (pi units), height 4, 8 or 12, and seven
    offsets between consecutive classes.
    """
    offsets = [(0, 0, 3), (0, 0, 4), (0, 3, 3), (2, 0, 3), (3, 2, 1), (2, 2, 2), (0, 4, 2)]
    return [
        {"turns": turns, "height": float(height), "offset": tuple(map(float, offset))}
        for turns in ((1.0, 2.0), (1.5, 3.0))
        for height in (4, 8, 12)
        for offset in offsets
    ]


def _sensitivity_case(config, seed):
    X, y = ordinal_swiss_rolls(random_state=seed, **config)
    methods = sorted({method for method, _ in SENSITIVITY_CLAIMS.values()})
    _, table = evaluate(X, y, methods, seed)
    row = {**{k: str(v) for k, v in config.items()}, "seed": seed}
    row.update({m: describe(table.loc[m]) for m in methods})
    for claim, (method, predicate) in SENSITIVITY_CLAIMS.items():
        row[claim] = bool(PREDICATES[predicate](table.loc[method]))
    return row


def swiss_roll_sensitivity(configs, seeds=(0,), n_jobs=None):
    """The Fig. 3 claims decided by fast methods, for several generator settings.

    Parameters
    ----------
    configs : list of dict
        Keyword arguments of :func:`dimred.datasets.synthetic.ordinal_swiss_rolls`.
    seeds : sequence of int
    n_jobs : int or None
        joblib workers.

    Returns
    -------
    DataFrame
        One row per configuration and seed: the settings, each method's
        measurements, and whether each claim of :data:`SENSITIVITY_CLAIMS` holds.
    """
    cases = [(config, seed) for config in configs for seed in seeds]
    return pd.DataFrame(run_tasks(_sensitivity_case, cases, "generators", n_jobs))


def flatness(table, metrics=("order_correlation", "knn_accuracy")):
    """How much each metric of a t-SNE sweep moves across perplexities and across draws.

    Returns
    -------
    DataFrame
        Per metric: ``across_perplexities``, the median over the draws (seeds)
        of the metric's range over the perplexities, and ``across_seeds``, the
        median over perplexities of its range over the draws.
    """
    columns = list(metrics)
    by_seed, by_perplexity = table.groupby("seed")[columns], table.groupby("perplexity")[columns]
    return pd.DataFrame(
        {
            "across_perplexities": (by_seed.max() - by_seed.min()).median(),
            "across_seeds": (by_perplexity.max() - by_perplexity.min()).median(),
        }
    ).rename_axis("metric")


# ----------------------------------------------------------------------------- draws
def _synthetic_case(seed, quick, perplexities, claims):
    """Whether each synthetic claim holds on the data, t-SNE, MDS and folds of one seed."""
    tables = {}
    for name in SYNTHETIC_DATASETS:
        X, y = load_synthetic(name, quick, seed)
        _, tables[name] = evaluate(X, y, seed=seed, perplexity=perplexities[name])
    return {"seed": seed} | {key: holds(claim, tables) for key, claim in claims.iterrows()}


def _fold_case(X, y, embeddings, table, seed):
    """A judged table (:func:`evaluate`) with the 5-NN folds drawn again by ``seed``."""
    knn = {m: quality.knn_accuracy(Z, y, random_state=seed) for m, Z in embeddings.items()}
    return judge(table.assign(knn_accuracy=pd.Series(knn)), X, y, seed)


def _claims_on(claims, datasets):
    """The claims of ``claims.csv`` about some datasets."""
    return claims[claims["dataset"].isin(datasets)]


# ----------------------------------------------------------------------------- notebook steps
def table1_artefacts(real, published):
    """Table I from the data, and a row for each of its cells."""
    table = table1(real)
    return Artefacts(
        tables={"table1_datasets": _with_data(table)},
        rows=table1_rows(published["table1_datasets"], table),
    )


def solver_artefacts(synthetic, real, raw):
    """Algorithm 1 against the spectral solver on every dataset (:func:`solver_agreement`).

    Parameters
    ----------
    synthetic, real, raw : dict of str to (X, y)
        The synthetic data, the standardised and the raw real data.

    Returns
    -------
    Artefacts
        Table ``solver_agreement``; findings ``spectral_closed_form`` and
        ``raw_features`` (deterministic: fixed random starts of Algorithm 1).
    """
    cases = {(name, "as generated"): data for name, data in synthetic.items()}
    for name in real:
        cases[name, "standardised"] = real[name]
        cases[name, "raw"] = raw[name]
    agreement = {case: solver_agreement(*data) for case, data in tqdm(cases.items(), "solvers")}
    table = pd.DataFrame(agreement).T.rename_axis(["dataset", "features"])
    return Artefacts(
        tables={"solver_agreement": _with_data(table)},
        findings=[findings.closed_form(table), findings.raw_features(table)],
    )


def view_sphere_artefacts(synthetic):
    """Fig. 1: the Gaussian data, its view sphere coloured by F(v) and the best view."""
    return Artefacts(
        figures={"fig1_view_sphere": plots.figure_view_sphere(*synthetic["gaussians"])}
    )


def tsne_sweeps(p):
    """:func:`tsne_sweep` on each synthetic dataset over the draws of ``p.draw_seeds``.

    Returns
    -------
    dict
        ``{name: (embeddings, table)}``; draw ``p.seed`` is the data of the figures.
    """
    return {
        name: tsne_sweep(name, p.perplexities, p.draw_seeds, p.quick, p.n_jobs)
        for name in SYNTHETIC_DATASETS
    }


def sweep_artefacts(sweeps, published):
    """The sweep's metrics, the best perplexity of every seed, how flat the sweep is,
    the rows of the best perplexities and one finding per dataset."""
    tables = {name: table for name, (_, table) in sweeps.items()}
    best = {name: best_perplexities(table) for name, table in tables.items()}
    sweep = pd.concat([table.assign(dataset=name) for name, table in tables.items()])
    flat = pd.concat({name: flatness(table) for name, table in tables.items()}, names=["dataset"])
    paper = published["tsne_perplexity"]["perplexity"]
    return Artefacts(
        tables={
            "tsne_perplexity_sweep": _with_data(sweep.set_index(["dataset", "seed", "perplexity"])),
            "tsne_best_perplexity": _with_data(pd.concat(best, names=["dataset"]).to_frame()),
            "tsne_perplexity_flatness": _with_data(flat),
        },
        rows=perplexity_rows(published["tsne_perplexity"], best),
        findings=[
            findings.best_perplexity(
                name, best[name], flat.loc[name], float(paper[name]), data_label(name)
            )
            for name in tables
        ],
    )


def evaluate_synthetic(synthetic, sweeps, published, p):
    """Every method of :data:`METHODS` on each synthetic dataset, judged.

    t-SNE is the sweep's embedding of draw ``p.seed`` (the same data) at the
    paper's perplexity (not rerun).

    Returns
    -------
    dict of str to (embeddings, table)
    """
    result = {}
    for name, (X, y) in synthetic.items():
        perplexity = float(published["tsne_perplexity"].loc[name, "perplexity"])
        embedded = {"t-SNE": sweeps[name][0][p.seed, perplexity]}
        result[name] = evaluate(X, y, seed=p.seed, n_jobs=p.n_jobs, precomputed=embedded)
    return result


def evaluate_real(real, p):
    """BVP, LDA and LSDA on each real dataset, judged: ``{name: (embeddings, table)}``."""
    return {
        name: evaluate(X, y, ("BVP", "LDA", "LSDA"), p.seed, n_jobs=p.n_jobs)
        for name, (X, y) in tqdm(real.items(), "real datasets")
    }


def method_figures(data, evaluations):
    """Figs. 2-3 (synthetic: two 3-D views and seven methods) or Figs. 4-9 (real)."""
    figures = {}
    for name, (X, y) in data.items():
        embeddings, _ = evaluations[name]
        if name in REAL_FIGURES:
            figures[f"{REAL_FIGURES[name]}_{name}"] = plots.figure_real(embeddings, y, name)
        else:
            title = name.replace("_", " ")
            figure = plots.figure_methods(X, y, embeddings, suptitle=title)
            figures[f"{SYNTHETIC_FIGURES[name]}_{name}"] = figure
    return Artefacts(figures=figures)


def metrics_artefacts(evaluations):
    """Every method x dataset: the metrics, the input-space references and the verdicts."""
    metrics = pd.concat(
        {name: table for name, (_, table) in evaluations.items()}, names=["dataset"]
    )
    return Artefacts(tables={"metrics": _with_data(metrics)})


def claim_artefacts(evaluations, published, p):
    """Each claim of ``claims.csv`` decided on the judged tables (:func:`claim_rows`),
    and the finding ``claims_held`` (the run of seed ``p.seed``)."""
    tables = {name: table for name, (_, table) in evaluations.items()}
    claims = published["claims"]
    rows = claim_rows(claims, tables)
    verdicts = pd.Series({key: holds(claim, tables) for key, claim in claims.iterrows()})
    listed = pd.DataFrame(rows)[["artifact", "item", "status", "reproduced", "data"]]
    return Artefacts(
        tables={"claim_verdicts": listed},
        rows=rows,
        findings=[findings.claims_held(claims, verdicts, tables, p.seed, SEPARATION_MARGIN)],
    )


def synthetic_claims_over_seeds(published, p):
    """The synthetic claims on the data, t-SNE, MDS and 5-NN folds of every draw seed.

    Each seed of ``p.draw_seeds`` draws the Gaussians and the swiss rolls, t-SNE
    (at the paper's perplexity), MDS and the folds; seed ``p.seed`` is the run
    the figures show.

    Returns
    -------
    Artefacts
        Table ``synthetic_claims_by_seed`` (seed x claim: holds) and the finding
        ``synthetic_claims_over_seeds``.
    """
    claims = _claims_on(published["claims"], SYNTHETIC_DATASETS)
    perplexities = published["tsne_perplexity"]["perplexity"].astype(float).to_dict()
    tasks = [(seed, p.quick, perplexities, claims) for seed in p.draw_seeds]
    table = pd.DataFrame(run_tasks(_synthetic_case, tasks, "generator seeds", p.n_jobs))
    table = table.set_index("seed")
    return Artefacts(
        tables={"synthetic_claims_by_seed": table},
        findings=[
            findings.over_draws(
                table,
                claims,
                "synthetic_claims_over_seeds",
                "The synthetic claims, redrawn",
                "seeds of the synthetic data (each also seeding t-SNE, MDS and the 5-NN folds; "
                "synthetic_claims_by_seed)",
                SYNTHETIC_ALL,
            )
        ],
        data=SYNTHETIC_ALL,
    )


def fold_draws(real, evaluations, published, p):
    """The real-data claims with the 5-NN folds drawn by each seed of ``p.draw_seeds``.

    Only the separation verdict depends on the folds (through the 5-NN
    accuracies of the views and of the input space); seed ``p.seed`` gives the
    folds of :func:`evaluate_real`.

    Returns
    -------
    Artefacts
        Tables ``knn_fold_draws`` (fold seed x dataset x method: 5-NN accuracy,
        input accuracy, majority rate, separates) and ``real_claims_by_fold_draw``
        (fold seed x claim: holds); findings ``real_claims_over_folds`` and
        ``lsda_separation``.
    """
    claims = _claims_on(published["claims"], REAL_DATASETS)
    cases = [(seed, name) for seed in p.draw_seeds for name in real]
    tasks = [(*real[name], *evaluations[name], seed) for seed, name in cases]
    judged = dict(zip(cases, run_tasks(_fold_case, tasks, "5-NN folds", p.n_jobs), strict=True))
    columns = ["knn_accuracy", "knn_input", "majority_rate", "separates"]
    knn = pd.concat(
        {case: table[columns] for case, table in judged.items()},
        names=["fold_seed", "dataset", "method"],
    )
    verdicts = pd.DataFrame(
        {
            seed: {
                key: holds(claim, {name: judged[seed, name] for name in real})
                for key, claim in claims.iterrows()
            }
            for seed in p.draw_seeds
        }
    ).T.rename_axis("fold_seed")
    return Artefacts(
        tables={"knn_fold_draws": _with_data(knn), "real_claims_by_fold_draw": verdicts},
        findings=[
            findings.over_draws(
                verdicts,
                claims,
                "real_claims_over_folds",
                "The real-data claims, refolded",
                "draws of the 5-NN folds on the real data (real_claims_by_fold_draw)",
                REAL_ALL,
            ),
            findings.lsda_separation(knn, claims, SEPARATION_MARGIN),
        ],
        data={"real_claims_by_fold_draw": REAL_ALL},
    )


def sensitivity_artefacts(p):
    """The Fig. 3 claims on the generator settings of :func:`swiss_roll_configs`.

    Returns
    -------
    Artefacts
        Tables ``swiss_roll_sensitivity`` (one row per setting and seed) and
        ``swiss_roll_sensitivity_summary``; the finding ``swiss_roll_sensitivity``.
    """
    configs = swiss_roll_configs()[:: p.sensitivity_stride]
    table = swiss_roll_sensitivity(configs, p.sensitivity_seeds, p.n_jobs)
    claims = list(SENSITIVITY_CLAIMS)
    share = table[claims].mean().rename("share of settings x seeds where the claim holds")
    share.index.name = "claim"
    return Artefacts(
        tables={
            "swiss_roll_sensitivity": table,
            "swiss_roll_sensitivity_summary": share.to_frame(),
        },
        findings=[
            findings.swiss_roll_sensitivity(
                table, SENSITIVITY_CLAIMS, len(configs), len(p.sensitivity_seeds)
            )
        ],
        data=f"synthetic (ordinal partial swiss rolls, {len(configs)} generator settings)",
    )
