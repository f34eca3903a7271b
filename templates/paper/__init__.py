"""PAPER_TITLE: settings and data (:mod:`.params`), one module per table or figure
group (:mod:`.table1`) and figures (:mod:`.plots`).

The notebook ``notebooks/PAPER_NAME.ipynb`` calls, in order: :func:`params`,
:func:`load_data` and :func:`example_artefacts`.
"""

from .params import PAPER, Params, load_data, params
from .table1 import example_artefacts

__all__ = ["PAPER", "Params", "example_artefacts", "load_data", "params"]
