"""Benchmarks of the metrical-importance paper: five exact speed-ups, each timed in one
process against the computation it replaces.

1. Closed-form z_i (Eq. (1), O(M n)) against the pairwise double sum (O(M^2 n)), on
   Bank Marketing's ``bank-full.csv`` (45,211 rows, 7 numeric + 9 categorical
   features): the closed form :data:`REPEATS` times, the pairwise sum (about two
   minutes on two cores) once. Written to ``figures/metrical_importance/benchmark``
   with the finding ``closed_form_speed``.
2. The discard curves' random forest: scikit-learn's pipeline
   (:func:`~papers.metrical_importance.discard.make_classifier`, fitted
   and predicting the test part) against
   :func:`~papers.metrical_importance.forest.forest_proba` on the codes computed once per split,
   on the paper's three data sets with every feature, :data:`FOREST_SEEDS` seeds
   each; ``forest_proba``'s two engines against each other (scikit-learn's tree
   builder, the compiled one); and the compiled engine against the public
   ``RandomForestClassifier`` on the same codes, the fallback on a scikit-learn other
   than the one the engines mirror (what the engines buy). Written to
   ``figures/metrical_importance/benchmark_forest`` with the findings ``forest_speed``
   and ``compiled_forest_speed``.
3. The importance forest's OOB permutation importances
   (:func:`~dimred.importance.forest.permutation_importances`, one float32 copy permuted
   in place, unchecked tree predictions) against the plain loop
   (:func:`~dimred.importance.forest.plain_permutation_importances`), on the paper's
   three data sets with the protocol's 500-tree forest. Written to
   ``figures/metrical_importance/benchmark_permutation`` with the finding
   ``permutation_speed``.
4. The discard curves' F1 of the minority class: scikit-learn's ``f1_score`` against
   :func:`~papers.metrical_importance.discard.f1_of_class` on the test part
   of each data set's split, the predictions of the first forest of the curves,
   :data:`F1_CALLS` calls each way in :data:`F1_ROUNDS` interleaved rounds. Written to
   ``figures/metrical_importance/benchmark_f1`` with the finding ``f1_speed``.

Tables and findings (``findings.csv``, beside the notebook's) hold the timings of the
machine it ran on.

``python benchmarks/bench_metrical.py [ROWS [FOLDER]]`` times the first ``ROWS`` rows
only and writes to ``FOLDER`` instead (a quick check).
"""

import os
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.metrics import f1_score
from sklearn.preprocessing import LabelEncoder

from compendium import paths
from compendium.reporting import (
    finding_row,
    format_spread,
    write_benchmark,
    write_table,
)
from dimred import load_bank_marketing
from dimred.importance.forest import (
    _check_input,
    fit_forest,
    permutation_importances,
    plain_permutation_importances,
)
from dimred.importance.metrical import (
    encode_mixed,
    within_class_sq_distances,
    within_class_sq_distances_pairwise,
)
from papers.metrical_importance.data import ALL_DATA, DATA, DATASETS, load
from papers.metrical_importance.discard import (
    _forest_inputs,
    _make_split,
    f1_of_class,
    make_classifier,
)
from papers.metrical_importance.forest import ENGINES, _public_forest, forest_proba

#: Timings of the closed form (milliseconds each: repeats are cheap).
REPEATS = 10
#: Seeds (forests) timed per data set and way.
FOREST_SEEDS = 10
#: F1 computations per round and way, and interleaved rounds.
F1_CALLS, F1_ROUNDS = 200, 5


def timings(function, repeat):
    """Wall times (s) of ``repeat`` calls, and the last result."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return np.array(times), result


def speed_finding(closed_s, pairwise_s, rows, max_difference, data):
    """The finding ``closed_form_speed``: the speed ratio over the closed form's repeats."""
    ratios = pairwise_s / closed_s
    statement = (
        "Eq. (1) in closed form costs O(M·n) instead of O(M²·n). On `bank-full.csv` "
        f"({rows:,} rows), `make bench` runs both in one process on {os.cpu_count()} cores: "
        f"the closed form takes {format_spread(1000 * closed_s, 1, ' ms', 'repeats')}, the "
        f"pairwise sum {pairwise_s:.3g} s, a ratio of "
        f"{format_spread(ratios, 0, what='repeats')}; the two results differ by at most "
        f"{max_difference:.1e} (`benchmark.md`)."
    )
    return finding_row(
        "closed_form_speed",
        "Speed",
        statement,
        "pairwise-sum time / closed-form time of Eq. (1) on bank-full.csv, per closed-form "
        "repeat (benchmark)",
        ratios,
        data=data,
        spread=f"min-max over {ratios.size} repeats of the closed form",
        note=f"the pairwise sum ({pairwise_s:.3g} s) is timed once, the closed form "
        f"{closed_s.size} times: the spread is that of the closed form's repeats only",
    )


def ratio_columns(ratios, decimals):
    """``speed_ratio`` (the median of ``ratios``) and its range, rounded."""
    return {
        f"speed_ratio{suffix}": round(float(function(ratios)), decimals)
        for suffix, function in (("", np.median), ("_min", np.min), ("_max", np.max))
    }


def forest_row(name, seeds=FOREST_SEEDS):
    """One data set: scikit-learn's forest pipeline and the lean forest's two engines,
    per seed."""
    bunch = DATASETS[name]()
    split = _make_split(bunch.frame, bunch.target, bunch.categorical, 0.2, 0)
    columns = list(range(split.categorical.size))
    codes = _forest_inputs(split, columns)
    forest_proba(*codes, 0)  # compile (or load) the compiled engine first
    times = {"pipeline": [], "scikit-learn": [], "compiled": [], "public": []}
    difference = {"scikit-learn": 0.0, "compiled": 0.0, "public": 0.0}
    for seed in range(seeds):
        model = make_classifier("random_forest", split.categorical, seed)
        start = time.perf_counter()
        reference = model.fit(split.X_train, split.y_train).predict_proba(split.X_test)
        times["pipeline"].append(time.perf_counter() - start)
        for engine in ENGINES:
            start = time.perf_counter()
            proba = forest_proba(*codes, seed, engine=engine)
            times[engine].append(time.perf_counter() - start)
            difference[engine] = max(difference[engine], float(np.abs(proba - reference).max()))
        start = time.perf_counter()
        proba = _public_forest(*codes, seed, model[-1].n_estimators)  # the fallback
        times["public"].append(time.perf_counter() - start)
        difference["public"] = max(difference["public"], float(np.abs(proba - reference).max()))
    pipeline_s, sklearn_s, compiled_s, public_s = (np.array(times[key]) for key in times)
    ratios = ratio_columns(pipeline_s / compiled_s, 2)
    compiled = ratio_columns(sklearn_s / compiled_s, 2)
    fallback = ratio_columns(public_s / compiled_s, 2)
    return {
        "benchmark": "discard curves' random forest: pipeline vs forest_proba's engines",
        "data_set": name,
        "training_rows": len(split.y_train),
        "features": len(columns),
        "trees": model[-1].n_estimators,
        "seeds": seeds,
        "cores": os.cpu_count(),
        "pipeline_s": round(float(np.median(pipeline_s)), 4),
        "scikit_learn_engine_s": round(float(np.median(sklearn_s)), 4),
        "forest_proba_s": round(float(np.median(compiled_s)), 4),
        **ratios,
        **{key.replace("speed_ratio", "compiled_ratio"): value for key, value in compiled.items()},
        "public_forest_s": round(float(np.median(public_s)), 4),
        **{key.replace("speed_ratio", "fallback_ratio"): value for key, value in fallback.items()},
        "max_abs_difference": difference["compiled"],
        "scikit_learn_engine_max_abs_difference": difference["scikit-learn"],
        "public_forest_max_abs_difference": difference["public"],
        "data": DATA[name],
    }


def ratio_parts(report, column, label):
    """``"<label> <median>× (<min>–<max>×)"`` for every data set of ``report``, from
    ``column`` and its ``_min`` and ``_max`` columns, joined by ``"; "``."""
    return "; ".join(
        f"{label(row)} {getattr(row, column):.1f}× "
        f"({getattr(row, column + '_min'):.1f}–{getattr(row, column + '_max'):.1f}×)"
        for row in report.itertuples()
    )


def forest_findings(report):
    """The findings ``forest_speed`` (the pipeline against ``forest_proba``) and
    ``compiled_forest_speed`` (its two engines), each a ratio per data set, medians over
    seeds."""
    seeds = report["seeds"].iloc[0]
    pipeline = ratio_parts(
        report, "speed_ratio", lambda row: f"{row.data_set} ({row.training_rows:,} training rows)"
    )
    engines = ratio_parts(report, "compiled_ratio", lambda row: row.data_set)
    largest = report[["max_abs_difference", "scikit_learn_engine_max_abs_difference"]]
    statements = {
        "forest_speed": (
            "The discard curves' random forests (100 trees, every feature) are grown by "
            "`forest_proba` (compiled engine) on categorical codes computed once per split "
            "instead of scikit-learn's pipeline fitted per subset, with the same trees: `make "
            f"bench` times both in one process on {os.cpu_count()} cores, median over {seeds} "
            f"seeds: {pipeline}. Largest difference of the probabilities: "
            f"{report['max_abs_difference'].max():.1g} (`benchmark_forest.md`)."
        ),
        "compiled_forest_speed": (
            "`forest_proba`'s compiled engine (scikit-learn's best-split trees grown from class "
            "counts per feature value instead of a sort of each node's values) against the same "
            "function with scikit-learn's Cython tree builder, on the discard curves' forests: "
            f"median over {seeds} seeds, {engines}. Largest difference of either engine's "
            f"probabilities from the pipeline's: {largest.to_numpy().max():.1g} "
            "(`benchmark_forest.md`)."
        ),
    }
    ratios = {
        "forest_speed": ("pipeline time / forest_proba time", "speed_ratio"),
        "compiled_forest_speed": (
            "scikit-learn engine time / compiled engine time",
            "compiled_ratio",
        ),
    }
    return [
        median_ratio_finding(
            (key, "Speed", statement),
            ratios[key][0],
            report,
            ("seed", f"{seeds} seeds"),
            "benchmark_forest",
            column=ratios[key][1],
        )
        for key, statement in statements.items()
    ]


def median_ratio_finding(finding, ratio, report, repeats, table, column="speed_ratio"):
    """A finding ``(key, title, statement)`` whose values are ``report``'s per-data-set
    median ratios (``ratio``, e.g. "slow time / fast time"; the column ``column``) over
    ``repeats`` (``(unit, "<count> units")``), their ranges in the ``table``."""
    unit, count = repeats
    ratios = report[column].to_numpy()
    return finding_row(
        *finding,
        f"{ratio}, median over {unit}s, per data set (benchmark)",
        ratios,
        data=ALL_DATA,
        spread=f"min-max over the {ratios.size} data sets of the per-{unit} medians",
        note=f"each value is one data set's median over {count}; the range over the {unit}s "
        f"is in {table} ({column}_min, {column}_max)",
    )


def f1_row(name):
    """One data set: ``f1_score`` and ``f1_of_class`` on the forest's test predictions."""
    bunch = DATASETS[name]()
    split = _make_split(bunch.frame, bunch.target, bunch.categorical, 0.2, 0)
    proba = forest_proba(*_forest_inputs(split, list(range(split.categorical.size))), 0)
    predicted = np.unique(split.y_train).take(proba.argmax(axis=1))
    ways = {
        "f1_score": lambda: f1_score(split.y_test, predicted, pos_label=split.positive),
        "f1_of_class": lambda: f1_of_class(split.y_test, predicted, split.positive),
    }
    seconds = {way: [] for way in ways}
    for _ in range(F1_ROUNDS):
        for way, function in ways.items():
            times, value = timings(function, F1_CALLS)
            seconds[way].append(float(np.median(times)))
    ratios = np.array(seconds["f1_score"]) / np.array(seconds["f1_of_class"])
    return {
        "benchmark": "discard curves' F1: f1_score vs f1_of_class",
        "data_set": name,
        "test_rows": len(split.y_test),
        "calls": F1_CALLS * F1_ROUNDS,
        "f1_score_us": round(1e6 * float(np.median(seconds["f1_score"])), 1),
        "f1_of_class_us": round(1e6 * float(np.median(seconds["f1_of_class"])), 2),
        **ratio_columns(ratios, 1),
        "equal": ways["f1_score"]() == ways["f1_of_class"](),
        "data": DATA[name],
    }


def f1_finding(report):
    """The finding ``f1_speed``: the ratio per data set, medians over the rounds."""
    parts = [
        f"{row.data_set} ({row.test_rows} test rows) {row.f1_score_us:.0f} µs against "
        f"{row.f1_of_class_us:.0f} µs, {row.speed_ratio:.0f}×"
        for row in report.itertuples()
    ]
    statement = (
        "The discard curves count the minority class's F1 (`f1_of_class`) instead of calling "
        "scikit-learn's `f1_score`, whose input checks outweigh the count on a test part of "
        f"a few hundred rows: per call, median over {report['calls'].iloc[0]:,} calls in "
        f"{F1_ROUNDS} interleaved rounds (`make bench`, one process), " + "; ".join(parts) + ". "
        f"The two give the same float on {int(report['equal'].sum())} of {len(report)} data "
        "sets here, and on random cases in `tests/papers/test_discard.py` (`benchmark_f1.md`)."
    )
    return median_ratio_finding(
        ("f1_speed", "Speed of the F1 count", statement),
        "f1_score time / f1_of_class time per call",
        report,
        ("round", f"{F1_ROUNDS} rounds of {F1_CALLS} calls"),
        "benchmark_f1",
    )


def permutation_row(name, seed=0, n_estimators=500):
    """One data set: the forest's OOB permutation importances, in place on one float32
    copy (ours) against the plain loop, on the importance forest of the protocol."""
    data = load(name)
    X, y = _check_input(data.codes(), data.y)
    forest = fit_forest(X, y, n_estimators, random_state=seed)
    (plain_s,), plain = timings(lambda: plain_permutation_importances(forest, X, y, seed), 1)
    (ours_s,), ours = timings(lambda: permutation_importances(forest, X, y, seed), 1)
    return {
        "benchmark": "OOB permutation importances: in place vs the plain loop",
        "data_set": name,
        "rows": X.shape[0],
        "features": X.shape[1],
        "trees": n_estimators,
        "plain_s": round(plain_s, 3),
        "ours_s": round(ours_s, 3),
        "speed_ratio": round(plain_s / ours_s, 2),
        "bitwise_equal": bool(np.array_equal(ours, plain, equal_nan=True)),
        "data": DATA[name],
    }


def permutation_finding(report):
    """The finding ``permutation_speed``: the ratio per data set."""
    parts = [f"{row.data_set} {row.speed_ratio:.1f}×" for row in report.itertuples()]
    ratios = report["speed_ratio"].to_numpy()
    statement = (
        "The random forest's OOB permutation importances (500 trees) are computed on one "
        "float32 copy of the OOB rows, each feature permuted in place and put back, with "
        "unchecked tree predictions, instead of a fresh copy per feature and scikit-learn's "
        f"checked `predict`: faster by {'; '.join(parts)} (`make bench`, one process, "
        f"{os.cpu_count()} cores), bitwise equal on {int(report['bitwise_equal'].sum())} of "
        f"{len(report)} data sets (`benchmark_permutation.md`)."
    )
    return finding_row(
        "permutation_speed",
        "Speed of the permutation importances",
        statement,
        "plain-loop time / in-place time, one timing each, per data set (benchmark)",
        ratios,
        data=ALL_DATA,
        spread=f"min-max over the {ratios.size} data sets",
        note="one timing per way and data set (the plain loop takes seconds)",
    )


def main(rows=None, folder=None):
    folder = Path(folder or paths.FIGURES_DIR / "metrical_importance")
    bank = load_bank_marketing(full=True)
    frame, target = bank.frame, bank.target
    data = "real (UCI Bank Marketing, bank-full.csv)"
    if rows:
        frame, target = frame.iloc[:rows], target[:rows]
        data = f"real (UCI Bank Marketing, first {rows} rows of bank-full.csv)"
    y = LabelEncoder().fit_transform(target)
    values, scale = encode_mixed(frame.to_numpy(dtype=object), bank.categorical)
    args = (values, scale, bank.categorical, y)
    closed_s, closed = timings(lambda: within_class_sq_distances(*args), REPEATS)
    (pairwise_s,), pairwise = timings(lambda: within_class_sq_distances_pairwise(*args), 1)
    max_difference = float(np.nanmax(np.abs(closed - pairwise)))
    report = pd.DataFrame(
        [
            {
                "benchmark": "metrical z_i: closed form vs pairwise (Eq. 1)",
                "rows": len(y),
                "features": values.shape[1],
                "cores": os.cpu_count(),
                "pairwise_s": round(pairwise_s, 3),
                "closed_form_s": round(float(np.median(closed_s)), 5),
                "closed_form_min_s": round(float(closed_s.min()), 5),
                "closed_form_max_s": round(float(closed_s.max()), 5),
                "closed_form_repeats": closed_s.size,
                "speed_ratio": round(float(np.median(pairwise_s / closed_s)), 1),
                "max_abs_difference": max_difference,
                "same_constant_features": bool(
                    np.array_equal(np.isnan(closed), np.isnan(pairwise))
                ),
            }
        ]
    )
    write_table(report, folder / "benchmark", index=False, data=data)
    print(report.to_markdown(index=False))
    forests = pd.DataFrame([forest_row(name) for name in sorted(DATASETS)])
    permutations = pd.DataFrame([permutation_row(name) for name in sorted(DATASETS)])
    write_table(permutations, folder / "benchmark_permutation", index=False)
    print(permutations.to_markdown(index=False))
    scores = pd.DataFrame([f1_row(name) for name in sorted(DATASETS)])
    write_table(scores, folder / "benchmark_f1", index=False)
    print(scores.to_markdown(index=False))
    findings = [
        speed_finding(closed_s, pairwise_s, len(y), max_difference, data),
        *forest_findings(forests),
        permutation_finding(permutations),
        f1_finding(scores),
    ]
    write_benchmark(forests, folder / "benchmark_forest", findings, None, __file__)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else None, *sys.argv[2:3])
