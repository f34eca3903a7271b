"""Shared fixtures and hooks: where the data tests get the registered raw data from.

The source is chosen once per session by :func:`dimred.datasets.choose_data_source`:

1. a mirror: ``DIMRED_DATA_MIRROR``, else ``../shared/data`` beside the checkout;
2. otherwise the canonical URLs of ``data/registry.toml``;
3. in both cases every registered file is probed first (mirror copies are hash-checked,
   URLs asked for one byte, ``DIMRED_DATA_PROBE_TIMEOUT`` seconds each, default 10).
   When some file can be obtained from no source, the tests that need the data are
   skipped with a message naming what was tried; under CI (``CI`` set to anything but
   ``false``/``0``) they fail instead. Datasets marked ``optional`` in the registry
   (AwA2: not mirrored) are probed and reported (``DataSource.has``) but not required:
   their absence neither skips nor fails the data tests.

Under CI a data or notebook test skipped for any other reason fails as well
(:func:`pytest_runtest_makereport`); other skips (e.g. scikit-learn's estimator checks)
stay skips.
"""

import functools
import hashlib
import http.server
import itertools
import os
import sys
import threading
import zipfile
from pathlib import Path

import numpy as np
import pytest

from dimred.datasets import DataSource, Registry, choose_data_source, ci_enabled

#: ``../shared/data`` beside the checkout: the hash-checked mirror of the raw data.
SHARED_DATA = Path(__file__).absolute().parents[2] / "shared" / "data"

#: Fixtures that make the real data available: a test using one is a data test.
DATA_FIXTURES = frozenset({"data_source", "mirrored_data", "quick_run"})

#: The session's data source, once a test asked for it (reported at the end).
_SOURCE = pytest.StashKey[DataSource]()


def probe_timeout(environ=os.environ) -> float:
    """Seconds to wait for each canonical URL when probing (``DIMRED_DATA_PROBE_TIMEOUT``)."""
    return float(environ.get("DIMRED_DATA_PROBE_TIMEOUT") or 10)


def require(source: DataSource) -> DataSource:
    """Return ``source`` if its data is available, else skip, or fail under CI."""
    details = " (details: 'data source' at the end of the report)"
    if source.action == "skip":
        pytest.skip(source.summary() + details)
    if source.action == "fail":
        pytest.fail(source.summary() + details, pytrace=False)
    return source


def skip_fails_under_ci(item: pytest.Item) -> bool:
    """True for a data test (it uses a data fixture) or a notebook test."""
    return bool(DATA_FIXTURES.intersection(getattr(item, "fixturenames", ()))) or (
        item.get_closest_marker("notebook") is not None
    )


@pytest.fixture(scope="session")
def data_source(request) -> DataSource:
    """Where this session's data comes from (mirror or canonical URLs), probed once."""
    source = choose_data_source(os.environ, SHARED_DATA, timeout=probe_timeout())
    request.config.stash[_SOURCE] = source
    return require(source)


@pytest.fixture(scope="module")
def mirrored_data(data_source, tmp_path_factory):
    """Make the registered data obtainable, from a cache of the tests' own (per module).

    With a mirror: ``DIMRED_DATA_MIRROR`` names it and ``DIMRED_DATA_CACHE`` is a fresh
    folder for each test module. Without one: ``DIMRED_DATA_MIRROR`` is unset and the
    files are downloaded into one fresh cache for the whole session, so that each is
    downloaded once. Yields the :class:`~dimred.datasets.DataSource`.
    """
    with pytest.MonkeyPatch.context() as mp:
        if data_source.mirror is not None:
            mp.setenv("DIMRED_DATA_MIRROR", str(data_source.mirror))
            mp.setenv("DIMRED_DATA_CACHE", str(tmp_path_factory.mktemp("data-cache")))
        else:
            downloads = tmp_path_factory.getbasetemp() / "data-downloads"
            downloads.mkdir(exist_ok=True)
            mp.delenv("DIMRED_DATA_MIRROR", raising=False)
            mp.setenv("DIMRED_DATA_CACHE", str(downloads))
        yield data_source


@pytest.fixture(scope="session")
def quick_run(data_source, tmp_path_factory):
    """Run a paper's notebook in quick mode once per session and number of workers
    (``n_jobs``; None: the notebook's default, every core); return (figures folder,
    executed notebook). The data come as :func:`mirrored_data` gives them, from a cache
    of the notebooks' own."""
    from compendium.notebooks import execute

    runs = {}
    cache = tmp_path_factory.mktemp("notebook-data-cache")

    def run(paper, n_jobs=None):
        if (paper, n_jobs) not in runs:
            out = tmp_path_factory.mktemp(paper)
            parameters = {} if n_jobs is None else {"n_jobs": n_jobs}
            with pytest.MonkeyPatch.context() as mp:
                if data_source.mirror is not None:
                    mp.setenv("DIMRED_DATA_MIRROR", str(data_source.mirror))
                else:
                    mp.delenv("DIMRED_DATA_MIRROR", raising=False)
                mp.setenv("DIMRED_DATA_CACHE", str(cache))
                executed = out / "executed.ipynb"
                notebook = execute(paper, out / "figures", executed, True, parameters)
            runs[paper, n_jobs] = (out / "figures", notebook)
        return runs[paper, n_jobs]

    return run


def pytest_collection_modifyitems(config, items):
    """A test driving the browser (the ``browser`` fixture) is marked ``browser``."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """Under CI, a skipped data or notebook test is reported as a failure."""
    report = yield
    if (
        report.skipped
        and not hasattr(report, "wasxfail")
        and ci_enabled()
        and skip_fails_under_ci(item)
    ):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        report.longrepr = f"CI is set: data and notebook tests must run, not skip: {reason}"
    return report


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """Say why no source could give the data (and, with ``-v``, where it came from)."""
    source = config.stash.get(_SOURCE, None)
    if source is not None and (not source.available or config.get_verbosity() > 0):
        terminalreporter.write_sep("-", "data source")
        terminalreporter.write_line(source.describe())


# --------------------------------------------------------------------- loopback server
class _Handler(http.server.SimpleHTTPRequestHandler):
    """Static files, quiet, recording every requested path."""

    def log_message(self, *args):
        pass

    def do_GET(self):
        self.server.requests.append(self.path)
        super().do_GET()


@pytest.fixture
def server(tmp_path, monkeypatch):
    """HTTP server on 127.0.0.1 serving ``root``; empty cache, no mirror, no proxy."""
    root = tmp_path / "www"
    root.mkdir()
    for var in ("http_proxy", "https_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")
    monkeypatch.setenv("DIMRED_DATA_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("DIMRED_DATA_MIRROR", raising=False)
    handler = functools.partial(_Handler, directory=str(root))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    httpd.requests = []
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    httpd.root = root
    httpd.url = f"http://127.0.0.1:{httpd.server_address[1]}"

    def stop():
        """Shut the server down: its URL then refuses connections."""
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)

    httpd.stop = stop
    try:
        yield httpd
    finally:
        stop()


def sha(data: bytes) -> str:
    """sha256 hex digest of ``data``."""
    return hashlib.sha256(data).hexdigest()


def publish_toy(server, files):
    """Serve a synthetic dataset ``toy`` and return its registry.

    ``files`` maps a registry path to ``(bytes, member)``: ``member`` ``None`` serves
    the file directly as ``<url>/<name>``; otherwise it is that member of
    ``<url>/pack.zip`` (an archive with no recorded hash).
    """
    entries = []
    with zipfile.ZipFile(server.root / "pack.zip", "w") as zf:
        for path, (data, member) in files.items():
            entry = {"path": path, "sha256": sha(data)}
            if member is None:
                (server.root / Path(path).name).write_bytes(data)
                entry["url"] = f"{server.url}/{Path(path).name}"
            else:
                zf.writestr(member, data)
                entry |= {"archive": "pack", "member": member}
            entries.append(entry)
    toy = {"title": "Toy", "citation": "Nobody, 2024.", "license": "CC0",
           "homepage": "http://127.0.0.1/", "files": entries,
           "archives": {"pack": {"url": f"{server.url}/pack.zip"}}}  # fmt: skip
    return Registry.from_dict({"datasets": {"toy": toy}})


@pytest.fixture
def conftest():
    """This module, as pytest loaded it (for the tests of its hooks and helpers)."""
    return sys.modules[__name__]


def factorial_design(levels):
    """Standardised one-hot columns of the full factorial design on ``levels`` (car:
    4, 4, 4, 3, 3, 3): every combination once, so the covariance eigenvalues repeat."""
    rows = np.array(list(itertools.product(*[range(k) for k in levels])))
    onehot = np.hstack([np.eye(k)[rows[:, j]] for j, k in enumerate(levels)])
    return (onehot - onehot.mean(axis=0)) / onehot.std(axis=0)
