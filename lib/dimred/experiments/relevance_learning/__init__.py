"""Relevance learning for dimensionality reduction (Schulz, Gisbrecht & Hammer, ESANN 2014):
protocol (:mod:`.protocol`), its computations (:mod:`.toy`, :mod:`.usps`,
:mod:`.rankings`) and figures (:mod:`.plots`).

The notebook ``notebooks/relevance_learning.ipynb`` calls, in order: :func:`params`,
:func:`load_data`, :func:`figure1_set1`, :func:`figure2_profiles`, :func:`figure2_draws`,
:func:`nerv_choices`,
:func:`table1_rankings`, :func:`table1_sensitivity`, :func:`local_optima` and
:func:`table2_usps`.
"""

from .protocol import (
    PAPER,
    Params,
    figure1_set1,
    figure2_draws,
    figure2_profiles,
    load_data,
    local_optima,
    nerv_choices,
    params,
    table1_rankings,
    table1_sensitivity,
    table2_usps,
)

__all__ = [
    "PAPER",
    "Params",
    "figure1_set1",
    "figure2_draws",
    "figure2_profiles",
    "load_data",
    "local_optima",
    "nerv_choices",
    "params",
    "table1_rankings",
    "table1_sensitivity",
    "table2_usps",
]
