"""The visual claims of the Best-View Projection paper (Figs. 2-9), decided on the
judged tables of :mod:`.methods`.

Each claim of the paper (``data/published/bvp/claims.csv``) names a method, a
dataset and a predicate on these verdicts (:data:`PREDICATES`), or the
similarity of BVP to LDA and LSDA (same verdicts, 5-NN accuracies within
:data:`SIMILARITY_TOLERANCE`). :func:`holds` decides one claim,
:func:`claim_rows` gives the ``reproduction.csv`` rows of all of them and
:func:`claim_artefacts` adds the finding ``claims_held``.
"""

import pandas as pd

from compendium.published import source
from compendium.reporting import Artefacts, reproduction_row

from . import findings
from .data import data_label
from .methods import SEPARATION_MARGIN

__all__ = ["PREDICATES", "claim_artefacts", "claim_rows", "describe", "holds"]

#: "Performs very similarly": same verdicts and 5-NN accuracies within this.
SIMILARITY_TOLERANCE = 0.05

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
        Judged metrics per dataset (:func:`~.methods.evaluate`).
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
                note=f"predicate {claim.decided_by!r} on the thresholds of papers.bvp",
                source=source("claims", claim_id),
                data=data_label(claim.dataset),
            )
        )
    return rows


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
