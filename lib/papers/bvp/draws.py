"""The claims of the Best-View Projection paper over draws: the synthetic claims
(Figs. 2-3) over draws of the data, the real-data claims (Figs. 4-9) over draws of
the 5-NN folds.

Every random choice is seeded: ``evaluate(..., seed)`` seeds t-SNE, MDS and the
5-NN folds, and the synthetic data have their own generator seed. What depends
on a draw is measured over :attr:`~.data.Params.draw_seeds` (ten in the full run):
the t-SNE perplexity sweep (:func:`~.tsne.tsne_sweeps`), the synthetic claims over
draws of the synthetic data (:func:`synthetic_claims_over_seeds`) and the
real-data claims over draws of the 5-NN folds (:func:`fold_draws`).
"""

import pandas as pd

from compendium.reporting import Artefacts
from dimred.metrics import embedding as quality
from dimred.utils.parallel import run_tasks

from . import findings
from .claims import holds
from .data import REAL_DATASETS, SYNTHETIC_DATASETS, _with_data, load_synthetic
from .findings import REAL_ALL, SYNTHETIC_ALL
from .methods import SEPARATION_MARGIN, evaluate, judge

__all__ = ["fold_draws", "synthetic_claims_over_seeds"]


def _synthetic_case(seed, quick, perplexities, claims):
    """Whether each synthetic claim holds on the data, t-SNE, MDS and folds of one seed."""
    tables = {}
    for name in SYNTHETIC_DATASETS:
        X, y = load_synthetic(name, quick, seed)
        _, tables[name] = evaluate(X, y, seed=seed, perplexity=perplexities[name])
    return {"seed": seed} | {key: holds(claim, tables) for key, claim in claims.iterrows()}


def _fold_case(X, y, embeddings, table, seed):
    """A judged table (:func:`~.methods.evaluate`) with the 5-NN folds drawn again by ``seed``."""
    knn = {m: quality.knn_accuracy(Z, y, random_state=seed) for m, Z in embeddings.items()}
    return judge(table.assign(knn_accuracy=pd.Series(knn)), X, y, seed)


def _claims_on(claims, datasets):
    """The claims of ``claims.csv`` about some datasets."""
    return claims[claims["dataset"].isin(datasets)]


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
    folds of :func:`~.methods.evaluate_real`.

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
