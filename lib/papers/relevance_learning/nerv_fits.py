"""The NeRV relevance fit of "Relevance Learning for Dimensionality Reduction" (Schulz,
Gisbrecht & Hammer, ESANN 2014): what it leaves open, and its local optima.

* :func:`nerv_choices` -- what the two choices the paper leaves open (widths fixed or
  following ``lambda``; cost summed or averaged) do at ``delta = 1``, on set1's map
  of Fig. 2;
* :func:`local_optima` -- ``lambda_NeRV`` from random starting points (set1 and set3),
  against the text's "no local optima".
"""

import numpy as np
import pandas as pd

from compendium.reporting import Artefacts, finding_row, format_spread
from dimred.relevance import NeRVRelevance
from dimred.relevance.objective import NeRVObjective
from dimred.relevance.rprop import rprop
from dimred.utils.parallel import run_tasks

from . import plots
from .data import SET1, ZERO_SHARE, _claim_row, _cluster_size, _set1_map, _stated_row
from .toy import neighbourhoods, nerv_profile, tsne_map

__all__ = ["local_optima", "nerv_choices"]

#: The NeRV widths and costs compared by :func:`nerv_choices`.
NERV_CHOICES = (("fixed", "sum"), ("fixed", "mean"), ("adaptive", "sum"), ("adaptive", "mean"))


def _nerv_choice(X, Y, ks, gamma, delta, widths, cost):
    """:func:`nerv_profile` with one choice of widths and cost (a task of :func:`nerv_choices`)."""
    return nerv_profile(X, Y, ks, gamma, delta, widths=widths, cost=cost)


def nerv_choices(data, published, p):
    """``lambda_NeRV`` on set1 for the widths and costs the paper leaves open (``delta = 1``)."""
    X, y = data["set1"]
    Y = _set1_map(data, p)
    ks = np.asarray(p.set1_ks)
    tasks = [(X, Y, ks, p.gamma, p.delta, widths, cost) for widths, cost in NERV_CHOICES]
    profiles = run_tasks(_nerv_choice, tasks, "NeRV widths and costs", p.n_jobs)
    results = dict(zip(NERV_CHOICES, profiles, strict=True))
    frames = [
        pd.DataFrame(
            values.round(4), index=pd.Index(ks, name="k"), columns=["dim1", "dim2", "dim3"]
        ).assign(widths=widths, cost=cost)
        for (widths, cost), values in results.items()
    ]
    table = pd.concat(frames).reset_index()[["widths", "cost", "k", "dim1", "dim2", "dim3"]]
    largest = {choice: float(values.max()) for choice, values in results.items()}
    notes = [
        f"widths={w}, cost={c}: largest relevance {largest[w, c]:.3g} over k"
        for w, c in NERV_CHOICES
    ]
    rows = [
        _stated_row(published, "gamma", p.gamma),
        _stated_row(published, "delta", p.delta),
    ]
    return Artefacts(
        tables={"nerv_widths_and_cost": table},
        figures={"nerv_widths_and_cost": plots.figure_nerv_choices(ks, results)},
        rows=rows,
        notes=notes,
        data=SET1,
    )


def local_optima(data, published, p):
    """``lambda_NeRV`` from random starting points against the fit started at ``lambda = 1``."""
    rng = np.random.default_rng(p.seed)
    records = []
    for name in ("set1", "set3"):
        X, y = data[name]
        Y = tsne_map(X, p.toy_perplexity, p.seed)
        k = neighbourhoods(_cluster_size(y), dict(p.cluster_factors))["medium"]
        reference = NeRVRelevance(k, gamma=p.gamma, delta=p.delta, neighbors="all").fit(X, Y)
        objective = NeRVObjective(X, Y, k, p.gamma, p.delta)
        for start in range(p.n_starts):
            theta = rprop(objective, rng.uniform(0.0, 2.0, X.shape[1]))[0]
            gap = np.abs(theta - reference.relevances_).max() / reference.relevances_.max()
            records.append(
                {"set": name, "k": k, "start": start, "largest_relative_difference": gap}
            )
    table = pd.DataFrame.from_records(records)
    gaps = table["largest_relative_difference"]
    row = _claim_row(
        published,
        "nerv_no_local_optima",
        gaps.max() <= ZERO_SHARE,
        f"largest difference over {len(table)} random starts: {gaps.max():.3f} of the largest "
        "relevance",
    )
    finding = finding_row(
        "nerv_random_starts",
        "No local optima",
        f"λ_NeRV from {len(table)} random starting points (uniform in [0, 2], on set1 and set3 "
        "at the medium k) ends within "
        f"{format_spread(100 * gaps, 2, unit=' %', what='starts')} of the largest relevance "
        "of the fit started at λ = 1, as the paper observed.",
        "largest |lambda^2 - lambda^2(start 1)| / max lambda^2(start 1), per random start",
        gaps,
        data="synthetic (set1, set3)",
        predicate=f"every start within {ZERO_SHARE:.0%}",
        holds=bool(gaps.max() <= ZERO_SHARE),
    )
    return Artefacts(
        tables={"nerv_random_starts": table.round(4)},
        rows=[row],
        findings=[finding],
        data="synthetic (set1, set3)",
    )
