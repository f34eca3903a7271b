"""Where each registered file can come from, without fetching it.

:func:`probe_sources` tries the sources in the order of
:func:`~dimred.datasets.fetching.fetch` (cache, mirror, a local copy of the archive,
the canonical URL) and reports the first that can give each file as a
:class:`SourceProbe`; the URLs are asked for their first byte, with a short timeout
(:data:`PROBE_TIMEOUT`).
"""

import os
import zipfile
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import requests

from .fetching import _LABEL, _archive_paths, _expected, _open_member, _root_cause
from .locations import cache_dir, mirror_dir
from .registry import DataFile, Registry, load_registry

__all__ = ["PROBE_TIMEOUT", "SourceProbe", "probe_sources"]

#: Seconds a probe (:func:`probe_sources`) waits for a URL's first byte, by default.
PROBE_TIMEOUT = 5.0


@dataclass(frozen=True)
class SourceProbe:
    """Where one registered file can be obtained from (see :func:`probe_sources`).

    Attributes
    ----------
    name : str
        ``<dataset>/<path>`` of the file.
    source : str or None
        The first source that can give the file (``"cache <path>"``,
        ``"mirror <path>"`` or ``"download <url>"``), ``None`` when none can.
    attempts : tuple of tuple of str
        ``(source, what went wrong)`` for every source tried before ``source``.
    """

    name: str
    source: str | None
    attempts: tuple[tuple[str, str], ...] = ()

    @property
    def ok(self) -> bool:
        """True when some source can give the file."""
        return self.source is not None


def probe_sources(
    datasets: Iterable[str] | None = None,
    registry: Registry | None = None,
    *,
    cache: bool | str | os.PathLike[str] = True,
    mirror: bool | str | os.PathLike[str] | None = True,
    timeout: float = PROBE_TIMEOUT,
    online: bool = True,
) -> dict[str, SourceProbe]:
    """Find, for every file, a source that can give it, without fetching anything.

    The sources are tried in the order of :func:`~dimred.datasets.fetching.fetch`: a
    cached copy, a mirror copy and a member of a local copy of its archive
    (:func:`~dimred.datasets.fetching.local_archives`) count when their hash matches (a
    trust-on-first-use file: when it matches the record or there is none); a canonical
    URL counts when it answers a request for its first byte with a success status within
    ``timeout`` seconds (an archive member counts when its archive's URL does; each URL
    is asked once, and the URLs are asked in parallel). Nothing is written or removed.

    Parameters
    ----------
    datasets : iterable of str, optional
        Dataset names; default every dataset of the registry.
    registry : Registry, optional
        Default: :func:`load_registry`.
    cache : bool or path-like
        ``True``: :func:`~dimred.datasets.locations.cache_dir`; a path: that folder;
        ``False``: ignore cached copies (and the archives in the cache).
    mirror : bool, path-like or None
        ``True``: ``DIMRED_DATA_MIRROR`` (if set); a path: that folder;
        ``False`` or ``None``: no mirror.
    timeout : float
        Seconds to wait for each URL (connection and first response).
    online : bool
        ``False``: ask no URL; a file without a cached or mirrored copy then has no
        source (its attempts say ``"not asked (offline probe)"``).

    Returns
    -------
    dict
        ``{"<dataset>/<path>": SourceProbe}`` in registry order.

    Examples
    --------
    Offline, with an empty cache and no mirror, no source can give the files:

    >>> import tempfile
    >>> from dimred.datasets import probe_sources
    >>> with tempfile.TemporaryDirectory() as empty:
    ...     probes = probe_sources(["statlog-heart"], cache=empty, mirror=False, online=False)
    >>> list(probes)
    ['statlog-heart/heart.dat', 'statlog-heart/heart.doc']
    >>> [probe.ok for probe in probes.values()]
    [False, False]
    >>> probes["statlog-heart/heart.dat"].attempts[-1][1]
    'not asked (offline probe)'
    """
    registry = registry or load_registry()
    cache_root = cache_dir() if cache is True else (Path(cache) if cache else None)
    mirror_root = mirror_dir() if mirror is True else (Path(mirror) if mirror else None)
    local: dict[str, tuple[DataFile, str | None, list[tuple[str, str]]]] = {}
    for entry in registry.files(datasets):
        attempts: list[tuple[str, str]] = []
        found = _probe_local(entry, cache_root, mirror_root, attempts)
        local[entry.name] = (entry, found, attempts)
    urls = sorted({_url_of(entry) for entry, found, _ in local.values() if found is None})
    urls = urls if online else []
    answers: dict[str, str | None] = {}
    if urls:
        with ThreadPoolExecutor(max_workers=min(32, len(urls))) as pool:
            answers = dict(zip(urls, pool.map(lambda u: _probe_url(u, timeout), urls), strict=True))
    probes = {}
    for name, (entry, found, attempts) in local.items():
        if found is None:
            url = _url_of(entry)
            if not online:
                attempts.append((f"download {url}", "not asked (offline probe)"))
            elif answers[url] is None:
                found = f"download {url}"
            else:
                attempts.append((f"download {url}", answers[url]))
        probes[name] = SourceProbe(name, found, tuple(attempts))
    return probes


def _probe_local(entry: DataFile, cache: Path | None, mirror: Path | None, attempts) -> str | None:
    """The first local source of ``entry`` whose copy verifies, recording the others."""
    expected = _expected(entry, cache)
    candidates = [
        (f"{kind} {root / entry.dataset / entry.path}", root / entry.dataset / entry.path, None)
        for kind, root in (("cache", cache), ("mirror", mirror))
        if root is not None
    ]
    candidates += [
        (f"member {entry.member} of {archive}", archive, entry.member)
        for archive in _archive_paths(entry, cache, mirror)
    ]
    for where, path, member in candidates:
        if not path.is_file():
            attempts.append((where, "not found"))
            continue
        try:
            actual = _member_digest(entry, path, member) if member else entry.digest(path)
        except (KeyError, zipfile.BadZipFile) as exc:
            attempts.append((where, f"cannot extract: {exc}"))
            continue
        if expected is None or actual == expected:
            return where
        attempts.append((where, f"{_LABEL[entry.verification]} {actual}"))
    return None


def _member_digest(entry: DataFile, archive: Path, member: str) -> str:
    """:meth:`DataFile.digest` of ``member`` of the zip ``archive``, read in place."""
    with _open_member(archive, member) as fh:
        return entry.digest_of(fh)


def _url_of(entry: DataFile) -> str:
    """The URL a download of ``entry`` starts from (its archive's, for a member)."""
    return entry.archive.url if entry.archive is not None else str(entry.url)


def _probe_url(url: str, timeout: float) -> str | None:
    """``None`` when ``url`` answers a request for its first byte, else what went wrong.

    The request goes through :mod:`requests`, like :mod:`pooch`'s downloads (same
    proxies, same certificates); the body is not read.
    """
    try:
        with requests.get(
            url, headers={"Range": "bytes=0-0"}, stream=True, timeout=timeout
        ) as response:
            if response.status_code >= 400:
                return f"HTTP {response.status_code} {response.reason}"
    except requests.RequestException as exc:
        return f"unreachable ({_root_cause(exc)})"
    return None
