"""Cross-paper benchmark: the ordinal league table, every map scored by ``R_NX``, and
relevance against importance (protocol: :mod:`.protocol`; figures: :mod:`.plots`).

The notebook ``notebooks/cross_paper.ipynb`` calls, in order: :func:`params`,
:func:`load_data`, :func:`league_artefacts`, :func:`maps_of`, :func:`map_artefacts`
and :func:`agreement_artefacts`.
"""

from .protocol import (
    BUILDS_ON,
    LOADERS,
    PAPER,
    Params,
    agreement_artefacts,
    league_artefacts,
    load_data,
    map_artefacts,
    maps_of,
    params,
)

__all__ = [
    "BUILDS_ON",
    "LOADERS",
    "PAPER",
    "Params",
    "agreement_artefacts",
    "league_artefacts",
    "load_data",
    "map_artefacts",
    "maps_of",
    "params",
]
