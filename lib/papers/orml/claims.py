"""The claims of the text of "Ordinal Regression via Manifold Learning" (Liu, Liu & Chan,
AAAI 2011) on Table 1, Table 2 and Fig. 3, and the findings on our runs.

A claim (``data/published/orml/claims.csv``) is decided by the same rule on the
published and on our numbers (:func:`claim_rows`; the USPS ones through
:func:`usps_claims`); the claims on Fig. 3 on every UMIST training split.
:func:`finding_artefacts` states our findings (:mod:`.findings`, the book's findings page).
"""

from compendium.published import source
from compendium.reporting import Artefacts, reproduction_row

from .findings import MOVIELENS, UMIST, USPS, orml_findings
from .methods import MOVIELENS_METHODS, TENSOR_METHODS, TRIVIAL_METHODS, VECTOR_METHODS

__all__ = ["claim_artefacts", "claim_rows", "finding_artefacts", "usps_claims"]


def usps_claims(table):
    """The two USPS claims of the text, evaluated on a Table 2 (``method, per_class, mean``).

    Returns
    -------
    dict
        ``proposed_best``: training sizes x {vector, tensor} where ORML (ORML/M)
        has the lowest MAE among the vector (tensor) methods, out of ``cases``;
        ``ormlm_beats_orml``: sizes where ORML/M's MAE is below ORML's, out of
        ``sizes``.
    """
    wide = table.pivot(index="per_class", columns="method", values="mean")
    vector_best = wide[list(VECTOR_METHODS)].idxmin(axis=1) == "ORML"
    tensor_best = wide[list(TENSOR_METHODS)].idxmin(axis=1) == "ORML/M"
    return {
        "proposed_best": int(vector_best.sum() + tensor_best.sum()),
        "cases": 2 * len(wide),
        "ormlm_beats_orml": int((wide["ORML/M"] < wide["ORML"]).sum()),
        "sizes": len(wide),
    }


def _claim(claims, item, published, reproduced, holds, note, data):
    status = "match" if holds else "deviates"
    return reproduction_row(claims.loc[item, "artifact"], item, published, reproduced, status,
                            None, f'paper ("{claims.loc[item, "quote"]}"); {note}',
                            source=source("claims", item), data=data)  # fmt: skip


def claim_rows(movielens_table, usps_table, splits, published):
    """Reproduction rows of the claims of the text (``data/published/orml/claims.csv``).

    A claim is decided by the same rule on the published and on our numbers:
    "most of the cases" means more than half, "in general" at least 3 of 4 sizes.
    The claims on Fig. 3 are decided on every UMIST training split (``splits``,
    :func:`~.umist.umist_splits_artefacts`) and hold when they hold on most of them.
    ``published`` holds the transcribed tables (``claims``, ``table2_usps``).
    """
    claims = published["claims"]
    paper_methods = movielens_table[movielens_table["method"].isin(MOVIELENS_METHODS)]
    best = paper_methods.loc[paper_methods["mean"].idxmin(), "method"]
    published_usps = usps_claims(published["table2_usps"])
    ours = usps_claims(usps_table)
    most = ours["proposed_best"] > ours["cases"] / 2
    general = ours["ormlm_beats_orml"] >= 3 * ours["sizes"] / 4
    n = len(splits)
    ordered = int(splits["train_ordered"].sum())
    posed = int((splits["pose_rho"] >= 0.5).sum())
    sorted_test = int((splits["test_accuracy"] > 0.5).sum())
    rows = [
        _claim(claims, "movielens_orml_best", "ORML", best, best == "ORML",
               "method of the paper's table with the lowest mean MAE over the users", MOVIELENS),
        _claim(claims, "usps_proposed_best",
               f"{published_usps['proposed_best']}/{published_usps['cases']}",
               f"{ours['proposed_best']}/{ours['cases']}", most,
               "sizes x {vector, tensor} where ORML (ORML/M) is best; holds if > half", USPS),
        _claim(claims, "usps_ormlm_beats_orml",
               f"{published_usps['ormlm_beats_orml']}/{published_usps['sizes']}",
               f"{ours['ormlm_beats_orml']}/{ours['sizes']}", general,
               "training sizes where ORML/M's MAE < ORML's; holds if >= 3/4", USPS),
        _claim(claims, "umist_train_ordered", "ordered, disjoint",
               f"ordered, disjoint in {ordered} of {n} splits", ordered > n / 2,
               "each rank's training interval lies right of the previous one; holds if on "
               "most splits", UMIST),
        _claim(claims, "umist_pose_preserved", "smooth",
               f"|rho| >= 0.5 in {posed} of {n} splits (median {splits['pose_rho'].median():.3f})",
               posed > n / 2,
               "smallest over ranks of |Spearman rho| between the training projection and the "
               "image's place in its subject's pose sequence; holds if >= 0.5 on most splits",
               UMIST),
        _claim(claims, "umist_test_mostly_sorted", "> 0.5",
               f"> 0.5 in {sorted_test} of {n} splits (median "
               f"{splits['test_accuracy'].median():.3f})", sorted_test > n / 2,
               "share of test faces predicted in their rank (Eq. 8); holds if > 0.5 on most "
               "splits", UMIST),
    ]  # fmt: skip
    return rows


def claim_artefacts(movielens, usps, splits, published):
    """The text's claims, decided on the artefacts of Table 1, Table 2 and the UMIST
    splits (:func:`~.umist.umist_splits_artefacts`)."""
    table1 = movielens.tables["table1_movielens"].rename(columns={"mean ours": "mean"})
    table2 = usps.tables["table2_usps"].rename(columns={"mean ours": "mean"})
    rows = claim_rows(table1, table2, splits.tables["umist_splits"], published)
    return Artefacts(rows=rows)


def finding_artefacts(steps, published):
    """Our findings on the ORML runs (:func:`~.findings.orml_findings`).

    Parameters
    ----------
    steps : list of Artefacts
        The steps whose tables the findings summarise (C, UMIST splits, Table 1,
        Table 2, row order).
    published : dict
    """
    tables = {name: table for step in steps for name, table in step.tables.items()}
    return Artefacts(
        findings=orml_findings(tables, published, TRIVIAL_METHODS, VECTOR_METHODS, TENSOR_METHODS)
    )
