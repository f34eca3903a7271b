"""Protocols of the compendium's papers: one subpackage per paper.

Every paper's package ``dimred.experiments.<paper>`` follows one contract
(``CONTRIBUTING.md``; checked for every entry of :data:`PAPERS` by
``tests/test_notebooks.py``):

* ``PAPER``, the folder name under ``data/published/``, ``figures/`` and ``notebooks/``;
* ``params(quick=False, **overrides)`` returning a frozen dataclass with every
  setting of a full or a quick run, decided in that one place;
* pure step functions that take data, the transcribed tables
  (:func:`dimred.compendium.published.load_published`) and the parameters, and
  return :class:`dimred.compendium.reporting.Artefacts` (tables, figures and
  reproduction rows) -- no hidden file reads, no plotting in the notebook;
* ``plots``, the module holding the paper's figure functions.
"""

#: The papers of the compendium, in the order ``make figures`` builds them.
PAPERS = (
    "metrical_importance",
    "bvp",
    "orml",
    "relevance_learning",
    "awa2_dr_survey",
    "cross_paper",
)
