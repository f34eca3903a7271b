"""Remark 2 of the metrical-importance paper (Denisiuk): the Hamming scaling of the
categorical features against the exact (empirical) normalisation.

For every dataset and both scalings, the metrical importance's most important feature
and its discard order, compared with the random-forest based importances of every seed
("rf", "sd", "gini", "shapley"; their orders from :mod:`.orders`): Kendall's tau of
the two orders, the forest's rank of the metrical top feature and whether the two top
features are the same.
"""

import numpy as np
import pandas as pd

from compendium.reporting import Artefacts

from . import findings
from .data import ALL_DATA, FORESTS, _with_data, metrical
from .orders import _orders, kendall_tau

__all__ = ["scaling_comparison"]


def scaling_comparison(data, imps, p):
    """Remark 2's Hamming scaling against the exact (empirical) normalisation.

    Returns
    -------
    Artefacts
        ``scaling_comparison``: per dataset and scaling, the most important
        feature (number, name, levels and the share of its most frequent level)
        and the metrical discard order; ``scaling_forest_agreement``: per
        dataset, scaling, seed and forest importance, the Kendall tau of the
        metrical order with the forest's, the forest's rank of the metrical top
        feature and whether the two top features are the same; findings
        ``remark2_flaw`` and ``empirical_scaling``.
    """
    orders = _orders(imps)
    tops, agreement = [], []
    for name, d in data.items():
        for scaling in ("hamming", "empirical"):
            order = metrical(d, scaling=scaling).discard_order_ + 1
            top = int(order[-1])
            tops.append(
                {"dataset": name, "scaling": scaling, **_feature_facts(d, top)}
                | {"n_features": len(order), "order": " ".join(map(str, order))}
            )
            for seed, imp, forest in zip(p.seeds, imps[name], orders[name], strict=True):
                ranks = imp.rank(ascending=False, method="min")
                agreement += [
                    {
                        "dataset": name,
                        "scaling": scaling,
                        "seed": seed,
                        "forest": f,
                        "tau": kendall_tau(order, forest.loc[f].to_numpy()),
                        "forest_rank_of_top": int(ranks.loc[top, f]),
                        "same_top": int(imp[f].idxmax()) == top,
                    }
                    for f in FORESTS
                ]
    tops, agreement = pd.DataFrame(tops).round(3), pd.DataFrame(agreement).round(3)
    return Artefacts(
        tables={
            "scaling_comparison": _with_data(tops),
            "scaling_forest_agreement": _with_data(agreement),
        },
        findings=[
            findings.remark2_flaw(tops, agreement, ALL_DATA),
            findings.empirical_scaling(tops, agreement, ALL_DATA),
        ],
    )


def _feature_facts(data, feature):
    """Number, name, levels and largest level share of a feature (numbered from 1)."""
    column = data.X.iloc[:, feature - 1]
    categorical = bool(data.categorical[feature - 1])
    return {
        "most_important": feature,
        "feature": data.feature_names[feature - 1],
        "levels": column.nunique() if categorical else np.nan,
        "largest_level_share": column.value_counts(normalize=True).max() if categorical else np.nan,
    }
