"""Data layer: the dataset registry, verified fetching, the loaders and the synthetic sets.

Every raw file is listed in ``data/registry.toml`` with its sha256 and fetched by
:func:`fetch` (cache, then mirror, then canonical URL; see :mod:`.fetching`);
:func:`choose_data_source` decides where a session (the test suite) gets it from.
Loaders return :class:`sklearn.utils.Bunch` objects; the synthetic generators are
seeded. ``python -m dimred.datasets {fetch,verify,list,add}`` is the command line;
:func:`add_copies` (``add``) copies files a user already has into the cache, verified.
"""

from ._cli import main
from .adding import Added, add_copies
from .awa2 import AWA2_SHAPE, load_awa2
from .awa2_like import awa2_like
from .fashion import FASHION_MNIST_CLASSES, load_fashion_mnist
from .fetching import fetch, fetch_all, verify_cache
from .ordinal import (
    MOVIELENS_GENRES,
    ORCA_DATASETS,
    ORCA_HOLDOUT_DATASETS,
    ORCA_HOLDOUTS,
    load_movielens,
    load_orca,
    load_orca_holdouts,
    load_umist,
    load_usps,
)
from .probing import SourceProbe, probe_sources
from .registry import (
    REGISTRY_PATH,
    Archive,
    DataDownloadError,
    DataError,
    DataFile,
    DataIntegrityError,
    DataIntegrityWarning,
    Dataset,
    Registry,
    content_sha256,
    file_sha256,
    load_registry,
)
from .sources import DataSource, choose_data_source, ci_enabled, explain_missing
from .synthetic import (
    ordinal_gaussians,
    ordinal_swiss_rolls,
    relevance_set1,
    relevance_set2,
    relevance_set3,
)
from .tabular import (
    AUSTRALIAN_CATEGORICAL,
    load_bank_marketing,
    load_statlog_australian,
    load_statlog_heart,
)

__all__ = [
    "AUSTRALIAN_CATEGORICAL",
    "AWA2_SHAPE",
    "FASHION_MNIST_CLASSES",
    "MOVIELENS_GENRES",
    "ORCA_DATASETS",
    "ORCA_HOLDOUT_DATASETS",
    "ORCA_HOLDOUTS",
    "REGISTRY_PATH",
    "Added",
    "Archive",
    "DataDownloadError",
    "DataError",
    "DataFile",
    "DataIntegrityError",
    "DataIntegrityWarning",
    "DataSource",
    "Dataset",
    "Registry",
    "SourceProbe",
    "add_copies",
    "awa2_like",
    "choose_data_source",
    "ci_enabled",
    "content_sha256",
    "explain_missing",
    "fetch",
    "fetch_all",
    "file_sha256",
    "load_awa2",
    "load_bank_marketing",
    "load_fashion_mnist",
    "load_movielens",
    "load_orca",
    "load_orca_holdouts",
    "load_registry",
    "load_statlog_australian",
    "load_statlog_heart",
    "load_umist",
    "load_usps",
    "main",
    "ordinal_gaussians",
    "ordinal_swiss_rolls",
    "relevance_set1",
    "relevance_set2",
    "relevance_set3",
    "probe_sources",
    "verify_cache",
]
