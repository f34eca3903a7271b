"""Where a session gets the raw data from: a mirror, the canonical URLs, or nowhere.

:func:`choose_data_source` decides once, for a whole session (the test suite's
``data_source`` fixture uses it):

1. a mirror, when ``DIMRED_DATA_MIRROR`` names a folder, else when the shared folder
   beside the checkout (``../shared/data``) exists; files missing from it still come
   from their canonical URLs, as :func:`~dimred.datasets.fetch` does;
2. otherwise the canonical URLs of the registry;
3. in both cases every file needed is probed first (:func:`probe_sources`: a hash check
   of the mirror copy, a one-byte request with a short timeout to the URL). When some
   file can be obtained from no source, the data is *unavailable*: the tests that need
   it are skipped, except under CI (:func:`ci_enabled`), where that is a failure.

"Needed" means, by default, every dataset not marked ``optional`` in the registry. An
optional dataset (AwA2: not mirrored, a 301 MB download) is probed too, but only in the
mirror (its URL is not asked: no network traffic and no timeout for a dataset nobody
asked for), and reported (:attr:`DataSource.optional_probes`, :meth:`DataSource.has`);
its absence does not make the data unavailable. Naming it in ``datasets`` makes it
needed: it is then probed like any other, URL included, and required.

:func:`explain_missing` is what a user reads when files cannot be obtained (``python -m
dimred.datasets fetch``, ``make <paper>``): what is missing, where it was looked for,
and the two ways to get it.
"""

import os
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from urllib.parse import urlparse

from .locations import cache_dir, mirror_dir
from .probing import SourceProbe, probe_sources
from .registry import Registry, load_registry

__all__ = ["DataSource", "choose_data_source", "ci_enabled", "explain_missing"]

#: Values of ``CI`` that do not mean "running under CI" (compared case-insensitively).
CI_OFF = frozenset({"", "false", "0"})


def ci_enabled(environ: Mapping[str, str] | None = None) -> bool:
    """True when ``CI`` is set to anything but an empty string, ``false`` or ``0``.

    Examples
    --------
    >>> from dimred.datasets import ci_enabled
    >>> ci_enabled({"CI": "true"}), ci_enabled({"CI": "false"}), ci_enabled({})
    (True, False, False)
    """
    value = (os.environ if environ is None else environ).get("CI", "")
    return value.strip().lower() not in CI_OFF


@dataclass(frozen=True)
class DataSource:
    """The outcome of :func:`choose_data_source`.

    Attributes
    ----------
    kind : {"mirror", "canonical", "unavailable"}
        ``"mirror"``: use ``mirror`` (canonical URLs for any file it lacks);
        ``"canonical"``: no mirror, download from the registry's URLs;
        ``"unavailable"``: some file needed can be obtained from no source.
    mirror : pathlib.Path or None
        The mirror folder found (also when ``kind`` is ``"unavailable"``).
    tried : tuple of str
        What was looked at, in order, for messages.
    probes : mapping
        ``{"<dataset>/<path>": SourceProbe}`` for every file needed.
    ci : bool
        Whether the decision was taken under CI (see :func:`ci_enabled`).
    optional_probes : mapping
        The probes of the files of the optional datasets that were not asked for
        (mirror only, no URL asked): reported, never required.
    optional_reasons : mapping
        ``{dataset: optional_reason}`` of those optional datasets (from the registry).
    """

    kind: str
    mirror: Path | None
    tried: tuple[str, ...]
    probes: Mapping[str, SourceProbe]
    ci: bool = False
    optional_probes: Mapping[str, SourceProbe] = field(default_factory=lambda: MappingProxyType({}))
    optional_reasons: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def available(self) -> bool:
        """True when every file needed can be obtained."""
        return self.kind != "unavailable"

    @property
    def missing(self) -> list[SourceProbe]:
        """The probes of the files no source can give."""
        return [probe for probe in self.probes.values() if not probe.ok]

    @property
    def optional_missing(self) -> list[SourceProbe]:
        """The probes of the optional files no source can give (not a failure)."""
        return [probe for probe in self.optional_probes.values() if not probe.ok]

    def has(self, dataset: str) -> bool:
        """True when every file of ``dataset`` (needed or optional) has a source.

        For an optional dataset that was not asked for, only the mirror counts.

        Raises
        ------
        ValueError
            When no file of ``dataset`` was probed.
        """
        prefix = f"{dataset}/"
        found = [
            probe
            for probes in (self.probes, self.optional_probes)
            for name, probe in probes.items()
            if name.startswith(prefix)
        ]
        if not found:
            raise ValueError(f"dataset {dataset!r} was not probed")
        return all(probe.ok for probe in found)

    def _optional_note(self) -> str:
        """``; optional ...``: what became of the optional datasets, or ``""``."""
        if not self.optional_probes:
            return ""
        names = dict.fromkeys(name.split("/", 1)[0] for name in self.optional_probes)
        absent = [name for name in names if not self.has(name)]
        present = [name for name in names if name not in absent]
        parts = [f"{', '.join(absent)} not in the mirror (URL not asked)"] if absent else []
        parts += [f"{', '.join(present)} in the mirror"] if present else []
        return f"; optional, not required: {'; '.join(parts)}"

    @property
    def action(self) -> str:
        """``"use"`` the data, ``"skip"`` the tests needing it, or ``"fail"`` them (CI)."""
        if self.available:
            return "use"
        return "fail" if self.ci else "skip"

    def summary(self) -> str:
        """One line: where the data comes from, or what was tried in vain."""
        if self.available:
            downloads = sum(probe.source.startswith("download") for probe in self.probes.values())
            if self.kind == "canonical":
                line = f"raw data from the canonical URLs ({len(self.probes)} files)"
            else:
                line = (
                    f"raw data from mirror {self.mirror} ({len(self.probes)} files, "
                    f"{downloads} of them from the canonical URLs)"
                )
            return line + self._optional_note()
        failures = {}
        for probe in self.missing:
            for where, result in probe.attempts:
                if where.startswith("download "):
                    host = urlparse(where.removeprefix("download ")).netloc
                    failures.setdefault(host, result.split(" (")[0])
        hosts = ", ".join(f"{host} {result}" for host, result in sorted(failures.items()))
        line = (
            f"no source for {len(self.missing)} of the {len(self.probes)} registered data "
            f"files; tried {', '.join(self.tried)}" + (f"; failed: {hosts}" if hosts else "")
        ) + self._optional_note()
        return ("CI is set: the data tests must run, not skip. " if self.ci else "") + line

    def describe(self) -> str:
        """:meth:`summary`, then what went wrong for each file without a source."""
        lines = [self.summary()]
        for probe in self.missing:
            failures = "; ".join(f"{source}: {result}" for source, result in probe.attempts)
            lines.append(f"  {probe.name}: {failures}")
        absent: dict[str, list[str]] = {}
        for probe in self.optional_missing:
            dataset, path = probe.name.split("/", 1)
            absent.setdefault(dataset, []).append(path)
        for dataset, paths in absent.items():
            reason = self.optional_reasons.get(dataset, "")
            lines.append(
                f"  optional {dataset}, not required ({reason}): "
                f"no copy in the mirror of {', '.join(paths)}; its URL was not asked"
            )
        if not self.available:
            lines.append(
                "Point DIMRED_DATA_MIRROR at a copy laid out as <dataset>/<file> "
                "(e.g. ../shared/data) or allow downloads from the canonical URLs."
            )
        return "\n".join(lines)


def choose_data_source(
    environ: Mapping[str, str] | None = None,
    shared: str | os.PathLike[str] | None = None,
    *,
    datasets: Iterable[str] | None = None,
    registry: Registry | None = None,
    timeout: float = 10.0,
) -> DataSource:
    """Decide where the data of a session comes from, probing that it can be obtained.

    Parameters
    ----------
    environ : mapping, optional
        The environment (default :data:`os.environ`): ``DIMRED_DATA_MIRROR`` and ``CI``
        are read from it. Cached copies are not considered: the session is expected to
        start from an empty cache.
    shared : path-like, optional
        The shared mirror beside the checkout, used when ``DIMRED_DATA_MIRROR`` does
        not name a folder.
    datasets : iterable of str, optional
        The datasets needed; default every dataset not marked ``optional`` in the
        registry (the optional ones are then probed and reported, not required).
    registry : Registry, optional
        Default: :func:`~dimred.datasets.load_registry`.
    timeout : float
        Seconds to wait for each canonical URL.

    Returns
    -------
    DataSource

    Examples
    --------
    Not run by the doctests: needs a mirror of the data (or the network).

    >>> from dimred.datasets import choose_data_source  # doctest: +SKIP
    >>> environ = {"DIMRED_DATA_MIRROR": "../shared/data"}  # doctest: +SKIP
    >>> source = choose_data_source(environ, datasets=["statlog-heart"])  # doctest: +SKIP
    >>> source.kind, source.available  # doctest: +SKIP
    ('mirror', True)
    """
    environ = os.environ if environ is None else environ
    tried: list[str] = []
    mirror = None
    value = environ.get("DIMRED_DATA_MIRROR", "")
    if not value:
        tried.append("DIMRED_DATA_MIRROR (not set)")
    elif Path(value).is_dir():
        mirror = Path(value)
        tried.append(f"mirror {mirror} (DIMRED_DATA_MIRROR)")
    else:
        tried.append(f"DIMRED_DATA_MIRROR={value} (not a folder)")
    if mirror is None and shared is not None:
        if Path(shared).is_dir():
            mirror = Path(shared)
            tried.append(f"mirror {mirror} (beside the checkout)")
        else:
            tried.append(f"mirror {shared} (absent)")
    registry = registry or load_registry()
    if isinstance(datasets, str):
        datasets = [datasets]
    needed = registry.required_datasets() if datasets is None else list(datasets)
    extra = [] if datasets is not None else registry.optional_datasets()
    probes = probe_sources(needed, registry, cache=False, mirror=mirror, timeout=timeout)
    optional = MappingProxyType(
        probe_sources(extra, registry, cache=False, mirror=mirror, online=False)
    )
    reasons = MappingProxyType({name: registry[name].optional_reason for name in extra})
    asked = {
        source
        for probe in probes.values()
        for source in [probe.source or "", *(where for where, _ in probe.attempts)]
        if source.startswith("download")
    }
    if asked:
        tried.append(f"the canonical URLs ({len(asked)} asked, {timeout:g} s timeout)")
    if not all(probe.ok for probe in probes.values()):
        kind = "unavailable"
    else:
        kind = "mirror" if mirror is not None else "canonical"
    return DataSource(kind, mirror, tuple(tried), probes, ci_enabled(environ), optional, reasons)


#: How to get missing data: the two ways (``{hosts}``: the canonical hosts asked).
TWO_WAYS = """\
Two ways to get them:
  1. From a copy on disk: set DIMRED_DATA_MIRROR to a folder laid out as <dataset>/<file>
     (like the shared ../shared/data, used by default when it exists beside the checkout),
     or copy in files you have: python -m dimred.datasets add <dataset> PATH ...
  2. From the network: allow access to {hosts};
     `make data` (python -m dimred.datasets fetch) then fetches and verifies every dataset."""

_HASH_RESULT = re.compile(r"^((?:content )?sha256) [0-9a-f]{64}")


def explain_missing(missing: Sequence[SourceProbe], headline: str) -> str:
    """The message for files no source can give: what, where it was looked, what to do.

    Parameters
    ----------
    missing : sequence of SourceProbe
        The probes (:func:`~dimred.datasets.probe_sources`) of the files no source gives.
    headline : str
        The first line, in the caller's terms (e.g. ``"bvp: not started, ..."``).

    Returns
    -------
    str
        ``headline``; one line per dataset with its missing files, then what each
        source said (the cache, the mirror or its absence, local archives, each host
        asked); then the two ways to get the files.

    Examples
    --------
    The files no source gives offline (the example of
    :func:`~dimred.datasets.probe_sources`):

    >>> import tempfile
    >>> from dimred.datasets import explain_missing, probe_sources
    >>> with tempfile.TemporaryDirectory() as empty:
    ...     probes = probe_sources(["statlog-heart"], cache=empty, mirror=False, online=False)
    >>> message = explain_missing(list(probes.values()), "statlog-heart: no copy.")
    >>> message.splitlines()[0]
    'statlog-heart: no copy.'
    >>> "statlog-heart: 2 files missing" in message
    True
    """
    mirror = mirror_dir()
    where = f"mirror {mirror}" if mirror else "no mirror (DIMRED_DATA_MIRROR unset or empty)"
    lines = [headline, f"  Looked in: the cache {cache_dir()}; {where}; the canonical URLs."]
    by_dataset: dict[str, list[SourceProbe]] = {}
    for probe in missing:
        by_dataset.setdefault(probe.name.split("/", 1)[0], []).append(probe)
    hosts = []
    for dataset, probes in by_dataset.items():
        lines.append(f"  {dataset}: {len(probes)} file{'s' * (len(probes) > 1)} missing")
        grouped = _source_results(probes)
        for source, results in grouped.items():
            shown = [
                result if n == len(probes) else f"{result} ({n} of {len(probes)})"
                for result, n in Counter(results).items()
            ]
            lines.append(f"    {source}: {'; '.join(shown)}")
        hosts += [key.removeprefix("download from ") for key in grouped if key.startswith("down")]
    urls = ", ".join(dict.fromkeys(hosts)) or "the canonical URLs"
    return "\n".join([*lines, TWO_WAYS.format(hosts=urls)])


def _source_results(probes: Sequence[SourceProbe]) -> dict[str, list[str]]:
    """``{source: [result per file]}``: the probes' attempts, grouped by source.

    A source is the cache, the mirror, an archive on disk or a download host; results
    are shortened to what they have in common (a wrong hash is ``wrong sha256``).
    """
    grouped: dict[str, list[str]] = {}
    for probe in probes:
        for where, result in probe.attempts:
            kind, _, rest = where.partition(" ")
            if kind == "download":
                source = f"download from {urlparse(rest).netloc}"
            elif kind == "member":
                source = f"archive {rest.split(' of ', 1)[1]}"
            else:
                source = kind
            grouped.setdefault(source, []).append(_HASH_RESULT.sub(r"wrong \1", result))
    return grouped
