"""Relevance learning for dimensionality reduction (Schulz, Gisbrecht & Hammer, ESANN 2014):
its protocol, one module per table or figure group, their computations and figures.

* :mod:`.data` -- the parameters, the data (set1, set2, set3, USPS) and the rows the
  steps share;
* :mod:`.set1` -- Figs. 1 and 2: set1, its t-SNE map and its relevance profiles;
* :mod:`.nerv_fits` -- the NeRV fit: the widths and costs the paper leaves open, and
  its local optima;
* :mod:`.table1` -- Table 1: the feature rankings of set2 and set3, and their
  sensitivity to the generators;
* :mod:`.table2` -- Table 2: 1-NN errors on USPS (with Fisher t-SNE), in the paper's
  reading and without label leakage;
* their computations :mod:`.toy`, :mod:`.usps`, :mod:`.rankings` and figures
  :mod:`.plots`.

The notebook ``notebooks/relevance_learning.ipynb`` calls, in order: :func:`params`,
:func:`load_data`, :func:`figure1_set1`, :func:`figure2_profiles`, :func:`figure2_draws`,
:func:`nerv_choices`,
:func:`table1_rankings`, :func:`table1_sensitivity`, :func:`local_optima` and
:func:`table2_usps`.
"""

from .data import PAPER, Params, load_data, params
from .nerv_fits import local_optima, nerv_choices
from .set1 import figure1_set1, figure2_draws, figure2_profiles
from .table1 import table1_rankings, table1_sensitivity
from .table2 import table2_usps

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
