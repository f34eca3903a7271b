"""PAPER_TITLE: protocol (:mod:`.protocol`) and figures (:mod:`.plots`).

The notebook ``notebooks/PAPER_NAME.ipynb`` calls, in order: :func:`params`,
:func:`load_data` and :func:`example_artefacts`.
"""

from .protocol import PAPER, Params, example_artefacts, load_data, params

__all__ = ["PAPER", "Params", "example_artefacts", "load_data", "params"]
