"""Table 2 of "Relevance Learning for Dimensionality Reduction" (Schulz, Gisbrecht & Hammer,
ESANN 2014): 1-NN errors on USPS.

:func:`table2_usps` -- the leave-one-out 1-NN errors of X, ``X_lambda``, t-SNE(X),
t-SNE(``X_lambda``) and Fisher t-SNE (F-t-SNE(X)) on draws of 200 USPS images per digit,
in the paper's reading and without label leakage (:mod:`.usps`), with the text's claims
on the table; the Adrenal row is not reproducible (its data were never published).
"""

import numpy as np
import pandas as pd

from compendium.published import source
from compendium.reporting import Artefacts, finding_row, format_spread, reproduction_row

from . import plots
from .data import ADRENAL, USPS, _claim_row, _stated_row
from .usps import usps_draws

__all__ = ["table2_usps"]


def _not_reproducible(artifact, item, published_value, reason, src):
    """A row of the Adrenal data, which no one can obtain."""
    return reproduction_row(
        artifact, item, published_value, "", "not_reproducible", note=reason, source=src,
        data=ADRENAL,
    )  # fmt: skip


#: Why the Adrenal rows cannot be reproduced.
ADRENAL_REASON = (
    "the Adrenal data (147 patients, 32 steroid markers; Biehl et al., ESANN 2012) are "
    "clinical data that were never published; no stand-in is substituted"
)


def table2_usps(data, published, p):
    """Table 2: 1-NN errors on USPS in both readings; the Adrenal row is not reproducible."""
    usps = data["usps"]
    errors, extras = usps_draws(usps.data, usps.target, p)
    summary = _error_summary(errors).sort_index()
    rows = _table2_rows(published, summary, p) + _table2_claims(published, summary)
    rows += (
        [
            _stated_row(
                published,
                "usps_per_class",
                p.usps_per_class,
                note="quick run: fewer images" if p.quick else "",
            ),
            _stated_row(
                published, "usps_image_side", int(np.sqrt(usps.data.shape[1])), kind="data"
            ),
        ]
        + [
            _not_reproducible(
                "text",
                f"setting {key}",
                float(published["settings"].loc[key, "value"]),
                ADRENAL_REASON,
                source("settings", key),
            )
            for key in ("adrenal_patients", "adrenal_features", "adrenal_top_dimensions")
        ]
        + [_claim_row_unavailable(published, "adrenal_overlap")]
    )
    first = extras[0]
    fits = pd.concat([e["fits"].assign(draw=r) for r, e in enumerate(extras)], ignore_index=True)
    return Artefacts(
        tables={
            "table2_usps_errors": summary.round(2).reset_index(),
            "table2_usps_draws": errors.round(2).reset_index(),
            "table2_usps_nerv_fits": fits,
        },
        figures={
            "table2_usps_errors": plots.figure_errors(summary, published["table2"]),
            "table2_usps_relevances": plots.figure_usps_relevances(
                first["relevances"], usps.image_shape
            ),
            "table2_usps_fisher_map": plots.figure_map(
                first["fisher_map"], first["y"], "F-t-SNE(X), USPS"
            ),
        },
        rows=rows,
        findings=_table2_findings(errors, fits, published["table2"]),
        data={"rows": USPS, **dict.fromkeys(TABLE2_TABLES, USPS)},
    )


#: The tables of :func:`table2_usps`.
TABLE2_TABLES = ("table2_usps_errors", "table2_usps_draws", "table2_usps_nerv_fits")


def _table2_findings(errors, fits, table2):
    """What the findings page says about Table 2, from the per-draw errors (percent)."""
    paper, free = errors.loc["paper"], errors.loc["leak_free"]
    n = errors.shape[1]
    usps = table2[table2["data"] == "USPS"]

    def published_error(space, neighbourhood=""):
        hoods = usps["neighbourhood"].fillna("")
        chosen = usps[(usps["space"] == space) & (hoods == neighbourhood)]
        return float(chosen["error_percent"].iloc[0])

    def spread(frame, space, neighbourhood=""):
        return format_spread(frame.loc[(space, neighbourhood)], 2, unit=" %")

    listed = ", ".join(
        f"{space}{' ' + hood if hood else ''} {spread(paper, space, hood)} (paper "
        f"{published_error(space, hood):.1f} %)"
        for space, hood in paper.index
    )
    tsne_gap = paper.loc[("t-SNE(X)", "")] - paper.loc[("X", "")]
    reduces = bool((tsne_gap < 0).sum() > n / 2)
    gains = {h: free.loc[("X", "")] - free.loc[("X_lambda", h)] for h in ("medium", "large")}
    helps = bool(all((g > 0).all() for g in gains.values()))
    fisher_gap = free.loc[("F-t-SNE(X)", "")] - paper.loc[("F-t-SNE(X)", "")]
    leak = bool((fisher_gap >= 2).all())
    paper_fits = fits[fits["reading"] == "paper"]
    minutes = paper_fits[paper_fits["neighbourhood"] == "medium"]["seconds"] / 60
    return [
        finding_row(
            "table2_paper_reading",
            "Table 2 in the paper's reading",
            f"Leave-one-out 1-NN errors over all drawn images, {n} draws of 200 USPS images per "
            f"digit: {listed}.",
            "leave-one-out 1-NN error (percent) of X over the 2,000 drawn images, per draw",
            paper.loc[("X", "")],
            data=USPS,
        ),
        finding_row(
            "table2_tsne_vs_x",
            f"t-SNE {'reduces' if reduces else 'does not reduce'} the error",
            f"In the paper's reading t-SNE(X) minus X is {format_spread(tsne_gap, 2)} points, "
            f't-SNE(X) below X in {int((tsne_gap < 0).sum())} of {n} draws; the paper: "the '
            'classification error reduces, if X is projected to two dimensions using t-SNE".',
            "1-NN error of t-SNE(X) minus that of X (points, paper's reading), per draw",
            tsne_gap,
            data=USPS,
            predicate="t-SNE(X) below X in most draws",
            holds=reduces,
        ),
        finding_row(
            "table2_fisher_leak",
            "F-t-SNE's near-zero error "
            f"{'is the labels it was given' if leak else 'survives without the labels'}",
            f"F-t-SNE(X) scores {spread(paper, 'F-t-SNE(X)')} when its Fisher metric was "
            "learned from the labels of the very points it is scored on (the paper's reading), "
            f"and {spread(free, 'F-t-SNE(X)')} when it is learned from a training half and "
            "scored on the other half, beside X at "
            f"{spread(free, 'X')} and t-SNE(X) at {spread(free, 't-SNE(X)')} in that reading.",
            "1-NN error of F-t-SNE(X), leak-free minus paper's reading (points), per draw",
            fisher_gap,
            data=USPS,
            predicate="the leak-free error exceeds the paper reading's by 2 points in every draw",
            holds=leak,
        ),
        finding_row(
            "table2_leak_free_gain",
            "What learning the relevance gains without the leak",
            "Leak-free (λ and the Fisher metric from the training half only), X_λ's 1-NN error "
            f"is below X's by {format_spread(gains['medium'], 2)} points at the medium k "
            f"(better in {int((gains['medium'] > 0).sum())} of {n} draws) and by "
            f"{format_spread(gains['large'], 2)} at the large k (better in "
            f"{int((gains['large'] > 0).sum())} of {n}); the paper's X_λ has "
            f"{published_error('X_lambda', 'medium'):.1f} and "
            f"{published_error('X_lambda', 'large'):.1f} % against X's "
            f"{published_error('X'):.1f} %.",
            "1-NN error of X minus that of X_lambda at the medium k (points, leak-free), per draw",
            gains["medium"],
            data=USPS,
            predicate="X_lambda better than X in every draw at both k",
            holds=helps,
        ),
        finding_row(
            "table2_nerv_fits",
            "How long the USPS fits take, and how many converge",
            f"{int(fits['converged'].sum())} of {len(fits)} NeRV fits on USPS converged before "
            f"Rprop's {int(fits['evaluations'].max())} evaluations; the others' relevances "
            "are taken where Rprop stopped. A fit at the paper's medium k = "
            f"{int(paper_fits['k'].min())} on {int(paper_fits['points'].max())} images takes "
            f"{format_spread(minutes, 1, unit=' min')} (2 cores shared by two fits; every "
            "pair is used, since at such k the neighbourhoods cover most pairs).",
            "wall time (min) of the paper reading's NeRV fit at the medium k, per draw",
            minutes,
            data=USPS,
            note="wall times depend on the machine and its load",
        ),
    ]


def _error_summary(errors):
    """Mean, sd, min and max over the draws of every (reading, space, neighbourhood)."""
    return pd.DataFrame(
        {
            "mean": errors.mean(axis=1),
            "sd": errors.std(axis=1, ddof=1) if errors.shape[1] > 1 else np.nan,
            "min": errors.min(axis=1),
            "max": errors.max(axis=1),
        }
    )


def _table2_rows(published, summary, p):
    """Published USPS errors against the mean of our draws (the paper's reading)."""
    rows = []
    for key, cell in published["table2"].iterrows():
        neighbourhood = cell["neighbourhood"] if isinstance(cell["neighbourhood"], str) else ""
        item = f"1-NN error {cell['space']} {neighbourhood}".strip() + f", {cell['data']}"
        if cell["data"] != "USPS":
            rows.append(
                _not_reproducible(
                    "table2", item, cell["error_percent"], ADRENAL_REASON, source("table2", key)
                )
            )
            continue
        ours = summary.loc[("paper", cell["space"], neighbourhood)]
        leak_free = summary.loc[("leak_free", cell["space"], neighbourhood)]
        status = _draw_status(cell["error_percent"], ours)
        rows.append(
            reproduction_row(
                "table2",
                item + " (percent)",
                cell["error_percent"],
                round(ours["mean"], 2),
                status,
                note=f"mean of {p.usps_draws} draws (range {ours['min']:.2f}..{ours['max']:.2f}); "
                f"leak-free reading {leak_free['mean']:.2f}",
                source=source("table2", key),
            )
        )
    return rows


def _draw_status(published_value, ours):
    """``match`` at the printed decimal; ``within_error`` when the paper's single draw lies
    within the range of ours (the paper reports no spread); ``deviates`` otherwise."""
    if round(ours["mean"], 1) == published_value:
        return "match"
    if ours["min"] - 0.05 <= published_value <= ours["max"] + 0.05:
        return "within_error"
    return "deviates"


def _table2_claims(published, summary):
    """The text's claims on Table 2, decided in the paper's reading (leak-free in the note)."""
    rows = []
    for claim, test in (
        ("usps_tsne_reduces_error", _reduces_error),
        ("usps_xlambda_improves", lambda m: _improves(m, "X_lambda", "X")),
        ("usps_tsne_xlambda_improves", lambda m: _improves(m, "t-SNE(X_lambda)", "t-SNE(X)")),
    ):
        verdicts = {r: test(summary.loc[r, "mean"]) for r in ("paper", "leak_free")}
        rows.append(
            _claim_row(
                published,
                claim,
                verdicts["paper"][0],
                verdicts["paper"][1],
                note=f"leak-free reading: {'holds' if verdicts['leak_free'][0] else 'fails'} "
                f"({verdicts['leak_free'][1]})",
            )
        )
    return rows


def _reduces_error(mean):
    x, tsne, fisher = mean["X", ""], mean["t-SNE(X)", ""], mean["F-t-SNE(X)", ""]
    return bool(
        tsne < x and fisher < tsne
    ), f"X {x:.2f}, t-SNE(X) {tsne:.2f}, F-t-SNE(X) {fisher:.2f}"


def _improves(mean, space, base):
    values = {n: mean[space, n] for n in ("medium", "large")}
    text = f"{base} {mean[base, '']:.2f}; " + ", ".join(
        f"{space} {n} {v:.2f}" for n, v in values.items()
    )
    return bool(all(v < mean[base, ""] for v in values.values())), text


def _claim_row_unavailable(published, claim):
    """The row of a claim on the Adrenal data: not reproducible."""
    claims = published["claims"]
    item = f"{claim}: {claims.loc[claim, 'decided_by']}"
    return _not_reproducible(
        claims.loc[claim, "artifact"], item, "holds", ADRENAL_REASON, source("claims", claim)
    )
