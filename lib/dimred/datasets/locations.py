"""Where the data layer keeps things: the registry, the cache and the mirror.

A leaf of the library, read from environment variables only, so that ``dimred.datasets``
knows nothing of the compendium around it:

- ``DIMRED_DATA_CACHE`` names the cache of downloaded raw data. Its default is
  ``<checkout>/data/raw`` when the library runs from the compendium's checkout (an
  editable install), otherwise the user's cache folder (``pooch.os_cache("dimred")``).
- ``DIMRED_DATA_MIRROR`` names a local mirror tried before the network.
- ``DIMRED_ROOT`` names the checkout, when it is not the one this file lies in.
"""

import os
from pathlib import Path

import pooch

__all__ = [
    "REGISTRY_PATH",
    "SHARED_MIRROR",
    "adopt_shared_mirror",
    "cache_dir",
    "checkout_root",
    "mirror_dir",
]


def checkout_root() -> Path | None:
    """The compendium's checkout this library runs from, or ``None`` when installed.

    ``DIMRED_ROOT`` overrides it; otherwise it is the root of the tree this file lies in
    (``<root>/lib/dimred/datasets/``) when that root holds ``data/registry.toml``.
    """
    if "DIMRED_ROOT" in os.environ:
        return Path(os.environ["DIMRED_ROOT"])
    root = Path(__file__).resolve().parents[3]
    return root if (root / "data" / "registry.toml").is_file() else None


_CHECKOUT = checkout_root()

#: The registry of datasets: the checkout's ``data/registry.toml``, or the copy shipped
#: with an installed library.
REGISTRY_PATH = (
    _CHECKOUT / "data" / "registry.toml"
    if _CHECKOUT is not None
    else Path(__file__).resolve().parent / "registry.toml"
)

#: The shared mirror beside the checkout (``<checkout>/../shared/data``), used when
#: ``DIMRED_DATA_MIRROR`` is unset; ``None`` outside a checkout.
SHARED_MIRROR = _CHECKOUT.parent / "shared" / "data" if _CHECKOUT is not None else None


def cache_dir() -> Path:
    """Folder where downloaded raw data is cached.

    ``DIMRED_DATA_CACHE`` overrides the default: ``<checkout>/data/raw`` (git-ignored) in
    the compendium's checkout, the user's cache folder otherwise.
    """
    if os.environ.get("DIMRED_DATA_CACHE"):
        return Path(os.environ["DIMRED_DATA_CACHE"])
    root = checkout_root()
    return root / "data" / "raw" if root is not None else Path(pooch.os_cache("dimred"))


def mirror_dir(environ=None) -> Path | None:
    """Local mirror tried before the network, or ``None``.

    ``DIMRED_DATA_MIRROR`` (read from ``environ``, default :data:`os.environ`) names a
    folder laid out as ``<dataset>/<file>`` (the layout of ``../shared/data``). Files
    from it are hash-checked like downloads.
    """
    value = (os.environ if environ is None else environ).get("DIMRED_DATA_MIRROR", "")
    return Path(value) if value else None


def adopt_shared_mirror(environ=None) -> Path | None:
    """Use ``<checkout>/../shared/data`` as the mirror when ``DIMRED_DATA_MIRROR`` is unset.

    The entry points (``python -m dimred.datasets``, ``python -m compendium.notebooks``)
    call this first, so that they find the data the Makefile finds; the kernel of a
    notebook inherits the variable. A variable set to an empty string is left alone: it
    means "no mirror". Outside a checkout nothing is adopted.

    Parameters
    ----------
    environ : mutable mapping, optional
        Default :data:`os.environ`, which is updated.

    Returns
    -------
    pathlib.Path or None
        The mirror now in effect.
    """
    environ = os.environ if environ is None else environ
    shared = SHARED_MIRROR
    if "DIMRED_DATA_MIRROR" not in environ and shared is not None and shared.is_dir():
        environ["DIMRED_DATA_MIRROR"] = str(shared)
    return mirror_dir(environ)
