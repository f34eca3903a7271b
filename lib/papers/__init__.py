"""Protocols of the compendium's papers: one subpackage per paper.

Every paper's package ``papers.<paper>`` follows one contract
(``CONTRIBUTING.md``; checked for every entry of :data:`PAPERS` by
``tests/integration/test_notebooks.py``):

* ``PAPER``, the folder name under ``data/published/``, ``figures/`` and ``notebooks/``;
* ``params(quick=False, **overrides)`` returning a frozen dataclass with every
  setting of a full or a quick run, decided in that one place;
* pure step functions that take data, the transcribed tables
  (:func:`compendium.published.load_published`) and the parameters, and
  return :class:`compendium.reporting.Artefacts` (tables, figures and
  reproduction rows) -- no hidden file reads, no plotting in the notebook;
* ``plots``, the module holding the paper's figure functions.
"""

from compendium.paths import paper_keys

#: The papers of the compendium, in the order ``make figures`` builds them: the tables of
#: ``data/papers.toml``, the one list of papers.
PAPERS = paper_keys()
