"""How the Fig. 3 claims of the Best-View Projection paper depend on the swiss-roll
generator: the settings examined to choose its defaults.

:func:`swiss_roll_sensitivity` decides the claims of Fig. 3 that fast methods
decide (:data:`SENSITIVITY_CLAIMS`) on every generator setting of
:func:`swiss_roll_configs` and several seeds; :func:`sensitivity_artefacts`
tabulates them with the share of settings where each claim holds.
"""

import pandas as pd

from compendium.reporting import Artefacts
from dimred.datasets.synthetic import ordinal_swiss_rolls
from dimred.utils.parallel import run_tasks

from . import findings
from .claims import PREDICATES, describe
from .methods import evaluate

__all__ = ["sensitivity_artefacts", "swiss_roll_configs", "swiss_roll_sensitivity"]

#: Fast methods and the claims of Fig. 3 they decide, for :func:`swiss_roll_sensitivity`.
SENSITIVITY_CLAIMS = {
    "swiss_pca_fails": ("PCA", "fails"),
    "swiss_lda_fails": ("LDA", "not_separated"),
    "swiss_bvp_good": ("BVP", "succeeds_informative"),
    "swiss_lsda_good": ("LSDA", "succeeds_informative"),
}


def swiss_roll_configs():
    """The generator settings examined to choose the Fig. 3 defaults.

    Turns ``(1, 2)`` or ``(1.5, 3)`` (pi units), height 4, 8 or 12, and seven
    offsets between consecutive classes.
    """
    offsets = [(0, 0, 3), (0, 0, 4), (0, 3, 3), (2, 0, 3), (3, 2, 1), (2, 2, 2), (0, 4, 2)]
    return [
        {"turns": turns, "height": float(height), "offset": tuple(map(float, offset))}
        for turns in ((1.0, 2.0), (1.5, 3.0))
        for height in (4, 8, 12)
        for offset in offsets
    ]


def _sensitivity_case(config, seed):
    X, y = ordinal_swiss_rolls(random_state=seed, **config)
    methods = sorted({method for method, _ in SENSITIVITY_CLAIMS.values()})
    _, table = evaluate(X, y, methods, seed)
    row = {**{k: str(v) for k, v in config.items()}, "seed": seed}
    row.update({m: describe(table.loc[m]) for m in methods})
    for claim, (method, predicate) in SENSITIVITY_CLAIMS.items():
        row[claim] = bool(PREDICATES[predicate](table.loc[method]))
    return row


def swiss_roll_sensitivity(configs, seeds=(0,), n_jobs=None):
    """The Fig. 3 claims decided by fast methods, for several generator settings.

    Parameters
    ----------
    configs : list of dict
        Keyword arguments of :func:`dimred.datasets.synthetic.ordinal_swiss_rolls`.
    seeds : sequence of int
    n_jobs : int or None
        joblib workers.

    Returns
    -------
    DataFrame
        One row per configuration and seed: the settings, each method's
        measurements, and whether each claim of :data:`SENSITIVITY_CLAIMS` holds.
    """
    cases = [(config, seed) for config in configs for seed in seeds]
    return pd.DataFrame(run_tasks(_sensitivity_case, cases, "generators", n_jobs))


def sensitivity_artefacts(p):
    """The Fig. 3 claims on the generator settings of :func:`swiss_roll_configs`.

    Returns
    -------
    Artefacts
        Tables ``swiss_roll_sensitivity`` (one row per setting and seed) and
        ``swiss_roll_sensitivity_summary``; the finding ``swiss_roll_sensitivity``.
    """
    configs = swiss_roll_configs()[:: p.sensitivity_stride]
    table = swiss_roll_sensitivity(configs, p.sensitivity_seeds, p.n_jobs)
    claims = list(SENSITIVITY_CLAIMS)
    share = table[claims].mean().rename("share of settings x seeds where the claim holds")
    share.index.name = "claim"
    return Artefacts(
        tables={
            "swiss_roll_sensitivity": table,
            "swiss_roll_sensitivity_summary": share.to_frame(),
        },
        findings=[
            findings.swiss_roll_sensitivity(
                table, SENSITIVITY_CLAIMS, len(configs), len(p.sensitivity_seeds)
            )
        ],
        data=f"synthetic (ordinal partial swiss rolls, {len(configs)} generator settings)",
    )
