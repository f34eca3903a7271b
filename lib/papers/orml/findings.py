"""What the findings page says about our ORML runs, as rows of ``findings.csv``.

Each function takes the tables of the steps that measured it and returns one
:func:`~compendium.reporting.finding_row`; its statement is built from
those tables, with the spread over users, repetitions or splits.
"""

import numpy as np

from compendium.reporting import finding_row, format_spread

__all__ = ["orml_findings"]

MOVIELENS = "real (MovieLens-100k)"
USPS = "real (USPS, 9,298 images)"
UMIST = "real (UMIST, 32×32)"


def orml_findings(tables, published, trivial, vector, tensor):
    """Every finding of the ORML runs.

    Parameters
    ----------
    tables : dict of str to DataFrame
        The steps' tables: ``c_invariance``, ``table1_search``, ``table2_search``,
        ``umist_splits``, ``table1_per_user``, ``table1_movielens``, ``table2_usps``,
        ``table2_runs``, ``table2_paper_floor``, ``row_order``.
    published : dict of str to DataFrame
        The transcriptions (``table1_movielens``, ``table2_usps``).
    trivial : tuple of str
        The trivial rankers (median rank, chance).
    vector, tensor : tuple of str
        The vector and tensor methods of Table 2.

    Returns
    -------
    list of dict
    """
    return [
        _c_invariance(tables["c_invariance"], tables["table1_search"], tables["table2_search"]),
        _graph_split(tables["umist_splits"]),
        _umist(tables["umist_splits"]),
        _orml_usps(tables["table2_usps"]),
        _orml_movielens(tables["table1_per_user"], published["table1_movielens"]),
        _median_movielens(tables["table1_per_user"], tables["table1_movielens"], trivial),
        _median_usps(tables["table2_usps"], trivial),
        _paper_floor(tables["table2_paper_floor"]),
        _comparison(tables["table2_usps"], vector, tensor, trivial),
        _local_optima(tables["table2_runs"], tensor),
        _row_order(tables["row_order"]),
    ]


def _c_invariance(effect, search1, search2):
    ratios = effect[["|w| / (C |w(1)|)", "b_1 / (C b_1(1))"]].to_numpy()
    flat = [
        search[search["method"] == "ORML"].groupby(keys)["mae"].agg(np.ptp).max()
        for search, keys in ((search1, "user"), (search2, "per_class"))
    ]
    unchanged = bool(effect["predictions equal to C=1"].all())
    return finding_row(
        "c_invariance",
        f"C {'does nothing' if unchanged else 'changes predictions'}",
        "The dual (Eq. 7) is homogeneous in C: on the first MovieLens user, |w| and the first "
        f"threshold scale with C to within {np.abs(ratios - 1).max():.0e} for C from "
        f"{effect.index.min():g} to {effect.index.max():g}, and "
        f"{'no' if unchanged else 'some'} prediction changes. ORML's cross-validated MAE "
        f"varies over C by at most {max(flat):.0g} for any MovieLens user or USPS size: the "
        "paper's 10-fold search of C cannot select anything.",
        "largest spread over C of ORML's cross-validated MAE (MovieLens users, USPS sizes)",
        max(flat),
        data=MOVIELENS,
        predicate="every prediction unchanged for every C",
        holds=unchanged,
    )


def _graph_split(splits):
    small, paper = (int(c.split("=")[1]) for c in splits.columns if c.startswith("components"))
    gap = splits[f"test MAE pinv K={small}"] - splits[f"test MAE ridge K={small}"]
    connected = splits[f"components K={paper}"] == 1
    agree = np.isclose(splits[f"test MAE pinv K={paper}"], splits[f"test MAE ridge K={paper}"])
    sound = bool(agree[connected].all())
    return finding_row(
        "pinv_graph_split",
        "The pseudo-inverse "
        + ("is sound while the graph is connected" if sound else "fails on connected graphs too"),
        f"Over {len(splits)} random training splits of the UMIST task, at K = {small} the "
        f"rank-enlarged graph has {format_spread(splits[f'components K={small}'], 0)} "
        f"components and rank S < rank X in {int(splits[f'rank S < rank X K={small}'].sum())}; "
        f"the paper's pseudo-inverse then has test MAE "
        f"{format_spread(splits[f'test MAE pinv K={small}'], 2)} where ORML(ridge=ε), the "
        f"largest-margin limit, has {format_spread(splits[f'test MAE ridge K={small}'], 2)}. "
        f"At the paper's K = {paper} the graph is connected in {int(connected.sum())} splits "
        f"and both solvers agree in {int(agree.sum())}.",
        f"test MAE of the pseudo-inverse minus that of the ridge at K = {small}, per split",
        gap,
        data=UMIST,
        predicate=f"both solvers agree wherever the graph is connected at K = {paper}",
        holds=sound,
    )


def _umist(splits):
    ordered = int(splits["train_ordered"].sum())
    kept = int((splits["pose_rho"] >= 0.5).sum())
    n = len(splits)
    return finding_row(
        "umist_fig3",
        f"UMIST: the ranks are {'' if ordered > n / 2 else 'not '}kept, the poses are "
        f"{'' if kept > n / 2 else 'not '}kept",
        f"Over {n} random training splits (subject 16 as the man with glasses), ORML's "
        f"training ranks are ordered and disjoint in {ordered}, and "
        f"{format_spread(100 * splits['test_accuracy'], 0, unit=' %', what='splits')} of the "
        "test faces get their rank. The pose within a rank is kept (|Spearman ρ| between "
        f"projection and pose at least 0.5 in every rank) in {kept} of {n} splits "
        f"(smallest ρ {format_spread(splits['pose_rho'], 2, what='splits')}).",
        "share of test faces predicted in their rank, per training split",
        splits["test_accuracy"],
        data=UMIST,
        predicate="pose kept in most splits",
        holds=bool(kept > n / 2),
    )


def _orml_usps(table2):
    rows = table2[table2["method"] == "ORML"].sort_values("per_class")
    difference = rows["mean ours"] - rows["mean paper"]
    within = int((difference.abs() <= rows["sd paper"]).sum())
    cells = ", ".join(
        f"{size}: {ours:.2f} ± {sd:.2f} (paper {paper:.2f} ± {paper_sd:.2f})"
        for size, paper, paper_sd, ours, sd in rows[
            ["per_class", "mean paper", "sd paper", "mean ours", "sd ours"]
        ].itertuples(index=False)
    )
    return finding_row(
        "orml_usps",
        "ORML on USPS",
        f"ORML's USPS MAE per training size (images per digit: ours ± sd over "
        f"repetitions): {cells}; the differences {format_spread(difference, 2, what='sizes')} "
        f"lie within the paper's sd at {within} of {len(rows)} sizes.",
        "ORML's mean MAE minus the paper's, per training size",
        difference,
        data=USPS,
        note="one value per training size, each a mean over the repetitions (sd in table2_usps)",
    )


def _orml_movielens(per_user, published):
    mae = per_user.loc[per_user["method"] == "ORML", "mae"]
    paper = published.loc["ORML"]  # indexed by method
    return finding_row(
        "orml_movielens",
        "ORML on MovieLens",
        f"ORML's MovieLens MAE is {mae.mean():.2f} ± {mae.std(ddof=1):.2f} over "
        f"{len(mae)} users ({format_spread(mae, 2, what='users')}), against the paper's "
        f"{paper['mean']:.2f} ± {paper['sd']:.2f}.",
        "ORML's test MAE, per MovieLens user",
        mae,
        data=MOVIELENS,
    )


def _median_movielens(per_user, table1, trivial):
    median, chance = trivial
    by_user = per_user.pivot(index="user", columns="method", values="mae")
    means = table1.set_index("method")
    methods = [m for m in by_user.columns if m not in trivial]
    best = min(methods, key=lambda m: by_user[m].mean())
    below = bool(all(by_user[median].mean() < by_user[m].mean() for m in methods))
    paper_best = means["mean paper"].min()
    return finding_row(
        "movielens_median_rank",
        "Always predicting the median rating "
        f"{'beats' if below else 'does not beat'} every method of Table 1",
        f"On the MovieLens protocol the training median rating gives MAE "
        f"{format_spread(by_user[median], 2, what='users')}, mean {by_user[median].mean():.2f}, "
        f"against {by_user[best].mean():.2f} for the best method of Table 1 ({best}) and "
        f"{paper_best:.2f} for the paper's best; chance gives {by_user[chance].mean():.2f}.",
        "test MAE of the training median rating, per user",
        by_user[median],
        data=MOVIELENS,
        predicate="its mean below every method's mean",
        holds=below,
    )


def _median_usps(table2, trivial):
    median = trivial[0]
    wide = table2.pivot(index="per_class", columns="method", values="mean ours")
    floor = wide[median]
    methods = [m for m in wide.columns if m not in trivial]
    beat = [m for m in methods if (wide[m] < floor).any()]
    always = [m for m in methods if (wide[m] < floor).all()]
    return finding_row(
        "usps_median_rank",
        f"On USPS, {'most' if len(beat) < len(methods) / 2 else 'few'} methods do worse than "
        "a constant",
        f"On USPS the median digit gives MAE {format_spread(floor, 2, what='sizes')} (a mean "
        f"over the repetitions at each size). Below it at every size: "
        f"{', '.join(always) or 'no method'}; at some size: {', '.join(beat) or 'none'}; "
        f"the other {len(methods) - len(beat)} methods never.",
        "mean MAE of always predicting the training median digit, per training size",
        floor,
        data=USPS,
        note="one value per training size, each a mean over the repetitions",
    )


def _paper_floor(floor):
    constant = floor["median rank (paper's data)"].iloc[0]
    listed = "; ".join(f"{size} per digit: {methods}" for size, methods in
                       floor["paper's methods below it"].items())  # fmt: skip
    return finding_row(
        "usps_paper_floor",
        "The paper's own Table 2 against the constant",
        f"On the paper's data, 1,100 images of every digit, always predicting the median digit "
        f"has MAE exactly {constant:.1f}. The paper's methods below it: {listed}.",
        "MAE of the median digit on ten equally frequent digits",
        constant,
        data="published",
    )


def _comparison(table2, vector, tensor, trivial):
    wide = table2.pivot(index="per_class", columns="method", values="mean ours")
    paper = table2.pivot(index="per_class", columns="method", values="mean paper")
    vector_best = int((wide[list(vector)].idxmin(axis=1) == vector[0]).sum())
    tensor_best = int((wide[list(tensor)].idxmin(axis=1) == tensor[0]).sum())
    baselines = [m for m in (*vector, *tensor) if m not in (vector[0], tensor[0], "KDLOR")]
    best = vector_best + tensor_best > len(wide)
    return finding_row(
        "usps_comparison",
        f"The proposed methods are {'' if best else 'not '}the best in Table 2",
        f"KDLOR (skordinal, kernel width cross-validated) gives "
        f"{format_spread(wide['KDLOR'], 2, what='sizes')}, against the paper's "
        f"{format_spread(paper['KDLOR'], 2, what='sizes')}. ORML is the "
        f"best vector method at {vector_best} of {len(wide)} sizes and ORML/M the best tensor "
        f"method at {tensor_best} (the paper: 7 of 8 cases); ORML/M stays at "
        f"{format_spread(wide[tensor[0]], 2, what='sizes')}; the projection baselines at "
        f"{wide[baselines].min().min():.2f} to {wide[baselines].max().max():.2f}.",
        "KDLOR's mean MAE per training size",
        wide["KDLOR"],
        data=USPS,
        predicate="ORML or ORML/M best in more than half of the size x family cases",
        holds=bool(best),
        note="one value per training size, each a mean over the repetitions",
    )


def _local_optima(runs, tensor):
    mlda = runs[runs["method"] == "MLDA"]
    spreads = mlda.groupby("per_class")["mae"].agg(np.ptp)
    worst = spreads.idxmax()
    return finding_row(
        "tensor_local_optima",
        "MLDA over its random starts",
        f"With each repetition's own random start, MLDA's MAE at {worst} per digit ranges "
        f"from {mlda.loc[mlda['per_class'] == worst, 'mae'].min():.1f} to "
        f"{mlda.loc[mlda['per_class'] == worst, 'mae'].max():.1f} over "
        f"{int((mlda['per_class'] == worst).sum())} repetitions (each also its own training "
        "draw).",
        "MLDA's MAE, per repetition at the size of its largest spread",
        mlda.loc[mlda["per_class"] == worst, "mae"],
        data=USPS,
    )


def _row_order(order):
    agreement = order[["agreement reversed", "agreement shuffled"]].to_numpy()
    users = order.drop_duplicates("user")
    same = bool((agreement == 1).all())
    return finding_row(
        "row_order",
        f"Table 1 {'does not depend' if same else 'depends'} on the order of the rows",
        f"MovieLens genre flags tie massively: "
        f"{format_spread(users['rows with a duplicate'], 0, what='users')} of each user's "
        f"100 training rows have a duplicate and "
        f"{format_spread(users['rows tied at the K-th neighbour'], 0, what='users')} are tied "
        "at their K-th neighbour. With neighbourhoods that take every tie, fitting ORML, LPP, "
        f"NPE and IsoProjection on the rows reversed or shuffled leaves "
        f"{100 * agreement.mean():.1f} % of the test predictions unchanged (lowest: "
        f"{100 * agreement.min():.1f} %, over {len(users)} users).",
        "share of test predictions unchanged by reversing or shuffling the training rows",
        agreement.ravel(),
        data=MOVIELENS,
        predicate="every prediction unchanged",
        holds=same,
        spread=f"min-max over {len(users)} users × {order['method'].nunique()} methods × 2 orders",
    )
