"""Table 1 of the paper PAPER_TITLE: one module per table or figure group.

Replace this docstring by what the module reproduces and every choice the paper
leaves open (cite equation numbers). Everything the notebook shows is computed
here: data in, :class:`~compendium.reporting.Artefacts` out.
"""

import numpy as np
import pandas as pd
from sklearn.decomposition import PCA

from compendium.published import source
from compendium.reporting import Artefacts, finding_row, reproduction_row

from . import plots
from .params import DATA

__all__ = ["example_artefacts"]


def example_artefacts(data, published, p):
    """One step: a table, a figure, the reproduction rows of what it measures and a finding.

    Every row of a transcribed table and every claim gets a row whose ``source`` is
    ``"<table>:<key>"``; the contract test checks that none is missing. Every table
    and row says which data it came from (``data=``); what the book will say about
    our own measurement is a finding, its statement built from the measured value.
    """
    X, y = data["example"]
    ratio = PCA(2, random_state=p.seed).fit(X).explained_variance_ratio_
    table = pd.DataFrame({"explained_variance_ratio": ratio}, index=pd.Index([1, 2], name="pc"))
    transcribed = published["table1"]
    rows = []
    for pc in transcribed.index:
        published_value = float(transcribed.loc[pc, "explained_variance_ratio"])
        ours = round(float(ratio[pc - 1]), 2)  # the precision the paper prints
        rows.append(
            reproduction_row(
                "table1",
                f"explained variance of component {pc}",
                published_value,
                ours,
                "match" if ours == published_value else "deviates",
                note="equal at the printed two decimals",
                source=source("table1", pc),
            )
        )
    holds = bool(ratio[0] > ratio[1])
    claims = published["claims"]
    rows.append(
        reproduction_row(
            claims.loc["first_dominates", "artifact"],
            "first_dominates: first component explains more variance than the second",
            "holds",
            f"{ratio[0]:.3f} vs {ratio[1]:.3f}",
            "match" if holds else "deviates",
            note=f'paper: "{claims.loc["first_dominates", "quote"]}"',
            source=source("claims", "first_dominates"),
        )
    )
    figure = plots.figure_scores(PCA(2, random_state=p.seed).fit_transform(X), y)
    finding = finding_row(
        "first_component_share",
        "The first component",
        f"The first principal component explains {ratio[0]:.1%} of the variance.",
        "explained variance ratio of the first principal component",
        ratio[0],
        data=DATA,
    )
    return Artefacts(
        tables={"table1_explained_variance": table},
        figures={"fig1_scores": figure},
        rows=rows,
        notes=[f"Total variance of the first two components: {np.sum(ratio):.1%}."],
        findings=[finding],
        data=DATA,
    )
