"""Item 3: the relevance of the features for a map against their importance for the labels.

For a map ``Y`` of data ``X``, NeRV relevance learning (the relevance paper, Sect. 3;
:class:`~dimred.relevance.NeRVRelevance` with its defaults: ``k = 10``, ``gamma = 0.5``,
``delta = 1``, fixed widths) gives ``lambda_l^2``, how much feature ``l`` the map
keeps; the metrical importance (the metrical-importance paper,
:class:`~dimred.importance.MetricalImportance`) and a random forest's permutation
(``rf``, scaled as R's), unscaled permutation (``sd``), Gini and SHAP importances
(:func:`~dimred.importance.forest_importances`; 500 trees, SHAP on 200 rows) say how
much feature ``l`` tells the labels. Their agreement is Spearman's rank correlation
over the features, for every map, importance and seed.

Rounding is kept out of both sides. NeRV learns on the map rounded to a power-of-two
grid of :data:`MAP_RTOL` of its largest coordinate (:func:`~papers.stable_maps.on_grid`):
a map that two BLAS kernels give to 1e-14 (LSDA's on car) is then the same input,
where the last bits once changed NeRV's Rprop path (car's relevances 4e-4 apart).
Before Spearman's ranks, relevances and importances are put on a grid of
:data:`TIE_RTOL` of their largest magnitude, so that values equal in exact arithmetic
(the symmetric features of car's and bondrate's designs have equal metrical
importances) tie, instead of being ranked by rounding noise.

Data and maps:

* the BVP paper's six real ORCA datasets (standardised) with the maps of item 2 (made
  once, t-SNE at every seed); every feature is numeric there
  (nominal attributes come binarised);
* the metrical-importance paper's three mixed datasets (Statlog Heart, Statlog
  Australian, Bank Marketing's ``bank.csv``, this one a stratified draw of 1,000 rows
  per seed), mapped by PCA, SMACOF MDS and t-SNE (perplexity 30;
  :mod:`papers.stable_maps`, as item 2) of their encoding:
  numeric features standardised, categorical ones one-hot; the relevance of a
  categorical feature is the sum of its indicator columns' ``lambda^2`` (its
  contribution to ``d_lambda^2`` when its level changes, up to the factor 2 every
  feature shares). The importances are those of the metrical paper's protocol
  (:func:`papers.metrical_importance.data.importances`).

The seed ``s`` seeds the forest, the t-SNE maps and, for Bank, the draw; the metrical
importance and the other maps of fixed data do not depend on it.
"""

import warnings

import numpy as np
import pandas as pd
from scipy.stats import spearmanr
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import train_test_split

from dimred.relevance import NeRVRelevance
from dimred.utils.parallel import run_tasks

from ..metrical_importance import data as metrical
from ..stable_maps import on_grid
from .maps import STOCHASTIC, stable_map
from .partitions import canonical_order

__all__ = ["IMPORTANCES", "MIXED_MAPS", "agreement_case", "agreement_scores", "mixed_draw"]

#: Importances compared with the relevance (columns of the metrical protocol's table;
#: ``pca`` is the metrical importance).
IMPORTANCES = {"pca": "metrical", "rf": "rf", "sd": "sd", "gini": "gini", "shapley": "shapley"}
MIXED_MAPS = ("PCA", "MDS", "t-SNE")
#: Grid of the maps NeRV learns on, and of the values ranked by Spearman, relative to
#: their largest magnitude.
MAP_RTOL = 1e-6
TIE_RTOL = 1e-9
#: Rows of Bank Marketing per draw, trees, SHAP rows.
BANK_ROWS = 1000
N_TREES = 500
SHAP_ROWS = 200


def mixed_draw(data, seed, rows=BANK_ROWS):
    """A stratified draw of ``rows`` rows (all when fewer), drawn from the rows in
    canonical order (:func:`~.partitions.canonical_order` of the level codes), so that
    it does not depend on the order of the file's rows."""
    if len(data.y) <= rows:
        return data
    order = canonical_order(data.codes(), data.y)
    keep, _ = train_test_split(order, train_size=rows, stratify=data.y[order], random_state=seed)
    keep = np.sort(keep)
    return metrical.PaperData(data.name, data.X.iloc[keep], data.y[keep], data.categorical)


def encode(data):
    """Numeric features standardised, categorical ones one-hot; and the feature of each
    column."""
    columns, owner = [], []
    for j, (name, is_cat) in enumerate(zip(data.X.columns, data.categorical, strict=True)):
        column = data.X[name]
        if is_cat:
            dummies = pd.get_dummies(column, dtype=float).to_numpy()
            columns.append(dummies)
            owner += [j] * dummies.shape[1]
        else:
            values = column.to_numpy(dtype=float)
            sd = values.std()
            columns.append(((values - values.mean()) / (sd if sd > 0 else 1.0))[:, None])
            owner.append(j)
    return np.hstack(columns), np.asarray(owner)


def mixed_maps(X, seed, maps=MIXED_MAPS):
    """PCA, MDS (classical start) and t-SNE maps of an encoded mixed dataset."""
    return {name: np.asarray(stable_map(name, X, seed), dtype=float) for name in maps}


def relevance(X, Y, owner):
    """NeRV ``lambda^2`` of every column of ``X`` for the map ``Y`` (on the grid of
    :data:`MAP_RTOL`), summed per feature.

    Returns
    -------
    relevances : ndarray of shape (n_features,)
    fit : dict
        ``evaluations``, Rprop's evaluations (``max_iter``, 500, when it stopped
        before converging), and ``stacked``, the points of ``Y`` whose width ``k``
        cannot set (more than ``k`` points share their location; NeRV's ``q`` then
        sits on the duplicates, :attr:`NeRVRelevance.unreached_`).
    """
    with warnings.catch_warnings():  # counted, not warned about
        warnings.simplefilter("ignore", ConvergenceWarning)
        warnings.filterwarnings("ignore", ".*width cannot be set", UserWarning)
        model = NeRVRelevance().fit(X, on_grid(np.asarray(Y, dtype=float), MAP_RTOL))
    relevances = np.bincount(owner, weights=model.relevances_, minlength=owner.max() + 1)
    return relevances, {"evaluations": model.n_iter_, "stacked": model.unreached_["Y"]}


def correlations(relevances, importance, keys):
    """Spearman's rho of each map's relevance with each importance (features with a
    finite importance only, both sides on the grid of :data:`TIE_RTOL`; ``nan`` when
    either side is constant)."""
    rows = []
    for map_name, lam in relevances.items():
        for column, kind in IMPORTANCES.items():
            values = importance[column].to_numpy(dtype=float)
            finite = np.isfinite(values)
            ranked = [on_grid(v[finite], TIE_RTOL) for v in (lam, values)]
            rho = spearmanr(*ranked).statistic
            rows.append({**keys, "map": map_name, "importance": kind, "spearman": float(rho)})
    return rows


def agreement_case(name, seed, data, maps):
    """The importances of one dataset at one seed and the relevances of its new maps.

    Parameters
    ----------
    name : str
    seed : int
    data : PaperData
        The dataset (a draw, for Bank).
    maps : dict of str to ndarray or tuple of str
        Maps of item 2 (ORCA sets), or the names of :data:`MIXED_MAPS` to draw here.

    Returns
    -------
    importance : DataFrame
        The metrical protocol's importances (one row per feature).
    relevances : dict of str to ndarray
        ``lambda^2`` per feature of each map.
    fits : dict of str to dict
        Each map's fit: Rprop's evaluations and the stacked points (:func:`relevance`).
    """
    X, owner = encode(data)
    if not isinstance(maps, dict):
        maps = mixed_maps(X, seed, maps)
    fits = {m: relevance(X, Y, owner) for m, Y in maps.items()}
    relevances = {m: lam for m, (lam, _) in fits.items()}
    fits = {m: fit for m, (_, fit) in fits.items()}
    importance = metrical.importances(data, seed, N_TREES, shap_rows=SHAP_ROWS)
    return importance, relevances, fits


def _new_maps(name, draw, maps, fixed):
    """The maps of ``name`` first made at ``draw``: the item-2 maps of that draw; the
    mixed maps at draw 0 and, on drawn data (Bank), at every draw. On fixed data only
    the :data:`~.maps.STOCHASTIC` maps depend on the seed; the others are made once."""
    if isinstance(maps, dict):
        return {m: Y for (d, r, m), Y in maps.items() if d == name and r == draw}
    return MIXED_MAPS if draw == 0 or not fixed else STOCHASTIC


def agreement_scores(orca, mixed, maps, p):
    """Relevance against importance for every dataset and seed
    ``p.seed .. p.seed + p.map_draws - 1``.

    At seed ``s`` the forest is seeded by ``s``; the maps of fixed data are made once
    (:func:`_new_maps`), Bank's at every draw.

    Parameters
    ----------
    orca : dict of str to (X, y)
        The real BVP datasets (standardised).
    mixed : dict of str to PaperData
        The metrical-importance datasets.
    maps : dict
        ``{(dataset, draw, method): Y}`` of item 2 (the real datasets: every map at
        draw 0, the stochastic ones at every draw).

    Returns
    -------
    table : DataFrame
        One row per dataset, seed, map and importance: ``spearman``.
    fits : DataFrame
        One row per NeRV fit: ``dataset``, ``seed``, ``map``, ``evaluations``,
        ``stacked`` (points of the map sharing their location with more than ``k``
        others), ``converged`` (stopped before ``max_iter``).
    """
    tasks = []
    for draw in range(p.map_draws):
        seed = p.seed + draw
        for name, (X, y) in orca.items():
            data = metrical.PaperData(
                name, pd.DataFrame(X), np.asarray(y), np.zeros(X.shape[1], dtype=bool)
            )
            tasks.append((name, seed, data, _new_maps(name, draw, maps, True)))
        for name, data in mixed.items():
            drawn = mixed_draw(data, seed)
            tasks.append((name, seed, drawn, _new_maps(name, draw, None, drawn is data)))
    outputs = run_tasks(agreement_case, tasks, "relevance against importance", p.n_jobs)
    rows, fits, first = [], [], {}
    for (name, seed, *_), (importance, relevances, done) in zip(tasks, outputs, strict=True):
        first.setdefault(name, relevances)
        current = {**first[name], **relevances}
        rows += correlations(current, importance, {"dataset": name, "seed": seed})
        fits += [{"dataset": name, "seed": seed, "map": m, **fit} for m, fit in done.items()]
    fits = pd.DataFrame(fits)
    fits["converged"] = fits["evaluations"] < NeRVRelevance().max_iter
    return pd.DataFrame(rows), fits
